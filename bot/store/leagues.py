"""League nights: ``store.leagues``. A league runs while ``ended_at`` is None; games finished meanwhile
(in its family, if it has one) are credited to it by ``results.finish``."""

from __future__ import annotations

import builtins
import sqlite3
import time

from bot.store.database import Database, Tx
from bot.store.errors import StoreRefusal
from bot.store.records import League, StandingRow, win_pct

MAX_LEAGUE_NAME = 100


def league_record(row: sqlite3.Row) -> League:
    return League(
        id=row["id"],
        guild_id=row["guild_id"],
        name=row["name"],
        family=row["family"],
        started_at=row["started_at"],
        ends_at=row["ends_at"],
        ended_at=row["ended_at"],
        channel_id=row["channel_id"],
    )


async def read_standings(tx: Tx, league_id: int) -> list[StandingRow]:
    """A league's standings inside ``tx``: wins, then points, then fewer games, then user id."""
    rows = await tx.all(
        "SELECT user_id, COUNT(*) AS games, SUM(place = 1) AS wins, SUM(score) AS points"
        " FROM results WHERE league_id = ? AND user_id IS NOT NULL GROUP BY user_id"
        " ORDER BY wins DESC, points DESC, games ASC, user_id ASC",
        (league_id,),
    )
    return [
        StandingRow(
            rank=n,
            user_id=row["user_id"],
            wins=row["wins"],
            games=row["games"],
            points=row["points"],
            win_pct=win_pct(row["wins"], row["games"]),
        )
        for n, row in enumerate(rows, start=1)
    ]


class Leagues:
    """Start, find, end and rank league nights (one running league per guild)."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def start(
        self,
        guild_id: int,
        name: str,
        family: str | None = None,
        ends_at: float | None = None,
        *,
        started_at: float | None = None,
        channel_id: int | None = None,
    ) -> League:
        """Start a league night; raises ``StoreRefusal`` if one is already running in the guild."""
        name = name.strip() if isinstance(name, str) else ""
        if not name or len(name) > MAX_LEAGUE_NAME:
            raise StoreRefusal(f"a league needs a name of 1 to {MAX_LEAGUE_NAME} characters")
        start = time.time() if started_at is None else float(started_at)
        if ends_at is not None and not ends_at > start:
            raise StoreRefusal("a league must end after it starts")
        async with self._db.write() as tx:
            running = await tx.one(
                "SELECT name, ends_at FROM leagues WHERE guild_id = ? AND ended_at IS NULL", (guild_id,)
            )
            if running is not None:
                raise StoreRefusal(
                    f"the league {running['name']!r} is still running in this server; end it first"
                )
            league_id = await tx.run(
                "INSERT INTO leagues (guild_id, name, family, started_at, ends_at, channel_id)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (guild_id, name, family, start, ends_at, channel_id),
            )
        return League(league_id or 0, guild_id, name, family, start, ends_at, None, channel_id)

    async def active(self, guild_id: int) -> League | None:
        """The guild's running league, or None. It may be past ``ends_at`` (see ``due``)."""
        async with self._db.read() as tx:
            row = await tx.one("SELECT * FROM leagues WHERE guild_id = ? AND ended_at IS NULL", (guild_id,))
        return None if row is None else league_record(row)

    async def get(self, league_id: int) -> League | None:
        """The league with this id, running or not, or None."""
        async with self._db.read() as tx:
            row = await tx.one("SELECT * FROM leagues WHERE id = ?", (league_id,))
        return None if row is None else league_record(row)

    async def list(self, guild_id: int, *, limit: int = 25) -> builtins.list[League]:
        """The guild's leagues, newest first (for pickers and autocomplete)."""
        async with self._db.read() as tx:
            rows = await tx.all(
                "SELECT * FROM leagues WHERE guild_id = ? ORDER BY started_at DESC, id DESC LIMIT ?",
                (guild_id, limit),
            )
        return [league_record(row) for row in rows]

    async def due(self, now: float | None = None) -> builtins.list[League]:
        """Running leagues whose planned end has passed (in every guild): the bot should end them."""
        async with self._db.read() as tx:
            rows = await tx.all(
                "SELECT * FROM leagues WHERE ended_at IS NULL AND ends_at <= ? ORDER BY ends_at, id",
                (time.time() if now is None else now,),
            )
        return [league_record(row) for row in rows]

    async def end(self, guild_id: int) -> tuple[League, builtins.list[StandingRow]]:
        """End the guild's running league and return it with its final standings.

        A league ended after its planned end is closed at ``ends_at`` (nothing after that counted).
        """
        async with self._db.write() as tx:
            row = await tx.one("SELECT * FROM leagues WHERE guild_id = ? AND ended_at IS NULL", (guild_id,))
            if row is None:
                raise StoreRefusal("no league is running in this server")
            league = league_record(row)
            now = time.time()
            league.ended_at = min(now, league.ends_at) if league.ends_at is not None else now
            await tx.run("UPDATE leagues SET ended_at = ? WHERE id = ?", (league.ended_at, league.id))
            final = await read_standings(tx, league.id)
        return league, final

    async def standings(self, league_id: int) -> builtins.list[StandingRow]:
        """A league's standings (so far, if it still runs): wins, then points, then fewer games."""
        async with self._db.read() as tx:
            if await tx.one("SELECT 1 FROM leagues WHERE id = ?", (league_id,)) is None:
                raise StoreRefusal(f"there is no league {league_id}")
            return await read_standings(tx, league_id)
