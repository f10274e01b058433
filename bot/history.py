"""Replays of stored games: every finished deal, trick by trick, rebuilt from seed + action log.

Pure and synchronous (only the engine): ``replay(record)`` runs the game's log through the engine
once and keeps, for each deal that is over, the hands as they were dealt, the bidding, the tricks
in the order they were played and the deal's score. A deal still being played is never part of a
replay, so nothing here can show a hand that is still in play. ``step`` moves through a replay.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.engine import Event, Game, new_game, parse_action


@dataclass(frozen=True)
class TrickPlay:
    """One trick: the ``(seat, card code)`` plays in order and the seat that took it.

    ``winner`` is None only for cards left on the table when the deal ended mid-trick (a declared
    win or a concession).
    """

    number: int
    plays: tuple[tuple[int, str], ...]
    winner: int | None


@dataclass(frozen=True)
class DealReplay:
    """A finished deal: hands as dealt (per seat), bidding, trump, tricks and how it was scored."""

    number: int
    dealer: int | None
    hands: tuple[tuple[str, ...], ...]
    bids: tuple[tuple[int, int | None], ...]
    trump: str | None
    tricks: tuple[TrickPlay, ...]
    summary: dict[str, Any] | None  # the engine's ``deal_scored`` event (without "type"), if scored
    ending: str  # "scored", "redeal" (thrown in and dealt again) or "game over"

    @property
    def pages(self) -> int:
        """Pages of this deal in a replay: the hands as dealt, then one per trick."""
        return 1 + len(self.tricks)


@dataclass(frozen=True)
class Replay:
    """Every finished deal of one game, in order."""

    variant: str
    title: str
    players: int
    sides: tuple[tuple[int, ...], ...]
    bid_names: dict[str, str]
    deals: tuple[DealReplay, ...]
    game_over: bool
    deal_in_play: bool  # a deal was under way when the log ends (left out: it is not over)

    def table_view(self) -> dict[str, Any]:
        """The little of a public view that ``bot.render`` needs to word a deal's score."""
        return {"sides": [list(side) for side in self.sides], "bid_names": dict(self.bid_names)}

    def deal(self, number: int) -> DealReplay | None:
        """The finished deal with this number, or None."""
        return next((deal for deal in self.deals if deal.number == number), None)


def _deal_number(game: Game) -> int:
    # Every variant counts its deals; the public view reports the same number as "deal".
    number = getattr(game, "deal_no", None)
    return int(number) if isinstance(number, int) else int(game.public_view()["deal"])


class _DealRecorder:
    """What is seen of one deal while its actions are replayed."""

    def __init__(self, game: Game) -> None:
        view = game.public_view()
        self.number = _deal_number(game)
        self.dealer: int | None = view.get("dealer")
        # Taken before the deal's first action: exactly the cards each seat was dealt.
        self.hands = tuple(tuple(game.private_view(seat).get("hand", [])) for seat in range(game.players))
        self.bids: tuple[tuple[int, int | None], ...] = ()
        self.trump: str | None = None
        self.tricks: list[TrickPlay] = []
        self.current: list[tuple[int, str]] = []
        self.summary: dict[str, Any] | None = None

    def before_action(self, game: Game) -> None:
        # The view before an action still belongs to this deal (the action may end it). Bids and
        # trump are settled once a trick has been taken, so later views are not needed.
        if self.tricks:
            return
        view = game.public_view()
        self.trump = view.get("trump") or self.trump
        bids = view.get("bids")
        if isinstance(bids, list):
            self.bids = tuple((int(b["seat"]), b.get("amount")) for b in bids)

    def saw(self, events: list[Event]) -> None:
        for event in events:
            kind = event.get("type")
            if kind == "redeal":
                return  # what follows belongs to the next deal
            if kind == "play":
                self.current.append((int(event["seat"]), str(event["card"])))
            elif kind == "trick":
                self.tricks.append(TrickPlay(len(self.tricks) + 1, tuple(self.current), int(event["winner"])))
                self.current = []
            elif kind == "deal_scored":
                self.summary = {key: value for key, value in event.items() if key != "type"}
                return  # what follows belongs to the next deal
            elif kind == "trump" and isinstance(event.get("suit"), str):
                self.trump = event["suit"]

    def finish(self, ending: str) -> DealReplay:
        tricks = list(self.tricks)
        if self.current:
            tricks.append(TrickPlay(len(tricks) + 1, tuple(self.current), None))
        trump = self.trump
        if self.summary is not None and isinstance(self.summary.get("trump"), str):
            trump = self.summary["trump"]
        return DealReplay(
            self.number, self.dealer, self.hands, self.bids, trump, tuple(tricks), self.summary, ending
        )


def replay(record: Mapping[str, Any]) -> Replay:
    """Replay a game given in ``Game.to_json`` form (variant, players, options, seed, log).

    Raises the engine's ``EngineError`` (or ``KeyError``/``TypeError`` for a malformed record) if
    the log does not replay. Only deals that are over are returned.
    """
    game = new_game(
        record["variant"], players=record["players"], options=record["options"], seed=record["seed"]
    )
    deals: list[DealReplay] = []
    recorder = _DealRecorder(game)
    for seat, text in record["log"]:
        recorder.before_action(game)
        events = game.apply(int(seat), parse_action(str(text)))
        recorder.saw(events)
        if game.is_over:
            break
        if _deal_number(game) != recorder.number:
            redealt = recorder.summary is None
            deals.append(recorder.finish("redeal" if redealt else "scored"))
            recorder = _DealRecorder(game)
    deal_in_play = not game.is_over
    if game.is_over:
        deals.append(recorder.finish("scored" if recorder.summary is not None else "game over"))
    public = game.public_view()
    return Replay(
        variant=game.name,
        title=game.title,
        players=game.players,
        sides=tuple(tuple(side) for side in game.sides),
        bid_names={str(k): str(v) for k, v in (public.get("bid_names") or {}).items()},
        deals=tuple(deals),
        game_over=game.is_over,
        deal_in_play=deal_in_play,
    )


def clamp(replay: Replay, deal: int, page: int) -> tuple[int, int]:
    """The nearest existing page to (deal number, page); raises ``ValueError`` without deals."""
    if not replay.deals:
        raise ValueError("this game has no finished deal")
    numbers = [d.number for d in replay.deals]
    if deal not in numbers:
        deal = min(numbers, key=lambda n: (abs(n - deal), n))
    found = replay.deal(deal)
    assert found is not None
    return deal, min(max(page, 0), found.pages - 1)


def step(replay: Replay, deal: int, page: int, move: int) -> tuple[int, int]:
    """The page ``move`` pages after (or before, if negative) the given one, across deals and
    stopping at the first and the last page. Page 0 of a deal is its hands; page n its trick n."""
    deal, page = clamp(replay, deal, page)
    index = [d.number for d in replay.deals].index(deal)
    while move > 0:
        current = replay.deals[index]
        if page + 1 < current.pages:
            page += 1
        elif index + 1 < len(replay.deals):
            index, page = index + 1, 0
        else:
            break
        move -= 1
    while move < 0:
        if page > 0:
            page -= 1
        elif index > 0:
            index -= 1
            page = replay.deals[index].pages - 1
        else:
            break
        move += 1
    return replay.deals[index].number, page


def is_first(replay: Replay, deal: int, page: int) -> bool:
    return step(replay, deal, page, -1) == clamp(replay, deal, page)


def is_last(replay: Replay, deal: int, page: int) -> bool:
    return step(replay, deal, page, 1) == clamp(replay, deal, page)
