"""Trick Night's database: games and their action logs, results, ratings, leagues, guild settings.

One SQLite file (WAL mode, foreign keys on) opened with ``await Store.open(path)``. The schema is
built by the numbered SQL files in ``data/migrations/``; ``PRAGMA user_version`` records how many
have been applied, so an older database upgrades in place at start-up. A file that is not a Trick
Night database, or one written by a newer Trick Night, is never touched: ``open`` raises
``StoreError`` with a message saying what is wrong and what to do.

Every method is a coroutine and every write is one SQLite transaction, so a process killed at any
moment leaves either the whole change or none of it. The store keeps one connection and an
``asyncio.Lock`` around each transaction: concurrent coroutines of the bot must not interleave their
statements on the shared connection.

Ratings use ``openskill``'s Plackett-Luce model per guild and per game family (``pitch``,
``pinochle``, ``double-deck``); partners on one side are rated as a team. Computer seats take part
with a fixed default rating that never changes (they are not players on the leaderboard). Whether a
game with computer seats moves human ratings is the caller's choice (``finish_game(rated=...)``,
normally the guild's ``rate_computer_games`` setting); its games and wins always count.

The leaderboard's rating is the ordinal ``mu - 3 * sigma`` (0 for a new player, rises as the system
becomes confident a player is strong). Times are Unix seconds, which Discord renders as ``<t:…>``.
"""

from __future__ import annotations

import asyncio
import contextlib
import csv
import io
import json
import math
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import aiosqlite
from openskill.models import PlackettLuce

from bot.engine import EngineError, find_variant
from bot.engine.options import resolve_options
from bot.files import prepare_database_file
from bot.resources import migrations_folder

MIGRATIONS_DIR = migrations_folder()  # data/migrations in a checkout, bot/_data/migrations when installed
APPLICATION = "tricknight"
SQLITE_MAGIC = b"SQLite format 3\x00"

STATUSES = ("lobby", "playing", "ended", "abandoned")
UNFINISHED = ("lobby", "playing")
ORDERS = ("rating", "wins", "games", "winpct")
TREND_GAMES = 10
RECENT_GAMES = 5
MAX_PAGE = 100
MAX_TURN_TIMEOUT = 86_400
MAX_COMPUTER_DELAY = 30.0
MAX_LEAGUE_NAME = 100
INT64 = 2**63

_MODEL = PlackettLuce()
_MIGRATION_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


class StoreError(Exception):
    """Something the store cannot do; the message says what and why in plain words."""


class GameNotFound(StoreError):
    """No game with that id."""


class ActionOutOfOrder(StoreError):
    """``append_action`` was given an index other than the next one (e.g. a double write)."""


# ----- records ----------------------------------------------------------------------------------


@dataclass
class GameRecord:
    """One stored game: its table, seating, how to rebuild it (variant, options, seed, actions)."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    variant: str
    family: str
    options: dict[str, Any]
    seed: int
    players: int
    seats: list[dict[str, Any] | None]
    message_id: int | None
    status: str
    created_at: float
    updated_at: float
    finished_at: float | None
    league_id: int | None
    actions: list[tuple[int, str]] = field(default_factory=list)

    @property
    def is_unfinished(self) -> bool:
        return self.status in UNFINISHED

    def engine_record(self) -> dict[str, Any]:
        """This game in ``Game.to_json`` form, ready for ``Game.from_json`` (which replays the log)."""
        return {
            "variant": self.variant,
            "players": self.players,
            "options": dict(self.options),
            "seed": self.seed,
            "log": [[seat, action] for seat, action in self.actions],
        }

    def to_json(self) -> dict[str, Any]:
        """A plain dict (json.dumps-able)."""
        return asdict(self)


@dataclass(frozen=True)
class SeatResult:
    """How one seat finished. ``place`` 1 is the winner; partners share their side's place."""

    seat: int
    user_id: int | None  # None for a computer seat
    side: int
    score: int
    place: int


@dataclass
class GuildSettings:
    """A guild's settings; a guild that never changed anything gets these defaults."""

    guild_id: int
    turn_timeout_seconds: int = 300  # 0 = no turn timer
    computer_delay_seconds: float = 1.0
    rate_computer_games: bool = False
    default_options: dict[str, dict[str, Any]] = field(default_factory=dict)  # variant -> options

    def to_json(self) -> dict[str, Any]:
        """A plain dict (json.dumps-able)."""
        return asdict(self)


@dataclass
class LeaderRow:
    """One line of a leaderboard. ``win_pct`` is a percentage (0-100)."""

    rank: int
    user_id: int
    rating: float
    games: int
    wins: int
    win_pct: float


@dataclass
class StandingRow:
    """One line of league standings: ordered by wins, then points (sum of final scores)."""

    rank: int
    user_id: int
    wins: int
    games: int
    points: int
    win_pct: float


@dataclass
class League:
    """A league night. It runs while ``ended_at`` is None; games finished meanwhile count."""

    id: int
    guild_id: int
    name: str
    family: str | None  # None: every game family counts
    started_at: float
    ends_at: float | None  # planned end (None: until ended by hand)
    ended_at: float | None
    channel_id: int | None = None  # where it was started: its standings are posted there

    @property
    def running(self) -> bool:
        return self.ended_at is None

    def to_json(self) -> dict[str, Any]:
        """A plain dict (json.dumps-able)."""
        return asdict(self)


@dataclass
class FamilyRating:
    """A player's rating in one game family; ``trend`` is its change over the last 10 games."""

    family: str
    rating: float
    mu: float
    sigma: float
    games: int
    wins: int
    trend: float


@dataclass
class RecentGame:
    game_id: int
    variant: str
    family: str
    place: int
    score: int
    won: bool
    finished_at: float


@dataclass
class PlayerStats:
    """Everything ``/stats`` shows for one player in one guild."""

    guild_id: int
    user_id: int
    games: int
    wins: int
    win_pct: float
    best_streak: int
    current_streak: int
    average_score: float | None
    favourite_variant: str | None
    ratings: list[FamilyRating]
    recent: list[RecentGame]

    def to_json(self) -> dict[str, Any]:
        """A plain dict (json.dumps-able)."""
        return asdict(self)


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


