"""Copying every record of one Trick Night database into another, empty one (``tricknight
migrate-store``, run by ``bot.migrate``: a club moving from SQLite to PostgreSQL loses nothing).

``copy_store(source, target)`` copies table by table, in an order that satisfies the foreign keys,
ids as they are. It is **one transaction on the target**: the target's writer runs one write
whose function inserts batch after batch (``executemany``) as the source's reader hands them over
from **one read transaction on the source** (a consistent snapshot); the two store threads meet in
a small queue (``_Pipe``), so only a few batches are ever in memory, however large the database.
Inside that transaction, before anything commits:

- the target is locked against other writers (PostgreSQL: ``LOCK TABLE … IN EXCLUSIVE MODE``;
  SQLite's writer holds the file's write lock anyway) and must hold no data (``TargetNotEmpty``);
- after each table, its rows are read back and compared with what the source gave: the same count
  (also the source's own ``COUNT(*)``) and the same contents (an order-free digest of every row);
- each identity sequence is moved past the highest id copied (PostgreSQL), so new rows get new ids.

Any failure (a check, a constraint, a lost connection, the caller cancelled) rolls the whole
transaction back: the target is as it was. A transient fault is never retried (the write has no
patience), as the batches it had consumed are gone. The one thing that outlives a rollback is a
PostgreSQL sequence moved by ``setval`` (the last statement before the commit): ids then only skip.

What is not copied: each database's own bookkeeping (``tricknight_meta``'s application, schema
version and last writability check) and the tables of the processes running on it (``NOT_COPIED``:
job claims, PostgreSQL's commit keys, bot processes and shard leases). Both stores must have the same
schema (``Store.open`` brings both to this version's); a source holding a table this version does
not know is refused rather than copied in part.

The checks after the commit (``row_counts`` of each side, every game's record and results,
``stored_games``) and ``clear_copy`` (emptying the target again should they fail) are here too;
replaying the games is the engine's work, in ``bot.migrate``: the store imports nothing of it.
Pure store code: no engine, no Discord. Works in either direction (SQLite to PostgreSQL or back).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import queue
import threading
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.store.database import Tx
from bot.store.errors import StoreError
from bot.store.games import game_record
from bot.store.records import GameRecord

if TYPE_CHECKING:
    from bot.store import Store

BATCH = 5000  # rows per executemany (and per page read)
PIPE_DEPTH = 4  # batches in flight between the source's reader and the target's writer
WAIT_STEP = 0.1  # seconds between looks at the other side while the pipe is full or empty
LOCK_TIMEOUT = "10s"  # how long the copy waits for another process's writes to the target

# tricknight_meta rows that are each database's own, not data: never copied, never "data" in a target.
BOOKKEEPING_KEYS = ("application", "schema_version", "checked_at")
# Tables of the running processes, not of the club: never copied, never "data" in a target.
NOT_COPIED = (
    "job_claims",  # who is doing a job that must run once; a claim lapses (bot/store/jobs.py)
    "store_commits",  # PostgreSQL: each committed group's key (bot/store/postgresql.py)
    "bot_processes",  # PostgreSQL: the processes on the database (bot/postgres_instance.py)
    "shard_leases",  # PostgreSQL, cluster mode: which process runs which shard
    "identify_slots",  # PostgreSQL, cluster mode: when the next IDENTIFY may go
)


@dataclass(frozen=True)
class TableSpec:
    """One table to copy: its primary key (the copy and the checks page through it in that order),
    whether its ``id`` is an identity column, and which of its rows are data (SQL, or empty)."""

    name: str
    key: tuple[str, ...]
    identity: bool = False
    where: str = ""

    def count_sql(self) -> str:
        where = f" WHERE {self.where}" if self.where else ""
        return f"SELECT COUNT(*) FROM {self.name}{where}"  # noqa: S608  (names and conditions are constants)


# Every table of the schema, parents before children.
TABLES: tuple[TableSpec, ...] = (
    TableSpec("tricknight_meta", ("key",), where="key NOT IN ('" + "', '".join(BOOKKEEPING_KEYS) + "')"),
    TableSpec("guilds", ("guild_id",)),
    TableSpec("guild_timezones", ("guild_id",)),
    TableSpec("player_prefs", ("user_id",)),
    TableSpec("leagues", ("id",), identity=True),
    TableSpec("seasons", ("id",), identity=True),
    TableSpec("games", ("id",), identity=True),
    TableSpec("actions", ("game_id", "idx")),
    TableSpec("results", ("game_id", "seat")),
    TableSpec("ratings", ("guild_id", "family", "user_id")),
    TableSpec("rating_history", ("game_id", "user_id")),
    TableSpec("season_ratings", ("season_id", "family", "user_id")),
    TableSpec("duplicate_events", ("id",), identity=True),
    TableSpec("duplicate_tables", ("game_id",)),
)

Progress = Callable[[str, int, int], None]
"""``progress(table, rows_copied, rows_in_table)``: called on the target's writer thread after each
batch while a table is being copied (copied < total), and once when the table is copied and checked
(copied == total, also for an empty table)."""


class TransferError(StoreError):
    """A copy that cannot be made, or that failed a check; nothing of it was kept."""


class TargetNotEmpty(TransferError):
    """The target already holds data (``counts``: rows per table that has any); nothing was changed."""

    def __init__(self, label: str, counts: dict[str, int]) -> None:
        listed = ", ".join(f"{name} {rows:,}" for name, rows in counts.items())
        super().__init__(
            f"the target {label} is not empty (it holds {listed}): migrate-store copies only into a "
            "database without Trick Night data, so nothing was changed"
        )
        self.counts = counts


@dataclass(frozen=True)
class TableCopy:
    """What was copied of one table: its rows and their digest (the same on both sides)."""

    name: str
    rows: int
    digest: str


# ----- rows, pages and digests ---------------------------------------------------------------------------
class Digest:
    """An order-free fingerprint of a table's rows: the sum of each row's hash (so both sides may
    read in their own order), and the count. Numbers are compared as values (5 and 5.0 alike, as
    SQLite and PostgreSQL may hand back a whole REAL either way); text exactly."""

    MODULUS = 1 << 128

    def __init__(self) -> None:
        self.rows = 0
        self._sum = 0

    def add(self, rows: Sequence[tuple[Any, ...]]) -> None:
        total = self._sum
        for row in rows:
            text = repr(tuple(_normal(value) for value in row)).encode()
            total += int.from_bytes(hashlib.blake2b(text, digest_size=16).digest(), "big")
        self._sum = total % self.MODULUS
        self.rows += len(rows)

    def hexdigest(self) -> str:
        return f"{self._sum:032x}"


def _normal(value: Any) -> Any:
    if type(value) is float and value.is_integer() and abs(value) < 2**53:
        return int(value)
    return value


def _values(row: Any) -> tuple[Any, ...]:
    return tuple(row)  # sqlite3.Row and PostgresRow both iterate over their values


def _page_sql(spec: TableSpec, columns: Sequence[str], *, after: bool) -> str:
    conditions = [f"({spec.where})"] if spec.where else []
    if after:  # keyset paging: a row-value comparison on the primary key, which both dialects read
        conditions.append(f"({', '.join(spec.key)}) > ({', '.join('?' * len(spec.key))})")
    where = f" WHERE {' AND '.join(conditions)}" if conditions else ""
    return f"SELECT {', '.join(columns)} FROM {spec.name}{where} ORDER BY {', '.join(spec.key)} LIMIT ?"  # noqa: S608


def pages(
    tx: Tx, spec: TableSpec, columns: Sequence[str], batch: int = BATCH
) -> Iterator[list[tuple[Any, ...]]]:
    """The table's rows (``columns``, data rows only) in primary-key order, ``batch`` at a time."""
    first, rest = _page_sql(spec, columns, after=False), _page_sql(spec, columns, after=True)
    positions = [list(columns).index(column) for column in spec.key]
    found: list[Any] = tx.all(first, (batch,))
    while found:
        rows = [_values(row) for row in found]
        yield rows
        if len(rows) < batch:
            return
        last = rows[-1]
        found = tx.all(rest, (*(last[p] for p in positions), batch))


