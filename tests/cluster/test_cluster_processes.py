"""Bot processes of a cluster on one PostgreSQL database against the sharded wire fake: two
processes started for one shard never run it both (the second waits, naming the holder, and
IDENTIFY keeps Discord's pace); a standby takes over the shard of a process killed with SIGKILL,
resumes its table and answers its clicks; a rolling restart from one shard to two keeps every
table, each resumed by the process that now holds its guild."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from bot import cluster
from tests.cluster.fake_cluster import FakeCluster
from tests.hosting.harness import BotProcess, fake_token, source_bot, write_env_file

TAKEOVER_GOAL = 15.0  # seconds from the kill to the standby answering the dead process's clicks


@pytest.fixture
async def fake() -> AsyncIterator[FakeCluster]:
    server = await FakeCluster(guilds=4, max_concurrency=1, patch_discord=False).start()
    try:
        yield server
    finally:
        await server.stop()


def start(fake: FakeCluster, tmp_path: Path, name: str, url: str, shards: str, count: int) -> BotProcess:
    site = tmp_path / name
    write_env_file(
        site, DISCORD_TOKEN=fake_token(), TRICKNIGHT_DATABASE=url, TRICKNIGHT_COMPUTER_DELAY="0",
        TRICKNIGHT_SHARD_COUNT=str(count), TRICKNIGHT_SHARD_IDS=shards,
    )  # fmt: skip
    return source_bot(fake, tmp_path / f"home-{name}", site)


async def answered(fake: FakeCluster, interaction: dict[str, Any], timeout: float) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for request in fake.requests:
            if request.path.startswith(f"/interactions/{interaction['id']}/") and request.method == "POST":
                return request.json  # type: ignore[no-any-return]
        await asyncio.sleep(0.05)
    raise AssertionError(f"no answer to {interaction['data']} within {timeout} s")


async def followed_up(fake: FakeCluster, interaction: dict[str, Any], timeout: float) -> dict[str, Any]:
    """The follow-up or edit that completes a deferred answer."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for request in fake.requests:
            if f"/{interaction['token']}" in request.path and request.path.startswith("/webhooks/"):
                return request.json  # type: ignore[no-any-return]
        await asyncio.sleep(0.05)
    raise AssertionError(f"no follow-up to {interaction['data']} within {timeout} s")


