"""Store writes: acknowledged-action latency and throughput at 100 concurrent tables, both backends.

A click is answered only once ``store.games.append_action`` has returned (the action is committed),
so its time is the acknowledged-action latency. For each backend, in its own new database (an
SQLite file in a temporary folder; PostgreSQL in a database of its own, ``tn_bench_<pid>``, dropped
at the end), the bench creates one game per table and drives one asyncio task per table:

- **busy**: each table appends one action every 0.2-1.0 s at random (people and computers at a busy
  table), for ``--seconds``. This is issue 47's goal: PostgreSQL's p99 at most 25 ms and at most
  1.5 times SQLite's.
- **flat out**: each table appends its next action as soon as the last one is acknowledged (no
  pause): the throughput ceiling.
- **mixed**: the busy pace plus the other writes a table makes: the turn ping every 10th action,
  and at a game's end (200 actions; the first game of each table ends at random, so ends are
  spread) ``results.finish``, then a new game (``games.create``, ``games.update`` of its seats,
  ``games.update`` of its status and message id). Each table's guild has its own players, rated.

Beside the store's two backends, ``aiosqlite`` runs the SQLite write path as a straightforward
aiosqlite store would: one connection (WAL, synchronous=NORMAL, as the store's), an asyncio lock
around each append, each its own transaction (BEGIN IMMEDIATE, the store's four statements,
COMMIT), each statement awaited. It runs the busy and flat-out phases (appends only).

Printed per phase and backend: actions acknowledged, actions/s, latency p50/p99/max, the lag of the
bench's own event loop meanwhile (the store's threads must not hold it up), the process's and the
machine's CPU, and the store's writer figures (writes per commit, writer busy, queue wait, the CPU
a write costs its writer thread and, on PostgreSQL, its server process; and what the whole server
did meanwhile: checkpoints and WAL written, by this bench and anyone else using it). Then
each goal with its figure, "ok" or "MISSED". Phases run one backend at a time, interleaved
(busy: each backend, then flat out: each backend, ...), so a change in the machine's load falls on
all of them alike; compare figures within one run. ``--rounds N`` runs each phase's backends N
times in turn (round 1: each backend, round 2: each backend, ...) and gives the goals as medians,
each round's figure beside them: the spread between runs on a shared machine.

``--explain`` adds variants that say where PostgreSQL's time goes (``--phases busy`` keeps the run
short): ``postgresql, sync off`` (the store with ``synchronous_commit=off`` on its connections:
what waiting for the WAL flush at each commit costs; not a proposal, it gives up durability);
``sqlite, synchronous=FULL`` (the store on SQLite flushing its WAL at each commit, as PostgreSQL
does: SQLite at PostgreSQL's durability); ``2 statements`` (append_action's checks and writes in
two statements that both backends read: an ``UPDATE games ... RETURNING`` the action count, then
the ``INSERT``), on each backend; ``postgresql, pipelined`` (a prototype of the PostgreSQL writer
committing its group in psycopg pipeline mode, so the statements whose answers nobody reads
travel with the next one that is read); the last two together; and ``postgresql, 4 writers``
(four stores on one database, so four writer threads and connections, each table's writes all
through one of them: several writers instead of one, with public API only; busy and flat out),
alone and with the two-statement append.

PostgreSQL is ``--postgres URL`` (default: $TRICKNIGHT_BENCH_POSTGRES, else
postgresql://postgres@127.0.0.1:5432/postgres), a server where the bench may create a database.
If it cannot be reached the bench says so in one line and exits with status 2 (``--sqlite-only``
runs without it).

Usage: python bench/store_writes.py [--seconds 20] [--tables 100] [--postgres URL] [--sqlite-only]
                                    [--no-aiosqlite] [--phases busy flat mixed] [--seed 1] [--explain]
                                    [--rounds 1]
"""

from __future__ import annotations

import abc
import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import types
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode, urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.store import Store, Tx  # noqa: E402
from bot.store.errors import ActionOutOfOrder, GameNotFound, StoreError  # noqa: E402
from bot.store.records import UNFINISHED  # noqa: E402
from bot.store.worker import Job, Stats, Worker  # noqa: E402

SETTING = "TRICKNIGHT_BENCH_POSTGRES"
DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres"
PG_P99_GOAL_MS = 25.0
PG_RATIO_GOAL = 1.5  # PostgreSQL's p99 over SQLite's, at most
BUSY_PACE = (0.2, 1.0)  # seconds between one table's actions
GAME_ACTIONS = 200  # actions in a game of the mixed phase (pinochle-4 plays ~250 to 150, pitch ~150)
PING_EVERY = 10  # the mixed phase's turn ping: once every this many actions
GUILDS = 20  # the tables' guilds (mixed phase: ratings, leagues and results are per guild)
PLAYERS_PER_GUILD = 40
W = 27  # the backend column's width
WRITERS = 4  # --explain's PostgreSQL with several writer connections
CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
SNOWFLAKE = 10**17
ACTIONS = ("play QS", "play 10H", "play AD", "bid 21", "pass", "meld", "trump S", "play JC", "play KH")
PHASES = {
    "busy": f"each table acts every {BUSY_PACE[0]:g}-{BUSY_PACE[1]:g} s at random",
    "flat": "each table acts again as soon as its last action is acknowledged",
    "mixed": (
        f"busy pace, plus the turn ping every {PING_EVERY}th action and, at each game's end "
        f"({GAME_ACTIONS} actions), results.finish and a new game (create, seats, status/message)"
    ),
}


