"""Duplicate scoring: the same deals at every table, compared between tables by match points.

Used by duplicate events (``bot.discord_ui.duplicate``, ``store.duplicates``). Every table of an
event plays a game with the event's seed, so deal N is dealt identically at every table, seat for
seat (the engine shuffles deal N from ``variant/seed/N`` alone, whatever happened before). A
deal's result at a table is each side's score change in it (the ``changes`` of its
``deal_scored`` report; a deal thrown in and dealt again scores 0 for everyone); results are
compared between tables side by side (side 0 with side 0, and so on, as they held the same
cards): **2 match points for every table beaten, 1 for every tie**. A side's total is also shown
as a percentage of the most it could have had, and the ranking goes by that percentage.

Pure: it reads replays (``bot.history.replay``) and numbers, no store and no Discord.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.history import Replay

WIN_POINTS = 2
TIE_POINTS = 1


@dataclass(frozen=True)
class Board:
    """One deal as one table played it: the hands dealt (per seat) and each side's score change."""

    number: int
    hands: tuple[tuple[str, ...], ...]
    changes: tuple[int, ...]


@dataclass(frozen=True)
class Standing:
    """One side of one table in an event's ranking (``rank`` is shared by ties)."""

    rank: int
    table: int
    side: int
    match_points: int
    top: int  # the most match points this side could have had
    boards: int

    @property
    def percent(self) -> float:
        return round(100.0 * self.match_points / self.top, 1) if self.top else 0.0


def boards_of(replay: Replay, deals: int) -> dict[int, Board]:
    """The event's deals (numbers 1 to ``deals``) that this table finished, by number."""
    sides = len(replay.sides)
    out: dict[int, Board] = {}
    for deal in replay.deals:
        if not 1 <= deal.number <= deals:
            continue
        if deal.summary is not None:
            changes = tuple(int(change) for change in deal.summary["changes"])
        elif deal.ending == "redeal":
            changes = (0,) * sides
        else:
            continue  # the game ended inside this deal without scoring it: nothing to compare
        out[deal.number] = Board(deal.number, deal.hands, changes)
    return out


def differing_deals(tables: Mapping[int, Mapping[int, Board]]) -> list[int]:
    """Deal numbers whose hands were not the same at every table that played them (an event's
    tables must share one seed, variant, player count and options: this finds a table that did not)."""
    numbers = sorted({number for boards in tables.values() for number in boards})
    return [
        number
        for number in numbers
        if len({boards[number].hands for boards in tables.values() if number in boards}) > 1
    ]


def match_points(tables: Mapping[int, Mapping[int, Sequence[int]]], sides: int) -> list[Standing]:
    """The ranking of every (table, side): ``tables`` maps a table to its deals' score changes per
    side (deal number -> changes). A deal counts between the tables that finished it."""
    points = {(table, side): 0 for table in tables for side in range(sides)}
    top = dict.fromkeys(points, 0)
    played = dict.fromkeys(points, 0)
    numbers = sorted({number for deals in tables.values() for number in deals})
    for number in numbers:
        present = [table for table in tables if number in tables[table]]
        for side in range(sides):
            for table in present:
                mine = tables[table][number][side]
                others = [tables[other][number][side] for other in present if other != table]
                points[table, side] += sum(
                    WIN_POINTS if mine > theirs else TIE_POINTS if mine == theirs else 0 for theirs in others
                )
                top[table, side] += WIN_POINTS * len(others)
                played[table, side] += 1
    order = sorted(
        points, key=lambda key: (-(points[key] / top[key] if top[key] else 0.0), -points[key], key)
    )
    standings: list[Standing] = []
    for position, key in enumerate(order, start=1):
        previous = standings[-1] if standings else None
        same = previous is not None and (previous.match_points, previous.top) == (points[key], top[key])
        rank = previous.rank if same and previous is not None else position
        standings.append(Standing(rank, key[0], key[1], points[key], top[key], played[key]))
    return standings