# ----- validation helpers -----------------------------------------------------------------------


def _win_pct(wins: int, games: int) -> float:
    return round(100.0 * wins / games, 1) if games else 0.0


def _is_int(value: Any) -> bool:
    # bool is an int subclass; True as a user id or a timeout is always a bug.
    return isinstance(value, int) and not isinstance(value, bool)


def _check_id(value: Any, what: str) -> int:
    if not _is_int(value) or not -INT64 <= value < INT64:
        raise StoreError(f"{what} must be a whole number that fits in 64 bits, not {value!r}")
    return int(value)


def _dumps(value: Any, what: str) -> str:
    try:
        return json.dumps(value, separators=(",", ":"), sort_keys=True, allow_nan=False)
    except (TypeError, ValueError) as err:
        raise StoreError(f"{what} cannot be saved: {err}") from None


def _seats_json(seats: Any) -> str:
    """Check the seat list (human seats need an integer user id, nobody sits twice) and encode it."""
    if not isinstance(seats, list):
        raise StoreError(f"seats must be a list, not {type(seats).__name__}")
    seen: set[int] = set()
    for number, seat in enumerate(seats, start=1):
        if seat is None:
            continue  # an open seat in a lobby
        if not isinstance(seat, dict):
            raise StoreError(f"seat {number} must be a dict or None, not {seat!r}")
        if seat.get("kind") == "human":
            user_id: Any = seat.get("user_id")
            if not _is_int(user_id):
                raise StoreError(f"seat {number} is a human seat without an integer user_id")
            # One person in two seats would make ratings and /stats count them twice.
            if user_id in seen:
                raise StoreError(f"user {user_id} already has a seat at this table")
            seen.add(user_id)
    return _dumps(seats, "seats")


def _check_status(status: str) -> None:
    if status not in STATUSES:
        raise StoreError(f"status must be one of {', '.join(STATUSES)}, not {status!r}")


def _check_default_options(value: Any) -> dict[str, dict[str, Any]]:
    """Validate house-rule defaults against the engine's option schemas; returns them normalised."""
    if not isinstance(value, Mapping):
        raise StoreError("default_options must map a variant name to its options")
    out: dict[str, dict[str, Any]] = {}
    for variant, options in value.items():
        if not isinstance(variant, str):
            raise StoreError(f"default_options: {variant!r} is not a variant name")
        if not isinstance(options, Mapping):
            raise StoreError(f"default_options for {variant} must be a mapping of option to value")
        try:
            cls = find_variant(variant)
            resolved = resolve_options(cls.option_specs, options, cls.name)
        except EngineError as err:
            raise StoreError(f"default_options: {err}") from None
        if options:
            # Keep only what was set so later changes to an option's default still apply.
            out[cls.name] = {name: resolved[name] for name in options}
    return out


def _csv_text(value: str) -> str:
    """Neutralise spreadsheet formulas in free text (player names): '=cmd()' becomes "'=cmd()"."""
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def load_migrations(folder: Traversable = MIGRATIONS_DIR) -> list[Migration]:
    """The migrations in ``folder`` (``NNNN_name.sql``), checked to be numbered 1, 2, 3, … ."""
    if not folder.is_dir():
        raise StoreError(f"no migrations found: {folder} is missing (a broken install: reinstall it)")
    migrations = []
    for path in sorted((p for p in folder.iterdir() if p.name.endswith(".sql")), key=lambda p: p.name):
        match = _MIGRATION_NAME.match(path.name)
        if match is None:
            raise StoreError(f"migration file {path} is not named like 0001_short_name.sql")
        migrations.append(Migration(int(match[1]), match[2], path.read_text(encoding="utf-8")))
    for expected, migration in enumerate(migrations, start=1):
        if migration.version != expected:
            raise StoreError(f"migrations in {folder} skip or repeat number {expected:04d}")
    if not migrations:
        raise StoreError(f"no migrations found in {folder}")
    return migrations


def _check_file(given: str | Path) -> Path:
    """Before SQLite sees the file: make its folder, and refuse anything that is not SQLite."""
    path = Path(given).expanduser().absolute()
    if path.is_dir():
        raise StoreError(f"{path} is a folder, not a database file")
    try:
        prepare_database_file(path)  # folder 0700 and file 0600 when new (bot/files.py)
        if path.exists() and path.stat().st_size > 0:
            with path.open("rb") as handle:
                header = handle.read(len(SQLITE_MAGIC))
        else:
            header = None  # missing or empty: SQLite makes a new database there
    except OSError as err:
        raise StoreError(f"cannot use {path} as the database: {err.strerror or err}") from None
    if header is not None and header != SQLITE_MAGIC:
        raise StoreError(
            f"{path} is not a Trick Night database (it is not an SQLite file at all). "
            "It was left untouched: move it away or set TRICKNIGHT_DATABASE to another path."
        )
    return path


# ----- the store --------------------------------------------------------------------------------


