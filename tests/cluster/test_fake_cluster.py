"""The wire fake of a sharded Discord (``tests/cluster/fake_cluster.py``) with the real bot: two bots
on shards 0 and 1 of 2 (in this process, and as two processes) each get exactly their shards' guilds
and answer their guilds' clicks once; two IDENTIFYs of one bucket closer than Discord allows are
refused and flagged; a second session of one shard gets the shard's events too, so a click is
answered twice and the second answer gets 40060; one REST budget per bot token across every
connection answers 429 past 50 a second."""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.app import TrickNightBot
from bot.config import Settings
from tests.cluster.fake_cluster import (
    IDENTIFY_INTERVAL,
    FakeCluster,
    LostEvent,
    guild_id_at,
    shard_of,
)
from tests.hosting.harness import ROOT, BotProcess, fake_token, source_bot, write_env_file

CALLBACK = r"^/interactions/(?P<id>\d+)/[^/]+/callback$"
TOKEN = "fake-token"


@pytest.fixture
async def make_fake() -> AsyncIterator[Callable[..., Any]]:
    """Start a ``FakeCluster(**options)``; every one started is stopped after the test."""
    started: list[FakeCluster] = []

    async def make(**options: Any) -> FakeCluster:
        fake = await FakeCluster(**options).start()
        started.append(fake)
        return fake

    try:
        yield make
    finally:
        for fake in started:
            await fake.stop()


@contextlib.asynccontextmanager
async def bots(tmp_path: Path, *shards: int, shard_count: int = 2) -> AsyncIterator[list[TrickNightBot]]:
    """Bots in this process, one per entry of ``shards`` running that shard of ``shard_count``,
    each on its own database, started together and ready."""
    running = [
        TrickNightBot(
            Settings(
                token=TOKEN,
                database=tmp_path / f"bot{n}.db",
                computer_delay=0.0,
                shard_count=shard_count,
                shard_ids=(shard,),
            ),
            min_edit_interval=0.0,
            guild_ready_timeout=0.05,
        )
        for n, shard in enumerate(shards)
    ]
    tasks = [asyncio.create_task(bot.start(TOKEN)) for bot in running]
    try:
        ready = asyncio.gather(*(bot.wait_until_ready() for bot in running))
        done, _ = await asyncio.wait([*tasks, ready], timeout=15, return_when=asyncio.FIRST_COMPLETED)
        if ready not in done:
            ready.cancel()
            for task in done:
                task.result()
            raise AssertionError("the bots never became ready")
        yield running
    finally:
        for bot in running:
            await asyncio.wait_for(bot.close(), 10)
        await asyncio.wait(tasks, timeout=10)


async def answered(fake: FakeCluster, interaction: dict[str, Any], timeout: float = 10.0) -> dict[str, Any]:
    """The body of the (first) callback answering ``interaction``."""
    request = await fake.wait_for_request(
        "POST", CALLBACK, timeout, predicate=lambda r: r.path.split("/")[2] == interaction["id"]
    )
    return request.json  # type: ignore[no-any-return]


def guild_ids_of(bot: TrickNightBot) -> list[str]:
    return sorted(str(guild.id) for guild in bot.guilds)


# ----- guilds spread over the shards -------------------------------------------------------------------


