"""The wire fake of Discord for a sharded bot of several processes (issue 48): many guilds spread
over the shards, a gateway that routes each guild's events to the session of its shard, IDENTIFY
paced per ``max_concurrency`` bucket as Discord does, and one REST budget per bot token shared by
every connection.

Usage (inside an async test; the bots may be in this process or others, see ``python -m``)::

    fake = await FakeCluster(guilds=6, max_concurrency=2).start()
    # ... bots with shard_count=2 and shard_ids [0] / [1] connect ...
    guild = fake.guilds_of_shard(1, 2)[0]
    await fake.dispatch("INTERACTION_CREATE", fake.slash_interaction("help", guild_id=guild))
    assert fake.violations == [] and fake.duplicate_sessions == [] and fake.double_answers == []

What Discord does and the fake models:

* **Guilds and shards.** A guild's events go to shard ``(guild_id >> 22) % shard_count``. The
  guilds' ids have consecutive timestamps, the first a multiple of every number up to 16: guild n
  (``guild_id_at(n)``) is on shard ``n % shard_count`` for those shard counts, and any shard count
  up to the number of guilds gives every shard some (``guilds_of_shard``). IDENTIFY carries
  ``shard: [shard_id, shard_count]``; READY lists that shard's guilds (unavailable) and a
  GUILD_CREATE follows for each.
* **IDENTIFY pacing.** One IDENTIFY per 5 s per bucket (``shard_id % max_concurrency``), across
  every connection of the bot: a too-early one is answered op 9 INVALID_SESSION (``d: false``) and
  recorded in ``violations``. A shard out of range is closed with 4010 (Invalid shard); live
  sessions that disagree on the shard count are recorded too.
* **Two sessions of one shard.** Both stay connected and both get the shard's events, so two
  processes on one shard answer the same click: recorded in ``duplicate_sessions``; a second
  callback to one interaction gets HTTP 400, code 40060 (recorded in ``double_answers``).
* **REST.** 50 requests per second per bot token (all connections and processes together),
  interaction callbacks and webhooks exempt, then 429 with ``X-RateLimit-Global: true`` (and
  ``Via``, without which discord.py takes a 429 for a Cloudflare ban); the per-route limits of
  ``fake_ratelimit.py`` per token. Thread creation and thread member changes are answered (a
  THREAD_CREATE / THREAD_UPDATE goes to the guild's shard) and count like every other request.
* An event for a guild whose shard has no session is a lost click: recorded in ``lost``, and
  ``dispatch`` raises ``LostEvent`` (``deliver`` only records it).

Standalone, for bot processes started elsewhere (``tests/hosting/wire_site/sitecustomize.py`` with
``TRICKNIGHT_TEST_DISCORD=http://127.0.0.1:PORT`` points them here)::

    python -m tests.cluster.fake_cluster --port 0 --guilds 30 --max-concurrency 1 --print-port

prints the port, serves ``GET /_fake/guilds`` and ``GET /_fake/summary`` (what it recorded, JSON),
and prints the summary when stopped (SIGINT / SIGTERM).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import re
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import asdict, dataclass, field
from typing import Any

from aiohttp import web

from tests.discord_ui.fake_discord import FakeDiscord, RecordedRequest, _GatewayConn
from tests.discord_ui.fake_ratelimit import RateLimiter

IDENTIFY_INTERVAL = 5.0  # Discord: one IDENTIFY per 5 s in each max_concurrency bucket
GLOBAL_PER_SECOND = 50  # Discord's global REST limit per bot token
# The timestamp part of the first guild's id: a multiple of every shard count up to 16, so that guild
# n is on shard n % shard_count for those counts.
FIRST_GUILD_TIME = (1_200_000_000_000_000_000 >> 22) // 720_720 * 720_720
TIMESTAMP = "2024-01-01T00:00:00.000000+00:00"
EXEMPT = ("/interactions/", "/webhooks/")  # not counted in the global budget
CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback")
NEW_THREAD = re.compile(r"/channels/(\d+)(?:/messages/(\d+))?/threads")
THREAD_MEMBER = re.compile(r"/channels/(\d+)/thread-members/(\d+|@me)")
ONE_CHANNEL = re.compile(r"/channels/(\d+)")
# Gateway events a REST request causes (THREAD_CREATE ...), sent before its answer: one list per request.
_CAUSED: ContextVar[list[tuple[str, dict[str, Any]]] | None] = ContextVar("caused", default=None)


def shard_of(guild_id: int | str, shard_count: int) -> int:
    """Discord's rule: the shard that gets a guild's events."""
    return (int(guild_id) >> 22) % shard_count


def guild_id_at(index: int) -> str:
    """The id of the fake's guild ``index``: one millisecond of creation time after the previous."""
    return str(((FIRST_GUILD_TIME + index) << 22) | 1)


