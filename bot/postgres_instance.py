"""One bot per PostgreSQL database, and its status for ``tricknight health``.

The counterpart of ``bot.instance``'s lock file for a database on a server, which no file beside
it can guard: the bot holds a session advisory lock on a connection of its own for as long as it
runs (the server drops it the moment that connection ends, also when the process is killed), and
keeps a row of ``bot_processes`` up to date (state, last report, connected, guilds), which
``tricknight health`` reads from any machine. A second bot on the same database is refused with
the holder's host and pid. If the lock's connection breaks (the server restarted), the lock is
taken again on a new one; if another process has it by then, ``lost`` is set and the bot stops.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import socket
import time
import uuid
from typing import Any

import psycopg

from bot.instance import STALE_AFTER, InstanceLocked
from bot.store.database import redacted
from bot.store.postgresql import connect

log = logging.getLogger(__name__)

INSTANCE_LOCK = 0x7472_6963_6B6E_0001  # pg_advisory_lock key of the bot on this database
LIVE_STATES = ("starting", "running", "stopping")


class PostgresInstance:
    """The bot's hold on one PostgreSQL database: ``acquire()``, ``write_status()``, ``release()``.

    Every call is a short blocking round trip: call them off the event loop (``asyncio.to_thread``).
    """

    def __init__(self, url: str, *, purpose: str = "bot") -> None:
        self.url = url
        self.label = redacted(url)
        self.purpose = purpose
        self.id = uuid.uuid4().hex
        self.lost = False
        self._conn: psycopg.Connection[Any] | None = None
        self._started = time.time()

    @property
    def held(self) -> bool:
        return self._conn is not None

    def acquire(self) -> None:
        """Take the database's lock or raise ``InstanceLocked`` naming the holder."""
        conn = connect(self.url)
        try:
            if not self._lock(conn):
                holder = self._holder(conn)
                raise InstanceLocked(
                    f"another Trick Night process ({holder}) is using the database {self.label}. "
                    "Stop it first: two bots on one database would both answer every click.",
                    None,
                )
            conn.execute(
                "INSERT INTO bot_processes (id, host, pid, purpose, state, started_at, updated_at)"
                " VALUES (%s, %s, %s, %s, 'starting', %s, %s)",
                (self.id, socket.gethostname(), os.getpid(), self.purpose, self._started, time.time()),
            )
        except BaseException:
            conn.close()
            raise
        self._conn = conn

    @staticmethod
    def _lock(conn: psycopg.Connection[Any]) -> bool:
        row = conn.execute("SELECT pg_try_advisory_lock(%s)", (INSTANCE_LOCK,)).fetchone()
        return bool(row and row[0])

    def _holder(self, conn: psycopg.Connection[Any]) -> str:
        row = conn.execute(
            "SELECT host, pid FROM bot_processes WHERE purpose = 'bot' AND state IN ('starting',"
            " 'running', 'stopping') ORDER BY updated_at DESC LIMIT 1"
        ).fetchone()
        return f"pid {row[1]} on {row[0]}" if row else "pid unknown"

    def write_status(self, state: str, **details: Any) -> None:
        """Record the state (``starting``, ``running``, ``stopping``, ``stopped``) and the time.
        Best effort: a server that does not answer just now must not stop the bot; a broken lock
        connection is made again and the lock taken again (``lost`` if someone else has it)."""
        if self._conn is None:
            return
        try:
            if self._conn.closed or self._conn.broken:
                self._reconnect()
            if self._conn is None:
                return
            self._conn.execute(
                "UPDATE bot_processes SET state = %s, updated_at = %s, details = %s WHERE id = %s",
                (state, time.time(), json.dumps(details, sort_keys=True), self.id),
            )
        except psycopg.Error as err:
            log.warning("could not record the bot's status in %s: %s", self.label, err)

    def _reconnect(self) -> None:
        old, self._conn = self._conn, None
        if old is not None:
            old.close()
        conn = connect(self.url)
        if not self._lock(conn):
            conn.close()
            self.lost = True
            log.error("the database %s is used by another Trick Night process now (%s): stopping this one",
                      self.label, self._holder_safely())  # fmt: skip
            return
        log.warning("the database %s: the instance lock was taken again on a new connection", self.label)
        self._conn = conn

    def _holder_safely(self) -> str:
        try:
            with connect(self.url) as conn:
                return self._holder(conn)
        except psycopg.Error:
            return "pid unknown"

    async def guard(self) -> None:
        """Returns once the lock was lost to another process (seen by ``write_status``, which
        runs in a thread: so it is looked at once a second, not waited for)."""
        while not self.lost:  # noqa: ASYNC110
            await asyncio.sleep(1.0)

    def release(self) -> None:
        """Mark this process stopped and let go of the lock (safe to call twice)."""
        if self._conn is None:
            return
        self.write_status("stopped")
        conn, self._conn = self._conn, None
        try:
            conn.execute("SELECT pg_advisory_unlock(%s)", (INSTANCE_LOCK,))
        except psycopg.Error:
            pass  # closing the connection releases it all the same
        finally:
            conn.close()