def test_the_guilds_spread_over_any_shard_count_up_to_their_number() -> None:
    fake = FakeCluster(guilds=6, channels_per_guild=2, patch_discord=False)
    assert fake.guild_ids == [guild_id_at(n) for n in range(6)]
    for count in range(1, 7):
        per_shard = [len(fake.guilds_of_shard(shard, count)) for shard in range(count)]
        assert sum(per_shard) == 6 and min(per_shard) >= 6 // count, (count, per_shard)
        assert all(shard_of(guild_id_at(n), count) == n % count for n in range(6))
    # Each guild has its own channels, and what the fake builds in a channel carries its guild.
    gid = fake.guilds_of_shard(1, 2)[0]
    second = fake.guilds[gid].channel_ids[1]
    slash = fake.slash_interaction("help", channel_id=second)
    assert slash["guild_id"] == slash["channel"]["guild_id"] == gid and slash["channel_id"] == second
    assert fake.slash_interaction("help", guild_id=gid)["channel_id"] == fake.guilds[gid].channel_ids[0]
    click = fake.component_interaction("x", fake.message(channel_id=second), user=fake.user(5, "bob"))
    assert click["guild_id"] == gid and click["member"]["user"]["username"] == "bob"
    assert fake.guild(gid)["channels"][1]["id"] == second
    assert len({cid for g in fake.guilds.values() for cid in g.channel_ids}) == 12


# ----- two bots, two shards -------------------------------------------------------------------------------


async def test_each_bot_gets_its_shards_guilds_and_answers_its_guilds_clicks_once(
    make_fake: Callable[..., Any], tmp_path: Path
) -> None:
    fake: FakeCluster = await make_fake(guilds=6, max_concurrency=2)  # shards 0 and 1 in two buckets
    async with bots(tmp_path, 0, 1) as (bot0, bot1):
        sessions = {s.shard_id: s for s in fake.live_sessions()}
        assert sorted(sessions) == [0, 1] and all(s.shard_count == 2 for s in sessions.values())
        for shard, bot in enumerate((bot0, bot1)):
            assert guild_ids_of(bot) == sorted(sessions[shard].guild_ids) == fake.guilds_of_shard(shard, 2)
            assert len(bot.guilds) == 3

        # /table new in a guild of shard 1: only bot 1 gets it; the table opens in a new thread
        # (THREAD_CREATE goes to shard 1 too) with its host in it.
        gid = fake.guilds_of_shard(1, 2)[0]
        new = fake.slash_interaction("table", [{"type": 1, "name": "new", "options": [
            {"type": 3, "name": "game", "value": "pitch"}]}], guild_id=gid)  # fmt: skip
        await fake.dispatch("INTERACTION_CREATE", new)
        assert (await answered(fake, new))["type"] == 5  # deferred while the thread is made
        assert fake.delivered[new["id"]] == [sessions[1].session_id]
        await fake.wait_for_request("POST", r"^/channels/\d+/threads$")
        [thread_id] = fake.threads
        await fake.wait_for_request("POST", rf"^/channels/{thread_id}/messages$", timeout=10)
        assert fake.threads[thread_id]["guild_id"] == gid
        assert fake.thread_members[thread_id] == {fake.bot_id, fake.user_id}
        assert bot1.tables.table_in(int(thread_id)) is not None
        assert bot1.get_channel(int(thread_id)) is not None
        assert bot0.tables.table_in(int(thread_id)) is None and bot0.get_channel(int(thread_id)) is None

        # /help in a guild of shard 0: bot 0 answers it.
        other = fake.slash_interaction("help", guild_id=fake.guilds_of_shard(0, 2)[-1])
        await fake.dispatch("INTERACTION_CREATE", other)
        assert (await answered(fake, other))["type"] == 4
        assert fake.delivered[other["id"]] == [sessions[0].session_id]

        await asyncio.sleep(0.2)  # time for any second answer
        assert set(fake.answered) == {new["id"], other["id"]}
        assert fake.double_answers == [] and fake.duplicate_sessions == []
        assert fake.violations == [] and fake.lost == []
        assert sorted((i.shard_id, i.bucket, i.refused) for i in fake.identifies) == [
            (0, 0, None),
            (1, 1, None),
        ]
        assert fake.budget is not None and fake.budget.given_429 == 0
    assert fake.errors == [] and fake.unknown_routes == [], fake.unknown_routes