async def posted(fake: FakeCluster, channel: str, text: str, since: int, timeout: float) -> None:
    """Waits for a message holding ``text`` posted in ``channel`` after request ``since``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for request in fake.requests[since:]:
            to_channel = request.method == "POST" and request.path == f"/channels/{channel}/messages"
            if to_channel and text in str(request.json):
                return
        await asyncio.sleep(0.05)
    raise AssertionError(f"no message with {text!r} in channel {channel} within {timeout} s")


async def stop_all(processes: list[BotProcess]) -> None:
    for process in processes:
        if process.proc.poll() is None:
            await process.stop()
        process.kill()


async def test_two_processes_started_for_one_shard_never_run_it_both(
    fake: FakeCluster, tmp_path: Path, postgres_url: str
) -> None:
    first = start(fake, tmp_path, "first", postgres_url, "0", 1)
    processes = [first]
    try:
        await first.wait_for_line(r"connected as .*: 4 guild\(s\) on shard\(s\) 0 of 1", 60)
        second = start(fake, tmp_path, "second", postgres_url, "0", 1)
        processes.append(second)
        waiting = await second.wait_for_line(r"waiting for shards: shard\(s\) \[0\] held by pid", 30)
        assert f"pid {first.pid} on " in waiting
        await asyncio.sleep(3 * cluster.RENEW_EVERY)  # it keeps waiting; it never identifies
        guild = fake.guilds_of_shard(0, 1)[0]
        interaction = fake.slash_interaction("help", guild_id=guild)
        await fake.dispatch("INTERACTION_CREATE", interaction)
        assert (await answered(fake, interaction, 15))["type"] == 4
        assert len(fake.identifies) == 1 and fake.duplicate_sessions == [] and fake.violations == []
        assert fake.double_answers == []
        # The holder stops cleanly: its shard goes to the one waiting at once.
        code, _ = await first.stop()
        assert code == 0, first.output()
        await second.wait_for_line(r"connected as .*: 4 guild\(s\) on shard\(s\) 0 of 1", 30)
        again = fake.slash_interaction("help", guild_id=guild)
        await fake.dispatch("INTERACTION_CREATE", again)
        assert (await answered(fake, again, 15))["type"] == 4
        assert fake.duplicate_sessions == [] and fake.violations == [] and fake.double_answers == []
    finally:
        await stop_all(processes)


async def test_a_standby_takes_over_the_shard_of_a_killed_process_within_15_seconds(
    fake: FakeCluster, tmp_path: Path, postgres_url: str
) -> None:
    processes = [start(fake, tmp_path, f"shard{n}", postgres_url, str(n), 2) for n in (0, 1)]
    try:
        for n, process in enumerate(processes):
            await process.wait_for_line(rf"connected as .*: 2 guild\(s\) on shard\(s\) {n} of 2", 60)
        standby = start(fake, tmp_path, "standby", postgres_url, "standby", 2)
        processes.append(standby)
        await standby.wait_for_line("waiting for shards: every shard has a live process", 30)
        guild = fake.guilds_of_shard(0, 2)[0]
        channel = fake.guilds[guild].channel_ids[0]
        opened = fake.slash_interaction(
            "table", [{"type": 1, "name": "new", "options": [{"type": 3, "name": "game", "value": "pitch"}]}],
            guild_id=guild, channel_id=channel,
        )  # fmt: skip
        await fake.dispatch("INTERACTION_CREATE", opened)
        await answered(fake, opened, 15)
        for _ in range(100):
            with psycopg.connect(postgres_url) as conn:
                if conn.execute("SELECT COUNT(*) FROM games WHERE guild_id = %s", (guild,)).fetchone() == (
                    1,
                ):
                    break
            await asyncio.sleep(0.1)
        processes[0].kill()  # SIGKILL: no goodbye, its lease lapses
        killed = time.monotonic()
        await standby.wait_for_line(r"holding shard\(s\) 0 of 2", TAKEOVER_GOAL)
        await standby.wait_for_line(r"resumed 1 unfinished table", TAKEOVER_GOAL)
        click = fake.slash_interaction("table", [{"type": 1, "name": "status", "options": []}],
                                       guild_id=guild, channel_id=channel)  # fmt: skip
        deadline = killed + TAKEOVER_GOAL
        while True:  # the shard's events reach the standby once it has identified
            sent = await fake.deliver("INTERACTION_CREATE", click)
            if sent or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.2)
            click = fake.slash_interaction("table", [{"type": 1, "name": "status", "options": []}],
                                           guild_id=guild, channel_id=channel)  # fmt: skip
        answer = await answered(fake, click, max(1.0, deadline - time.monotonic()))
        took = time.monotonic() - killed
        assert answer["type"] in (4, 5) and took <= TAKEOVER_GOAL, took
        assert fake.duplicate_sessions == [] and fake.double_answers == []
        assert not [v for v in fake.violations if "too early" in str(v)]
        await standby.wait_for_line(r"connected as .*: 2 guild\(s\) on shard\(s\) 0 of 2", 10)
        print(f"takeover: the standby answered the killed process's guild {took:.1f} s after the kill")
    finally:
        await stop_all(processes)


async def test_a_rolling_restart_to_a_new_shard_count_keeps_every_table(
    fake: FakeCluster, tmp_path: Path, postgres_url: str
) -> None:
    old = start(fake, tmp_path, "old", postgres_url, "0", 1)
    processes = [old]
    try:
        await old.wait_for_line(r"connected as .*: 4 guild\(s\) on shard\(s\) 0 of 1", 60)
        # One table in a guild of each shard of the new count: one of them changes process.
        guilds = [fake.guilds_of_shard(0, 2)[0], fake.guilds_of_shard(1, 2)[0]]
        channels = [fake.guilds[guild].channel_ids[0] for guild in guilds]
        for guild, channel in zip(guilds, channels, strict=True):
            pitch = [{"type": 3, "name": "game", "value": "pitch"}]
            new_table = [{"type": 1, "name": "new", "options": pitch}]
            opened = fake.slash_interaction("table", new_table, guild_id=guild, channel_id=channel)
            await fake.dispatch("INTERACTION_CREATE", opened)
            await answered(fake, opened, 15)
        for _ in range(100):  # the lobby is stored just after the answer
            with psycopg.connect(postgres_url) as conn:
                rows = conn.execute("SELECT id, guild_id, channel_id FROM games ORDER BY id").fetchall()
            if len(rows) == len(guilds):
                break
            await asyncio.sleep(0.1)
        # (table, guild, the table's channel: the thread /table new opened for it)
        tables = sorted(((t, str(g), str(c)) for t, g, c in rows), key=lambda table: guilds.index(table[1]))
        assert [guild for _, guild, _ in tables] == guilds
        code, _ = await old.stop()  # the rolling restart: the old process goes first
        assert code == 0, old.output()
        new = [start(fake, tmp_path, f"new{n}", postgres_url, str(n), 2) for n in (0, 1)]
        processes += new
        for n, process in enumerate(new):
            await process.wait_for_line(rf"connected as .*: 2 guild\(s\) on shard\(s\) {n} of 2", 60)
            await process.wait_for_line(r"resumed 1 unfinished table", 15)
        for (table_id, guild, channel), process in zip(tables, new, strict=True):
            status = fake.slash_interaction("table", [{"type": 1, "name": "status", "options": []}],
                                            guild_id=guild, channel_id=channel)  # fmt: skip
            mark = len(fake.requests)
            await fake.dispatch("INTERACTION_CREATE", status)
            answer = await answered(fake, status, 15)
            if answer["type"] == 5:  # deferred: the status follows on the interaction's webhook
                answer = await followed_up(fake, status, 15)
            assert answer["content"] == "The table is posted again below.", (answer, process.output())
            await posted(fake, channel, f"#{table_id}", mark, 15)
        assert fake.duplicate_sessions == [] and fake.double_answers == []
    finally:
        await stop_all(processes)