class LostEvent(AssertionError):
    """An event for a guild whose shard has no session: nobody gets it (a lost click)."""


@dataclass
class FakeGuild:
    id: str
    name: str
    channel_ids: list[str]


@dataclass
class Session:
    """A gateway session: made by an IDENTIFY, moved to another connection by a RESUME."""

    session_id: str
    shard_id: int
    shard_count: int
    token: str | None = field(repr=False)
    identified_at: float  # time.monotonic() of its IDENTIFY
    guild_ids: list[str]  # the guilds its READY listed
    conn: _GatewayConn = field(repr=False, compare=False)
    ready: bool = False  # READY and its GUILD_CREATEs sent: events may follow
    resumes: int = 0


@dataclass
class Identify:
    """One IDENTIFY as received, and what became of it."""

    at: float
    shard_id: int
    shard_count: int
    bucket: int  # shard_id % max_concurrency
    token: str | None = field(repr=False)
    session_id: str | None = None  # None: refused
    refused: str | None = None  # why


@dataclass
class Violation:
    kind: str  # "identify too early", "shard out of range", "shard count mismatch", ...
    detail: str
    at: float = field(default_factory=time.monotonic)


@dataclass
class DuplicateSession:
    """A second live session of one shard: both get every event of the shard's guilds."""

    shard_id: int
    shard_count: int
    live: list[str]  # the session(s) already live for that shard
    new: str
    at: float = field(default_factory=time.monotonic)


@dataclass
class Lost:
    event: str
    guild_id: str | None
    interaction_id: str | None
    at: float = field(default_factory=time.monotonic)


@dataclass
class DoubleAnswer:
    """A callback to an interaction already answered: Discord's 400, code 40060."""

    interaction_id: str
    first: RecordedRequest = field(repr=False)
    again: RecordedRequest = field(repr=False)


class SharedBudget(RateLimiter):
    """Discord's rate limits per bot token: ``per_second`` requests in every second for all the
    token's connections together (interaction callbacks and webhooks exempt), and the per-route
    limits of ``RateLimiter``. ``clock`` may be replaced by a test to hold time still."""

    def __init__(self, per_second: int = GLOBAL_PER_SECOND) -> None:
        super().__init__()
        self.GLOBAL_LIMIT = sys.maxsize  # the base class's one budget never trips: ours are per token
        self.per_second = per_second
        self.clock: Callable[[], float] = time.monotonic
        self.counted: Counter[str | None] = Counter()  # requests each token spent of its budget
        self.global_429_by_token: Counter[str | None] = Counter()
        self._global: dict[str | None, tuple[float, int]] = {}
        self._routes: dict[str | None, dict[str, tuple[float, int]]] = {}

    def check_token(
        self, token: str | None, method: str, path: str
    ) -> tuple[dict[str, str], web.Response | None]:
        if not path.startswith(EXEMPT):
            now = self.clock()
            start, used = self._global.get(token, (now, 0))
            if now - start >= 1.0:
                start, used = now, 0
            if used >= self.per_second:
                self.given_429 += 1
                self.given_global_429 += 1
                self.global_429_by_token[token] += 1
                retry_after = round(1.0 - (now - start), 3)
                body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": True}
                return {}, self._too_many(body, {"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"})
            self._global[token] = (start, used + 1)
            self.counted[token] += 1
        # The per-route windows of this token (the base class keeps them in self.windows).
        self.windows = self._routes.setdefault(token, {})
        return self.check(method, path)