async def test_two_bot_processes_on_shards_0_and_1_of_one_fake(
    make_fake: Callable[..., Any], tmp_path: Path
) -> None:
    """The same through ``wire_site/sitecustomize.py``: two ``python -m bot`` processes."""
    fake: FakeCluster = await make_fake(guilds=6, max_concurrency=2, patch_discord=False)
    processes: list[BotProcess] = []
    try:
        for shard in (0, 1):
            site = tmp_path / f"site{shard}"
            write_env_file(site, DISCORD_TOKEN=fake_token(), TRICKNIGHT_DATABASE="db/tricknight.db",
                           TRICKNIGHT_COMPUTER_DELAY="0", TRICKNIGHT_SHARD_COUNT="2",
                           TRICKNIGHT_SHARD_IDS=str(shard))  # fmt: skip
            processes.append(source_bot(fake, tmp_path / f"home{shard}", site))
        for shard, process in enumerate(processes):
            await process.wait_for_line(rf"connected as .*: 3 guild\(s\) on shard\(s\) {shard} of 2", 60)
        sessions = {s.shard_id: s for s in fake.live_sessions()}
        assert sorted(sessions) == [0, 1]
        for shard in (0, 1):
            assert sessions[shard].guild_ids == fake.guilds_of_shard(shard, 2)
            interaction = fake.slash_interaction("help", guild_id=fake.guilds_of_shard(shard, 2)[1])
            await fake.dispatch("INTERACTION_CREATE", interaction)
            assert (await answered(fake, interaction, 15))["type"] == 4
            assert fake.delivered[interaction["id"]] == [sessions[shard].session_id]
        for process, (code, _) in zip(
            processes, await asyncio.gather(*(p.stop() for p in processes)), strict=True
        ):
            assert code == 0, process.output()
        assert len(fake.answered) == 2 and fake.double_answers == []
        assert fake.violations == [] and fake.duplicate_sessions == [] and fake.lost == []
        assert fake.errors == [] and fake.unknown_routes == []
    finally:
        for process in processes:
            process.kill()


# ----- the gateway, by hand ---------------------------------------------------------------------------------