class Store:
    """The bot's database. Create with ``await Store.open(path)``; ``await store.close()`` at exit."""

    def __init__(self, conn: aiosqlite.Connection, label: str) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()
        self.path = label
        self.schema_version = 0
        self.default_computer_delay = 1.0

    # ----- opening, migrations, closing ------------------------------------------------------
    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        migrations_dir: Traversable | None = None,
        integrity_check: bool = True,
        default_computer_delay: float = 1.0,
    ) -> Store:
        """Open (or create) the database at ``path`` and bring its schema up to date.

        ``":memory:"`` gives a private in-memory database (for tests). Raises ``StoreError`` if the
        file is not a Trick Night database, is damaged, or was written by a newer Trick Night.
        ``integrity_check`` runs SQLite's quick_check first (about a second per million results),
        so damage anywhere in the file stops start-up instead of surfacing mid-game.
        ``default_computer_delay`` is the computer delay of a guild that never set its own.
        """
        migrations = await asyncio.to_thread(load_migrations, migrations_dir or MIGRATIONS_DIR)
        if str(path) == ":memory:":
            target, label = ":memory:", ":memory:"
        else:
            file = await asyncio.to_thread(_check_file, path)
            target, label = str(file), str(file)
        try:
            conn = await aiosqlite.connect(target, isolation_level=None)
        except sqlite3.Error as err:
            raise StoreError(f"cannot open the database {label}: {err}") from None
        conn.row_factory = sqlite3.Row
        store = cls(conn, label)
        store.default_computer_delay = float(default_computer_delay)
        try:
            await store._prepare(migrations, integrity_check=integrity_check)
        except BaseException:
            await conn.close()
            raise
        return store

    async def _prepare(self, migrations: list[Migration], *, integrity_check: bool) -> None:
        latest = migrations[-1].version
        try:
            # Look before writing anything: WAL mode and migrations both change the file.
            version = int(await self._value("PRAGMA user_version"))
            tables = {
                row[0] for row in await self._all("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
            tables = {name for name in tables if not name.startswith("sqlite_")}
            if tables or version:
                owner = None
                if "tricknight_meta" in tables:
                    row = await self._one("SELECT value FROM tricknight_meta WHERE key = 'application'")
                    owner = row[0] if row else None
                if owner != APPLICATION:
                    some = ", ".join(sorted(tables)[:5]) or "no tables"
                    raise StoreError(
                        f"{self.path} is not a Trick Night database (it is an SQLite database of "
                        f"something else: {some}; schema {version}). It was left untouched: move it "
                        "away or set TRICKNIGHT_DATABASE to another path."
                    )
                if version == 0:
                    raise StoreError(f"{self.path} is a damaged Trick Night database (no schema version)")
            if version > latest:
                raise StoreError(
                    f"{self.path} was written by a newer Trick Night (schema {version}, this version "
                    f"knows {latest}). Upgrade Trick Night, or set TRICKNIGHT_DATABASE to another file; "
                    "the database was left untouched."
                )
            if integrity_check and tables:
                problems = [row[0] for row in await self._all("PRAGMA quick_check(3)")]
                if problems != ["ok"]:
                    raise StoreError(
                        f"{self.path} is a damaged Trick Night database ({'; '.join(problems)}). It was "
                        "left in place: restore a backup, or move it away to start a new one."
                    )
            mode = await self._value("PRAGMA journal_mode = WAL")
            if mode not in ("wal", "memory"):
                raise StoreError(f"{self.path}: SQLite refused WAL mode (journal mode is {mode})")
            # NORMAL is safe with WAL: a killed process loses nothing committed (only power loss can
            # drop the newest transactions), and commits do not wait for an fsync.
            await self._conn.execute("PRAGMA synchronous = NORMAL")
            await self._conn.execute("PRAGMA foreign_keys = ON")
            await self._conn.execute("PRAGMA busy_timeout = 5000")
            for migration in migrations[version:]:
                await self._migrate(migration)
                version = migration.version
        except sqlite3.DatabaseError as err:
            raise StoreError(
                f"{self.path} is not a Trick Night database or is damaged ({err}). It was left in "
                "place: restore a backup, move it away, or set TRICKNIGHT_DATABASE to another path."
            ) from None
        self.schema_version = version

    async def _migrate(self, migration: Migration) -> None:
        # The schema change and the new user_version commit together, so a crash mid-upgrade
        # leaves the previous version, which the next start upgrades again.
        script = (
            f"BEGIN IMMEDIATE;\n{migration.sql}\n;\nPRAGMA user_version = {migration.version:d};\nCOMMIT;"
        )
        try:
            await self._conn.executescript(script)
        except sqlite3.Error as err:
            if self._conn.in_transaction:
                await self._conn.rollback()
            raise StoreError(
                f"could not upgrade {self.path} to schema {migration.version} ({migration.name}): {err}. "
                f"The database stays at schema {migration.version - 1}."
            ) from None

    async def close(self) -> None:
        """Close the database (safe to call twice)."""
        async with self._lock:
            if self._conn is None:
                return
            with contextlib.suppress(sqlite3.Error):
                # Lets SQLite refresh its planner statistics when they are stale; cheap.
                await self._conn.execute("PRAGMA optimize")
            await self._conn.close()
            self._conn = None  # type: ignore[assignment]

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ----- low-level helpers -------------------------------------------------------------------
    async def _all(self, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()) -> list[sqlite3.Row]:
        if self._conn is None:
            raise StoreError("the store is closed")
        return list(await self._conn.execute_fetchall(sql, params))

    async def _one(self, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()) -> sqlite3.Row | None:
        rows = await self._all(sql, params)
        return rows[0] if rows else None

    async def _value(self, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()) -> Any:
        """The first column of the first row of a query that always returns a row."""
        row = await self._one(sql, params)
        if row is None:
            raise StoreError(f"the database returned nothing for {sql!r} (is it damaged?)")
        return row[0]

    async def _run(self, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()) -> int | None:
        async with self._conn.execute(sql, params) as cursor:
            return cursor.lastrowid

    @contextlib.asynccontextmanager
    async def _read(self) -> AsyncIterator[None]:
        # Reads take the lock too, so they never see another coroutine's half-done transaction.
        async with self._lock:
            if self._conn is None:
                raise StoreError("the store is closed")
            try:
                yield
            except sqlite3.Error as err:
                raise self._database_error(err, "") from err

    @contextlib.asynccontextmanager
    async def _write(self) -> AsyncIterator[None]:
        """One transaction: everything inside commits together or not at all."""
        async with self._lock:
            if self._conn is None:
                raise StoreError("the store is closed")
            if self._conn.in_transaction:
                # Left open by a writer cancelled during its rollback; nothing of it was committed.
                await self._conn.rollback()
            try:
                await self._conn.execute("BEGIN IMMEDIATE")
                yield
                await self._conn.execute("COMMIT")
            except BaseException as err:
                if self._conn.in_transaction:
                    await self._conn.rollback()
                if isinstance(err, sqlite3.Error):
                    raise self._database_error(err, " (nothing of this change was saved)") from err
                raise

    def _database_error(self, err: sqlite3.Error, note: str) -> StoreError:
        # Callers catch one exception type; the SQLite error stays attached as __cause__.
        return StoreError(f"the database {self.path} failed: {err}{note}")

    # ----- games -------------------------------------------------------------------------------
    async def create_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        variant: str,
        family: str,
        options: dict[str, Any],
        seed: int,
        players: int,
        seats: list[dict[str, Any] | None],
        status: str = "lobby",
    ) -> int:
        """Record a new table and return its game id."""
        _check_status(status)
        if status not in UNFINISHED:
            raise StoreError(f"a new game starts as lobby or playing, not {status}")
        if not _is_int(players) or players < 1:
            raise StoreError(f"players must be a positive whole number, not {players!r}")
        params = (
            _check_id(guild_id, "guild_id"),
            _check_id(channel_id, "channel_id"),
            _check_id(host_id, "host_id"),
            variant,
            family,
            _dumps(options, "options"),
            _check_id(seed, "seed"),
            players,
            _seats_json(seats),
            status,
        )
        now = time.time()
        async with self._write():
            game_id = await self._run(
                "INSERT INTO games (guild_id, channel_id, host_id, variant, family, options, seed, players,"
                " seats, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (*params, now, now),
            )
        assert game_id is not None
        return game_id

    async def update_game(
        self,
        game_id: int,
        *,
        seats: list[dict[str, Any] | None] | None = None,
        status: str | None = None,
        message_id: int | None = None,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        players: int | None = None,
        host_id: int | None = None,
    ) -> None:
        """Change the given fields of an existing game (None leaves a field as it is).

        A game is ended only by ``finish_game``; an ended or abandoned game keeps its status.
        """
        if status is not None:
            _check_status(status)
            if status == "ended":
                raise StoreError("a game is ended by finish_game, which also records its result")
        if players is not None and (not _is_int(players) or players < 1):
            raise StoreError(f"players must be a positive whole number, not {players!r}")
        params = (
            None if seats is None else _seats_json(seats),
            status,
            None if message_id is None else _check_id(message_id, "message_id"),
            None if options is None else _dumps(options, "options"),
            None if seed is None else _check_id(seed, "seed"),
            players,
            None if host_id is None else _check_id(host_id, "host_id"),
            time.time(),
            game_id,
        )
        async with self._write():
            row = await self._one("SELECT status FROM games WHERE id = ?", (game_id,))
            if row is None:
                raise GameNotFound(f"there is no game {game_id}")
            if status is not None and status != row["status"] and row["status"] not in UNFINISHED:
                raise StoreError(f"game {game_id} is {row['status']}; it cannot become {status}")
            # COALESCE keeps the stored value for every field passed as None: one fixed statement.
            await self._run(
                "UPDATE games SET seats = COALESCE(?, seats), status = COALESCE(?, status),"
                " message_id = COALESCE(?, message_id), options = COALESCE(?, options),"
                " seed = COALESCE(?, seed), players = COALESCE(?, players), host_id = COALESCE(?, host_id),"
                " updated_at = ? WHERE id = ?",
                params,
            )

    async def append_action(self, game_id: int, idx: int, seat: int, action: str) -> None:
        """Append one accepted action to a game's log, in its own transaction.

        ``idx`` must be the number of actions already logged; anything else (a retried or
        duplicated write, a lost one) raises ``ActionOutOfOrder`` and writes nothing.
        """
        if not _is_int(idx) or not _is_int(seat) or not isinstance(action, str):
            raise StoreError("append_action needs an integer index and seat and the action as text")
        async with self._write():
            row = await self._one("SELECT status FROM games WHERE id = ?", (game_id,))
            if row is None:
                raise GameNotFound(f"there is no game {game_id}")
            if row["status"] not in UNFINISHED:
                raise StoreError(f"game {game_id} is {row['status']}; no more actions can be recorded")
            count = await self._value("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,))
            if idx != count:
                raise ActionOutOfOrder(
                    f"game {game_id} has {count} actions logged, so the next is number {count}, not {idx}"
                )
            now = time.time()
            await self._run(
                "INSERT INTO actions (game_id, idx, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                (game_id, idx, seat, action, now),
            )
            await self._run("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))

    @staticmethod
    def _game(row: sqlite3.Row, actions: list[tuple[int, str]]) -> GameRecord:
        return GameRecord(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            host_id=row["host_id"],
            variant=row["variant"],
            family=row["family"],
            options=json.loads(row["options"]),
            seed=row["seed"],
            players=row["players"],
            seats=json.loads(row["seats"]),
            message_id=row["message_id"],
            status=row["status"],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            finished_at=row["finished_at"],
            league_id=row["league_id"],
            actions=actions,
        )

    async def load_game(self, game_id: int) -> GameRecord:
        """The game with this id and its action log; raises ``GameNotFound``."""
        async with self._read():
            return await self._load_game(game_id)

    async def _load_game(self, game_id: int) -> GameRecord:
        row = await self._one("SELECT * FROM games WHERE id = ?", (game_id,))
        if row is None:
            raise GameNotFound(f"there is no game {game_id}")
        actions = await self._all(
            "SELECT seat, action FROM actions WHERE game_id = ? ORDER BY idx", (game_id,)
        )
        return self._game(row, [(a["seat"], a["action"]) for a in actions])

    async def unfinished_games(self) -> list[GameRecord]:
        """Every game in the lobby or being played (what start-up resumes), oldest first."""
        async with self._read():
            rows = await self._all("SELECT * FROM games WHERE status IN ('lobby', 'playing') ORDER BY id")
            actions = await self._all(
                "SELECT a.game_id, a.seat, a.action FROM games g JOIN actions a ON a.game_id = g.id"
                " WHERE g.status IN ('lobby', 'playing') ORDER BY a.game_id, a.idx"
            )
        logs: dict[int, list[tuple[int, str]]] = {}
        for action in actions:
            logs.setdefault(action["game_id"], []).append((action["seat"], action["action"]))
        return [self._game(row, logs.get(row["id"], [])) for row in rows]

    async def game_by_channel(self, channel_id: int) -> GameRecord | None:
        """The unfinished game in this channel (the newest, should there be several), or None."""
        async with self._read():
            row = await self._one(
                "SELECT id FROM games WHERE channel_id = ? AND status IN ('lobby', 'playing')"
                " ORDER BY id DESC LIMIT 1",
                (channel_id,),
            )
            return None if row is None else await self._load_game(row["id"])

    # ----- results and ratings -----------------------------------------------------------------
    async def finish_game(
        self,
        game_id: int,
        *,
        guild_id: int,
        family: str,
        results: Sequence[SeatResult | Mapping[str, Any]],
        rated: bool,
        finished_at: float | None = None,
    ) -> bool:
        """Record a finished game in one transaction: results, ratings, league credit, status 'ended'.

        Returns False and writes nothing if the game is already ended (or was abandoned), so a
        retry after a crash or a double call is harmless. With ``rated`` False, mu and sigma stay
        put but humans' games and wins still count. ``results`` may be ``SeatResult``s or dicts
        with the same keys.
        """
        try:
            rows = [r if isinstance(r, SeatResult) else SeatResult(**r) for r in results]
        except TypeError as err:
            raise StoreError(
                f"game {game_id}: a seat result needs seat, user_id, side, score, place ({err})"
            ) from None
        if not rows:
            raise StoreError(f"game {game_id}: finish_game needs at least one seat result")
        seats = [r.seat for r in rows]
        if len(set(seats)) != len(seats):
            raise StoreError(f"game {game_id}: a seat appears twice in the results")
        humans = [r.user_id for r in rows if r.user_id is not None]
        if len(set(humans)) != len(humans):
            raise StoreError(f"game {game_id}: a player appears in two seats of the results")
        for r in rows:
            numbers = (r.seat, r.side, r.score, r.place)
            if not all(map(_is_int, numbers)) or r.place < 1 or not (r.user_id is None or _is_int(r.user_id)):
                raise StoreError(f"game {game_id}: bad result for seat {r.seat}: {r}")
        at = time.time() if finished_at is None else float(finished_at)

        async with self._write():
            game = await self._one(
                "SELECT guild_id, family, variant, status, players FROM games WHERE id = ?", (game_id,)
            )
            if game is None:
                raise GameNotFound(f"there is no game {game_id}")
            if game["status"] not in UNFINISHED:
                return False
            if game["guild_id"] != guild_id or game["family"] != family:
                raise StoreError(
                    f"game {game_id} belongs to guild {game['guild_id']} ({game['family']}),"
                    f" not guild {guild_id} ({family})"
                )
            if any(not 0 <= seat < game["players"] for seat in seats):
                raise StoreError(f"game {game_id} has seats 0-{game['players'] - 1}, results name {seats}")
            league = await self._one(
                "SELECT id FROM leagues WHERE guild_id = ? AND ended_at IS NULL AND started_at <= ?"
                " AND (ends_at IS NULL OR ends_at > ?) AND (family IS NULL OR family = ?)",
                (guild_id, at, at, family),
            )
            league_id = None if league is None else league["id"]
            await self._rate(game_id, guild_id=guild_id, family=family, results=rows, rated=rated, at=at)
            await self._conn.executemany(
                "INSERT INTO results (game_id, seat, user_id, side, score, place, guild_id, family,"
                " variant, finished_at, league_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        *(game_id, r.seat, r.user_id, r.side, r.score, r.place),
                        *(guild_id, family, game["variant"], at, league_id),
                    )
                    for r in rows
                ],
            )
            await self._run(
                "UPDATE games SET status = 'ended', finished_at = ?, updated_at = ?, league_id = ?"
                " WHERE id = ?",
                (at, at, league_id, game_id),
            )
        return True

    async def _rate(
        self, game_id: int, *, guild_id: int, family: str, results: list[SeatResult], rated: bool, at: float
    ) -> None:
        """Update humans' ratings, games and wins, and log each player's rating for trends."""
        before: dict[int, tuple[float, float]] = {}
        for r in results:
            if r.user_id is not None:
                row = await self._one(
                    "SELECT mu, sigma FROM ratings WHERE guild_id = ? AND family = ? AND user_id = ?",
                    (guild_id, family, r.user_id),
                )
                default = _MODEL.rating()
                before[r.user_id] = (row["mu"], row["sigma"]) if row else (default.mu, default.sigma)
        if not before:
            return  # computers only: nobody to rate
        after = dict(before)
        sides = sorted({r.side for r in results})
        if rated and len(sides) >= 2:
            # Each side is a team; computers play with the model's default rating, which is not kept.
            members = [[r for r in results if r.side == side] for side in sides]
            teams = [
                [
                    _MODEL.rating(*before[r.user_id]) if r.user_id is not None else _MODEL.rating()
                    for r in team
                ]
                for team in members
            ]
            ranks = [float(min(r.place for r in team)) for team in members]
            rated_teams = _MODEL.rate(teams, ranks=ranks)
            for team, new in zip(members, rated_teams, strict=True):
                for r, rating in zip(team, new, strict=True):
                    if r.user_id is not None:
                        after[r.user_id] = (rating.mu, rating.sigma)
        for r in results:
            if r.user_id is None:
                continue
            mu, sigma = after[r.user_id]
            old_mu, old_sigma = before[r.user_id]
            won = int(r.place == 1)
            await self._run(
                "INSERT INTO ratings (guild_id, family, user_id, mu, sigma, ordinal, games, wins)"
                " VALUES (?, ?, ?, ?, ?, ?, 1, ?) ON CONFLICT (guild_id, family, user_id) DO UPDATE SET"
                " mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal,"
                " games = games + 1, wins = wins + excluded.wins",
                (guild_id, family, r.user_id, mu, sigma, mu - 3 * sigma, won),
            )
            await self._run(
                "INSERT INTO rating_history (game_id, user_id, guild_id, family, mu, sigma, ordinal_before,"
                " ordinal, rated, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    *(game_id, r.user_id, guild_id, family, mu, sigma),
                    *(old_mu - 3 * old_sigma, mu - 3 * sigma, int(rated), at),
                ),
            )

    # ----- guild settings ----------------------------------------------------------------------
    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings (defaults if it never changed any)."""
        async with self._read():
            row = await self._one("SELECT * FROM guilds WHERE guild_id = ?", (guild_id,))
        if row is None:
            return GuildSettings(guild_id, computer_delay_seconds=self.default_computer_delay)
        return GuildSettings(
            guild_id=guild_id,
            turn_timeout_seconds=row["turn_timeout_seconds"],
            computer_delay_seconds=row["computer_delay_seconds"],
            rate_computer_games=bool(row["rate_computer_games"]),
            default_options=json.loads(row["default_options"]),
        )

    async def update_guild_settings(self, guild_id: int, **changes: Any) -> GuildSettings:
        """Change some settings and return them all. Raises ``StoreError`` on a bad name or value.

        ``turn_timeout_seconds``: 0 (off) to 86400; ``computer_delay_seconds``: 0 to 30;
        ``rate_computer_games``: bool; ``default_options``: {variant: {option: value}} (replaces the
        whole mapping; checked against the variant's house rules).
        """
        checked: dict[str, Any] = {}
        for name, value in changes.items():
            if name == "turn_timeout_seconds":
                if not _is_int(value) or not 0 <= value <= MAX_TURN_TIMEOUT:
                    raise StoreError(
                        f"the turn timer is 0 (off) or up to {MAX_TURN_TIMEOUT} seconds, not {value!r}"
                    )
                checked[name] = int(value)
            elif name == "computer_delay_seconds":
                if (
                    isinstance(value, bool)
                    or not isinstance(value, int | float)
                    or not math.isfinite(value)
                    or not 0 <= value <= MAX_COMPUTER_DELAY
                ):
                    raise StoreError(
                        f"the computer delay is 0 to {MAX_COMPUTER_DELAY:g} seconds, not {value!r}"
                    )
                checked[name] = float(value)
            elif name == "rate_computer_games":
                if not isinstance(value, bool):
                    raise StoreError(f"rate_computer_games is True or False, not {value!r}")
                checked[name] = value
            elif name == "default_options":
                checked[name] = _check_default_options(value)
            else:
                valid = "turn_timeout_seconds, computer_delay_seconds, rate_computer_games, default_options"
                raise StoreError(f"there is no guild setting {name!r}; the settings are {valid}")
        async with self._write():
            row = await self._one("SELECT * FROM guilds WHERE guild_id = ?", (guild_id,))
            settings = (
                GuildSettings(guild_id, computer_delay_seconds=self.default_computer_delay)
                if row is None
                else GuildSettings(
                    guild_id,
                    row["turn_timeout_seconds"],
                    row["computer_delay_seconds"],
                    bool(row["rate_computer_games"]),
                    json.loads(row["default_options"]),
                )
            )
            for name, value in checked.items():
                setattr(settings, name, value)
            await self._run(
                "INSERT INTO guilds (guild_id, turn_timeout_seconds, computer_delay_seconds,"
                " rate_computer_games, default_options, updated_at) VALUES (?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET turn_timeout_seconds = excluded.turn_timeout_seconds,"
                " computer_delay_seconds = excluded.computer_delay_seconds,"
                " rate_computer_games = excluded.rate_computer_games,"
                " default_options = excluded.default_options, updated_at = excluded.updated_at",
                (
                    guild_id,
                    settings.turn_timeout_seconds,
                    settings.computer_delay_seconds,
                    int(settings.rate_computer_games),
                    _dumps(settings.default_options, "default_options"),
                    time.time(),
                ),
            )
        return settings

    # ----- leaderboards ------------------------------------------------------------------------
    async def _board_source(
        self, guild_id: int, family: str | None, league_id: int | None
    ) -> tuple[str, dict[str, Any]]:
        """The SQL yielding (user_id, rating, games, wins) for one leaderboard, and its parameters."""
        params: dict[str, Any] = {"guild": guild_id, "family": family, "league": league_id}
        if league_id is not None:
            league = await self._one("SELECT guild_id, family FROM leagues WHERE id = ?", (league_id,))
            if league is None or league["guild_id"] != guild_id:
                raise StoreError(f"there is no league {league_id} in this server")
            params["family"] = family or league["family"]
            # Games and wins within the league; the rating shown is the player's current one.
            return _LEAGUE_BOARD, params
        return (_ALL_FAMILIES_BOARD if family is None else _FAMILY_BOARD), params

    async def leaderboard(
        self,
        guild_id: int,
        *,
        family: str | None = None,
        league_id: int | None = None,
        order: str = "rating",
        limit: int = 10,
        offset: int = 0,
    ) -> list[LeaderRow]:
        """One page of a guild's leaderboard, best first.

        ``family`` None ranks across every family (games and wins summed, rating = the player's
        best family). ``league_id`` counts only games credited to that league. Ties go by the order
        key, then wins, then games (both descending), then user id, so pages never shuffle.
        """
        if order not in ORDERS:
            raise StoreError(f"order must be one of {', '.join(ORDERS)}, not {order!r}")
        if not _is_int(limit) or not 1 <= limit <= MAX_PAGE or not _is_int(offset) or offset < 0:
            raise StoreError(f"limit must be 1 to {MAX_PAGE} and offset 0 or more")
        async with self._read():
            source, params = await self._board_source(guild_id, family, league_id)
            rows = await self._all(
                # Wrapped so ORDER BY sees the board's columns, never the raw ones they aggregate.
                "SELECT * FROM (" + source + ")" + _BOARD_ORDER[order] + " LIMIT :limit OFFSET :offset",  # noqa: S608
                {**params, "limit": limit, "offset": offset},
            )
        return [
            LeaderRow(
                rank=offset + n,
                user_id=row["user_id"],
                rating=row["rating"],
                games=row["games"],
                wins=row["wins"],
                win_pct=_win_pct(row["wins"], row["games"]),
            )
            for n, row in enumerate(rows, start=1)
        ]

    async def leaderboard_count(
        self, guild_id: int, *, family: str | None = None, league_id: int | None = None
    ) -> int:
        """How many players ``leaderboard`` would list in all (for paging)."""
        async with self._read():
            source, params = await self._board_source(guild_id, family, league_id)
            row = await self._one("SELECT COUNT(*) FROM (" + source + ")", params)  # noqa: S608
        return int(row[0]) if row else 0

    # ----- player stats ------------------------------------------------------------------------
    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats:
        """A player's record in one guild (all zeros/None for someone who never finished a game)."""
        key = {"guild": guild_id, "user": user_id, "recent": RECENT_GAMES, "trend": TREND_GAMES - 1}
        # Three queries, not one per figure: each query is a round trip to aiosqlite's thread.
        async with self._read():
            totals = await self._one(_STATS_TOTALS, key)
            recent = await self._all(
                "SELECT game_id, variant, family, place, score, finished_at FROM results"
                " WHERE guild_id = :guild AND user_id = :user"
                " ORDER BY finished_at DESC, game_id DESC LIMIT :recent",
                key,
            )
            ratings = await self._all(_STATS_RATINGS, key)
        games = totals["games"] if totals else 0
        wins = totals["wins"] if totals else 0
        return PlayerStats(
            guild_id=guild_id,
            user_id=user_id,
            games=games,
            wins=wins,
            win_pct=_win_pct(wins, games),
            best_streak=totals["best_streak"] if totals else 0,
            current_streak=totals["current_streak"] if totals else 0,
            average_score=totals["avg_score"] if totals else None,
            favourite_variant=totals["favourite"] if totals else None,
            ratings=[
                FamilyRating(
                    family=row["family"],
                    rating=row["ordinal"],
                    mu=row["mu"],
                    sigma=row["sigma"],
                    games=row["games"],
                    wins=row["wins"],
                    trend=0.0 if row["start"] is None else row["ordinal"] - row["start"],
                )
                for row in ratings
            ],
            recent=[
                RecentGame(
                    game_id=row["game_id"],
                    variant=row["variant"],
                    family=row["family"],
                    place=row["place"],
                    score=row["score"],
                    won=row["place"] == 1,
                    finished_at=row["finished_at"],
                )
                for row in recent
            ],
        )

    # ----- leagues -----------------------------------------------------------------------------
    @staticmethod
    def _league(row: sqlite3.Row) -> League:
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

    async def start_league(
        self,
        guild_id: int,
        name: str,
        family: str | None = None,
        ends_at: float | None = None,
        *,
        started_at: float | None = None,
        channel_id: int | None = None,
    ) -> League:
        """Start a league night; raises ``StoreError`` if one is already running in the guild."""
        name = name.strip() if isinstance(name, str) else ""
        if not name or len(name) > MAX_LEAGUE_NAME:
            raise StoreError(f"a league needs a name of 1 to {MAX_LEAGUE_NAME} characters")
        start = time.time() if started_at is None else float(started_at)
        if ends_at is not None and not ends_at > start:
            raise StoreError("a league must end after it starts")
        async with self._write():
            running = await self._one(
                "SELECT name, ends_at FROM leagues WHERE guild_id = ? AND ended_at IS NULL", (guild_id,)
            )
            if running is not None:
                raise StoreError(
                    f"the league {running['name']!r} is still running in this server; end it first"
                )
            league_id = await self._run(
                "INSERT INTO leagues (guild_id, name, family, started_at, ends_at, channel_id)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (guild_id, name, family, start, ends_at, channel_id),
            )
        return League(league_id or 0, guild_id, name, family, start, ends_at, None, channel_id)

    async def active_league(self, guild_id: int) -> League | None:
        """The guild's running league, or None. It may be past ``ends_at`` (see ``due_leagues``)."""
        async with self._read():
            row = await self._one(
                "SELECT * FROM leagues WHERE guild_id = ? AND ended_at IS NULL", (guild_id,)
            )
        return None if row is None else self._league(row)

    async def league(self, league_id: int) -> League | None:
        """The league with this id, running or not, or None."""
        async with self._read():
            row = await self._one("SELECT * FROM leagues WHERE id = ?", (league_id,))
        return None if row is None else self._league(row)

    async def leagues(self, guild_id: int, *, limit: int = 25) -> list[League]:
        """The guild's leagues, newest first (for pickers and autocomplete)."""
        async with self._read():
            rows = await self._all(
                "SELECT * FROM leagues WHERE guild_id = ? ORDER BY started_at DESC, id DESC LIMIT ?",
                (guild_id, limit),
            )
        return [self._league(row) for row in rows]

    async def due_leagues(self, now: float | None = None) -> list[League]:
        """Running leagues whose planned end has passed (in every guild): the bot should end them."""
        async with self._read():
            rows = await self._all(
                "SELECT * FROM leagues WHERE ended_at IS NULL AND ends_at <= ? ORDER BY ends_at, id",
                (time.time() if now is None else now,),
            )
        return [self._league(row) for row in rows]

    async def end_league(self, guild_id: int) -> tuple[League, list[StandingRow]]:
        """End the guild's running league and return it with its final standings.

        A league ended after its planned end is closed at ``ends_at`` (nothing after that counted).
        """
        async with self._write():
            row = await self._one(
                "SELECT * FROM leagues WHERE guild_id = ? AND ended_at IS NULL", (guild_id,)
            )
            if row is None:
                raise StoreError("no league is running in this server")
            league = self._league(row)
            now = time.time()
            league.ended_at = min(now, league.ends_at) if league.ends_at is not None else now
            await self._run("UPDATE leagues SET ended_at = ? WHERE id = ?", (league.ended_at, league.id))
            standings = await self._standings(league.id)
        return league, standings

    async def league_standings(self, league_id: int) -> list[StandingRow]:
        """A league's standings (so far, if it still runs): wins, then points, then fewer games."""
        async with self._read():
            if await self._one("SELECT 1 FROM leagues WHERE id = ?", (league_id,)) is None:
                raise StoreError(f"there is no league {league_id}")
            return await self._standings(league_id)

    async def _standings(self, league_id: int) -> list[StandingRow]:
        rows = await self._all(
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
                win_pct=_win_pct(row["wins"], row["games"]),
            )
            for n, row in enumerate(rows, start=1)
        ]

    # ----- admin -------------------------------------------------------------------------------
    async def reset_leaderboard(self, guild_id: int, family: str | None = None) -> int:
        """Delete a guild's ratings and results (one family, or all); returns results deleted.

        The games themselves stay (ended), so ``finish_game`` still refuses to record them again.
        """
        async with self._write():
            params: tuple[Any, ...] = (guild_id, family, family)
            where = " WHERE guild_id = ? AND (? IS NULL OR family = ?)"
            await self._run("DELETE FROM ratings" + where, params)  # noqa: S608  (constant SQL)
            await self._run("DELETE FROM rating_history" + where, params)  # noqa: S608
            row = await self._one("SELECT COUNT(*) FROM results" + where, params)  # noqa: S608
            await self._run("DELETE FROM results" + where, params)  # noqa: S608
        return int(row[0]) if row else 0

    async def export_csv(self, guild_id: int) -> str:
        """Every result of the guild as CSV text, one row per seat of each finished game.

        Seats and sides are numbered from 1 as players see them; times are ISO 8601 UTC.
        """
        async with self._read():
            rows = await self._all(
                "SELECT r.game_id, r.finished_at, r.variant, r.family, r.league_id, r.seat, r.side,"
                " r.user_id, r.score, r.place, g.seats FROM results r JOIN games g ON g.id = r.game_id"
                " WHERE r.guild_id = ? ORDER BY r.finished_at, r.game_id, r.seat",
                (guild_id,),
            )
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(
            [
                *("game_id", "finished_at", "variant", "family", "league_id", "seat", "side"),
                *("user_id", "player", "score", "place", "won"),
            ]
        )
        seat_lists: dict[int, list[Any]] = {}
        for row in rows:
            seats = seat_lists.setdefault(row["game_id"], json.loads(row["seats"]))
            seat = seats[row["seat"]] if row["seat"] < len(seats) else None
            if isinstance(seat, dict) and seat.get("kind") == "computer":
                player = f"computer ({seat.get('level', '?')})"
            elif isinstance(seat, dict):
                player = str(seat.get("name", ""))
            else:
                player = ""
            when = datetime.fromtimestamp(row["finished_at"], UTC).isoformat(timespec="seconds")
            writer.writerow(
                [
                    *(row["game_id"], when, row["variant"], row["family"], row["league_id"] or ""),
                    *(row["seat"] + 1, row["side"] + 1, row["user_id"] or "", _csv_text(player)),
                    *(row["score"], row["place"], int(row["place"] == 1)),
                ]
            )
        return out.getvalue()


