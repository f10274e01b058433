"""League nights: ``store.leagues``. A league is scheduled until ``started_at``, then runs until
``ended_at`` is set; games finished meanwhile (in its family, if it has one) are credited to it by
``results.finish``. A guild's leagues never overlap in time, so at most one runs at any moment.
Each guild's timezone (for the times people type) is kept here too."""

from __future__ import annotations

import builtins
import time
from datetime import UTC, datetime

from bot.store.database import Database, Row, Tx
from bot.store.errors import StoreRefusal
from bot.store.records import League, StandingRow, win_pct
from bot.store.validate import containing

MAX_LEAGUE_NAME = 100
MAX_ZONE_NAME = 64


def league_record(row: Row) -> League:
    return League(
        id=row["id"],
        guild_id=row["guild_id"],
        name=row["name"],
        family=row["family"],
        started_at=row["started_at"],
        ends_at=row["ends_at"],
        ended_at=row["ended_at"],
        channel_id=row["channel_id"],
        standings_posted_at=row["standings_posted_at"],
        start_announced_at=row["start_announced_at"],
    )


def stamp(moment: float) -> str:
    """``2026-11-28 19:00 UTC``: a time in a refusal (the cogs show ``<t:…>`` elsewhere)."""
    return datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%d %H:%M UTC")


def _running_row(tx: Tx, guild_id: int, now: float) -> Row | None:
    # The latest started one: a league past its planned end that the clock has not closed yet
    # may still be open beside the one that started after it.
    return tx.one(
        "SELECT * FROM leagues WHERE guild_id = ? AND ended_at IS NULL AND started_at <= ?"
        " ORDER BY started_at DESC, id DESC LIMIT 1",
        (guild_id, now),
    )


def _check_no_overlap(tx: Tx, guild_id: int, start: float, ends_at: float | None, now: float) -> None:
    clash = tx.one(
        "SELECT name, started_at, ends_at FROM leagues WHERE guild_id = ? AND ended_at IS NULL"
        " AND (CAST(? AS DOUBLE PRECISION) IS NULL OR started_at < ?) AND (ends_at IS NULL OR ends_at > ?)"
        " ORDER BY started_at LIMIT 1",
        (guild_id, ends_at, ends_at, start),
    )
    if clash is None:
        return
    if clash["started_at"] <= now:
        raise StoreRefusal(f"the league {clash['name']!r} is still running in this server; end it first")
    until = f"to {stamp(clash['ends_at'])}" if clash["ends_at"] is not None else "with no planned end"
    raise StoreRefusal(
        f"the league {clash['name']!r} is scheduled from {stamp(clash['started_at'])} {until}: "
        "leagues in one server cannot overlap (cancel it, or choose other times)"
    )