class RawShard:
    """One bare gateway connection, as a shard of a bot opens it."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws

    @classmethod
    async def connect(cls, http: aiohttp.ClientSession, fake: FakeCluster) -> RawShard:
        ws = await http.ws_connect(f"{fake.gateway_url}?v=10&encoding=json")
        assert (await ws.receive_json(timeout=5))["op"] == 10  # HELLO
        return cls(ws)

    async def identify(self, shard_id: int, shard_count: int, token: str = TOKEN) -> dict[str, Any]:
        """IDENTIFY; the answer: op 9, a close, or READY (with ``"guild_creates"`` added)."""
        await self.ws.send_json(
            {"op": 2, "d": {"token": token, "shard": [shard_id, shard_count], "intents": 1}}
        )
        first = await self.receive()
        if first.get("t") == "READY":
            first["guild_creates"] = [(await self.receive())["d"]["id"] for _ in first["d"]["guilds"]]
        return first

    async def receive(self, timeout: float = 5.0) -> dict[str, Any]:
        message = await self.ws.receive(timeout=timeout)
        if message.type is aiohttp.WSMsgType.TEXT:
            return json.loads(message.data)  # type: ignore[no-any-return]
        return {"closed": self.ws.close_code}


async def test_ready_lists_only_the_shards_guilds_and_events_go_to_their_shard(
    make_fake: Callable[..., Any],
) -> None:
    fake: FakeCluster = await make_fake(guilds=6, identify_interval=0.0, patch_discord=False)
    async with aiohttp.ClientSession() as http:
        shards = [await RawShard.connect(http, fake) for _ in range(3)]
        readies = [await shard.identify(n, 3) for n, shard in enumerate(shards)]
        for n, ready in enumerate(readies):
            assert ready["d"]["shard"] == [n, 3]
            guilds = [g["id"] for g in ready["d"]["guilds"]]
            assert guilds == ready["guild_creates"] == fake.guilds_of_shard(n, 3) and len(guilds) == 2
            assert all(g["unavailable"] for g in ready["d"]["guilds"])
        assert len({r["d"]["session_id"] for r in readies}) == 3
        assert [(s.shard_id, s.shard_count) for s in fake.sessions] == [(0, 3), (1, 3), (2, 3)]

        # Each guild's event reaches its shard's connection, and only that one.
        for gid in fake.guild_ids:
            interaction = fake.slash_interaction("help", guild_id=gid)
            await fake.dispatch("INTERACTION_CREATE", interaction)
            got = await shards[shard_of(gid, 3)].receive()
            assert got["t"] == "INTERACTION_CREATE" and got["d"]["id"] == interaction["id"]
        for shard in shards:
            with pytest.raises(TimeoutError):
                await shard.ws.receive(timeout=0.1)

        # Shard 2's connection drops: its guilds' clicks are lost, and said so.
        await fake.close_shard(2)
        assert (await shards[2].receive()) == {"closed": 4000} and fake.sessions_of_shard(2) == []
        lost = fake.slash_interaction("help", guild_id=fake.guilds_of_shard(2, 3)[0])
        with pytest.raises(LostEvent, match="no session on the shard of guild"):
            await fake.dispatch("INTERACTION_CREATE", lost, timeout=0.1)
        assert [(x.event, x.interaction_id) for x in fake.lost] == [("INTERACTION_CREATE", lost["id"])]
        assert await fake.deliver("GUILD_UPDATE", fake.guild(fake.guilds_of_shard(0, 3)[0])) != []
        # Until it RESUMEs its session on a new connection.
        resumed = await RawShard.connect(http, fake)
        session_id = readies[2]["d"]["session_id"]
        await resumed.ws.send_json({"op": 6, "d": {"token": TOKEN, "session_id": session_id, "seq": 3}})
        assert (await resumed.receive())["t"] == "RESUMED"
        await fake.dispatch("INTERACTION_CREATE", lost)
        assert (await resumed.receive())["d"]["id"] == lost["id"]
        assert fake.sessions_of_shard(2) == [fake.sessions[2]] and fake.sessions[2].resumes == 1

        # A shard out of range is closed (4010); a live session of another shard count is flagged.
        assert (await (await RawShard.connect(http, fake)).identify(3, 3)) == {"closed": 4010}
        assert (await (await RawShard.connect(http, fake)).identify(1, 2))["t"] == "READY"
    assert [v.kind for v in fake.violations] == ["shard out of range", "shard count mismatch"]


async def test_identifies_in_one_bucket_closer_than_5_seconds_are_refused_and_flagged(
    make_fake: Callable[..., Any],
) -> None:
    assert (
        (FakeCluster().identify_interval, FakeCluster().max_concurrency) == (IDENTIFY_INTERVAL, 1) == (5.0, 1)
    )
    interval = 0.3  # Discord's 5 s, shortened for the test
    fake: FakeCluster = await make_fake(guilds=4, max_concurrency=2, identify_interval=interval,
                                        patch_discord=False)  # fmt: skip
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{fake.base_url}/gateway/bot") as response:
            gateway = await response.json()
        assert gateway["url"] == fake.gateway_url
        assert gateway["session_start_limit"] == {"total": 1000, "remaining": 1000, "reset_after": 86_400_000,
                                                  "max_concurrency": 2}  # fmt: skip

        # Shards 0 and 1 of 4 at once: two buckets, both fine; shard 2 (bucket 0, like shard 0)
        # right after is refused the way Discord does, op 9 with d=false, and flagged.
        assert (await (await RawShard.connect(http, fake)).identify(0, 4))["t"] == "READY"
        assert (await (await RawShard.connect(http, fake)).identify(1, 4))["t"] == "READY"
        early = await RawShard.connect(http, fake)
        assert await early.identify(2, 4) == {"op": 9, "d": False, "s": None, "t": None}
        [violation] = fake.violations
        assert violation.kind == "identify too early" and "bucket 0" in violation.detail
        # After the interval it may.
        await asyncio.sleep(interval)
        assert (await (await RawShard.connect(http, fake)).identify(2, 4))["t"] == "READY"
        async with http.get(f"{fake.base_url}/gateway/bot") as response:
            assert (await response.json())["session_start_limit"]["remaining"] == 997
    assert [(i.shard_id, i.bucket, i.refused) for i in fake.identifies] == [
        (0, 0, None), (1, 1, None), (2, 0, "too early"), (2, 0, None)
    ]  # fmt: skip
    assert len(fake.violations) == 1
    assert [s.shard_id for s in fake.sessions] == [0, 1, 2]


# ----- two sessions of one shard --------------------------------------------------------------------------


async def test_a_second_session_of_a_shard_gets_its_events_and_a_second_answer_gets_40060(
    make_fake: Callable[..., Any],
) -> None:
    fake: FakeCluster = await make_fake(guilds=2, identify_interval=0.0, patch_discord=False)
    async with aiohttp.ClientSession() as http:
        one, two = await RawShard.connect(http, fake), await RawShard.connect(http, fake)
        assert (await one.identify(0, 2))["t"] == "READY"
        assert (await two.identify(0, 2))["t"] == "READY"
        [duplicate] = fake.duplicate_sessions
        assert (duplicate.shard_id, duplicate.live, duplicate.new) == (
            0,
            ["fake-session-1"],
            "fake-session-2",
        )

        interaction = fake.slash_interaction("help", guild_id=fake.guilds_of_shard(0, 2)[0])
        await fake.dispatch("INTERACTION_CREATE", interaction)
        for shard in (one, two):
            assert (await shard.receive())["d"]["id"] == interaction["id"]
        url = f"{fake.base_url}/interactions/{interaction['id']}/{interaction['token']}/callback"
        answer = {"type": 4, "data": {"content": "hi"}}
        async with http.post(url, json=answer) as first:
            assert first.status == 204
        async with http.post(url, json=answer) as second:
            assert second.status == 400
            assert await second.json() == {
                "message": "Interaction has already been acknowledged.",
                "code": 40060,
            }
    [double] = fake.double_answers
    assert double.interaction_id == interaction["id"] and fake.answered[interaction["id"]] is double.first


async def test_two_bots_on_one_shard_both_answer_the_same_click(
    make_fake: Callable[..., Any], tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """What two processes on one shard do: both get the click, both answer, Discord takes one."""
    fake: FakeCluster = await make_fake(guilds=2, identify_interval=0.0)  # pacing is not the point here
    async with bots(tmp_path, 0, 0):
        [duplicate] = fake.duplicate_sessions
        assert duplicate.shard_id == 0
        interaction = fake.slash_interaction("help", guild_id=fake.guilds_of_shard(0, 2)[0])
        await fake.dispatch("INTERACTION_CREATE", interaction)
        assert len(fake.delivered[interaction["id"]]) == 2
        await answered(fake, interaction)
        for _ in range(100):
            if fake.double_answers:
                break
            await asyncio.sleep(0.05)
        assert {d.interaction_id for d in fake.double_answers} == {interaction["id"]}
        assert len(fake.answered) == 1
    assert any("40060" in record.getMessage() for record in caplog.records)


# ----- one REST budget --------------------------------------------------------------------------------------


async def test_one_global_budget_across_connections_answers_429_past_50_a_second(
    make_fake: Callable[..., Any],
) -> None:
    fake: FakeCluster = await make_fake(guilds=2, patch_discord=False)
    budget = fake.budget
    assert budget is not None
    now = [100.0]
    budget.clock = lambda: now[0]  # time stands still: every request falls in one second
    bot = {"Authorization": f"Bot {TOKEN}"}
    channel = fake.channel_id

    async def burst(http: aiohttp.ClientSession, method: str, path: str, n: int, **kw: Any) -> list[int]:
        async def one() -> int:
            async with http.request(method, f"{fake.base_url}{path}", **kw) as response:
                if response.status == 429:
                    assert response.headers["X-RateLimit-Global"] == "true" and "Via" in response.headers
                    assert 0 < (await response.json())["retry_after"] <= 1.0
                return response.status

        return list(await asyncio.gather(*(one() for _ in range(n))))

    # Two connections (two processes) of one bot: 50 of their 80 requests pass, 30 get 429.
    async with aiohttp.ClientSession(headers=bot) as a, aiohttp.ClientSession(headers=bot) as b:
        first, second = await asyncio.gather(
            burst(a, "GET", "/users/@me", 40), burst(b, "GET", "/users/@me", 40)
        )
        statuses = first + second
        assert statuses.count(200) == 50 and statuses.count(429) == 30
        assert budget.given_global_429 == 30 and budget.global_429_by_token[f"Bot {TOKEN}"] == 30
        # Interaction callbacks and webhooks are not counted, and not refused.
        interaction = fake.slash_interaction("help")
        callback = f"/interactions/{interaction['id']}/{interaction['token']}/callback"
        assert await burst(a, "POST", callback, 1, json={"type": 5}) == [204]
        webhook = f"/webhooks/{fake.app_id}/{interaction['token']}/messages/@original"
        assert set(await burst(b, "GET", webhook, 5)) == {200}
        # Another bot's token has a budget of its own.
        async with aiohttp.ClientSession(headers={"Authorization": "Bot other"}) as other:
            assert await burst(other, "GET", "/users/@me", 3) == [200] * 3

        # A second later: threads and thread members count like everything else.
        now[0] += 1.0
        new_thread = {"name": "t", "type": 11, "auto_archive_duration": 1440}
        created = await burst(a, "POST", f"/channels/{channel}/threads", 25, json=new_thread)
        assert created == [201] * 25
        adds = [f"/channels/{tid}/thread-members/{fake.user_id}" for tid in fake.threads]
        assert [await burst(b, "PUT", path, 1) for path in adds] == [[204]] * 25
        assert await burst(a, "GET", "/users/@me", 1) == [429]
        assert await burst(b, "PUT", adds[0], 1) == [429]
    assert budget.counted[f"Bot {TOKEN}"] == 100 and budget.given_global_429 == 32


# ----- standalone ---------------------------------------------------------------------------------------


async def test_it_runs_standalone_for_processes_started_elsewhere() -> None:
    proc = await asyncio.create_subprocess_exec(
        *[sys.executable, "-m", "tests.cluster.fake_cluster", "--port", "0", "--guilds", "4"],
        *["--max-concurrency", "4", "--print-port"],
        cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        port = int(await asyncio.wait_for(proc.stdout.readline(), 30))
        base = f"http://127.0.0.1:{port}"
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{base}/api/v10/gateway/bot") as response:
                assert (await response.json())["session_start_limit"]["max_concurrency"] == 4
            async with http.get(f"{base}/_fake/guilds") as response:
                guilds = await response.json()
            assert list(guilds) == [guild_id_at(n) for n in range(4)]
            ws = await http.ws_connect(f"ws://127.0.0.1:{port}/?v=10&encoding=json")
            await ws.receive_json(timeout=5)
            await ws.send_json({"op": 2, "d": {"token": TOKEN, "shard": [1, 2]}})
            ready = await ws.receive_json(timeout=5)
            assert [g["id"] for g in ready["d"]["guilds"]] == [guild_id_at(1), guild_id_at(3)]
            async with http.get(f"{base}/_fake/summary") as response:
                summary = await response.json()
            assert [s["shard"] for s in summary["sessions"]] == [[1, 2]] and summary["violations"] == []
            await ws.close()
        proc.send_signal(signal.SIGTERM)
        out, err = await asyncio.wait_for(proc.communicate(), 10)
        assert proc.returncode == 0, err
        assert json.loads(out.decode().strip().splitlines()[-1])["identifies"][0]["shard_id"] == 1
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