# Leaderboard SQL, built only from these constants (never from input): each yields
# (user_id, rating, games, wins); _BOARD_ORDER adds the ordering for each ``order``.
_FAMILY_BOARD = (
    "SELECT user_id, ordinal AS rating, games, wins FROM ratings"
    " WHERE guild_id = :guild AND family = :family AND games > 0"
)
_ALL_FAMILIES_BOARD = (
    "SELECT user_id, MAX(ordinal) AS rating, SUM(games) AS games, SUM(wins) AS wins FROM ratings"
    " WHERE guild_id = :guild AND games > 0 GROUP BY user_id"
)
_LEAGUE_BOARD = (
    "SELECT r.user_id AS user_id, COUNT(*) AS games, SUM(r.place = 1) AS wins,"
    " COALESCE((SELECT MAX(t.ordinal) FROM ratings t WHERE t.guild_id = :guild AND t.user_id = r.user_id"
    " AND (:family IS NULL OR t.family = :family)), 0.0) AS rating"
    " FROM results r WHERE r.league_id = :league AND r.guild_id = :guild AND r.user_id IS NOT NULL"
    " AND (:family IS NULL OR r.family = :family) GROUP BY r.user_id"
)
_TIES = ", wins DESC, games DESC, user_id ASC"

# One pass over a player's results (the covering index results_player) for every /stats total.
# Best streak by gaps and islands: within a run of wins, the overall position minus the position
# among wins is constant, so each run is one group. The current streak counts wins after the
# last non-win (all wins if there was none).
_STATS_TOTALS = """
WITH mine AS (
    SELECT finished_at, game_id, place, score, variant FROM results
    WHERE guild_id = :guild AND user_id = :user
), last_loss AS (
    SELECT finished_at, game_id FROM mine WHERE place > 1 ORDER BY finished_at DESC, game_id DESC LIMIT 1
), runs AS (
    SELECT place, ROW_NUMBER() OVER (ORDER BY finished_at, game_id)
        - ROW_NUMBER() OVER (PARTITION BY place = 1 ORDER BY finished_at, game_id) AS run
    FROM mine
)
SELECT
    COUNT(*) AS games,
    COALESCE(SUM(place = 1), 0) AS wins,
    AVG(score) AS avg_score,
    (SELECT COALESCE(MAX(n), 0) FROM (SELECT COUNT(*) AS n FROM runs WHERE place = 1 GROUP BY run))
        AS best_streak,
    CASE WHEN EXISTS (SELECT 1 FROM last_loss)
        THEN (SELECT COUNT(*) FROM mine
              WHERE (finished_at, game_id) > (SELECT finished_at, game_id FROM last_loss))
        ELSE COALESCE(SUM(place = 1), 0) END AS current_streak,
    (SELECT variant FROM mine GROUP BY variant ORDER BY COUNT(*) DESC, MAX(finished_at) DESC, variant LIMIT 1)
        AS favourite
FROM mine
"""

# A player's rating per family, with ``start``: the rating before the oldest of the last
# TREND_GAMES games in that family (OFFSET :trend), or before their first game if fewer.
_STATS_RATINGS = """
SELECT family, mu, sigma, ordinal, games, wins, COALESCE(
    (SELECT h.ordinal_before FROM rating_history h
     WHERE h.guild_id = r.guild_id AND h.user_id = r.user_id AND h.family = r.family
     ORDER BY h.finished_at DESC, h.game_id DESC LIMIT 1 OFFSET :trend),
    (SELECT h.ordinal_before FROM rating_history h
     WHERE h.guild_id = r.guild_id AND h.user_id = r.user_id AND h.family = r.family
     ORDER BY h.finished_at, h.game_id LIMIT 1)
) AS start
FROM ratings r WHERE r.guild_id = :guild AND r.user_id = :user
ORDER BY games DESC, family
"""
_BOARD_ORDER = {
    "rating": " ORDER BY rating DESC" + _TIES,
    "wins": " ORDER BY wins DESC, games DESC, user_id ASC",
    "games": " ORDER BY games DESC, wins DESC, user_id ASC",
    "winpct": " ORDER BY CAST(wins AS REAL) / games DESC" + _TIES,
}