def seats(user_ids: list[int]) -> list[dict[str, Any] | None]:
    """A table's seats as the bot stores them: four people."""
    return [{"kind": "human", "name": f"u{uid % 10_000}", "user_id": uid} for uid in user_ids]


# ----- the contestants --------------------------------------------------------------------------------
class Backend(abc.ABC):
    """One way of writing a table's actions: the store on SQLite or PostgreSQL, or aiosqlite."""

    name = ""
    mixed = True  # runs the mixed phase (has the table's other writes)

    @abc.abstractmethod
    async def create(self, guild_id: int, channel_id: int, user_ids: list[int]) -> int:
        """A new game in play at a table; its id."""

    @abc.abstractmethod
    async def append(self, game_id: int, idx: int, seat: int, action: str) -> None:
        """What a click writes."""

    async def ping(self, game_id: int, message_id: int) -> None:
        raise NotImplementedError

    async def seated(self, game_id: int, user_ids: list[int]) -> None:
        raise NotImplementedError

    async def started(self, game_id: int, message_id: int) -> None:
        raise NotImplementedError

    async def finish(self, game_id: int, guild_id: int, user_ids: list[int]) -> None:
        raise NotImplementedError

    @abc.abstractmethod
    async def reset_stats(self) -> None:
        """Start the writer's figures afresh (the measured window begins)."""

    @abc.abstractmethod
    async def stats(self) -> dict[str, Any]:
        """The writer's figures since ``reset_stats`` (none for aiosqlite)."""

    @abc.abstractmethod
    async def close(self) -> None: ...


class StoreBackend(Backend):
    """Trick Night's own store (``bot.store``) on either backend; ``two_statements`` and
    ``pipelined`` are ``--explain``'s variants."""

    def __init__(self, name: str, store: Store, *, two_statements: bool = False) -> None:
        self.name = name
        self.store = store
        self.two_statements = two_statements
        self.cpu_files: dict[str, str] = {}  # "writer thread" / "server": its /proc stat file
        self.cpu_before: dict[str, float] = {}
        self.server_before: tuple[int, int] | None = None  # PostgreSQL: (checkpoints, WAL bytes)

    @classmethod
    async def open(
        cls,
        name: str,
        target: str | Path,
        *,
        two_statements: bool = False,
        pipelined: bool = False,
        sync_full: bool = False,
    ) -> StoreBackend:
        store = await Store.open(target)
        if pipelined:
            pipeline_writer(store)
        if sync_full:  # SQLite's writer flushes the WAL at each commit, as PostgreSQL does
            await store.db.on_writer(lambda conn: conn.execute("PRAGMA synchronous = FULL"))
        backend = cls(name, store, two_statements=two_statements)
        # Whose CPU a write costs: the writer thread's, and on PostgreSQL its server process's.
        thread = await store.db.on_writer(lambda conn: threading.get_native_id())
        backend.cpu_files["writer thread"] = f"/proc/self/task/{thread}/stat"
        if store.backend == "postgresql":
            server = await store.db.on_writer(lambda conn: conn.info.backend_pid)
            backend.cpu_files["server"] = f"/proc/{server}/stat"
        return backend

    async def create(self, guild_id: int, channel_id: int, user_ids: list[int]) -> int:
        return await self.store.games.create(
            guild_id=guild_id, channel_id=channel_id, host_id=user_ids[0], variant="pinochle-4",
            family="pinochle", options={}, seed=random.randrange(2**53), players=4, seats=seats(user_ids),
            status="playing",
        )  # fmt: skip

    async def append(self, game_id: int, idx: int, seat: int, action: str) -> None:
        if self.two_statements:
            await self.store.db.write(append_in_two_statements, game_id, idx, seat, action)
        else:
            await self.store.games.append_action(game_id, idx, seat, action)

    async def ping(self, game_id: int, message_id: int) -> None:
        await self.store.games.set_ping(game_id, message_id)

    async def seated(self, game_id: int, user_ids: list[int]) -> None:
        await self.store.games.update(game_id, seats=seats(user_ids))

    async def started(self, game_id: int, message_id: int) -> None:
        await self.store.games.update(game_id, status="playing", message_id=message_id)

    async def finish(self, game_id: int, guild_id: int, user_ids: list[int]) -> None:
        winner = random.randrange(2)
        results = [
            {"seat": s, "user_id": uid, "side": s % 2, "score": 150 if s % 2 == winner else 90,
             "place": 1 if s % 2 == winner else 2}
            for s, uid in enumerate(user_ids)
        ]  # fmt: skip
        await self.store.results.finish(
            game_id, guild_id=guild_id, family="pinochle", results=results, rated=True
        )

    async def reset_stats(self) -> None:
        self.server_before = await self.server_figures()
        self.store.db.stats.reset()
        self.cpu_before = {who: cpu_seconds(path) for who, path in self.cpu_files.items()}

    async def stats(self) -> dict[str, Any]:
        figures = self.store.db.stats.snapshot()
        elapsed = time.monotonic() - self.store.db.stats.since
        writes = sum(self.store.db.stats.groups)
        cpu = {who: cpu_seconds(path) - self.cpu_before[who] for who, path in self.cpu_files.items()}
        if writes and all(v >= 0 for v in cpu.values()):
            figures["cpu a write"] = ", ".join(f"{who} {1000 * v / writes:.2f} ms" for who, v in cpu.items())
        after = await self.server_figures()
        if after is not None and self.server_before is not None:
            checkpoints, wal = (now - then for now, then in zip(after, self.server_before, strict=True))
            figures["server"] = (
                f"{checkpoints} checkpoints, WAL {wal / elapsed / 1e6:.2f} MB/s (every database)"
            )
        return figures

    async def server_figures(self) -> tuple[int, int] | None:
        """PostgreSQL's checkpoints so far and WAL position: what the whole server (this bench and
        whoever else uses it) writes meanwhile."""
        if self.store.backend != "postgresql":
            return None
        row = await self.store.db.read(
            Tx.one,
            "SELECT checkpoints_timed + checkpoints_req, pg_current_wal_lsn() - '0/0'::pg_lsn"
            " FROM pg_stat_bgwriter",
        )
        assert row is not None
        return int(row[0]), int(row[1])

    async def close(self) -> None:
        await self.store.close()