class FakeCluster(FakeDiscord):
    """The wire fake with ``guilds`` guilds of ``channels_per_guild`` text channels each, for bots
    of many shards in one or several processes. ``guild_id`` / ``channel_id`` are the first guild's
    (the helpers of ``FakeDiscord`` use them when no guild is named)."""

    def __init__(
        self,
        *,
        guilds: int = 6,
        channels_per_guild: int = 1,
        max_concurrency: int = 1,
        identify_interval: float = IDENTIFY_INTERVAL,
        recommended_shards: int = 1,  # what /gateway/bot answers for a bot without a shard count
        session_start_total: int = 1000,
        global_per_second: int = GLOBAL_PER_SECOND,
        rate_limits: bool = True,
        **kwargs: Any,
    ) -> None:
        if guilds < 1 or channels_per_guild < 1 or max_concurrency < 1:
            raise ValueError("at least one guild, one channel per guild and max_concurrency 1")
        super().__init__(rate_limits=False, **kwargs)
        self.budget = SharedBudget(global_per_second) if rate_limits else None
        self.rate_limiter = self.budget
        self.max_concurrency = max_concurrency
        self.identify_interval = identify_interval
        self.recommended_shards = recommended_shards
        self.session_start_total = self.session_start_remaining = session_start_total

        self.guilds: dict[str, FakeGuild] = {}
        self.channel_guild: dict[str, str] = {}  # channel or thread id -> its guild
        for index in range(guilds):
            gid = guild_id_at(index)
            channels = [str(int(gid) + 1 + n) for n in range(channels_per_guild)]
            self.guilds[gid] = FakeGuild(gid, f"Trick Guild {index + 1}", channels)
            self.channel_guild.update(dict.fromkeys(channels, gid))
        self.guild_id = guild_id_at(0)
        self.channel_id = self.guilds[self.guild_id].channel_ids[0]
        self.channel_ids = [cid for g in self.guilds.values() for cid in g.channel_ids]
        self.threads: dict[str, dict[str, Any]] = {}  # thread id -> its channel payload
        self.thread_members: dict[str, set[str]] = {}  # thread id -> ids of the users added

        # What it records (times are time.monotonic()).
        self.sessions: list[Session] = []  # every session ever made, in order
        self.identifies: list[Identify] = []
        self.violations: list[Violation] = []
        self.duplicate_sessions: list[DuplicateSession] = []
        self.lost: list[Lost] = []
        self.delivered: dict[str, list[str]] = {}  # interaction id -> the sessions it was sent to
        self.answered: dict[str, RecordedRequest] = {}  # interaction id -> its (first) callback
        self.double_answers: list[DoubleAnswer] = []

        self._session_of: dict[_GatewayConn, Session] = {}
        self._bucket_last: dict[tuple[str | None, int], float] = {}  # (token, bucket) -> last IDENTIFY
        self._background: set[asyncio.Task[list[Session]]] = set()

    # ------------------------------------------------------------------ guilds and shards
    @property
    def guild_ids(self) -> list[str]:
        return list(self.guilds)

    def guilds_of_shard(self, shard_id: int, shard_count: int) -> list[str]:
        return [gid for gid in self.guilds if shard_of(gid, shard_count) == shard_id]

    def guild_of(self, channel_id: str) -> str:
        return self.channel_guild.get(channel_id, self.guild_id)

    def live_sessions(self) -> list[Session]:
        """Sessions on an open connection (READY sent or being sent)."""
        return [s for s in self._session_of.values() if not s.conn.ws.closed]

    def sessions_of_shard(self, shard_id: int) -> list[Session]:
        return [s for s in self.live_sessions() if s.shard_id == shard_id]

    async def close_shard(self, shard_id: int, code: int = 4000) -> None:
        """Drop the connection of every live session of ``shard_id`` (4000: discord.py resumes)."""
        for session in self.sessions_of_shard(shard_id):
            await session.conn.ws.close(code=code)

    # ------------------------------------------------------------------ payloads, per guild
    def guild(self, guild_id: str | None = None) -> dict[str, Any]:
        found = self.guilds[guild_id or self.guild_id]
        payload = super().guild()
        payload.update(id=found.id, name=found.name)
        payload["roles"][0]["id"] = found.id  # @everyone has the guild's id
        payload["channels"] = [self.channel(cid) for cid in found.channel_ids]
        payload["threads"] = [t for t in self.threads.values() if t["guild_id"] == found.id]
        return payload

    def channel(self, channel_id: str | None = None) -> dict[str, Any]:
        channel_id = channel_id or self.channel_id
        if channel_id in self.threads:
            return self.threads[channel_id]
        payload = super().channel(channel_id)
        gid = self.guild_of(channel_id)
        payload["guild_id"] = gid
        payload["name"] = (
            "general" if channel_id == self.guilds[gid].channel_ids[0] else f"table-{channel_id}"
        )
        return payload

    def message(self, **kwargs: Any) -> dict[str, Any]:
        payload = super().message(**kwargs)
        payload["guild_id"] = self.guild_of(payload["channel_id"])
        return payload

    def _interaction_base(
        self, itype: int, data: dict[str, Any], user: dict[str, Any] | None, channel_id: str | None = None
    ) -> dict[str, Any]:
        payload = super()._interaction_base(itype, data, user, channel_id)
        gid = self.guild_of(payload["channel_id"])
        payload.update(guild_id=gid, guild={"id": gid, "features": [], "locale": "en-US"})
        payload["authorizing_integration_owners"] = {"0": gid}
        return payload

    def slash_interaction(
        self,
        name: str,
        options: list | None = None,
        *,
        user: dict[str, Any] | None = None,
        guild_command: bool = False,
        channel_id: str | None = None,
        guild_id: str | None = None,
    ) -> dict[str, Any]:
        """INTERACTION_CREATE for ``/name`` in ``channel_id``, or else in the first channel of
        ``guild_id`` (default: the first guild's), by ``user`` (default: the fake's user)."""
        channel_id = channel_id or self.guilds[guild_id or self.guild_id].channel_ids[0]
        gid = self.guild_of(channel_id)
        pool = self.commands.get(gid if guild_command else None, [])
        cmd_id = next((c["id"] for c in pool if c["name"] == name), None) or self.snowflake()
        data: dict[str, Any] = {"id": cmd_id, "name": name, "type": 1, "options": options or []}
        if guild_command:
            data["guild_id"] = gid
        return self._interaction_base(2, data, user, channel_id)

    def component_interaction(
        self,
        custom_id: str,
        message: dict[str, Any],
        *,
        component_type: int = 2,
        values: list | None = None,
        user: dict[str, Any] | None = None,
        channel_id: str | None = None,
    ) -> dict[str, Any]:
        """A click on ``message`` (its channel, and so its guild, unless ``channel_id`` says)."""
        return super().component_interaction(
            custom_id, message, component_type=component_type, values=values, user=user,
            channel_id=channel_id or message.get("channel_id"),
        )  # fmt: skip

    def user(self, user_id: int | str, name: str | None = None) -> dict[str, Any]:
        """A person for ``user=`` of the interaction helpers."""
        name = name or f"user{user_id}"
        return {"id": str(user_id), "username": name, "discriminator": "0", "global_name": name.title(),
                "avatar": None, "public_flags": 0}  # fmt: skip

    # ------------------------------------------------------------------ dispatching
    @staticmethod
    def event_guild(event: str, data: dict[str, Any]) -> str | None:
        """The guild an event belongs to (None: a direct message's, which go to shard 0)."""
        if data.get("guild_id") is not None:
            return str(data["guild_id"])
        if event.startswith("GUILD_") and "id" in data:
            return str(data["id"])
        return None

    def routes_to(self, guild_id: str | None) -> list[Session]:
        """The sessions Discord would send this guild's events to: those whose shard it is."""
        return [
            s for s in self.live_sessions()
            if s.ready and (shard_of(guild_id, s.shard_count) if guild_id else 0) == s.shard_id
        ]  # fmt: skip

    async def deliver(self, event: str, data: dict[str, Any]) -> list[Session]:
        """Send an event now to the session(s) of its guild's shard, and return them; with none
        it is recorded in ``lost``."""
        guild_id = self.event_guild(event, data)
        sessions = self.routes_to(guild_id)
        interaction_id = str(data["id"]) if event == "INTERACTION_CREATE" else None
        sent = []
        for session in sessions:
            with contextlib.suppress(ConnectionError, RuntimeError):  # closed meanwhile
                await session.conn.send({"op": 0, "t": event, "d": data})
                sent.append(session)
        if interaction_id is not None:
            self.delivered[interaction_id] = [s.session_id for s in sent]
        if not sent:
            self.lost.append(Lost(event, guild_id, interaction_id))
        return sent

    async def dispatch(self, event: str, data: dict[str, Any], timeout: float = 5.0) -> None:
        """Send an event to the session(s) of its guild's shard, waiting up to ``timeout`` for
        one (a bot still starting); raises ``LostEvent`` if there is none by then."""
        guild_id = self.event_guild(event, data)
        deadline = time.monotonic() + timeout
        while not self.routes_to(guild_id) and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        if not await self.deliver(event, data):
            shard = "shard 0" if guild_id is None else f"the shard of guild {guild_id}"
            raise LostEvent(f"{event}: no session on {shard} (shards live: {self._shards_text()})")

    def _shards_text(self) -> str:
        return ", ".join(f"{s.shard_id}/{s.shard_count}" for s in self.live_sessions()) or "none"

    # ------------------------------------------------------------------ gateway
    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        try:
            return await super()._gateway(request)
        finally:  # a closed connection's session gets no more events (until a RESUME moves it)
            for conn in [c for c in self._session_of if c not in self._conns]:
                del self._session_of[conn]

    async def _on_gateway_payload(self, conn: _GatewayConn, p: dict[str, Any]) -> None:
        op, d = p.get("op"), p.get("d") or {}
        if op == 2:
            await self._identify(conn, d)
        elif op == 6:
            await self._resume(conn, d)
        elif op == 8:
            await self._members_chunk(conn, d)
        else:
            await super()._on_gateway_payload(conn, p)

    def _violation(self, kind: str, detail: str) -> None:
        self.violations.append(Violation(kind, detail))

    async def _identify(self, conn: _GatewayConn, d: dict[str, Any]) -> None:
        now = time.monotonic()
        token = d.get("token")
        shard_id, shard_count = d.get("shard") or [0, 1]
        record = Identify(now, shard_id, shard_count, shard_id % self.max_concurrency, token)
        self.identifies.append(record)
        refused = self._identify_refused(conn, record)
        if refused is not None:
            record.refused = refused
            if refused == "too early":
                await conn.send({"op": 9, "d": False})  # INVALID_SESSION, not resumable
            else:
                await conn.ws.close(code=4005 if refused == "already identified" else 4010)
            return
        self._bucket_last[(token, record.bucket)] = now
        self.session_start_remaining -= 1
        if self.session_start_remaining < 0:
            self._violation("session start limit", f"more than {self.session_start_total} IDENTIFYs")
        live = [s for s in self.live_sessions() if s.token == token]
        if any(s.shard_count != shard_count for s in live):
            counts = sorted({s.shard_count for s in live} | {shard_count})
            self._violation("shard count mismatch", f"live sessions with shard counts {counts}")
        session = Session(f"fake-session-{len(self.sessions) + 1}", shard_id, shard_count, token, now,
                          self.guilds_of_shard(shard_id, shard_count), conn)  # fmt: skip
        same = [s.session_id for s in live if (s.shard_id, s.shard_count) == (shard_id, shard_count)]
        if same:
            self.duplicate_sessions.append(DuplicateSession(shard_id, shard_count, same, session.session_id))
        record.session_id = session.session_id
        self.sessions.append(session)
        self._session_of[conn] = session
        await conn.send({"op": 0, "t": "READY", "d": self._ready(session)})
        for gid in session.guild_ids:
            await conn.send({"op": 0, "t": "GUILD_CREATE", "d": self.guild(gid)})
        session.ready = conn.identified = True
        self.identified.set()

    def _identify_refused(self, conn: _GatewayConn, record: Identify) -> str | None:
        """Why Discord would refuse this IDENTIFY (recorded as a violation), or None."""
        if conn in self._session_of:
            self._violation(
                "identify twice", f"a second IDENTIFY on the connection of shard {record.shard_id}"
            )
            return "already identified"
        if not 0 <= record.shard_id < record.shard_count:
            self._violation("shard out of range", f"shard [{record.shard_id}, {record.shard_count}]")
            return "invalid shard"
        last = self._bucket_last.get((record.token, record.bucket))
        if last is not None and record.at - last < self.identify_interval:
            self._violation(
                "identify too early",
                f"shard {record.shard_id}, bucket {record.bucket}: {record.at - last:.3f} s after the "
                f"previous IDENTIFY of the bucket (at least {self.identify_interval} s)",
            )
            return "too early"
        return None

    def _ready(self, session: Session) -> dict[str, Any]:
        return {
            "v": 10,
            "user": self.bot_user(),
            "session_id": session.session_id,
            "resume_gateway_url": self.gateway_url,
            "guilds": [{"id": gid, "unavailable": True} for gid in session.guild_ids],
            "application": {"id": self.app_id, "flags": 0},
            "shard": [session.shard_id, session.shard_count],
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
        }

    async def _resume(self, conn: _GatewayConn, d: dict[str, Any]) -> None:
        session = next((s for s in self.sessions if s.session_id == d.get("session_id")), None)
        if session is None:
            await conn.send({"op": 9, "d": False})
            return
        for old in [c for c, s in self._session_of.items() if s is session]:
            del self._session_of[old]  # the session moves to this connection
        session.conn, session.resumes = conn, session.resumes + 1
        self._session_of[conn] = session
        conn.seq = d.get("seq") or 0
        conn.identified = True
        await conn.send({"op": 0, "t": "RESUMED", "d": {}})

    async def _members_chunk(self, conn: _GatewayConn, d: dict[str, Any]) -> None:
        gid = str(d.get("guild_id") or self.guild_id)
        members = self.guild(gid)["members"] if gid in self.guilds else []
        chunk = {"guild_id": gid, "members": members, "chunk_index": 0, "chunk_count": 1, "not_found": [],
                 "presences": [], "nonce": d.get("nonce")}  # fmt: skip
        await conn.send({"op": 0, "t": "GUILD_MEMBERS_CHUNK", "d": chunk})

    # ------------------------------------------------------------------ REST
    async def _rest(self, request: web.Request) -> web.StreamResponse:
        if request.path.startswith("/_fake/"):
            return self._control(request.path)
        caused: list[tuple[str, dict[str, Any]]] = []
        _CAUSED.set(caused)  # this request's own task (and context): _route() adds to it
        response = await super()._rest(request)
        for event, data in caused:  # the gateway event reaches the bot before the answer, as a rule
            await self.deliver(event, data)
        return response

    def _cause(self, event: str, data: dict[str, Any]) -> None:
        caused = _CAUSED.get()
        if caused is None:  # not inside a request
            task = asyncio.get_running_loop().create_task(self.deliver(event, data))
            self._background.add(task)
            task.add_done_callback(self._background.discard)
        else:
            caused.append((event, data))

    def _control(self, path: str) -> web.Response:
        if path == "/_fake/summary":
            return self._json(self.summary())
        if path == "/_fake/guilds":
            return self._json({gid: g.channel_ids for gid, g in self.guilds.items()})
        return self._json({"message": f"unknown control route {path}"}, 404)

    def _rate_limit(self, rec: RecordedRequest) -> tuple[dict[str, str], web.Response | None]:
        if self.budget is None:
            return {}, None
        token = next((v for k, v in rec.headers.items() if k.lower() == "authorization"), None)
        return self.budget.check_token(token, rec.method, rec.path)

    def _route(self, r: RecordedRequest) -> web.Response | None:
        m, p = r.method, r.path
        if m == "GET" and p == "/gateway/bot":
            return self._json({"url": self.gateway_url, "shards": self.recommended_shards,
                               "session_start_limit": self.session_start_limit()})  # fmt: skip
        mt = CALLBACK.fullmatch(p)
        if mt and m == "POST":
            return self._callback(r, mt.group(1))
        mt = NEW_THREAD.fullmatch(p)
        if mt and m == "POST":
            return self._new_thread(r, mt.group(1), mt.group(2))
        mt = THREAD_MEMBER.fullmatch(p)
        if mt and m in ("PUT", "DELETE"):
            return self._thread_member(m, mt.group(1), self.bot_id if mt.group(2) == "@me" else mt.group(2))
        mt = ONE_CHANNEL.fullmatch(p)
        if mt and mt.group(1) in self.threads and m in ("GET", "PATCH"):
            return self._thread_edit(mt.group(1), r.json if m == "PATCH" else None)
        return super()._route(r)

    def session_start_limit(self) -> dict[str, int]:
        return {"total": self.session_start_total, "remaining": max(0, self.session_start_remaining),
                "reset_after": 86_400_000, "max_concurrency": self.max_concurrency}  # fmt: skip

    def _callback(self, r: RecordedRequest, interaction_id: str) -> web.Response | None:
        first = self.answered.get(interaction_id)
        if first is not None:
            self.double_answers.append(DoubleAnswer(interaction_id, first, r))
            return self._json({"message": "Interaction has already been acknowledged.", "code": 40060}, 400)
        response = super()._route(r)
        if response is not None and response.status < 300:
            self.answered[interaction_id] = r
        return response

    def _new_thread(self, r: RecordedRequest, parent: str, message_id: str | None) -> web.Response:
        if parent not in self.channel_guild or parent in self.threads:
            return self._json({"message": "Unknown Channel", "code": 10003}, 404)
        body = r.json or {}
        thread_id = message_id or self.snowflake()  # a thread from a message has the message's id
        thread = {
            "id": thread_id, "type": body.get("type") or 11, "guild_id": self.channel_guild[parent],
            "parent_id": parent, "owner_id": self.bot_id, "name": body.get("name") or "thread",
            "last_message_id": None, "rate_limit_per_user": body.get("rate_limit_per_user") or 0,
            "message_count": 0, "member_count": 1, "total_message_sent": 0, "flags": 0,
            "thread_metadata": {"archived": False, "locked": False, "invitable": body.get("invitable", True),
                                "auto_archive_duration": body.get("auto_archive_duration") or 4320,
                                "archive_timestamp": TIMESTAMP, "create_timestamp": TIMESTAMP},
        }  # fmt: skip
        self.threads[thread_id] = thread
        self.thread_members[thread_id] = {self.bot_id}  # its creator is in it
        self.channel_guild[thread_id] = thread["guild_id"]
        self._cause("THREAD_CREATE", {**thread, "newly_created": True})
        return self._json(thread, 201)

    def _thread_member(self, method: str, thread_id: str, user_id: str) -> web.Response:
        members = self.thread_members.get(thread_id)
        if members is None:
            return self._json({"message": "Unknown Channel", "code": 10003}, 404)
        if method == "PUT":
            members.add(user_id)
        else:
            members.discard(user_id)
        self.threads[thread_id]["member_count"] = len(members)
        return web.Response(status=204)

    def _thread_edit(self, thread_id: str, body: dict[str, Any] | None) -> web.Response:
        thread = self.threads[thread_id]
        if body:
            thread["name"] = body.get("name") or thread["name"]
            meta = thread["thread_metadata"]
            for key in ("archived", "locked", "invitable", "auto_archive_duration"):
                if body.get(key) is not None:
                    meta[key] = body[key]
            self._cause("THREAD_UPDATE", dict(thread))
        return self._json(thread)

    # ------------------------------------------------------------------ what it recorded
    def summary(self) -> dict[str, Any]:
        """Everything recorded, as JSON-able data (``GET /_fake/summary``)."""
        budget = self.budget
        live = {s.session_id for s in self.live_sessions()}
        return {
            "sessions": [
                {"session_id": s.session_id, "shard": [s.shard_id, s.shard_count], "guilds": len(s.guild_ids),
                 "identified_at": s.identified_at, "resumes": s.resumes, "live": s.session_id in live}
                for s in self.sessions
            ],
            "identifies": [{k: v for k, v in asdict(i).items() if k != "token"} for i in self.identifies],
            "violations": [asdict(v) for v in self.violations],
            "duplicate_sessions": [asdict(d) for d in self.duplicate_sessions],
            "lost": [asdict(x) for x in self.lost],
            "double_answers": [d.interaction_id for d in self.double_answers],
            "interactions_answered": len(self.answered),
            "requests": len(self.requests),
            "given_429": budget.given_429 if budget else 0,
            "given_global_429": budget.given_global_429 if budget else 0,
            "threads": len(self.threads),
            "errors": self.errors,
        }  # fmt: skip


