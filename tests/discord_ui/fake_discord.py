"""A tiny in-process fake of Discord's REST API + gateway, for wire tests of discord.py 2.7.

Usage (inside an async test)::

    fake = FakeDiscord()
    await fake.start()              # binds 127.0.0.1:<ephemeral>, patches discord.py to point at it
    task = asyncio.create_task(bot.start("fake-token"))
    await fake.wait_for_request("PUT", r"/applications/\\d+/commands$")
    await fake.dispatch("INTERACTION_CREATE", fake.slash_interaction("ping"))
    req = await fake.wait_for_request("POST", r"/interactions/\\d+/[^/]+/callback$")
    ...
    await bot.close(); await fake.stop()   # stop() also restores discord.py's URLs

Everything is JSON over loopback; nothing talks to discord.com.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord.gateway
import discord.http
import yarl
from aiohttp import WSMsgType, web

from tests.discord_ui.fake_ratelimit import RateLimiter

API_PREFIX = "/api/v10"


# Discord's documented limits, written out here independently of the bot's own checks, so a
# message over any of them is refused like Discord does (HTTP 400, "Invalid Form Body").
def limit_errors(body: Any) -> list[str]:
    """What Discord would refuse in a message (or modal) payload; empty when it is fine."""
    if not isinstance(body, dict):
        return []
    out: list[str] = []

    def longer(what: str, value: Any, limit: int) -> None:
        if isinstance(value, str) and len(value) > limit:
            out.append(f"{what}: {len(value)} > {limit}")

    longer("content", body.get("content"), 2000)
    embeds = body.get("embeds") or []
    if len(embeds) > 10:
        out.append("more than 10 embeds")
    for embed in embeds:
        longer("embed.title", embed.get("title"), 256)
        longer("embed.description", embed.get("description"), 4096)
        fields = embed.get("fields") or []
        if len(fields) > 25:
            out.append(f"embed.fields: {len(fields)} > 25")
        total = len(embed.get("title") or "") + len(embed.get("description") or "")
        for f in fields:
            longer("embed.fields.name", f.get("name"), 256)
            longer("embed.fields.value", f.get("value"), 1024)
            if not f.get("name") or not f.get("value"):
                out.append("embed field with an empty name or value")
            total += len(f.get("name") or "") + len(f.get("value") or "")
        footer = (embed.get("footer") or {}).get("text") or ""
        longer("embed.footer.text", footer, 2048)
        total += len(footer) + len((embed.get("author") or {}).get("name") or "")
        if total > 6000:
            out.append(f"embed total: {total} > 6000")
    if "title" in body and "custom_id" in body:  # a modal
        longer("modal.title", body.get("title"), 45)
    rows = body.get("components") or []
    if len(rows) > 5:
        out.append(f"components: {len(rows)} rows > 5")
    for row in rows:
        children = row.get("components") or ([row["component"]] if "component" in row else [])
        if len(children) > 5:
            out.append(f"action row: {len(children)} components > 5")
        if len(children) > 1 and any(c.get("type") in (3, 4, 5, 6, 7, 8) for c in children):
            out.append("a select or text input shares its row")
        for c in children:
            longer("custom_id", c.get("custom_id"), 100)
            if c.get("type") == 2:
                longer("button.label", c.get("label"), 80)
            elif c.get("type") == 3:
                options = c.get("options") or []
                if not 1 <= len(options) <= 25:
                    out.append(f"select: {len(options)} options")
                for option in options:
                    for key in ("label", "value", "description"):
                        longer(f"select.option.{key}", option.get(key), 100)
                longer("select.placeholder", c.get("placeholder"), 150)
            elif c.get("type") == 4:
                longer("text_input.label", c.get("label"), 45)
                longer("text_input.placeholder", c.get("placeholder"), 100)
    return out


JSON = {"Content-Type": "application/json"}  # discord.py compares content-type *exactly*
EXTRA_CHANNELS = 1_250_000_000_000_000_000


def _snowflake_gen(start: int = 1_300_000_000_000_000_000) -> Callable[[], str]:
    counter = itertools.count(start)
    return lambda: str(next(counter))


@dataclass
class RecordedRequest:
    method: str
    path: str  # without the /api/v10 prefix, e.g. "/interactions/1/tok/callback"
    query: dict[str, str]
    json: Any
    headers: dict[str, str] = field(repr=False, default_factory=dict)
    at: float = field(repr=False, default_factory=time.monotonic)  # when it reached the fake


class _GatewayConn:
    def __init__(self, ws: web.WebSocketResponse, compress: str | None) -> None:
        self.ws = ws
        self.binary_frames = 0
        self.compress = compress
        self.seq = 0
        self.lock = asyncio.Lock()
        self.identified = False
        self._zlib = zlib.compressobj() if compress == "zlib-stream" else None

    async def send(self, payload: dict[str, Any]) -> None:
        async with self.lock:  # keep zlib stream + seq ordering consistent
            if payload.get("op") == 0:
                self.seq += 1
                payload["s"] = self.seq
            else:
                payload.setdefault("s", None)
            payload.setdefault("t", None)
            raw = json.dumps(payload).encode()
            if self._zlib is not None:
                # zlib-stream: one shared deflate stream; every message ends with Z_SYNC_FLUSH (00 00 ff ff)
                await self.ws.send_bytes(self._zlib.compress(raw) + self._zlib.flush(zlib.Z_SYNC_FLUSH))
                self.binary_frames += 1
            else:
                # uncompressed text frame: discord.py only decompresses *bytes* frames, text is parsed as JSON
                await self.ws.send_str(raw.decode())


class FakeDiscord:
    def __init__(
        self,
        *,
        bot_id: int = 1_100_000_000_000_000_001,
        app_id: int | None = None,
        guild_id: int = 1_200_000_000_000_000_001,
        channel_id: int = 1_200_000_000_000_000_002,
        user_id: int = 1_200_000_000_000_000_003,
        heartbeat_interval_ms: int = 41_250,
        compression: str = "auto",  # "auto": honour ?compress=zlib-stream, "none": always plain text frames
        patch_discord: bool = True,
        channels: int = 1,  # text channels in the guild: channel_id, then EXTRA_CHANNELS + 1, + 2, ...
        rate_limits: bool = False,  # answer like Discord's per-route and global limits (headers, 429s)
        listen_port: int = 0,  # 0: an ephemeral port (``port`` once started)
    ) -> None:
        self.bot_id, self.app_id = str(bot_id), str(app_id or bot_id)
        self.guild_id, self.channel_id, self.user_id = str(guild_id), str(channel_id), str(user_id)
        self.channel_ids = [self.channel_id] + [str(EXTRA_CHANNELS + n) for n in range(1, channels)]
        self.rate_limiter = RateLimiter() if rate_limits else None
        # Called with each request before it is routed; a response returned is sent instead (tests
        # use it to make a route fail: 403, 404, 500 ...).
        self.intercept: Callable[[RecordedRequest], web.Response | None] | None = None
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.compression = compression
        self.patch_discord = patch_discord
        self.snowflake = _snowflake_gen()

        self.requests: list[RecordedRequest] = []
        self.unknown_routes: list[RecordedRequest] = []
        self.errors: list[str] = []  # exceptions raised inside the fake's route handlers
        self.refused: list[tuple[RecordedRequest, list[str]]] = []  # over Discord's limits: HTTP 400
        self.gateway_received: list[dict[str, Any]] = []  # every payload the bot sent on the gateway
        self.gateway_queries: list[dict[str, str]] = []  # query params of each gateway connection
        self.binary_frames_sent = 0  # zlib-stream frames sent on closed connections
        self.commands: dict[str | None, list[dict[str, Any]]] = {}  # None -> global, guild_id -> guild
        self.messages: dict[str, dict[str, Any]] = {}  # message_id -> message payload (all sent/edited)
        self.original_responses: dict[str, dict[str, Any]] = {}  # interaction token -> message payload
        self.sources: dict[str, str] = {}  # component interaction id -> id of the message clicked
        self.expired_tokens: set[str] = set()  # interaction tokens past Discord's 15 minutes
        self._tokens: list[str] = []
        self.identified = asyncio.Event()
        self.token_channels: dict[str, str] = {}  # interaction token -> its channel
        self.app_permissions: dict[str, str] = {}  # channel id -> the bot's permissions there (default: all)

        self._conns: list[_GatewayConn] = []
        self._cond = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self._saved: tuple | None = None
        self.port: int | None = None
        self.listen_port = listen_port

    # ------------------------------------------------------------------ lifecycle
    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    async def start(self) -> FakeDiscord:
        app = web.Application()
        app.router.add_get("/", self._gateway)
        app.router.add_route("*", "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, shutdown_timeout=1.0, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", self.listen_port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        if self.patch_discord:
            self._saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
            discord.http.Route.BASE = self.base_url  # class attr, read when each Route() is built
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(
                self.gateway_url
            )  # must be a yarl.URL
        return self

    async def stop(self) -> None:
        for conn in list(self._conns):
            await conn.ws.close(code=1000)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._saved is not None:
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._saved
            self._saved = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: Any) -> None:
        await self.stop()

    # ------------------------------------------------------------------ test helpers
    async def wait_for_request(
        self,
        method: str,
        path_regex: str,
        timeout: float = 5.0,
        *,
        since: int = 0,
        predicate: Callable[[RecordedRequest], bool] | None = None,
    ) -> RecordedRequest:
        """First recorded request (index >= since) whose method matches and path re.search()es path_regex."""
        rx = re.compile(path_regex)

        def find() -> RecordedRequest | None:
            for r in self.requests[since:]:
                if r.method == method.upper() and rx.search(r.path) and (predicate is None or predicate(r)):
                    return r
            return None

        async def waiter() -> RecordedRequest:
            async with self._cond:
                await self._cond.wait_for(lambda: find() is not None)
                return find()  # type: ignore[return-value]

        try:
            return await asyncio.wait_for(waiter(), timeout)
        except TimeoutError:
            seen = "\n  ".join(f"{r.method} {r.path}" for r in self.requests) or "(none)"
            raise AssertionError(
                f"no {method} {path_regex} within {timeout}s; requests seen:\n  {seen}"
            ) from None

    async def close_gateway(self, code: int = 4000) -> None:
        """Drop every gateway connection with this close code (4000: discord.py RESUMEs)."""
        for conn in list(self._conns):
            conn.identified = False
            await conn.ws.close(code=code)

    async def send_op(self, op: int, data: Any = None) -> None:
        """Send a non-dispatch opcode to every connection (7 RECONNECT, 9 INVALID_SESSION ...)."""
        for conn in list(self._conns):
            if not conn.ws.closed:
                await conn.send({"op": op, "d": data})

    async def dispatch(self, event: str, data: dict[str, Any], timeout: float = 5.0) -> None:
        """Send a DISPATCH (op 0) event to every identified gateway connection."""
        await asyncio.wait_for(self.identified.wait(), timeout)
        conns = [c for c in self._conns if c.identified and not c.ws.closed]
        if not conns:
            raise RuntimeError("no identified gateway connection")
        for c in conns:
            await c.send({"op": 0, "t": event, "d": data})

    # ------------------------------------------------------------------ payload builders
    def bot_user(self) -> dict[str, Any]:
        return {
            "id": self.bot_id,
            "username": "TrickBot",
            "discriminator": "0",
            "global_name": None,
            "avatar": None,
            "bot": True,
            "flags": 0,
            "verified": True,
            "mfa_enabled": False,
        }

    def human_user(self) -> dict[str, Any]:
        return {
            "id": self.user_id,
            "username": "alice",
            "discriminator": "0",
            "global_name": "Alice",
            "avatar": None,
            "public_flags": 0,
        }

    def member(self, user: dict[str, Any], permissions: str | None = None) -> dict[str, Any]:
        m = {
            "user": user,
            "roles": [],
            "joined_at": "2024-01-01T00:00:00.000000+00:00",
            "nick": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
        }  # 'roles' and 'flags' are required
        if permissions is not None:
            m["permissions"] = permissions
        return m

    def channel(self, channel_id: str | None = None) -> dict[str, Any]:
        return {
            "id": channel_id or self.channel_id,
            "type": 0,
            "guild_id": self.guild_id,
            "name": f"table-{channel_id}" if channel_id not in (None, self.channel_id) else "general",
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
        }

    def guild(self) -> dict[str, Any]:
        return {
            "id": self.guild_id,
            "name": "Trick Guild",
            "icon": None,
            "owner_id": self.user_id,
            "unavailable": False,
            "member_count": 2,
            "large": False,
            "features": [],
            "emojis": [],
            "stickers": [],
            "roles": [
                {
                    "id": self.guild_id,
                    "name": "@everyone",
                    "permissions": "2248473465835073",
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "channels": [self.channel(cid) for cid in self.channel_ids],
            "threads": [],
            "voice_states": [],
            "presences": [],
            "members": [self.member(self.bot_user()), self.member(self.human_user())],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "joined_at": "2024-01-01T00:00:00.000000+00:00",
            "preferred_locale": "en-US",
            "premium_tier": 0,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "system_channel_flags": 0,
            "afk_timeout": 300,
        }

    def app_info(self) -> dict[str, Any]:
        # AppInfo.__init__ indexes these keys directly: id name description icon bot_public
        # bot_require_code_grant owner verify_key
        return {
            "id": self.app_id,
            "name": "TrickBot",
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.human_user(),
            "verify_key": "0" * 64,
            "flags": 0,
            "team": None,
            "summary": "",
            "bot": self.bot_user(),
            "interactions_endpoint_url": None,
        }  # non-null here makes discord.py warn

    def message(
        self,
        *,
        content: str = "",
        components: list | None = None,
        flags: int = 0,
        author: dict[str, Any] | None = None,
        message_id: str | None = None,
        channel_id: str | None = None,
        embeds: list | None = None,
        type: int = 0,
    ) -> dict[str, Any]:
        return {
            "id": message_id or self.snowflake(),
            "channel_id": channel_id or self.channel_id,
            "guild_id": self.guild_id,
            "author": author or self.bot_user(),
            "content": content,
            "timestamp": "2024-01-01T00:00:00.000000+00:00",
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": embeds or [],
            "pinned": False,
            "type": type,
            "flags": flags,
            "components": components or [],
        }

    def _interaction_base(
        self, itype: int, data: dict[str, Any], user: dict[str, Any] | None, channel_id: str | None = None
    ) -> dict[str, Any]:
        channel_id = channel_id or self.channel_id
        token = self._new_token()
        self.token_channels[token] = channel_id
        return {
            "id": self.snowflake(),
            "application_id": self.app_id,
            "type": itype,
            "data": data,
            "guild_id": self.guild_id,
            "guild": {"id": self.guild_id, "features": [], "locale": "en-US"},
            "channel_id": channel_id,
            "channel": self.channel(channel_id),
            "member": self.member(user or self.human_user(), permissions="2248473465835073"),
            "token": token,
            "version": 1,
            "app_permissions": self.app_permissions.get(channel_id, "2248473465835073"),
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": self.guild_id},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,  # required (indexed) by discord.py 2.7
        }

    def _new_token(self) -> str:
        token = f"itok-{self.snowflake()}"
        self._tokens.append(token)
        return token

    def expire_tokens(self) -> None:
        """Every interaction token issued so far runs out (Discord's 15 minutes have passed): the
        webhook routes then answer 401 Invalid Webhook Token, as Discord does."""
        self.expired_tokens.update(self._tokens)

    def slash_interaction(
        self,
        name: str,
        options: list | None = None,
        *,
        user: dict[str, Any] | None = None,
        guild_command: bool = False,
        channel_id: str | None = None,
    ) -> dict[str, Any]:
        """INTERACTION_CREATE type 2 (APPLICATION_COMMAND) for a CHAT_INPUT command."""
        pool = self.commands.get(self.guild_id if guild_command else None, [])
        cmd_id = next((c["id"] for c in pool if c["name"] == name), None) or self.snowflake()
        data: dict[str, Any] = {"id": cmd_id, "name": name, "type": 1, "options": options or []}
        if guild_command:
            data["guild_id"] = self.guild_id  # tree looks up guild commands by data.guild_id
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
        """INTERACTION_CREATE type 3 (MESSAGE_COMPONENT); component_type 2 = button, 3 = string select."""
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        if values is not None:
            data["values"] = values
        payload = self._interaction_base(3, data, user, channel_id or message.get("channel_id"))
        payload["message"] = message
        self.sources[payload["id"]] = message["id"]
        return payload

    # ------------------------------------------------------------------ gateway
    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        q = dict(request.query)
        self.gateway_queries.append(q)
        if q.get("encoding", "json") != "json":
            await ws.close(code=4002, message=b"fake only speaks json")
            return ws
        comp = q.get("compress") if self.compression == "auto" else None
        conn = _GatewayConn(ws, comp if comp == "zlib-stream" else None)  # zstd-stream -> plain text frames
        self._conns.append(conn)
        try:
            await conn.send({"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                payload = json.loads(msg.data)
                self.gateway_received.append(payload)
                await self._on_gateway_payload(conn, payload)
        finally:
            self._conns.remove(conn)
            self.binary_frames_sent += conn.binary_frames
        return ws

    async def _on_gateway_payload(self, conn: _GatewayConn, p: dict[str, Any]) -> None:
        op, d = p.get("op"), p.get("d")
        if op == 1:  # HEARTBEAT
            await conn.send({"op": 11})
        elif op == 2:  # IDENTIFY
            ready = {
                "v": 10,
                "user": self.bot_user(),
                "session_id": "fake-session",
                "resume_gateway_url": self.gateway_url,  # discord.py reconnects/resumes here
                "guilds": [{"id": self.guild_id, "unavailable": True}],
                "application": {"id": self.app_id, "flags": 0},  # flags is indexed, not .get()
                "shard": d.get("shard", [0, 1]),
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": [],
                "user_settings": {},
            }
            await conn.send({"op": 0, "t": "READY", "d": ready})
            await conn.send({"op": 0, "t": "GUILD_CREATE", "d": self.guild()})
            conn.identified = True
            self.identified.set()
        elif op == 6:  # RESUME
            conn.seq = d.get("seq") or 0
            conn.identified = True
            await conn.send({"op": 0, "t": "RESUMED", "d": {}})
        elif op == 8:  # REQUEST_GUILD_MEMBERS (only if members intent + chunking)
            g = self.guild()
            await conn.send(
                {
                    "op": 0,
                    "t": "GUILD_MEMBERS_CHUNK",
                    "d": {
                        "guild_id": g["id"],
                        "members": g["members"],
                        "chunk_index": 0,
                        "chunk_count": 1,
                        "not_found": [],
                        "presences": [],
                        "nonce": d.get("nonce"),
                    },
                }
            )

    # ------------------------------------------------------------------ REST
    @staticmethod
    def _json(data: Any, status: int = 200) -> web.Response:
        return web.Response(status=status, body=json.dumps(data).encode(), headers=JSON)

    async def _read_body(self, request: web.Request) -> Any:
        if not request.can_read_body:
            return None
        if request.content_type.startswith("multipart/"):
            body: dict[str, Any] = {"_files": []}
            reader = await request.multipart()
            async for part in reader:
                if part.name == "payload_json":
                    body.update(json.loads(await part.text()))
                else:
                    body["_files"].append(
                        {"name": part.name, "filename": part.filename, "size": len(await part.read())}
                    )
            return body
        raw = await request.read()
        try:
            return json.loads(raw) if raw else None
        except ValueError:
            return raw.decode(errors="replace")

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = request.path[len(API_PREFIX) :] if request.path.startswith(API_PREFIX) else request.path
        rec = RecordedRequest(
            request.method, path, dict(request.query), await self._read_body(request), dict(request.headers)
        )
        try:
            headers: dict[str, str] = {}
            resp = self.intercept(rec) if self.intercept is not None else None
            if resp is None:
                headers, resp = self._rate_limit(rec)
            problems = (
                limit_errors((rec.json or {}).get("data")) if "/callback" in path else limit_errors(rec.json)
            )
            if resp is None and problems and rec.method in ("POST", "PATCH"):
                self.refused.append((rec, problems))
                resp = self._json({"message": "Invalid Form Body", "code": 50035, "errors": problems}, 400)
            if resp is None:
                resp = self._route(rec)
                if resp is not None:
                    resp.headers.update(headers)
        except Exception as exc:  # a bug in the fake: make it loud, but 4xx so discord.py doesn't retry 5xx
            self.errors.append(f"{rec.method} {path}: {exc!r}")
            resp = self._json({"message": f"fake error: {exc!r}", "code": 0}, 400)
        if resp is None:
            self.unknown_routes.append(rec)
            resp = self._json({"message": f"Unknown route (fake): {rec.method} {path}", "code": 0}, 404)
        async with self._cond:
            self.requests.append(rec)
            self._cond.notify_all()
        return resp

    def _rate_limit(self, rec: RecordedRequest) -> tuple[dict[str, str], web.Response | None]:
        """Rate-limit headers for the response, and a 429 to send instead (a subclass may keep
        budgets per bot token: ``tests/cluster/fake_cluster.py``)."""
        if self.rate_limiter is None:
            return {}, None
        return self.rate_limiter.check(rec.method, rec.path)

    def _store_message(self, msg: dict[str, Any]) -> dict[str, Any]:
        self.messages[msg["id"]] = msg
        return msg

    def _msg_from_body(self, body: dict[str, Any], **kw: Any) -> dict[str, Any]:
        body = body or {}
        kw.setdefault("flags", body.get("flags") or 0)
        return self._store_message(
            self.message(
                content=body.get("content") or "",
                components=body.get("components"),
                embeds=body.get("embeds"),
                **kw,
            )
        )

    def _edit_message(self, msg: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
        for k in ("content", "components", "embeds", "flags"):
            if body and k in body and body[k] is not None:
                msg[k] = body[k]
        msg["edited_timestamp"] = "2024-01-01T00:00:01.000000+00:00"
        return msg

    def _route(self, r: RecordedRequest) -> web.Response | None:
        m, p, b = r.method, r.path, r.json
        if m == "GET" and p == "/users/@me":
            return self._json(self.bot_user())
        if m == "GET" and p == "/gateway":
            return self._json({"url": self.gateway_url})
        if m == "GET" and p == "/gateway/bot":
            return self._json(
                {
                    "url": self.gateway_url,
                    "shards": 1,
                    "session_start_limit": {
                        "total": 1000,
                        "remaining": 1000,
                        "reset_after": 0,
                        "max_concurrency": 1,
                    },
                }
            )
        if m == "GET" and p == "/oauth2/applications/@me":
            return self._json(self.app_info())

        mt = re.fullmatch(r"/applications/(\d+)(?:/guilds/(\d+))?/commands", p)
        if mt:
            key = mt.group(2)
            if m == "GET":
                return self._json(self.commands.get(key, []))
            if m == "PUT":  # bulk overwrite: echo back with ids, like Discord does
                out = []
                for c in b or []:
                    cmd = {
                        "id": self.snowflake(),
                        "application_id": mt.group(1),
                        "version": self.snowflake(),
                        "type": 1,
                        "description": "",
                        "options": [],
                        "default_member_permissions": None,
                        "nsfw": False,
                        **c,
                    }
                    if key:
                        cmd["guild_id"] = key
                    out.append(cmd)
                self.commands[key] = out
                return self._json(out)

        mt = re.fullmatch(r"/interactions/(\d+)/([^/]+)/callback", p)
        if mt and m == "POST":
            itype, data = (b or {}).get("type"), (b or {}).get("data") or {}
            interaction = {
                "id": mt.group(1),
                "type": 2,
                "response_message_loading": itype == 5,
                "response_message_ephemeral": bool((data.get("flags") or 0) & 64),
            }
            resp: dict[str, Any] = {"interaction": interaction}
            channel_id = self.token_channels.get(mt.group(2))
            if itype in (4, 5):  # CHANNEL_MESSAGE_WITH_SOURCE / DEFERRED_CHANNEL_MESSAGE
                flags = (data.get("flags") or 0) | (128 if itype == 5 else 0)
                msg = self._msg_from_body(data, flags=flags, channel_id=channel_id)
                self.original_responses[mt.group(2)] = msg
                interaction["response_message_id"] = msg["id"]
                resp["resource"] = {"type": itype, "message": msg}
            elif itype == 7:  # UPDATE_MESSAGE: the clicked message is edited (or synthesized if unknown)
                source = self.messages.get(self.sources.get(mt.group(1), ""))
                msg = (
                    self._edit_message(source, data)
                    if source is not None
                    else self._msg_from_body(data, channel_id=channel_id)
                )
                self.original_responses[mt.group(2)] = msg
                interaction["response_message_id"] = msg["id"]
                resp["resource"] = {"type": itype, "message": msg}
            if r.query.get("with_response") in ("1", "true", "True"):
                return self._json(resp)
            return web.Response(status=204)

        mt = re.fullmatch(r"/webhooks/(\d+)/([^/]+)(?:/messages/([^/]+))?", p)
        if mt:
            token, mid = mt.group(2), mt.group(3)
            if token in self.expired_tokens:
                return self._json({"message": "Invalid Webhook Token", "code": 50027}, 401)
            if mid is None and m == "POST":  # followup
                channel_id = self.token_channels.get(token)
                return self._json(self._msg_from_body(b, author=self.bot_user(), channel_id=channel_id))
            if mid is not None:
                msg = self.original_responses.get(token) if mid == "@original" else self.messages.get(mid)
                if msg is None:
                    return self._json({"message": "Unknown Message", "code": 10008}, 404)
                if m == "GET":
                    return self._json(msg)
                if m == "PATCH":
                    return self._json(self._edit_message(msg, b))
                if m == "DELETE":
                    self.messages.pop(msg["id"], None)
                    return web.Response(status=204)

        mt = re.fullmatch(r"/channels/(\d+)", p)
        if mt and m == "GET":  # fetch_channel (before the guild is cached, or a channel gone)
            if mt.group(1) in self.channel_ids:
                return self._json(self.channel(mt.group(1)))
            return self._json({"message": "Unknown Channel", "code": 10003}, 404)

        mt = re.fullmatch(r"/channels/(\d+)/messages(?:/(\d+))?", p)
        if mt:
            cid, mid = mt.groups()
            if mid is None and m == "POST":
                return self._json(self._msg_from_body(b, channel_id=cid))
            if mid is not None:
                msg = self.messages.get(mid) or self._store_message(
                    self.message(message_id=mid, channel_id=cid)
                )
                if m == "GET":
                    return self._json(msg)
                if m == "PATCH":
                    return self._json(self._edit_message(msg, b))
                if m == "DELETE":
                    self.messages.pop(mid, None)
                    return web.Response(status=204)
        return None