class WritersBackend(Backend):
    """``--explain``'s PostgreSQL with several writers: ``count`` stores on one database, so
    ``count`` writer threads, each with its own connection and group commit; a game's writes all
    go to one of them (by game id), so each table's stay in order. Only public API: a prototype of
    a PostgreSQL store with a few writer connections instead of one."""

    mixed = False

    def __init__(self, name: str, parts: list[StoreBackend]) -> None:
        self.name = name
        self.parts = parts

    @classmethod
    async def open(cls, name: str, url: str, count: int, *, two_statements: bool = False) -> WritersBackend:
        parts = []
        try:
            for _ in range(count):
                parts.append(await StoreBackend.open(name, url, two_statements=two_statements))
        except BaseException:
            for part in parts:
                await part.close()
            raise
        return cls(name, parts)

    async def create(self, guild_id: int, channel_id: int, user_ids: list[int]) -> int:
        return await self.parts[0].create(guild_id, channel_id, user_ids)

    async def append(self, game_id: int, idx: int, seat: int, action: str) -> None:
        await self.parts[game_id % len(self.parts)].append(game_id, idx, seat, action)

    async def reset_stats(self) -> None:
        for part in self.parts:
            await part.reset_stats()

    async def stats(self) -> dict[str, Any]:
        """The writers' figures together: waits and groups of all, busy share of each on average."""
        merged = Stats()
        writes, cpu = 0, dict.fromkeys(self.parts[0].cpu_files, 0.0)
        for part in self.parts:
            stats = part.store.db.stats
            merged.write_wait.extend(stats.write_wait)
            merged.groups.extend(stats.groups)
            merged.writer_busy += stats.writer_busy / len(self.parts)
            merged.since = min(merged.since, stats.since)
            writes += sum(stats.groups)
            for who, path in part.cpu_files.items():
                cpu[who] += cpu_seconds(path) - part.cpu_before[who]
        figures = merged.snapshot()
        figures["writer busy"] += " each"
        if writes:
            figures["cpu a write"] = ", ".join(f"{who}s {1000 * v / writes:.2f} ms" for who, v in cpu.items())
        server = (await self.parts[0].stats()).get("server")
        if server:
            figures["server"] = server
        return figures

    async def close(self) -> None:
        for part in self.parts:
            await part.close()