def table_columns(tx: Tx, backend: str, table: str) -> list[str]:
    """The table's columns in their order (in the transaction's database)."""
    if backend == "sqlite":
        return [row["name"] for row in tx.all(f"PRAGMA table_info({table})")]
    rows = tx.all(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema()"
        " AND table_name = ? ORDER BY ordinal_position",
        (table,),
    )
    return [row[0] for row in rows]


def table_names(tx: Tx, backend: str) -> set[str]:
    """Every table of the database (the backend's own internal ones aside)."""
    if backend == "sqlite":
        rows = tx.all("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'")
    else:
        rows = tx.all(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
            " AND table_type = 'BASE TABLE'"
        )
    return {row[0] for row in rows}


def data_counts(tx: Tx) -> dict[str, int]:
    """Rows of data in each table (bookkeeping left out), in copy order."""
    return {spec.name: int(tx.value(spec.count_sql())) for spec in TABLES}


async def row_counts(store: Store) -> dict[str, int]:
    """Rows of data in each table of ``store`` (one consistent read)."""
    return await store.db.read(data_counts)


# ----- the plan ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Plan:
    tables: list[tuple[TableSpec, list[str]]]  # each table with the columns both sides have


def _layout(tx: Tx, backend: str) -> tuple[set[str], dict[str, list[str]]]:
    names = table_names(tx, backend)
    return names, {spec.name: table_columns(tx, backend, spec.name) for spec in TABLES if spec.name in names}


