"""Duplicate events: ``store.duplicates``. An event fixes a variant, its options and a seed; each of
its tables is a stored game (``games``) linked here with its table number. The ranking is computed
from the tables' games by ``bot.duplicate``; the store keeps the event and when it was posted."""

from __future__ import annotations

import builtins
import json
import time
from dataclasses import dataclass
from typing import Any

from bot.store.database import Database, Row, Tx
from bot.store.errors import StoreRefusal
from bot.store.validate import dumps

MAX_TABLES = 20  # a ranking card and message show every table's sides


@dataclass
class DuplicateEvent:
    id: int
    guild_id: int
    channel_id: int
    organizer_id: int
    variant: str
    players: int
    options: dict[str, Any]
    seed: int
    deals: int
    created_at: float
    ended_at: float | None = None
    ranking_posted_at: float | None = None

    @property
    def open(self) -> bool:
        return self.ended_at is None


@dataclass
class DuplicateTable:
    """One table of an event: its number and its game (``status`` as the game's)."""

    number: int
    game_id: int
    status: str


def event_record(row: Row) -> DuplicateEvent:
    return DuplicateEvent(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        organizer_id=row["organizer_id"],
        variant=row["variant"],
        players=row["players"],
        options=json.loads(row["options"]),
        seed=row["seed"],
        deals=row["deals"],
        created_at=row["created_at"],
        ended_at=row["ended_at"],
        ranking_posted_at=row["ranking_posted_at"],
    )


class Duplicates:
    """Create, find, join and end duplicate events."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organizer_id: int,
        variant: str,
        players: int,
        options: dict[str, Any],
        seed: int,
        deals: int,
    ) -> DuplicateEvent:
        """A new open event (its options already resolved by the caller, every one of them)."""
        now = time.time()
        text = dumps(options, "the event's options")
        event_id = await self._db.write(
            Tx.insert,
            "INSERT INTO duplicate_events (guild_id, channel_id, organizer_id, variant, players, options,"
            " seed, deals, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (guild_id, channel_id, organizer_id, variant, players, text, seed, deals, now),
        )
        return DuplicateEvent(
            event_id or 0,
            guild_id,
            channel_id,
            organizer_id,
            variant,
            players,
            dict(options),
            seed,
            deals,
            now,
        )

    async def get(self, event_id: int) -> DuplicateEvent | None:
        row = await self._db.read(Tx.one, "SELECT * FROM duplicate_events WHERE id = ?", (event_id,))
        return None if row is None else event_record(row)

    async def list(
        self, guild_id: int, *, limit: int = 25, open_only: bool = False
    ) -> builtins.list[DuplicateEvent]:
        """The guild's events, newest first."""
        rows = await self._db.read(
            Tx.all,
            "SELECT * FROM duplicate_events WHERE guild_id = ? AND (? = 0 OR ended_at IS NULL)"
            " ORDER BY created_at DESC, id DESC LIMIT ?",
            (guild_id, int(open_only), limit),
        )
        return [event_record(row) for row in rows]

    async def open_events(self) -> builtins.list[DuplicateEvent]:
        """Every open event (in every guild), for the clock that ends them."""
        rows = await self._db.read(
            Tx.all, "SELECT * FROM duplicate_events WHERE ended_at IS NULL ORDER BY id"
        )
        return [event_record(row) for row in rows]

    async def add_table(self, event_id: int, game_id: int) -> int:
        """Link a new table's game to an open event; returns its table number."""

        def add(tx: Tx) -> int:
            row = tx.one("SELECT ended_at FROM duplicate_events WHERE id = ?", (event_id,))
            if row is None:
                raise StoreRefusal(f"there is no duplicate event {event_id}")
            if row["ended_at"] is not None:
                raise StoreRefusal(f"duplicate event {event_id} has ended: no more tables can join it")
            count = int(tx.value("SELECT COUNT(*) FROM duplicate_tables WHERE event_id = ?", (event_id,)))
            if count >= MAX_TABLES:
                raise StoreRefusal(
                    f"duplicate event {event_id} already has {MAX_TABLES} tables, the most it can rank"
                )
            tx.run(
                "INSERT INTO duplicate_tables (game_id, event_id, number) VALUES (?, ?, ?)",
                (game_id, event_id, count + 1),
            )
            return count + 1

        return await self._db.write(add)

    async def tables(self, event_id: int) -> builtins.list[DuplicateTable]:
        """The event's tables in number order, with their games' status."""
        rows = await self._db.read(
            Tx.all,
            "SELECT d.number, d.game_id, g.status FROM duplicate_tables d JOIN games g ON g.id = d.game_id"
            " WHERE d.event_id = ? ORDER BY d.number",
            (event_id,),
        )
        return [DuplicateTable(row["number"], row["game_id"], row["status"]) for row in rows]

    async def event_of(self, game_id: int) -> tuple[DuplicateEvent, int] | None:
        """The event a game is a table of, and its table number; None for an ordinary game."""
        row = await self._db.read(
            Tx.one,
            "SELECT e.*, d.number AS table_number FROM duplicate_tables d"
            " JOIN duplicate_events e ON e.id = d.event_id WHERE d.game_id = ?",
            (game_id,),
        )
        return None if row is None else (event_record(row), int(row["table_number"]))

    async def end(self, event_id: int) -> DuplicateEvent:
        """Close an open event: no more tables join; its ranking is to be posted (``unposted``)."""

        def end(tx: Tx) -> DuplicateEvent:
            row = tx.one("SELECT * FROM duplicate_events WHERE id = ?", (event_id,))
            if row is None:
                raise StoreRefusal(f"there is no duplicate event {event_id}")
            event = event_record(row)
            if event.ended_at is not None:
                raise StoreRefusal(f"duplicate event {event_id} has already ended")
            event.ended_at = time.time()
            # Only if still open: another process may have ended it since it was read.
            ended = tx.change(
                "UPDATE duplicate_events SET ended_at = ? WHERE id = ? AND ended_at IS NULL",
                (event.ended_at, event_id),
            )
            if ended != 1:
                raise StoreRefusal(f"duplicate event {event_id} has already ended")
            return event

        return await self._db.write(end)

    async def unposted(self) -> builtins.list[DuplicateEvent]:
        """Ended events whose ranking has not reached their channel yet (also across a restart)."""
        rows = await self._db.read(
            Tx.all,
            "SELECT * FROM duplicate_events WHERE ended_at IS NOT NULL AND ranking_posted_at IS NULL"
            " ORDER BY ended_at, id",
        )
        return [event_record(row) for row in rows]

    async def mark_posted(self, event_id: int) -> None:
        await self._db.write(
            Tx.run,
            "UPDATE duplicate_events SET ranking_posted_at = ? WHERE id = ? AND ended_at IS NOT NULL",
            (time.time(), event_id),
        )
