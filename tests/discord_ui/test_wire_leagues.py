"""Scheduled leagues across a restart, over the wire: a league that started and ended while the bot
was down is closed at the next start with its standings and card posted; one that started while
it was down is announced; both are shown again afterwards with /league show."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import SeatResult, Store
from tests.discord_ui.fake_discord import FakeDiscord
from tests.discord_ui.test_wire import running
from tests.discord_ui.test_wire_faults import ask, make_bot, slash


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


async def finished_game(store: Store, guild: int, channel: int, winner: int, loser: int, at: float) -> None:
    seats = [
        {"kind": "human", "user_id": winner, "name": "w"},
        {"kind": "human", "user_id": loser, "name": "l"},
    ]
    game_id = await store.games.create(guild_id=guild, channel_id=channel, host_id=winner, variant="pitch",
                                       family="pitch", options={}, seed=1, players=2, seats=seats,
                                       status="playing")  # fmt: skip
    await store.results.finish(game_id, guild_id=guild, family="pitch", rated=True, finished_at=at, results=[
        SeatResult(0, winner, 0, 11, 1), SeatResult(1, loser, 1, 4, 2),
    ])  # fmt: skip


async def test_scheduled_leagues_start_and_close_across_a_restart(fake: FakeDiscord, tmp_path: Path) -> None:
    guild, channel = int(fake.guild_id), int(fake.channel_id)
    store = await Store.open(tmp_path / "wire.db")
    now = time.time()
    # Scheduled while the bot ran; it stops before either starts.
    early = await store.leagues.start(guild, "Early bird", started_at=now + 1.0, ends_at=now + 2.0,
                                      channel_id=channel)  # fmt: skip
    late = await store.leagues.start(guild, "Late show", started_at=now + 2.0, ends_at=now + 3600,
                                     channel_id=channel)  # fmt: skip
    assert early.scheduled and late.scheduled
    await finished_game(store, guild, channel, 111, 222, now + 1.5)  # inside Early bird's hours
    await finished_game(store, guild, channel, 222, 111, now + 2.5)  # inside Late show's
    await store.close()
    await asyncio.sleep(max(0.0, now + 2.3 - time.time()))  # both start, one ends, while down

    bot = make_bot(tmp_path)
    async with running(bot):
        over = await fake.wait_for_request(
            "POST", rf"^/channels/{channel}/messages$", timeout=10.0,
            predicate=lambda r: "**Early bird**" in ((r.json or {}).get("content") or ""),
        )  # fmt: skip
        content = over.json["content"]
        assert "League over" in content and "<@111> — 1 win in 1 game" in content and "<@222>" in content
        assert [f["filename"] for f in over.json["_files"]] == ["standings.png"]
        assert "Early bird" in over.json["attachments"][0]["description"]  # the card's text alternative
        started = await fake.wait_for_request(
            "POST", rf"^/channels/{channel}/messages$", timeout=10.0,
            predicate=lambda r: "has started" in ((r.json or {}).get("content") or ""),
        )  # fmt: skip
        assert "**Late show**" in started.json["content"]
        for _ in range(100):
            records = [await bot.store.leagues.get(lid) for lid in (early.id, late.id)]
            if records[0] and records[0].standings_posted_at and records[1] and records[1].start_announced_at:
                break
            await asyncio.sleep(0.02)
        assert records[0] is not None and records[0].ended_at == early.ends_at  # closed on time
        assert records[1] is not None and records[1].ended_at is None and records[1].start_announced_at

        # Shown again afterwards, picked from the autocomplete list's value.
        answer = await ask(fake, slash(fake, "league", "show", league=str(early.id)))
        shown = answer.json["data"]["content"]
        assert "Final standings" in shown and "<@111> — 1 win in 1 game" in shown
        answer = await ask(fake, slash(fake, "league", "show", league="late show"))
        shown = answer.json["data"]["content"]
        assert "Standings so far" in shown and "<@222> — 1 win in 1 game" in shown

    async with running(make_bot(tmp_path)):  # and never announced twice
        await fake.wait_for_request("PUT", r"^/applications/\d+/commands$")
        await asyncio.sleep(0.3)
        posts = [r for r in fake.requests if r.method == "POST" and r.path == f"/channels/{channel}/messages"]
        contents = [(r.json or {}).get("content") or "" for r in posts]
        assert sum("**Early bird**" in c for c in contents) == 1
        assert sum("has started" in c for c in contents) == 1


async def test_season_board_buttons_over_the_wire_and_forged_ones(fake: FakeDiscord, tmp_path: Path) -> None:
    guild, channel = int(fake.guild_id), int(fake.channel_id)
    store = await Store.open(tmp_path / "wire.db")
    season, _ = await store.seasons.start(guild, "Winter")
    theirs, _ = await store.seasons.start(guild + 1, "Theirs")
    for n in range(12):
        await finished_game(store, guild, channel, 100 + n, 100 + (n + 1) % 12, time.time())
    await store.close()
    async with running(make_bot(tmp_path)):
        await fake.wait_for_request("PUT", r"^/applications/\d+/commands$")
        answer = await ask(fake, slash(fake, "leaderboard", "show", order="wins"))
        message = fake.original_responses[answer.path.split("/")[3]]
        embed = answer.json["data"]["embeds"][0]
        assert "season Winter" in embed["title"] and "page 1 of 2" in embed["footer"]["text"]
        ids = [c["custom_id"] for row in answer.json["data"]["components"] for c in row["components"]]
        assert ids == [f"tn:lbs:{season.id}::wins:-1:Previous", f"tn:lbs:{season.id}::wins:1:Next"]
        turned = await ask(fake, fake.component_interaction(ids[1], message))
        assert "page 2 of 2" in turned.json["data"]["embeds"][0]["footer"]["text"]
        for forged in (f"tn:lbs:{theirs.id}::wins:1:Next", "tn:lbs:9999999999999999999::wins:1:Next",
                       f"tn:lbs:{season.id}::zzz:1:Next"):  # fmt: skip
            refused = await ask(fake, fake.component_interaction(forged, message))
            assert refused.json["type"] == 4 and "damaged" in refused.json["data"]["content"], forged
        assert fake.refused == [] and fake.errors == []