async def _plan(source: Store, target: Store) -> _Plan:
    if source.schema_version != target.schema_version:
        raise TransferError(
            f"the source is at schema {source.schema_version} and the target at {target.schema_version}: "
            "both must be this version's (open each with this Trick Night first)"
        )
    known = {spec.name for spec in TABLES}
    tables: list[tuple[TableSpec, list[str]]] = []
    layouts = [await store.db.read(_layout, store.backend) for store in (source, target)]
    for (names, _), store in zip(layouts, (source, target), strict=True):
        unknown = sorted(names - known - set(NOT_COPIED))
        if unknown:
            raise TransferError(
                f"{store.path} has tables this version does not know how to copy ({', '.join(unknown)}); "
                "nothing was copied"
            )
        missing = sorted(known - names)
        if missing:
            raise TransferError(f"{store.path} lacks the tables {', '.join(missing)}: is it damaged?")
    (_, source_columns), (_, target_columns) = layouts
    for spec in TABLES:
        ours, theirs = source_columns[spec.name], target_columns[spec.name]
        if set(ours) != set(theirs):
            raise TransferError(
                f"the table {spec.name} has other columns in the source ({', '.join(ours)}) than in the "
                f"target ({', '.join(theirs)})"
            )
        tables.append((spec, ours))
    return _Plan(tables)


# ----- the pipe between the two store threads --------------------------------------------------------------
class _Stopped(Exception):
    """The other side of the pipe has stopped."""


@dataclass(frozen=True)
class _Begin:
    spec: TableSpec
    columns: list[str]
    total: int


@dataclass(frozen=True)
class _Rows:
    rows: list[tuple[Any, ...]]


@dataclass(frozen=True)
class _Done:
    digest: str
    rows: int


@dataclass(frozen=True)
class _End:
    pass


_Item = _Begin | _Rows | _Done | _End


class _Pipe:
    """Batches from the source's read transaction to the target's write transaction, each running on
    its own store thread; a few at a time. Either side stopping (done, failed, or the caller gone)
    closes it, and the other side stops at its next put or get."""

    def __init__(self, depth: int = PIPE_DEPTH) -> None:
        self._items: queue.Queue[_Item] = queue.Queue(maxsize=depth)
        self._closed = threading.Event()
        self._lock = threading.Lock()
        self._entered: set[str] = set()
        self.failure: BaseException | None = None
        self.abandoned = False

    def enter(self, side: str) -> None:
        """Each side runs once: a store thread retrying its transaction after a fault would find
        the batches gone (or send them twice), so a second run stops the copy instead."""
        with self._lock:
            again = side in self._entered
            self._entered.add(side)
        if again:
            self.close()
            raise TransferError(
                f"the {side} stopped answering in the middle of the copy; nothing was copied (try again)"
            )

    def put(self, item: _Item) -> None:
        while True:
            if self._closed.is_set():
                raise _Stopped
            with contextlib.suppress(queue.Full):
                self._items.put(item, timeout=WAIT_STEP)
                return

    def get(self) -> _Item:
        while True:
            try:
                return self._items.get(timeout=WAIT_STEP)
            except queue.Empty:
                if not self._closed.is_set():
                    continue
            if self.failure is not None:
                raise TransferError(f"reading the source failed: {self.failure}") from self.failure
            raise _Stopped

    def abandon(self) -> None:
        """The caller is gone (cancelled): the target's transaction must not commit."""
        self.abandoned = True
        self.close()

    def fail(self, err: BaseException) -> None:
        self.failure = err
        self.close()

    def close(self) -> None:
        self._closed.set()