class AiosqliteBackend(Backend):
    """The SQLite write path as a straightforward aiosqlite store would write it: one connection,
    one transaction per append under an asyncio lock, every statement awaited."""

    name = "sqlite, aiosqlite"
    mixed = False

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: Path) -> AiosqliteBackend:
        import aiosqlite

        async with await Store.open(path):  # the same schema as the store's
            pass
        conn = await aiosqlite.connect(path, isolation_level=None)
        for pragma in (
            "journal_mode = WAL",
            "synchronous = NORMAL",
            "foreign_keys = ON",
            "busy_timeout = 2000",
        ):
            await conn.execute(f"PRAGMA {pragma}")
        return cls(conn)

    async def create(self, guild_id: int, channel_id: int, user_ids: list[int]) -> int:
        now = time.time()
        async with self.lock:
            game_id = await self.conn.execute_insert(
                "INSERT INTO games (guild_id, channel_id, host_id, variant, family, options, seed, players,"
                " seats, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (guild_id, channel_id, user_ids[0], "pinochle-4", "pinochle", "{}",
                 random.randrange(2**53), 4, json.dumps(seats(user_ids)), "playing", now, now),
            )  # fmt: skip
        assert game_id is not None
        return int(game_id[0])

    async def append(self, game_id: int, idx: int, seat: int, action: str) -> None:
        conn = self.conn
        async with self.lock:
            await conn.execute("BEGIN IMMEDIATE")
            try:
                rows = await conn.execute_fetchall("SELECT status FROM games WHERE id = ?", (game_id,))
                if not rows:
                    raise GameNotFound(f"there is no game {game_id}")
                if next(iter(rows))[0] not in UNFINISHED:
                    raise StoreError(f"game {game_id} is over")
                counted = await conn.execute_fetchall(
                    "SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,)
                )
                count = next(iter(counted))[0]
                if idx != count:
                    raise ActionOutOfOrder(f"game {game_id} has {count} actions logged, not {idx}")
                now = time.time()
                await conn.execute(
                    "INSERT INTO actions (game_id, idx, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                    (game_id, idx, seat, action, now),
                )
                await conn.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))
                await conn.execute("COMMIT")
            except BaseException:
                await conn.execute("ROLLBACK")
                raise

    async def reset_stats(self) -> None:
        """aiosqlite keeps no figures."""

    async def stats(self) -> dict[str, Any]:
        return {}

    async def close(self) -> None:
        await self.conn.close()


# ----- --explain: where PostgreSQL's time goes --------------------------------------------------------
APPEND_CHECKED = (
    "UPDATE games SET updated_at = ? WHERE id = ? AND status IN ('lobby', 'playing')"
    " RETURNING (SELECT COUNT(*) FROM actions WHERE game_id = games.id)"
)


def append_in_two_statements(tx: Tx, game_id: int, idx: int, seat: int, action: str) -> None:
    """``games.append_action``'s transaction in two statements instead of four (SQLite and
    PostgreSQL both read them): the UPDATE that stamps the game returns its action count, so the
    status and order checks need no reads of their own; a refused append is rolled back."""
    now = time.time()
    row = tx.one(APPEND_CHECKED, (now, game_id))
    if row is None:  # no such game, or it is over: one more read, on the refusal's path only
        if tx.one("SELECT status FROM games WHERE id = ?", (game_id,)) is None:
            raise GameNotFound(f"there is no game {game_id}")
        raise StoreError(f"game {game_id} is over; no more actions can be recorded")
    if row[0] != idx:
        raise ActionOutOfOrder(f"game {game_id} has {row[0]} actions logged, so the next is not {idx}")
    tx.run(
        "INSERT INTO actions (game_id, idx, seat, action, at) VALUES (?, ?, ?, ?, ?)",
        (game_id, idx, seat, action, now),
    )


def pipelined_commit_group(worker: Any, live: list[Job]) -> None:
    """A prototype of the PostgreSQL writer's ``_commit_group`` in psycopg pipeline mode: BEGIN,
    SAVEPOINT, RELEASE, the commit key and COMMIT are sent with the next statement whose answer is
    read instead of each waiting for its own, and each job ends with one sync (so a failing
    statement is still its own job's). A bench prototype: a database error inside a job fails the
    whole group here (the store rolls back that job alone), and the check of a commit whose answer
    was lost is left out."""
    import psycopg

    from bot.store.postgresql import PostgresTx

    conn = worker._connection()
    with conn.pipeline() as pipeline:
        conn.execute("BEGIN")
        for job in live:
            job.result, job.error = None, None
            conn.execute("SAVEPOINT job")
            tx = PostgresTx(conn)
            try:
                job.result = job.fn(tx, *job.args)
                conn.execute("RELEASE job")
                pipeline.sync()
            except psycopg.Error:
                raise
            except Exception as err:
                pipeline.sync()
                conn.execute("ROLLBACK TO job")
                conn.execute("RELEASE job")
                job.error = err
            finally:
                tx.end()
        conn.execute("INSERT INTO store_commits (key, at) VALUES (%s, %s)", (uuid.uuid4().hex, time.time()))
        conn.execute("COMMIT")


def pipeline_writer(store: Store) -> None:
    """Give this store's PostgreSQL writer ``pipelined_commit_group`` (this store object only)."""
    from bot.store.postgresql import PostgresDatabase

    db = store.db
    if not isinstance(db, PostgresDatabase) or not db._workers:
        raise SystemExit("the pipelined prototype is for PostgreSQL")
    writer: Worker = db._workers[0]
    if writer.name != "tricknight-store-writer":
        raise SystemExit(f"the store's first thread is {writer.name}, not its writer: update the prototype")
    vars(writer)["_commit_group"] = types.MethodType(pipelined_commit_group, writer)


