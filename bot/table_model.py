"""What a table is: its seats, its state and the publisher it reports to, apart from the manager
that changes it (bot/tables.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from bot.ai import Player
from bot.engine import Action, EngineError, Game, find_variant, new_game
from bot.engine.options import given_options
from bot.errors import Refusal
from bot.levels import computer_label

if TYPE_CHECKING:
    from bot.store import GameRecord


class TableError(Refusal):
    """A table operation that cannot be done now; the message is shown to the user as is."""


class StaleAction(TableError):
    """A click on controls from an earlier moment of the game (a stale button or a double click)."""


def check_default_options(value: Any) -> dict[str, dict[str, Any]]:
    """Validate house-rule defaults against the engine's option schemas; returns them normalised."""
    if not isinstance(value, Mapping):
        raise TableError("default_options must map a variant name to its options")
    out: dict[str, dict[str, Any]] = {}
    for variant, options in value.items():
        if not isinstance(variant, str):
            raise TableError(f"default_options: {variant!r} is not a variant name")
        if not isinstance(options, Mapping):
            raise TableError(f"default_options for {variant} must be a mapping of option to value")
        try:
            cls = find_variant(variant)
            # Keep only what was set so later changes to an option's default still apply.
            given = given_options(cls.option_specs, options, cls.name)
            new_game(cls.name, options=given, seed=0)  # the engine refuses unplayable combinations
        except EngineError as err:
            raise TableError(f"House rules for {variant}: {err}") from None
        if given:
            out[cls.name] = given
    return out


def stored_game(record: GameRecord) -> Game | None:
    """The game of a stored table, replayed from its seed and action log (what a restart resumes);
    None for a table whose game never started. Raises ``BadGameRecord`` for a log that does not
    replay."""
    if record.status in ("playing", "ended") or (record.status == "abandoned" and record.actions):
        return Game.from_json(record.engine_record())
    return None


@dataclass
class Seat:
    """Who sits in a seat: a person (user id and display name) or a computer level."""

    kind: str  # "human" or "computer"
    name: str
    user_id: int | None = None
    level: str = "basic"
    away: bool = False  # a person whose turns a computer plays since the turn timer ran out

    @property
    def is_human(self) -> bool:
        return self.kind == "human"

    @property
    def plays_itself(self) -> bool:
        """Whether a computer makes this seat's decisions now."""
        return not self.is_human or self.away

    def label(self) -> str:
        if not self.is_human:
            return computer_label(self.name, self.level)
        return f"{self.name} (away)" if self.away else self.name

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "name": self.name, "level": self.level}
        if self.is_human:
            out["user_id"] = self.user_id
            out["away"] = self.away
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seat:
        return cls(
            kind=data["kind"],
            name=data.get("name") or "Computer",
            user_id=data.get("user_id"),
            level=data.get("level", "basic"),
            away=bool(data.get("away", False)),
        )


@dataclass
class Table:
    """One table in one channel: lobby, then a game, then ended."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    variant: str
    options: dict[str, Any]
    players: int
    seats: list[Seat | None]
    status: str = "lobby"  # lobby, playing, ended
    seed: int | None = None
    game: Game | None = None
    message_id: int | None = None
    ping_message_id: int | None = None  # the live "your turn" ping, deleted when the next one comes
    hints: bool = True  # whether seated players may ask /hint (the host may turn it off)
    # Opened by a command whose answer is the table message: its id comes a moment later.
    message_coming: bool = field(default=False, repr=False)
    # The last action's events of a game that is over, shown once its result is stored.
    held_events: list[dict[str, Any]] | None = field(default=None, repr=False)
    # A duplicate event's table stops once this deal is scored (bot.duplicate; set by its clock).
    deal_limit: int | None = field(default=None, repr=False)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    bots: dict[int, Player] = field(default_factory=dict, repr=False)
    driver: asyncio.Task[None] | None = field(default=None, repr=False)
    timer: asyncio.Task[None] | None = field(default=None, repr=False)

    @property
    def family(self) -> str:
        return find_variant(self.variant).family

    @property
    def title(self) -> str:
        return find_variant(self.variant).title

    @property
    def version(self) -> int:
        """Grows with every accepted action: buttons carry it so stale clicks are recognised."""
        return len(self.game.log) if self.game else 0

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat is not None and seat.is_human and seat.user_id == user_id:
                return index
        return None

    def names(self) -> list[str]:
        return [seat.label() if seat else f"Seat {i + 1} (empty)" for i, seat in enumerate(self.seats)]

    def humans(self) -> list[int]:
        return [s.user_id for s in self.seats if s and s.is_human and s.user_id is not None]

    def seats_json(self) -> list[dict[str, Any] | None]:
        return [seat.to_json() if seat else None for seat in self.seats]


class Publisher(Protocol):
    """How the manager shows changes to people (the Discord layer implements it)."""

    def table_changed(self, table: Table) -> None:
        """The table's public state changed: refresh its message (may be coalesced)."""

    def announce(self, table: Table, text: str) -> None:
        """Post a new public message (end of deal, end of game, someone away…)."""

    def turn_ping(self, table: Table, user_ids: list[int], text: str) -> None:
        """Tell these people it is their turn (a mention)."""

    def events(self, table: Table, events: list[dict[str, Any]]) -> None:
        """What an accepted action did; the publisher decides which events deserve a message."""

    async def repost(self, table: Table) -> None:
        """Post the table message again as a new message (the old one points to it)."""


@dataclass
class ActResult:
    """What an accepted action did, for the reply to the person who took it."""

    table: Table
    seat: int
    action: Action
    events: list[dict[str, Any]]
    view: dict[str, Any] | None  # the seat's view after the action; None once the game is over


def past_deal_limit(events: list[dict[str, Any]], limit: int | None) -> list[dict[str, Any]] | None:
    """The events up to the scoring of deal ``limit`` if these events score it (or a later one),
    else None."""
    if limit is None:
        return None
    for index, event in enumerate(events):
        if event.get("type") == "deal_scored" and int(event.get("deal", 0)) >= limit:
            return events[: index + 1]
    return None
