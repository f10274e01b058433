"""Jobs that must run once, with two processes racing over them: a scheduled league's start, a
league's close and its standings, and a duplicate event's end and ranking each happen once, on
both store backends (two stores on one database, as two processes have; both believe they own
the guild, as two processes can for a moment while a shard changes hands)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.discord_ui.duplicate import tend_events
from bot.store import Store
from cogs.leaderboard import end_due_leagues
from tests.store.helpers import human, new_game
from tests.test_tables import RecordingPublisher

GUILD, CHANNEL = 1, 50


class Channel(discord.abc.Messageable):
    """Where the league clock and the duplicate clock post; it records what reached it."""

    def __init__(self, posted: list[str]) -> None:
        self.posted = posted

    async def _get_channel(self) -> Any:
        return self

    async def send(self, content: str | None = None, **kwargs: Any) -> Any:  # type: ignore[override]
        await asyncio.sleep(0.02)  # a request's round trip: the other process runs meanwhile
        self.posted.append(content or "")
        return None


class Process:
    """What the clocks need of a running bot: its store, its table manager, its channels."""

    def __init__(self, store: Store, posted: list[str]) -> None:
        from bot.tables import TableManager

        self.store = store
        self.tables = TableManager(store, RecordingPublisher())
        self.channel = Channel(posted)

    def get_channel(self, channel_id: int) -> Channel:
        return self.channel

    def get_guild(self, guild_id: int) -> None:
        return None


@pytest.fixture(params=["sqlite", "postgresql"])
async def two_stores(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[tuple[Store, Store]]:
    target = request.getfixturevalue("postgres_url") if request.param == "postgresql" else tmp_path / "t.db"
    first = await Store.open(target)
    second = await Store.open(target)
    try:
        yield first, second
    finally:
        await second.close()
        await first.close()


async def test_two_processes_racing_start_close_and_post_each_league_once(
    two_stores: tuple[Store, Store],
) -> None:
    first, second = two_stores
    now = time.time()
    # A league night scheduled to start in a moment (its start is the clock's to announce) and a
    # past one whose planned end has come: its close and standings are due.
    ended = await first.leagues.start(
        GUILD, "Monday", started_at=now - 7200, ends_at=now - 3600, channel_id=CHANNEL
    )
    soon = now + 0.3  # scheduled: its start is the league clock's to announce
    running = await first.leagues.start(
        GUILD, "Friday", started_at=soon, ends_at=now + 3600, channel_id=CHANNEL
    )
    await asyncio.sleep(0.4)
    posted: list[str] = []
    processes = [Process(first, posted), Process(second, posted)]
    closed = await asyncio.gather(*(end_due_leagues(p) for p in processes))  # type: ignore[arg-type]
    closed += await asyncio.gather(*(end_due_leagues(p) for p in processes))  # type: ignore[arg-type]
    assert sum(closed) == 1  # the past league was closed once
    assert sum(text.startswith("🏆 League over!") and "Monday" in text for text in posted) == 1
    assert sum("Friday" in text and not text.startswith("🏆") for text in posted) == 1  # one start
    assert len(posted) == 2
    monday, friday = await first.leagues.get(ended.id), await second.leagues.get(running.id)
    assert monday is not None and monday.standings_posted_at is not None
    assert friday is not None and friday.start_announced_at is not None
    assert await first.db.read(lambda tx: tx.value("SELECT COUNT(*) FROM job_claims")) == 0


async def test_two_processes_racing_end_a_duplicate_event_and_post_its_ranking_once(
    two_stores: tuple[Store, Store],
) -> None:
    first, second = two_stores
    event = await first.duplicates.create(
        guild_id=GUILD, channel_id=CHANNEL, organizer_id=7, variant="pitch", players=2, options={},
        seed=5, deals=1,
    )  # fmt: skip
    for number in range(2):  # two tables of the event, both finished
        game = await new_game(first, GUILD, [human(7), human(8)], channel_id=60 + number, status="playing")
        await first.duplicates.add_table(event.id, game)
        await first.games.update(game, status="abandoned")
    posted: list[str] = []
    processes = [Process(first, posted), Process(second, posted)]
    counts = await asyncio.gather(*(tend_events(p, p) for p in processes))  # type: ignore[arg-type]
    counts += await asyncio.gather(*(tend_events(p, p) for p in processes))  # type: ignore[arg-type]
    assert sum(counts) == 1 and len(posted) == 1
    done = await second.duplicates.get(event.id)
    assert done is not None and done.ended_at is not None and done.ranking_posted_at is not None