# ----- one phase at one backend -----------------------------------------------------------------------
@dataclass
class Figures:
    """What one phase measured at one backend."""

    acks: list[float] = field(default_factory=list)  # acknowledged appends' latencies, s
    other: dict[str, list[float]] = field(default_factory=dict)  # the mixed phase's other writes
    lags: list[float] = field(default_factory=list)  # the event loop's lag, s
    seconds: float = 0.0
    own_cpu: float = 0.0  # the bench process's CPU (its store threads included), in cores
    machine_cpu: float = 0.0  # the whole machine's busy share, 0-1
    writer: dict[str, Any] = field(default_factory=dict)


def percentile(ordered: list[float], q: float) -> float:
    """Nearest rank of sorted samples (as bench/store.py)."""
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def summary_ms(samples: list[float]) -> tuple[float, float, float]:
    ordered = sorted(samples)
    if not ordered:
        return float("nan"), float("nan"), float("nan")
    return 1000 * statistics.median(ordered), 1000 * percentile(ordered, 0.99), 1000 * ordered[-1]


def cpu_seconds(stat: str) -> float:
    """User + system CPU seconds of the thread or process whose /proc stat file this is (-1 if it
    is gone or there is no /proc)."""
    try:
        with open(stat, encoding="ascii") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return -1.0
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def machine_ticks() -> tuple[int, int]:
    """(busy, total) CPU ticks of the whole machine so far (/proc/stat; zeros where there is none)."""
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            values = [int(v) for v in stat.readline().split()[1:]]
    except OSError:
        return 0, 0
    idle = values[3] + (values[4] if len(values) > 4 else 0)  # idle + iowait
    return sum(values) - idle, sum(values)


class Table:
    """One table's game as the mixed phase plays it: who sits, how far along, when it ends."""

    def __init__(self, number: int, game_id: int, rng: random.Random, user_ids: list[int]) -> None:
        self.number = number
        self.guild_id = number % GUILDS + 1
        self.channel_id = SNOWFLAKE + 1000 + number
        self.game_id = game_id
        self.rng = rng
        self.user_ids = user_ids
        self.idx = 0
        self.ends_at = rng.randrange(1, GAME_ACTIONS)  # the first game is met part-way through


def players(guild_id: int, rng: random.Random) -> list[int]:
    return [SNOWFLAKE + guild_id * 10_000 + k for k in rng.sample(range(PLAYERS_PER_GUILD), 4)]


async def new_tables(backend: Backend, count: int, seed: int) -> list[Table]:
    tables = []
    for number in range(count):
        rng = random.Random(seed * 100_003 + number)
        user_ids = players(number % GUILDS + 1, rng)
        game_id = await backend.create(number % GUILDS + 1, SNOWFLAKE + 1000 + number, user_ids)
        tables.append(Table(number, game_id, rng, user_ids))
    return tables


class PhaseRun:
    """``count`` tables driven at ``backend`` in one phase: a warm-up, then ``seconds`` measured."""

    def __init__(self, backend: Backend, phase: str, seconds: float) -> None:
        self.backend = backend
        self.phase = phase
        self.seconds = seconds
        self.figures = Figures()
        self.loop = asyncio.get_running_loop()
        self.window = (float("inf"), float("inf"))  # [start, end) in loop time, once warmed up
        self.stopping = False
        self.pausing: set[asyncio.Task[None]] = set()  # tables between two actions (cancelled at the end)

    def measured(self, kind: str, begin: float) -> None:
        """Count a write that began at ``begin`` and ends now, if it ends in the window."""
        end = self.loop.time()
        if self.window[0] <= end < self.window[1]:
            if kind == "append":
                self.figures.acks.append(end - begin)
            else:
                self.figures.other.setdefault(kind, []).append(end - begin)

    async def timed(self, kind: str, call: Awaitable[None]) -> None:
        begin = self.loop.time()
        await call
        self.measured(kind, begin)

    async def drive(self, table: Table) -> None:
        me = asyncio.current_task()
        assert me is not None
        while not self.stopping:
            if self.phase != "flat":
                self.pausing.add(me)
                try:
                    await asyncio.sleep(table.rng.uniform(*BUSY_PACE))
                finally:
                    self.pausing.discard(me)
            action = table.rng.choice(ACTIONS)
            await self.timed("append", self.backend.append(table.game_id, table.idx, table.idx % 4, action))
            table.idx += 1
            if self.phase == "mixed":
                await self.other_writes(table)

    async def other_writes(self, table: Table) -> None:
        """The mixed phase's: the turn ping now and then; at a game's end its result, a new game."""
        backend = self.backend
        if table.idx % PING_EVERY == 0:
            await self.timed("games.set_ping", backend.ping(table.game_id, SNOWFLAKE + table.idx))
        if table.idx < table.ends_at:
            return
        await self.timed("results.finish", backend.finish(table.game_id, table.guild_id, table.user_ids))
        table.user_ids = players(table.guild_id, table.rng)
        begin = self.loop.time()
        table.game_id = await backend.create(table.guild_id, table.channel_id, table.user_ids)
        self.measured("games.create", begin)
        await self.timed("games.update (seats)", backend.seated(table.game_id, table.user_ids))
        await self.timed("games.update (status, message)", backend.started(table.game_id, SNOWFLAKE))
        table.idx, table.ends_at = 0, GAME_ACTIONS

    async def probe(self) -> None:
        """The event loop's lag: how late a 10 ms sleep wakes."""
        while True:
            start = self.loop.time()
            await asyncio.sleep(0.01)
            if self.window[0] <= self.loop.time() < self.window[1]:
                self.figures.lags.append(self.loop.time() - start - 0.01)

    async def run(self, tables: list[Table]) -> Figures:
        figures, loop = self.figures, self.loop
        tasks = [asyncio.create_task(self.drive(table)) for table in tables]
        probing = asyncio.create_task(self.probe())
        await asyncio.sleep(min(2.0, self.seconds / 5))  # the warm-up
        await self.backend.reset_stats()
        cpu, ticks, start = sum(os.times()[:2]), machine_ticks(), loop.time()
        self.window = (start, start + self.seconds)
        await asyncio.sleep(self.seconds)
        figures.seconds = loop.time() - start
        figures.own_cpu = (sum(os.times()[:2]) - cpu) / figures.seconds
        busy, total = (now - then for now, then in zip(machine_ticks(), ticks, strict=True))
        figures.machine_cpu = busy / total if total else float("nan")
        figures.writer = await self.backend.stats()
        self.stopping = True
        for task in self.pausing:
            task.cancel()
        for outcome in await asyncio.gather(*tasks, return_exceptions=True):  # writes under way finish
            if isinstance(outcome, BaseException) and not isinstance(outcome, asyncio.CancelledError):
                raise outcome
        probing.cancel()
        await asyncio.gather(probing, return_exceptions=True)
        return figures