def _produce(tx: Tx, plan: _Plan, pipe: _Pipe, batch: int) -> None:
    """The source's side (its read transaction): every table's rows into the pipe, with its count
    and digest after them."""
    pipe.enter("source")
    try:
        for spec, columns in plan.tables:
            total = int(tx.value(spec.count_sql()))
            pipe.put(_Begin(spec, columns, total))
            digest = Digest()
            for rows in pages(tx, spec, columns, batch):
                digest.add(rows)
                pipe.put(_Rows(rows))
            if digest.rows != total:
                raise TransferError(f"the source's {spec.name} gave {digest.rows:,} rows, not its {total:,}")
            pipe.put(_Done(digest.hexdigest(), digest.rows))
        pipe.put(_End())
    except _Stopped:
        return  # the target stopped: its error is the one to report
    except BaseException as err:
        pipe.fail(err)
        raise


@dataclass(frozen=True)
class _Target:
    backend: str
    label: str
    progress: Progress | None
    batch: int


def _consume(tx: Tx, target: _Target, pipe: _Pipe) -> list[TableCopy]:
    """The target's side (its write transaction): lock, check it is empty, insert what the pipe
    brings, read each table back and compare, move the sequences on."""
    backend, progress = target.backend, target.progress
    pipe.enter("target")
    try:
        if backend == "postgresql":
            tx.run(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT}'")
            names = ", ".join(spec.name for spec in TABLES)
            tx.run(f"LOCK TABLE {names} IN EXCLUSIVE MODE")  # others may read, none may write
        found = {name: rows for name, rows in data_counts(tx).items() if rows}
        if found:
            raise TargetNotEmpty(target.label, found)
        copied: list[TableCopy] = []
        current: _Begin | None = None
        done = 0
        insert = ""
        while True:
            item = pipe.get()
            if isinstance(item, _End):
                break
            if isinstance(item, _Begin):
                current, done = item, 0
                marks = ", ".join("?" * len(item.columns))
                insert = f"INSERT INTO {item.spec.name} ({', '.join(item.columns)}) VALUES ({marks})"  # noqa: S608
            elif isinstance(item, _Rows):
                assert current is not None
                tx.executemany(insert, item.rows)
                done += len(item.rows)
                if progress is not None and done < current.total:
                    progress(current.spec.name, done, current.total)
            else:
                assert current is not None
                copied.append(_check_table(tx, current, item, target.batch))
                if progress is not None:
                    progress(current.spec.name, done, current.total)
        if backend == "postgresql":
            for spec in TABLES:
                if spec.identity:
                    sequence = f"pg_get_serial_sequence('{spec.name}', 'id')"
                    tx.run(f"SELECT setval({sequence}, MAX(id)) FROM {spec.name}")  # noqa: S608
        if pipe.abandoned:
            raise _Stopped  # the caller was cancelled while the last rows went in: roll back
        return copied
    finally:
        pipe.close()


def _check_table(tx: Tx, begun: _Begin, sent: _Done, batch: int) -> TableCopy:
    """Read back what this transaction wrote into one table and compare it with the source's."""
    name = begun.spec.name
    digest = Digest()
    for rows in pages(tx, begun.spec, begun.columns, batch):
        digest.add(rows)
    counted = int(tx.value(begun.spec.count_sql()))
    if not digest.rows == counted == sent.rows:
        raise TransferError(
            f"{name}: the source gave {sent.rows:,} rows but the target holds {counted:,}; nothing was copied"
        )
    if digest.hexdigest() != sent.digest:
        raise TransferError(
            f"{name}: the rows written differ from the source's (digest {digest.hexdigest()} against "
            f"{sent.digest}); nothing was copied"
        )
    return TableCopy(name, sent.rows, sent.digest)


