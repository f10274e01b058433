"""The table manager's part of a clean stop (the write in flight finishes, then every change is
refused and no computer moves), and of sharding (only the guilds on this process's shards)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.config import Settings
from bot.store import Store
from bot.tables import RESTARTING, TableError, TableManager
from cogs.leaderboard import end_due_leagues
from tests.test_tables import RecordingPublisher, computer_table, wait_until

HOST = 7


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(tmp_path / "tables.db", default_computer_delay=0.0)
    try:
        yield opened
    finally:
        await opened.close()


async def test_shutdown_lets_the_write_in_flight_finish_then_refuses_every_change(store: Store) -> None:
    manager = TableManager(store, RecordingPublisher())
    table = await manager.open_table(
        guild_id=1, channel_id=10, host_id=HOST, host_name="Ann", variant="pitch"
    )
    await manager.start(table, HOST)
    await wait_until(lambda: table.game is not None and 0 in table.game.to_act)
    assert table.game is not None
    version, action = table.version, table.game.legal_actions(0)[0]

    # The host's click reaches the database slowly: shutdown must wait for it.
    writing, release = asyncio.Event(), asyncio.Event()
    real_append = store.games.append_action

    async def slow_append(*args: Any) -> None:
        writing.set()
        await release.wait()
        await real_append(*args)

    store.games.append_action = slow_append  # type: ignore[method-assign,assignment]
    click = asyncio.create_task(manager.act(table, HOST, action, version))
    await writing.wait()
    stopping = asyncio.create_task(manager.shutdown())
    await asyncio.sleep(0.1)
    assert not stopping.done()  # waiting for the write in flight
    release.set()
    result = await click
    await asyncio.wait_for(stopping, 5)
    store.games.append_action = real_append  # type: ignore[method-assign]
    stored = await store.games.load(table.id)
    assert stored.actions[version] == (0, str(result.action))

    # From now on every change is refused, and nothing moves by itself.
    with pytest.raises(TableError, match=RESTARTING):
        await manager.act(table, HOST, "pass", table.version)
    with pytest.raises(TableError, match=RESTARTING):
        await manager.open_table(guild_id=1, channel_id=11, host_id=8, host_name="Bo", variant="pitch")
    with pytest.raises(TableError, match=RESTARTING):
        await manager.leave(table, HOST)
    await asyncio.sleep(0.2)
    assert len((await store.games.load(table.id)).actions) == version + 1


async def test_computer_turns_stop_at_shutdown_and_resume_at_the_next_start(store: Store) -> None:
    manager = TableManager(store, RecordingPublisher())
    table = await computer_table(manager, 20)
    await wait_until(lambda: table.version >= 5)
    await asyncio.wait_for(manager.shutdown(), 5)
    assert table.driver is None or table.driver.done()
    stopped = len((await store.games.load(table.id)).actions)
    await asyncio.sleep(0.2)
    assert len((await store.games.load(table.id)).actions) == stopped
    assert (await store.games.load(table.id)).status == "playing"

    again = TableManager(store, RecordingPublisher())
    [resumed] = await again.resume_all()
    await wait_until(lambda: resumed.version > stopped)
    await again.shutdown()


# ----- shards -------------------------------------------------------------------------------------------


def guild_on_shard(shard: int, count: int, n: int = 1) -> int:
    """A guild id that Discord puts on ``shard`` of ``count``: (id >> 22) % count == shard."""
    return ((n * count + shard) << 22) | 12345


def test_owns_guild_follows_discords_shard_rule() -> None:
    settings = Settings.from_env({"TRICKNIGHT_SHARD_COUNT": "4", "TRICKNIGHT_SHARD_IDS": "1,3"})
    owned = [shard for shard in range(4) if settings.owns_guild(guild_on_shard(shard, 4, n=9))]
    assert owned == [1, 3]
    assert Settings.from_env({"TRICKNIGHT_SHARD_COUNT": "4"}).owns_guild(guild_on_shard(2, 4))
    assert Settings.from_env({}).owns_guild(guild_on_shard(2, 4))


async def test_only_tables_and_timed_jobs_of_own_guilds_run(store: Store) -> None:
    settings = Settings.from_env({"TRICKNIGHT_SHARD_COUNT": "2", "TRICKNIGHT_SHARD_IDS": "0"})
    mine, theirs = guild_on_shard(0, 2), guild_on_shard(1, 2)
    # A process running every shard starts a table in each guild, then stops.
    everything = TableManager(store, RecordingPublisher())
    tables = {}
    for guild in (mine, theirs):
        table = await everything.open_table(guild_id=guild, channel_id=guild + 1, host_id=HOST,
                                            host_name="Ann", variant="pitch")  # fmt: skip
        await everything.start(table, HOST)
        await everything.leave(table, HOST)
        tables[guild] = table
    await everything.shutdown()
    logged = {guild: len((await store.games.load(t.id)).actions) for guild, t in tables.items()}

    # The process for shard 0 of 2 resumes (and plays) only the table of its own guild.
    manager = TableManager(store, RecordingPublisher(), owns_guild=settings.owns_guild)
    resumed = await manager.resume_all()
    assert [t.guild_id for t in resumed] == [mine]
    assert manager.table_in(tables[theirs].channel_id) is None
    await wait_until(lambda: resumed[0].version > logged[mine])
    await asyncio.sleep(0.2)
    assert len((await store.games.load(tables[theirs].id)).actions) == logged[theirs]

    # League closing: only leagues of its own guilds.
    now = time.time()
    for guild in (mine, theirs):
        await store.leagues.start(guild, f"league {guild}", started_at=now - 7200, ends_at=now - 3600)
    bot = SimpleNamespace(store=store, tables=manager, get_channel=lambda channel_id: None)
    assert await end_due_leagues(bot) == 1  # type: ignore[arg-type]
    assert await store.leagues.active(mine) is None
    assert await store.leagues.active(theirs) is not None
    await manager.shutdown()


async def test_no_computer_turns_or_timers_for_a_guild_of_another_shard(store: Store) -> None:
    manager = TableManager(store, RecordingPublisher(), owns_guild=lambda guild_id: guild_id == 1)
    table = await manager.open_table(
        guild_id=2, channel_id=30, host_id=HOST, host_name="Ann", variant="pitch"
    )
    await manager.start(table, HOST)
    assert table.driver is None and table.timer is None
    await manager.shutdown()
