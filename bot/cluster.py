"""Cluster mode: several bot processes on one PostgreSQL database, each running some gateway shards.

A process runs the shards named by ``TRICKNIGHT_SHARD_IDS`` of ``TRICKNIGHT_SHARD_COUNT``, or is a
standby (``TRICKNIGHT_SHARD_IDS=standby``) that runs none until a process dies. Which process runs
which shard is a lease in ``shard_leases``: its holder renews it every ``RENEW_EVERY`` seconds for
``LEASE_SECONDS``; a lease that lapses (its holder killed, its machine gone) is free, and a standby
takes all the free ones of a dead process at once, then starts the bot on them and resumes their
tables from the store. So two processes never run one shard: a process configured for a shard
that another holds waits for it (and says which process holds it) instead of taking it away. A
holder that cannot renew for ``FENCE_AFTER`` seconds (its database out of reach) stops serving
before anyone else may take its shards over.

Every lease decision is taken in one transaction under an advisory lock, on the server's clock
(machines' clocks may differ); the fencing runs on the holder's own monotonic clock. A process of
another shard count waits until the processes of the old count are gone, so a rolling restart to a
new shard count (stop the old processes, start the new ones) never lets two processes own one
guild. IDENTIFY is paced across the cluster (``identify_slot``): one per ``IDENTIFY_PACE`` seconds
per ``max_concurrency`` bucket, as Discord requires. Each process keeps to its part of the bot's
REST budget (``share``): its shards over the shard count.

Blocking round trips: call the ``_``-less sync methods through ``asyncio.to_thread``; the async
ones do so themselves.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import socket
import threading
import time
import uuid
from typing import Any

import psycopg

from bot.store.database import redacted
from bot.store.postgresql import connect

log = logging.getLogger(__name__)

LEASE_SECONDS = 8.0  # a lease not renewed for this long is free (a standby takes it)
RENEW_EVERY = 2.0
FENCE_AFTER = LEASE_SECONDS - 2.0  # a holder that could not renew for this long stops serving
POLL_EVERY = 1.0  # how often a waiting process looks for free shards
STANDBY_GRACE = 30.0  # a standby leaves shards no one ever held to their own processes this long
# Discord: one IDENTIFY per 5 s per max_concurrency bucket; half a second more, as two processes'
# IDENTIFYs leave their slots with delays of their own (4.994 s apart was seen with exactly 5).
IDENTIFY_PACE = 5.5
LEASES_LOCK = 0x7472_6963_6B6E_0002  # pg_advisory_xact_lock key of lease decisions


class ClusterMember:
    """One process of the cluster: its row in ``bot_processes``, its shard leases, its pacing.

    Serves as the process's ``Instance`` (``bot.instance``): ``acquire`` registers it,
    ``write_status`` reports, ``guard`` returns if its shards are lost, ``release`` lets them go.
    """

    def __init__(self, url: str, *, shard_count: int, shard_ids: tuple[int, ...] | None) -> None:
        self.url = url
        self.label = redacted(url)
        self.shard_count = shard_count
        self.wanted = None if shard_ids is None else frozenset(shard_ids)
        """The shards this process runs; None: a standby (any free shard of a dead process)."""
        self.id = uuid.uuid4().hex
        self.shards: frozenset[int] = frozenset()  # the shards it holds now
        self.lost = asyncio.Event()
        self.waiting_for = ""  # why it waits for its shards, for the log
        self._conn: psycopg.Connection[Any] | None = None
        self._lock = threading.Lock()  # one round trip at a time on the connection
        self._started = time.time()
        self._registered = False

    # ----- the connection ------------------------------------------------------------------------------
    def _connection(self) -> psycopg.Connection[Any]:
        if self._conn is None or self._conn.closed or self._conn.broken:
            if self._conn is not None:
                self._conn.close()
            self._conn = connect(self.url)
        return self._conn

    def _now(self, conn: psycopg.Connection[Any]) -> float:
        row = conn.execute("SELECT extract(epoch FROM clock_timestamp())::float8").fetchone()
        assert row is not None
        return float(row[0])

    # ----- Instance -------------------------------------------------------------------------------------
    @property
    def held(self) -> bool:
        """Registered (its shards come with ``wait_for_shards``)."""
        return self._registered

    @property
    def is_standby(self) -> bool:
        return self.wanted is None

    def acquire(self) -> None:
        """Register this process (no shard yet: ``take_shards`` waits for them)."""
        with self._lock:
            self._connection().execute(
                "INSERT INTO bot_processes (id, host, pid, purpose, state, started_at, updated_at, details)"
                " VALUES (%s, %s, %s, 'bot', 'waiting', %s, %s, %s)",
                (self.id, socket.gethostname(), os.getpid(), self._started, time.time(), self._details({})),
            )
        self._registered = True

    def _details(self, extra: dict[str, Any]) -> str:
        return json.dumps(
            {
                "shards": sorted(self.shards),
                "shard_count": self.shard_count,
                "standby": self.is_standby,
                **extra,
            },
            sort_keys=True,
        )

    def write_status(self, state: str, **details: Any) -> None:
        """Report (best effort: a database out of reach just now must not stop the bot)."""
        if not self._registered:
            return
        try:
            with self._lock:
                self._connection().execute(
                    "UPDATE bot_processes SET state = %s, updated_at = %s, details = %s WHERE id = %s",
                    (state, time.time(), self._details(details), self.id),
                )
        except psycopg.Error as err:
            log.warning("could not record this process's status in %s: %s", self.label, err)

    async def guard(self) -> None:
        """Returns once this process has lost its shards (and must stop serving them)."""
        await self.lost.wait()

    def release(self) -> None:
        """Let the shards go at once (a standby may take them now) and mark this process stopped."""
        if not self._registered:
            return
        try:
            with self._lock:
                conn = self._connection()
                conn.execute("DELETE FROM shard_leases WHERE holder = %s", (self.id,))
                conn.execute(
                    "UPDATE bot_processes SET state = 'stopped', updated_at = %s WHERE id = %s",
                    (time.time(), self.id),
                )
        except psycopg.Error as err:
            log.warning("could not release this process's shards in %s (they lapse by themselves): %s",
                        self.label, err)  # fmt: skip
        finally:
            self.shards = frozenset()
            self._registered = False
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    # ----- leases ---------------------------------------------------------------------------------------
    def take_free(self) -> frozenset[int]:
        """Take this process's shards if they are free (all of them or none), or, for a standby,
        every free shard of a dead process; one transaction. Returns what it took (maybe none)."""
        count = self.shard_count
        with self._lock:
            conn = self._connection()
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (LEASES_LOCK,))
                now = self._now(conn)
                rows = conn.execute(
                    "SELECT shard_id, shard_count, holder, expires_at FROM shard_leases"
                ).fetchall()
                live = {row[0]: row for row in rows if row[3] > now and row[2] != self.id}
                others = sorted({row[1] for row in live.values() if row[1] != count})
                if others:
                    self.waiting_for = (
                        f"processes with another shard count ({others}) still run: stop them first"
                    )
                    return frozenset()
                free = {shard for shard in range(count) if shard not in live}
                if self.wanted is not None:
                    busy = sorted(self.wanted - free)
                    if busy:
                        holders = {live[s][2] for s in busy if s in live}
                        self.waiting_for = f"shard(s) {busy} held by {self._who(conn, holders)}"
                        return frozenset()
                    take = set(self.wanted)
                else:
                    ever_held = {row[0] for row in rows}
                    patient = now - self._started >= STANDBY_GRACE
                    take = {s for s in free if s in ever_held or patient}
                    if not take:
                        self.waiting_for = "every shard has a live process"
                        return frozenset()
                for shard in sorted(take):
                    conn.execute(
                        "INSERT INTO shard_leases (shard_id, shard_count, holder, expires_at)"
                        " VALUES (%s, %s, %s, %s) ON CONFLICT (shard_id) DO UPDATE SET"
                        " shard_count = excluded.shard_count, holder = excluded.holder,"
                        " expires_at = excluded.expires_at",
                        (shard, count, self.id, now + LEASE_SECONDS),
                    )
                conn.execute(
                    "DELETE FROM shard_leases WHERE shard_id >= %s AND expires_at <= %s", (count, now)
                )
        self.shards = frozenset(take)
        return self.shards

    def _who(self, conn: psycopg.Connection[Any], holders: set[str]) -> str:
        rows = conn.execute(
            "SELECT host, pid FROM bot_processes WHERE id = ANY(%s)", (sorted(holders),)
        ).fetchall()
        return ", ".join(f"pid {row[1]} on {row[0]}" for row in rows) or "another process"

    def renew(self) -> frozenset[int]:
        """Extend this process's leases; returns the shards it still holds (one it lost is gone)."""
        with self._lock:
            conn = self._connection()
            rows = conn.execute(
                "UPDATE shard_leases SET expires_at = extract(epoch FROM clock_timestamp())::float8 + %s"
                " WHERE holder = %s AND shard_id = ANY(%s) RETURNING shard_id",
                (LEASE_SECONDS, self.id, sorted(self.shards)),
            ).fetchall()
            conn.execute("UPDATE bot_processes SET updated_at = %s WHERE id = %s", (time.time(), self.id))
        return frozenset(row[0] for row in rows)

    async def wait_for_shards(self) -> tuple[int, ...]:
        """Wait until this process holds its shards (a standby: some shards); logs why it waits."""
        said = ""
        while True:
            try:
                held = await asyncio.to_thread(self.take_free)
            except psycopg.Error as err:
                held, self.waiting_for = frozenset(), f"the database does not answer ({err})"
                await asyncio.to_thread(self._drop)
            if held:
                log.info("holding shard(s) %s of %d", ",".join(map(str, sorted(held))), self.shard_count)
                return tuple(sorted(held))
            await asyncio.to_thread(self.write_status, "waiting", waiting_for=self.waiting_for)
            if self.waiting_for != said:
                log.info("waiting for shards: %s", self.waiting_for)
                said = self.waiting_for
            await asyncio.sleep(POLL_EVERY)

    def _drop(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    async def keep(self) -> None:
        """Renew the leases until stopped; set ``lost`` (and return) when a shard was taken by
        another process or the leases could not be renewed for ``FENCE_AFTER`` seconds."""
        last_ok = time.monotonic()
        failing = False
        while True:
            await asyncio.sleep(RENEW_EVERY)
            try:
                still = await asyncio.to_thread(self.renew)
            except psycopg.Error as err:
                if not failing:
                    log.warning("cannot renew the shard leases (%s): retrying", err)
                failing = True
                await asyncio.to_thread(self._drop)
                if time.monotonic() - last_ok > FENCE_AFTER:
                    log.error("the shard leases could not be renewed for %.0f s: this process stops "
                              "serving its shards before another may take them", FENCE_AFTER)  # fmt: skip
                    self.lost.set()
                    return
                continue
            if failing:
                log.warning("the shard leases are renewed again")
                failing = False
            if still != self.shards:
                log.error("shard(s) %s were taken by another process: this process stops",
                          sorted(self.shards - still))  # fmt: skip
                self.lost.set()
                return
            last_ok = time.monotonic()

    def share(self) -> float:
        """This process's part of the bot's REST budget: its shards over the shard count."""
        return len(self.shards) / self.shard_count if self.shard_count else 1.0

    # ----- IDENTIFY ----------------------------------------------------------------------------------
    def _reserve_identify(self, bucket: int) -> float:
        """Reserve the next IDENTIFY slot of ``bucket``; seconds to wait for it."""
        with self._lock:
            conn = self._connection()
            row = conn.execute(
                "INSERT INTO identify_slots (bucket, next_at)"
                " VALUES (%s, extract(epoch FROM clock_timestamp())::float8 + %s)"
                " ON CONFLICT (bucket) DO UPDATE SET next_at ="
                " GREATEST(identify_slots.next_at, extract(epoch FROM clock_timestamp())::float8) + %s"
                " RETURNING next_at - %s - extract(epoch FROM clock_timestamp())::float8",
                (bucket, IDENTIFY_PACE, IDENTIFY_PACE, IDENTIFY_PACE),
            ).fetchone()
        assert row is not None
        return max(0.0, float(row[0]))

    async def identify_slot(self, shard_id: int, max_concurrency: int) -> None:
        """Wait for this shard's turn to IDENTIFY, across every process of the cluster."""
        bucket = shard_id % max(1, max_concurrency)
        wait = await asyncio.to_thread(self._reserve_identify, bucket)
        if wait > 0:
            log.info(
                "shard %d identifies in %.1f s (bucket %d is paced across the cluster)",
                shard_id,
                wait,
                bucket,
            )
        await asyncio.sleep(wait)


def health_problem(url: str, *, host: str | None = None, stale_after: float = 120.0) -> str | None:
    """Why this machine's (this container's) newest bot process of the cluster is not healthy, or
    None: it must report (a standby waiting counts) and, once it runs shards, be connected."""
    here = host or socket.gethostname()
    label = redacted(url)
    try:
        with connect(url) as conn:
            row = conn.execute(
                "SELECT pid, state, updated_at, details FROM bot_processes"
                " WHERE host = %s AND purpose = 'bot' ORDER BY started_at DESC LIMIT 1",
                (here,),
            ).fetchone()
    except psycopg.Error as err:
        return f"the database {label} cannot be reached ({str(err).strip().splitlines()[0]})"
    if row is None:
        return f"no Trick Night process of the cluster has run on {here}"
    pid, state, updated, details = row[0], row[1], float(row[2]), json.loads(row[3])
    who = f"the bot (pid {pid} on {here})"
    if state not in ("waiting", "starting", "running"):
        return f"{who} is {state}"
    age = time.time() - updated
    if age > stale_after:
        return f"{who} has not reported for {age:.0f} s (hung?)"
    if state == "running" and not details.get("connected", False):
        return f"{who} is not connected to Discord"
    return None