async def run_phase(backend: Backend, phase: str, count: int, seconds: float, seed: int) -> Figures:
    """Drive ``count`` new tables at ``backend`` for a warm-up and then ``seconds`` measured."""
    tables = await new_tables(backend, count, seed)
    return await PhaseRun(backend, phase, seconds).run(tables)


# ----- PostgreSQL: the bench's own database -----------------------------------------------------------
def with_database(url: str, database: str, **params: str) -> str:
    """``url`` pointing at ``database`` instead, with extra connection parameters."""
    parts = urlsplit(url)
    query = "&".join(q for q in (parts.query, urlencode(params, quote_via=quote)) if q)
    return urlunsplit((parts.scheme, parts.netloc, f"/{database}", query, parts.fragment))


def redacted(url: str) -> str:
    parts = urlsplit(url)
    return url if parts.password is None else url.replace(f":{parts.password}@", ":***@")


class BenchDatabases:
    """The bench's databases on the server at ``admin``: ``tn_bench_<pid>`` (and, for
    ``--explain``'s variants, ``tn_bench_<pid>_<n>``), each made by ``create`` and all dropped by
    ``drop``."""

    def __init__(self, admin: str) -> None:
        self.admin = admin
        self.names: list[str] = []
        self.server = ""

    def create(self, **params: str) -> str:
        """Make a database and return its URL (with ``params``); raises ``ConnectionError`` with one
        line if the server cannot be used."""
        try:
            import psycopg
        except ImportError:
            raise ConnectionError("psycopg is not installed (pip install -e '.[test]')") from None
        name = f"tn_bench_{os.getpid()}" + (f"_{len(self.names)}" if self.names else "")
        try:
            with psycopg.connect(self.admin, autocommit=True, connect_timeout=5) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
                conn.execute(f'CREATE DATABASE "{name}"')
                self.names.append(name)
                settings = {
                    name: conn.execute(f"SHOW {name}").fetchone()[0]  # type: ignore[index]
                    for name in (
                        "server_version",
                        "synchronous_commit",
                        "fsync",
                        "wal_sync_method",
                        "commit_delay",
                    )
                }
        except psycopg.Error as err:
            lines = str(err).strip().splitlines()
            raise ConnectionError(lines[0] if lines else type(err).__name__) from None
        self.server = ", ".join(f"{k} {v}" for k, v in settings.items())
        return with_database(self.admin, name, **params)

    def drop(self) -> None:
        import psycopg

        if not self.names:
            return
        with psycopg.connect(self.admin, autocommit=True, connect_timeout=5) as conn:
            for name in self.names:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# ----- the run ----------------------------------------------------------------------------------------
Opener = Callable[[], Awaitable[Backend]]


async def run_all(
    openers: list[Opener], phases: list[str], args: argparse.Namespace
) -> list[tuple[str, str, Figures]]:
    backends: list[Backend] = []
    rows = []
    try:
        for opener in openers:
            backends.append(await opener())
        lags = Figures()
        loop = asyncio.get_running_loop()
        end = loop.time() + min(1.0, args.seconds)
        while loop.time() < end:  # the idle loop's lag, for scale
            start = loop.time()
            await asyncio.sleep(0.01)
            lags.lags.append(loop.time() - start - 0.01)
        rows.append(("idle", "", lags))
        for phase in phases:
            print_header(phase, args.tables, args.seconds)
            for round_ in range(args.rounds):
                if args.rounds > 1:
                    print(f"  round {round_ + 1} of {args.rounds}")
                for backend in backends:
                    if phase == "mixed" and not backend.mixed:
                        continue
                    figures = await run_phase(backend, phase, args.tables, args.seconds, args.seed + round_)
                    rows.append((phase, backend.name, figures))
                    print_row(backend.name, figures)
    finally:
        for backend in backends:
            await backend.close()
    return rows