# ---------------------------------------------------------------------- standalone
def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m tests.cluster.fake_cluster", description=(__doc__ or "").split("\n")[0]
    )
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0: any free one)")
    parser.add_argument("--guilds", type=int, default=6)
    parser.add_argument("--channels", type=int, default=1, help="text channels per guild")
    parser.add_argument("--max-concurrency", type=int, default=1)
    parser.add_argument("--identify-interval", type=float, default=IDENTIFY_INTERVAL)
    parser.add_argument("--recommended-shards", type=int, default=1)
    parser.add_argument("--global-per-second", type=int, default=GLOBAL_PER_SECOND)
    parser.add_argument("--no-rate-limits", action="store_true")
    parser.add_argument("--print-port", action="store_true", help="print the port once listening")
    return parser.parse_args(argv)


async def serve(args: argparse.Namespace) -> dict[str, Any]:
    fake = FakeCluster(
        guilds=args.guilds, channels_per_guild=args.channels, max_concurrency=args.max_concurrency,
        identify_interval=args.identify_interval, recommended_shards=args.recommended_shards,
        global_per_second=args.global_per_second, rate_limits=not args.no_rate_limits,
        patch_discord=False, listen_port=args.port,
    )  # fmt: skip
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await fake.start()
    if args.print_port:
        print(fake.port, flush=True)
    try:
        await stop.wait()
    finally:
        await fake.stop()
    return fake.summary()


def main(argv: list[str] | None = None) -> int:
    summary = asyncio.run(serve(parse_args(argv)))
    with contextlib.suppress(BrokenPipeError):
        print(json.dumps(summary), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
