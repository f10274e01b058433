"""Trick Night's database: games and their action logs, results, ratings, leagues, guild settings.

``await Store.open(target)`` opens one of two backends: an SQLite file (a path; the embedded
default, WAL mode, ``bot.store.sqlite``) or a PostgreSQL server (a ``postgresql://`` URL, which
several processes may share, ``bot.store.postgresql``). The schema is built by the numbered SQL
files in ``data/migrations/`` (PostgreSQL's own dialect in ``data/migrations/postgresql/``), so an
older database upgrades in place at start-up. A database that is not Trick Night's, or one written
by a newer Trick Night, is never touched: ``open`` raises ``StoreError`` saying what is wrong.

Every method is a coroutine and every write is one transaction, so a process killed at any moment
leaves either the whole change or none of it; a write returns once it is committed. The work is
split by concern, one repository each, all sharing one ``Database`` (a writer thread that commits
queued writes together, reader threads beside it; transactions are plain functions of a ``Tx``
run there in one go, in SQL both backends read). A database that does not take writes for a
moment (a file locked by another program, full or read-only; a server restarting or out of reach)
is retried for a moment, then ``StoreUnavailable`` says which:

- ``store.games``: create, update, append_action, set_ping, mark_announced, load, unfinished,
  unannounced, in_channel
- ``store.results``: finish (results, all-time and season ratings, league credit in one transaction)
- ``store.settings``: get, update
- ``store.boards``: page, count, player_stats, reset, export_csv
- ``store.leagues``: start (now or scheduled), cancel, active, upcoming, get, list, named, due, end,
  starting, mark_start_announced, unposted, mark_posted, standings, timezone, set_timezone
- ``store.seasons``: start (ends the current one), current, get, list, named, page, count, any_rated,
  player_ratings (ratings from zero each season, beside the all-time ones)
- ``store.duplicates``: create, get, list, open_events, add_table, tables, event_of, end, unposted,
  mark_posted (duplicate events; their ranking is computed by ``bot.duplicate``)
- ``store.players``: prefs, update (each player's own choices, e.g. cards as pictures or text)
- ``store.history``: count, recent, rating_trend, results_trend, game_in_guild (history, replays)
- ``store.jobs``: claim, done (jobs that must run once, whichever process finds them due)

The rating arithmetic is the pure ``bot.store.ratings.rate``. The store imports nothing of the
engine, the table manager or Discord: it checks shapes and stores JSON.
"""

from __future__ import annotations

import time
from importlib.resources.abc import Traversable
from pathlib import Path

from bot.store.boards import Boards
from bot.store.database import Database, Row, Tx, write_patience
from bot.store.duplicates import DuplicateEvent, Duplicates, DuplicateTable
from bot.store.errors import ActionOutOfOrder, GameNotFound, StoreError, StoreRefusal, StoreUnavailable
from bot.store.games import Games
from bot.store.history import GameHistory
from bot.store.jobs import Jobs
from bot.store.leagues import Leagues
from bot.store.migrations import Migration, load_migrations, migrations_dir
from bot.store.players import PlayerPrefs, Players
from bot.store.records import (
    THREAD_MODES,
    FamilyRating,
    GameRecord,
    GuildSettings,
    LeaderRow,
    League,
    PlayerStats,
    RecentGame,
    Season,
    SeatResult,
    StandingRow,
)
from bot.store.results import Results
from bot.store.seasons import Seasons
from bot.store.settings import GuildSettingsRepo
from bot.store.sqlite import SQLiteDatabase

__all__ = [
    "THREAD_MODES",
    "ActionOutOfOrder",
    "Boards",
    "Database",
    "DuplicateEvent",
    "DuplicateTable",
    "Duplicates",
    "FamilyRating",
    "GameNotFound",
    "GameRecord",
    "Games",
    "GuildSettings",
    "GuildSettingsRepo",
    "Jobs",
    "LeaderRow",
    "League",
    "Leagues",
    "Migration",
    "PlayerPrefs",
    "PlayerStats",
    "Players",
    "RecentGame",
    "Results",
    "Row",
    "Season",
    "Seasons",
    "SeatResult",
    "StandingRow",
    "Store",
    "StoreError",
    "StoreRefusal",
    "StoreUnavailable",
    "Tx",
    "is_postgresql_url",
    "load_migrations",
    "migrations_dir",
    "write_patience",
]


def is_postgresql_url(target: str | Path) -> bool:
    """Whether ``target`` names a PostgreSQL server rather than an SQLite file."""
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


class Store:
    """The bot's database. Create with ``await Store.open(path)``; ``await store.close()`` at exit."""

    def __init__(self, db: Database, *, default_computer_delay: float = 1.0) -> None:
        self.db = db
        self.games = Games(db)
        self.results = Results(db)
        self.settings = GuildSettingsRepo(db, default_computer_delay)
        self.boards = Boards(db)
        self.leagues = Leagues(db)
        self.seasons = Seasons(db)
        self.duplicates = Duplicates(db)
        self.players = Players(db)
        self.history = GameHistory(db)
        self.jobs = Jobs(db)

    @classmethod
    async def open(
        cls,
        target: str | Path,
        *,
        migrations_dir: Traversable | None = None,
        integrity_check: bool = True,
        default_computer_delay: float = 1.0,
        wait: float = 0.0,
    ) -> Store:
        """Open (or create) the database at ``target`` and bring its schema up to date.

        ``target`` is an SQLite file's path (``":memory:"``: a private in-memory database, for
        tests) or a ``postgresql://`` URL. Raises ``StoreError`` if it is not a Trick Night
        database, is damaged, cannot be reached, or was written by a newer Trick Night.
        ``integrity_check`` runs SQLite's quick_check first (about a second per million results).
        ``default_computer_delay`` is the computer delay of a guild that never set its own.
        ``wait``: seconds to keep trying a server that cannot be reached (with back-off, logged).
        """
        db: Database
        if is_postgresql_url(target):
            try:
                from bot.store.postgresql import PostgresDatabase  # the driver is an optional install
            except ImportError:
                raise StoreError(
                    "TRICKNIGHT_DATABASE names a PostgreSQL server, but its driver is not installed: "
                    "pip install 'tricknight[postgresql]'"
                ) from None
            db = await PostgresDatabase.open(str(target), migrations_dir=migrations_dir, wait=wait)
        else:
            db = await SQLiteDatabase.open(
                target, migrations_dir=migrations_dir, integrity_check=integrity_check
            )
        return cls(db, default_computer_delay=default_computer_delay)

    async def check_writable(self) -> None:
        """A small write (the time of this check): raises ``StoreUnavailable`` if the database does
        not take writes now (locked by another program, read-only, disk full)."""
        await self.db.write(
            Tx.run,
            "INSERT INTO tricknight_meta (key, value) VALUES ('checked_at', ?)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (repr(time.time()),),
        )

    @property
    def path(self) -> str:
        """Where the database is, fit to print (a server's URL without its password)."""
        return self.db.path

    @property
    def backend(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self.db.backend

    @property
    def schema_version(self) -> int:
        return self.db.schema_version

    async def close(self) -> None:
        """Close the database (safe to call twice)."""
        await self.db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