def print_header(phase: str, tables: int, seconds: float) -> None:
    print(f"\n{phase}: {tables} tables, {PHASES[phase]}; {seconds:g} s measured")
    print(
        f"  {'backend':<{W}} {'actions':>7} {'act/s':>7} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7}"
        f"  {'loop lag p50/p99/max ms':>23}  {'cpu':>4} {'machine':>7}"
        f"  {'per commit':>10} {'writer busy':>11}"
    )


def print_row(name: str, f: Figures) -> None:
    p50, p99, worst = summary_ms(f.acks)
    lag = "/".join(f"{v:.1f}" for v in summary_ms(f.lags))
    print(
        f"  {name:<{W}} {len(f.acks):>7} {len(f.acks) / f.seconds:>7.0f}"
        f" {p50:>7.2f} {p99:>7.2f} {worst:>7.1f}"
        f"  {lag:>23}  {f.own_cpu:>4.2f} {100 * f.machine_cpu:>6.0f}%"
        f"  {f.writer.get('writes per commit', '-'):>10} {f.writer.get('writer busy', '-'):>11}"
    )
    if f.writer.get("write wait"):
        cpu = f"; CPU a write: {f.writer['cpu a write']}" if f.writer.get("cpu a write") else ""
        print(f"  {'':<{W}} writer queue wait: {f.writer['write wait']}{cpu}")
    if f.writer.get("server"):
        print(f"  {'':<{W}} server meanwhile: {f.writer['server']}")
    for kind, samples in sorted(f.other.items()):
        o50, o99, omax = summary_ms(samples)
        print(f"  {'':<{W}} {kind}: {len(samples)} writes, p50 {o50:.2f} p99 {o99:.2f} max {omax:.1f} ms")
    sys.stdout.flush()


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def print_goals(rows: list[tuple[str, str, Figures]]) -> None:
    """The aiosqlite comparison and each goal with its figure: medians over the rounds (each round's
    figure in brackets when there are several; a ratio is taken within each round)."""
    by: dict[tuple[str, str], list[Figures]] = {}
    for phase, name, f in rows:
        by.setdefault((phase, name), []).append(f)
    print()
    idle = summary_ms(by[("idle", "")][0].lags)
    print(
        f"idle event loop's lag before the phases: p50/p99/max {idle[0]:.1f}/{idle[1]:.1f}/{idle[2]:.1f} ms"
    )
    for phase in ("busy", "flat"):
        aio, store = by.get((phase, AiosqliteBackend.name)), by.get((phase, "sqlite, store"))
        if aio is None or store is None:
            continue
        print(
            f"aiosqlite against the store on SQLite, {phase}:"
            f" p50 {median(aio, 0):.2f} vs {median(store, 0):.2f} ms,"
            f" p99 {median(aio, 1):.2f} vs {median(store, 1):.2f} ms{rounds(aio, 1)}{rounds(store, 1)},"
            f" {median(aio, 3):.0f} vs {median(store, 3):.0f} actions/s{rounds(aio, 3)}{rounds(store, 3)}"
        )
    for phase in ("busy", "mixed", "flat"):
        pg, lite = by.get((phase, "postgresql, store")), by.get((phase, "sqlite, store"))
        if pg is None or lite is None:
            continue
        pg99, lite99 = median(pg, 1), median(lite, 1)
        ratios = [summary_ms(p.acks)[1] / summary_ms(q.acks)[1] for p, q in zip(pg, lite, strict=True)]
        ratio = statistics.median(ratios)
        spread = f" [{' / '.join(f'{r:.2f}' for r in ratios)}]" if len(ratios) > 1 else ""
        if phase == "flat":
            print(
                "goals do not apply flat out (the ceiling); there PostgreSQL p99 / SQLite p99 ="
                f" {ratio:.2f}{spread}"
            )
            continue
        print(
            f"goal ({phase}): PostgreSQL ack p99 {pg99:.2f} ms{rounds(pg, 1)} <= {PG_P99_GOAL_MS:g} ms"
            f"   {verdict(pg99 <= PG_P99_GOAL_MS)}"
        )
        print(
            f"goal ({phase}): PostgreSQL p99 / SQLite p99 = {pg99:.2f} / {lite99:.2f}: {ratio:.2f}{spread}"
            f" <= {PG_RATIO_GOAL:g}   {verdict(ratio <= PG_RATIO_GOAL)}"
        )
        for (at, name), figs in by.items():
            if at != phase or not name.startswith("postgresql, ") or name == "postgresql, store":
                continue
            p99 = median(figs, 1)
            print(
                f"  --explain, {name}: p99 {p99:.2f} ms{rounds(figs, 1)} ({verdict(p99 <= PG_P99_GOAL_MS)}),"
                f" {p99 / lite99:.2f} x SQLite's ({verdict(p99 / lite99 <= PG_RATIO_GOAL)})"
            )