def health_problem(url: str, *, now: float | None = None, stale_after: float = STALE_AFTER) -> str | None:
    """Why the bot on the PostgreSQL database ``url`` is not healthy, or None."""
    label = redacted(url)
    try:
        with connect(url) as conn:
            held = conn.execute(
                "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted"
                " AND ((classid::bigint << 32) | objid::bigint) = %s)",
                (INSTANCE_LOCK,),
            ).fetchone()
            row = conn.execute(
                "SELECT host, pid, state, updated_at, details FROM bot_processes WHERE purpose = 'bot'"
                " ORDER BY updated_at DESC LIMIT 1"
            ).fetchone()
    except psycopg.Error as err:
        return f"the database {label} cannot be reached ({str(err).strip().splitlines()[0]})"
    if row is None:
        return f"no Trick Night has run on {label}"
    host, pid, state, updated, details = row[0], row[1], row[2], float(row[3]), json.loads(row[4])
    who = f"the bot (pid {pid} on {host})"
    if state not in LIVE_STATES or not (held and held[0]):
        return f"{who} is not running" if state in LIVE_STATES else f"{who} is {state}"
    if state != "running":
        return f"{who} is {state}"
    age = (time.time() if now is None else now) - updated
    if age > stale_after:
        return f"{who} has not reported for {age:.0f} s (hung?)"
    if not details.get("connected", False):
        return f"{who} is not connected to Discord"
    return None


def inspect_server(url: str) -> tuple[list[str], list[str]]:
    """What ``tricknight check`` says of a PostgreSQL database, without changing anything: lines
    to show, and problems. Connects to the server (never to Discord)."""
    from bot.store.postgresql import postgresql_migrations

    label = redacted(url)
    latest = postgresql_migrations()[-1].version
    try:
        with connect(url) as conn:
            tables = {
                row[0]
                for row in conn.execute(
                    "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
                ).fetchall()
            }
            can_create = conn.execute("SELECT has_schema_privilege(current_schema(), 'CREATE')").fetchone()
            meta = {}
            if "tricknight_meta" in tables:
                meta = {row[0]: row[1] for row in conn.execute("SELECT key, value FROM tricknight_meta")}
            writable = None
            if "games" in tables:
                writable = conn.execute("SELECT has_table_privilege('games', 'INSERT, UPDATE')").fetchone()
    except psycopg.Error as err:
        reason = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        return [], [f"the database {label} cannot be reached ({reason}): check that the server runs"]
    if not tables:
        if not (can_create and can_create[0]):
            return [], [
                f"cannot create Trick Night's tables in {label}: this user may not create tables there"
            ]
        return ["empty: Trick Night's tables are created at the first start"], []
    if meta.get("application") != "tricknight":
        return [], [f"{label} is not a Trick Night database (it holds tables of something else)"]
    version = int(meta.get("schema_version", "0"))
    if version > latest:
        return [], [
            f"{label} was written by a newer Trick Night (schema {version}, this version knows {latest})"
        ]
    note = "" if version == latest else f" (upgraded to {latest} at the next start)"
    problems = [] if writable and writable[0] else [f"this user may not write to {label}"]
    return [f"a Trick Night database, schema {version}{note}"], problems