async def copy_store(
    source: Store, target: Store, *, progress: Progress | None = None, batch: int = BATCH
) -> list[TableCopy]:
    """Copy every record of ``source`` into ``target`` in one transaction (see the module
    docstring); returns each table's rows and digest. Raises ``TargetNotEmpty`` if the target holds
    data, ``TransferError`` if a check fails, ``StoreError`` if a database fails: in every case
    nothing of the copy is kept."""
    plan = await _plan(source, target)
    pipe = _Pipe()
    reading = asyncio.ensure_future(source.db.read(_produce, plan, pipe, batch))
    reading.add_done_callback(lambda done: done.cancelled() or done.exception())  # read below or dropped
    try:
        into = _Target(target.backend, target.path, progress, batch)
        copied = await target.db.write(_consume, into, pipe, deadline=0.0)
    except BaseException:
        pipe.abandon()  # a caller cancelled while the write runs: stop it, so it rolls back
        raise
    await reading
    return copied


# ----- after the commit ------------------------------------------------------------------------------
@dataclass(frozen=True)
class StoredGame:
    """A game as stored: its record (with its action log) and its results (seat by seat)."""

    record: GameRecord
    results: tuple[tuple[Any, ...], ...]


_RESULT_COLUMNS = "seat, user_id, side, score, place, guild_id, family, variant, finished_at, league_id"


def read_games(tx: Tx, after: int, upto: int | None, limit: int) -> list[StoredGame]:
    """Games with ``after < id <= upto`` (no upper bound for None), at most ``limit``, by id."""
    top = (1 << 63) - 1 if upto is None else upto
    rows = tx.all("SELECT * FROM games WHERE id > ? AND id <= ? ORDER BY id LIMIT ?", (after, top, limit))
    if not rows:
        return []
    low, high = rows[0]["id"], rows[-1]["id"]
    logs: dict[int, list[tuple[int, str]]] = {}
    for action in tx.all(
        "SELECT game_id, seat, action FROM actions WHERE game_id BETWEEN ? AND ? ORDER BY game_id, idx",
        (low, high),
    ):
        logs.setdefault(action["game_id"], []).append((action["seat"], action["action"]))
    results: dict[int, list[tuple[Any, ...]]] = {}
    for result in tx.all(
        f"SELECT game_id, {_RESULT_COLUMNS} FROM results"  # noqa: S608
        " WHERE game_id BETWEEN ? AND ? ORDER BY game_id, seat",
        (low, high),
    ):
        values = _values(result)
        results.setdefault(values[0], []).append(tuple(_normal(v) for v in values[1:]))
    return [
        StoredGame(game_record(row, logs.get(row["id"], [])), tuple(results.get(row["id"], [])))
        for row in rows
    ]


async def stored_games(
    source: Store, target: Store, *, batch: int = 200
) -> AsyncIterator[list[tuple[StoredGame | None, StoredGame | None]]]:
    """Every game of either store, paired by id (None where one store lacks it), ``batch`` at a time."""
    after = 0
    while True:
        mine = await source.db.read(read_games, after, None, batch)
        upto = mine[-1].record.id if len(mine) == batch else None
        theirs = await target.db.read(read_games, after, upto, batch if upto is None else upto - after)
        if not mine and not theirs:
            return
        by_id: dict[int, list[StoredGame | None]] = {}
        for side, games in enumerate((mine, theirs)):
            for game in games:
                by_id.setdefault(game.record.id, [None, None])[side] = game
        yield [(pair[0], pair[1]) for _, pair in sorted(by_id.items())]
        after = max(by_id)


def _clear(tx: Tx, backend: str) -> None:
    for spec in reversed(TABLES):
        tx.run(f"DELETE FROM {spec.name}" + (f" WHERE {spec.where}" if spec.where else ""))  # noqa: S608
    if backend == "postgresql":
        for spec in TABLES:
            if spec.identity:
                tx.run(f"SELECT setval(pg_get_serial_sequence('{spec.name}', 'id'), 1, false)")


async def clear_copy(target: Store) -> None:
    """Empty the target's data tables again (in one transaction), for a copy that failed a check
    after it was committed; the target held no data before the copy (``copy_store`` saw to it)."""
    await target.db.write(_clear, target.backend)