def figure(f: Figures, which: int) -> float:
    """p50 (0), p99 (1) or max (2) of the acknowledged appends in ms, or actions/s (3)."""
    return len(f.acks) / f.seconds if which == 3 else summary_ms(f.acks)[which]


def median(figs: list[Figures], which: int) -> float:
    return statistics.median(figure(f, which) for f in figs)


def rounds(figs: list[Figures], which: int) -> str:
    """Each round's figure, when there were several."""
    if len(figs) < 2:
        return ""
    return " [" + " / ".join(f"{figure(f, which):.{0 if which == 3 else 1}f}" for f in figs) + "]"


def commit() -> str:
    try:
        found = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        )
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return found.stdout.strip() + (" (with uncommitted changes)" if dirty else "")


def openers(folder: Path, aio: bool, pg_urls: list[str], explain: bool) -> list[Opener]:
    """How to open each contestant, in the order they run."""
    found: list[Opener] = [lambda: StoreBackend.open("sqlite, store", folder / "store.db")]
    if aio:
        found.append(lambda: AiosqliteBackend.open(folder / "aiosqlite.db"))
    if explain:
        found += [
            lambda: StoreBackend.open("sqlite, synchronous=FULL", folder / "full.db", sync_full=True),
            lambda: StoreBackend.open("sqlite, 2 statements", folder / "two.db", two_statements=True),
        ]
    if pg_urls:
        found.append(lambda: StoreBackend.open("postgresql, store", pg_urls[0]))
    if pg_urls and explain:
        found += [
            lambda: StoreBackend.open("postgresql, sync off", pg_urls[1]),
            lambda: StoreBackend.open("postgresql, 2 statements", pg_urls[2], two_statements=True),
            lambda: StoreBackend.open("postgresql, pipelined", pg_urls[3], pipelined=True),
            lambda: StoreBackend.open(
                "postgresql, 2 st.+pipelined", pg_urls[4], two_statements=True, pipelined=True
            ),
            lambda: WritersBackend.open(f"postgresql, {WRITERS} writers", pg_urls[5], WRITERS),
            lambda: WritersBackend.open(
                f"postgresql, {WRITERS} writers+2 st.", pg_urls[6], WRITERS, two_statements=True
            ),
        ]
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds of each phase (20)")
    parser.add_argument("--tables", type=int, default=100, help="concurrent tables (100)")
    parser.add_argument(
        "--postgres",
        default=os.environ.get(SETTING) or DEFAULT_POSTGRES,
        help=f"a server where the bench may create its database (${SETTING}, else {DEFAULT_POSTGRES})",
    )
    parser.add_argument("--sqlite-only", action="store_true", help="leave PostgreSQL out")
    parser.add_argument("--no-aiosqlite", action="store_true", help="leave the aiosqlite variant out")
    parser.add_argument("--phases", nargs="+", choices=list(PHASES), default=list(PHASES))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--rounds", type=int, default=1, help="run each phase's backends this many times in turn (medians)"
    )
    parser.add_argument(
        "--explain", action="store_true", help="add the variants that explain PostgreSQL's time"
    )
    args = parser.parse_args(argv)
    random.seed(args.seed)  # the games' seeds and winners

    pg = None if args.sqlite_only else BenchDatabases(args.postgres)
    pg_urls: list[str] = []
    if pg is not None:
        try:
            pg_urls.append(pg.create())
            if args.explain:
                pg_urls.append(pg.create(options="-c synchronous_commit=off"))
                pg_urls += [pg.create() for _ in range(5)]
        except ConnectionError as err:
            with contextlib.suppress(Exception):  # the databases made before it failed, if any
                pg.drop()
            print(
                f"store_writes: PostgreSQL at {redacted(args.postgres)} cannot be used ({err}); give"
                f" --postgres URL or set {SETTING}, or run with --sqlite-only",
                file=sys.stderr,
            )
            sys.exit(2)
    aio = not args.no_aiosqlite
    if aio:
        try:
            import aiosqlite  # noqa: F401
        except ImportError:
            print("aiosqlite is not installed: its variant is left out")
            aio = False
    load = os.getloadavg()
    print(
        f"store writes: commit {commit()}, {os.cpu_count()} cores, load average {load[0]:.2f} {load[1]:.2f}"
        f" {load[2]:.2f}; Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}"
    )
    if pg is not None:
        print(f"PostgreSQL {redacted(pg_urls[0])}: {pg.server}")
    try:
        with tempfile.TemporaryDirectory(prefix="tn-store-writes-") as tmp:
            rows = asyncio.run(run_all(openers(Path(tmp), aio, pg_urls, args.explain), args.phases, args))
    finally:
        if pg is not None:
            pg.drop()
    print_goals(rows)
    load = os.getloadavg()
    print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