def read_standings(tx: Tx, league_id: int) -> list[StandingRow]:
    """A league's standings inside ``tx``: wins, then points, then fewer games, then user id."""
    rows = tx.all(
        "SELECT user_id, COUNT(*) AS games, SUM(CASE WHEN place = 1 THEN 1 ELSE 0 END) AS wins,"
        " SUM(score) AS points"
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
    """Schedule, start, find, end and rank league nights (at most one running per guild)."""

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
        """Start a league night now, or schedule it (``started_at`` in the future: the league clock
        announces its start in ``channel_id``). Raises ``StoreRefusal`` if it would overlap another
        league of the guild (running or scheduled)."""
        name = name.strip() if isinstance(name, str) else ""
        if not name or len(name) > MAX_LEAGUE_NAME:
            raise StoreRefusal(f"a league needs a name of 1 to {MAX_LEAGUE_NAME} characters")
        now = time.time()
        start = now if started_at is None else float(started_at)
        if ends_at is not None and not ends_at > start:
            raise StoreRefusal("a league must end after it starts")
        # Started now (or in the past): whoever starts it says so; scheduled: the clock will.
        announced = now if start <= now else None

        def begin(tx: Tx) -> int:
            _check_no_overlap(tx, guild_id, start, ends_at, now)
            return tx.insert(
                "INSERT INTO leagues (guild_id, name, family, started_at, ends_at, channel_id,"
                " start_announced_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (guild_id, name, family, start, ends_at, channel_id, announced),
            )

        league_id = await self._db.write(begin)
        return League(league_id or 0, guild_id, name, family, start, ends_at, None, channel_id,
                      start_announced_at=announced)  # fmt: skip

    async def cancel(self, guild_id: int, league_id: int) -> League:
        """Delete a league that has not started yet (nothing was credited to it)."""

        def cancel(tx: Tx) -> League:
            row = tx.one("SELECT * FROM leagues WHERE id = ? AND guild_id = ?", (league_id, guild_id))
            if row is None:
                raise StoreRefusal(f"there is no league {league_id} in this server")
            league = league_record(row)
            if league.ended_at is not None or league.started_at <= time.time():
                raise StoreRefusal(
                    f"the league {league.name!r} has already started: end it instead (its games stay counted)"
                )
            tx.run("DELETE FROM leagues WHERE id = ?", (league_id,))
            return league

        return await self._db.write(cancel)

    async def active(self, guild_id: int) -> League | None:
        """The guild's running league, or None. It may be past ``ends_at`` (see ``due``)."""
        row = await self._db.read(_running_row, guild_id, time.time())
        return None if row is None else league_record(row)

    async def upcoming(self, guild_id: int) -> builtins.list[League]:
        """The guild's scheduled leagues, soonest first."""
        rows = await self._db.read(
            Tx.all,
            "SELECT * FROM leagues WHERE guild_id = ? AND ended_at IS NULL AND started_at > ?"
            " ORDER BY started_at, id",
            (guild_id, time.time()),
        )
        return [league_record(row) for row in rows]

    async def get(self, league_id: int) -> League | None:
        """The league with this id, running or not, or None."""
        row = await self._db.read(Tx.one, "SELECT * FROM leagues WHERE id = ?", (league_id,))
        return None if row is None else league_record(row)

    async def list(self, guild_id: int, *, limit: int = 25, matching: str = "") -> builtins.list[League]:
        """The guild's leagues, newest first (scheduled ones first of all), for pickers and
        autocomplete; ``matching``: only names containing that text (any case)."""
        pattern = containing(matching)
        rows = await self._db.read(
            Tx.all,
            "SELECT * FROM leagues WHERE guild_id = ? AND lower(name) LIKE lower(?) ESCAPE '\\'"
            " ORDER BY started_at DESC, id DESC LIMIT ?",
            (guild_id, pattern, limit),
        )
        return [league_record(row) for row in rows]

    async def named(self, guild_id: int, name: str) -> League | None:
        """The guild's newest league with this name (any case), or None."""
        row = await self._db.read(
            Tx.one,
            "SELECT * FROM leagues WHERE guild_id = ? AND lower(name) = lower(?)"
            " ORDER BY started_at DESC, id DESC LIMIT 1",
            (guild_id, name.strip()),
        )
        return None if row is None else league_record(row)

    async def due(self, now: float | None = None) -> builtins.list[League]:
        """Running leagues whose planned end has passed (in every guild): the bot should end them."""
        rows = await self._db.read(
            Tx.all,
            "SELECT * FROM leagues WHERE ended_at IS NULL AND ends_at <= ? ORDER BY ends_at, id",
            (time.time() if now is None else now,),
        )
        return [league_record(row) for row in rows]

    async def end(
        self, guild_id: int, *, league_id: int | None = None
    ) -> tuple[League, builtins.list[StandingRow]]:
        """End the guild's running league (or the open league ``league_id``, as the league clock
        does) and return it with its final standings, in one transaction.

        A league ended after its planned end is closed at ``ends_at`` (nothing after that counted).
        """

        def close(tx: Tx) -> tuple[League, builtins.list[StandingRow]]:
            now = time.time()
            if league_id is None:
                row = _running_row(tx, guild_id, now)
            else:
                row = tx.one(
                    "SELECT * FROM leagues WHERE id = ? AND guild_id = ? AND ended_at IS NULL"
                    " AND started_at <= ?",
                    (league_id, guild_id, now),
                )
            if row is None:
                raise StoreRefusal("no league is running in this server")
            league = league_record(row)
            league.ended_at = min(now, league.ends_at) if league.ends_at is not None else now
            # Only if still open: another process may have closed it since it was read.
            closed = tx.change(
                "UPDATE leagues SET ended_at = ? WHERE id = ? AND ended_at IS NULL",
                (league.ended_at, league.id),
            )
            if closed != 1:
                raise StoreRefusal("no league is running in this server")
            return league, read_standings(tx, league.id)

        return await self._db.write(close)

    async def starting(self, now: float | None = None) -> builtins.list[League]:
        """Scheduled leagues (in every guild) that have started but whose start was not announced
        yet: the bot should announce them, then ``mark_start_announced``."""
        rows = await self._db.read(
            Tx.all,
            "SELECT * FROM leagues WHERE ended_at IS NULL AND start_announced_at IS NULL"
            " AND started_at <= ? AND channel_id IS NOT NULL ORDER BY started_at, id",
            (time.time() if now is None else now,),
        )
        return [league_record(row) for row in rows]

    async def mark_start_announced(self, league_id: int) -> None:
        """The league's start was announced in its channel."""
        await self._db.write(
            Tx.run, "UPDATE leagues SET start_announced_at = ? WHERE id = ?", (time.time(), league_id)
        )

    async def timezone(self, guild_id: int) -> str | None:
        """The guild's timezone as set by an admin (``Europe/Berlin``, ``UTC+2``), or None (UTC)."""
        row = await self._db.read(
            Tx.one, "SELECT timezone FROM guild_timezones WHERE guild_id = ?", (guild_id,)
        )
        return None if row is None else str(row["timezone"])

    async def set_timezone(self, guild_id: int, zone: str) -> None:
        """Set the guild's timezone (checked by the caller: ``bot.when.parse_zone``)."""
        if not zone or len(zone) > MAX_ZONE_NAME:
            raise StoreRefusal(f"a timezone name has 1 to {MAX_ZONE_NAME} characters")
        await self._db.write(
            Tx.run,
            "INSERT INTO guild_timezones (guild_id, timezone, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET timezone = excluded.timezone,"
            " updated_at = excluded.updated_at",
            (guild_id, zone, time.time()),
        )

    async def unposted(self) -> builtins.list[League]:
        """Ended leagues whose standings never reached their channel (the bot stopped, or the
        channel could not be reached): post them, then ``mark_posted``."""
        rows = await self._db.read(
            Tx.all,
            "SELECT * FROM leagues WHERE ended_at IS NOT NULL AND standings_posted_at IS NULL"
            " AND channel_id IS NOT NULL ORDER BY ended_at, id",
        )
        return [league_record(row) for row in rows]

    async def mark_posted(self, league_id: int) -> None:
        """The league's final standings were posted."""
        await self._db.write(
            Tx.run,
            "UPDATE leagues SET standings_posted_at = ? WHERE id = ? AND ended_at IS NOT NULL",
            (time.time(), league_id),
        )

    async def standings(self, league_id: int) -> builtins.list[StandingRow]:
        """A league's standings (so far, if it still runs): wins, then points, then fewer games."""

        def standings(tx: Tx) -> builtins.list[StandingRow]:
            if tx.one("SELECT 1 FROM leagues WHERE id = ?", (league_id,)) is None:
                raise StoreRefusal(f"there is no league {league_id}")
            return read_standings(tx, league_id)

        return await self._db.read(standings)
