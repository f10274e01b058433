"""Wire test: the real ``bot.start()`` against a loopback aiohttp fake of Discord's REST and gateway."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.app import TrickNightBot
from bot.config import Settings
from tests.discord_ui.fake_discord import FakeDiscord

CALLBACK = r"^/interactions/\d+/[^/]+/callback$"


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


@contextlib.asynccontextmanager
async def running(bot: TrickNightBot) -> AsyncIterator[TrickNightBot]:
    task = asyncio.create_task(bot.start("fake-token"))
    try:
        waiter = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait({task, waiter}, timeout=10.0, return_when=asyncio.FIRST_COMPLETED)
        if task in done:
            waiter.cancel()
            task.result()
            raise AssertionError("bot.start() returned before it was ready")
        assert waiter in done, "the bot never became ready"
        yield bot
    finally:
        await asyncio.wait_for(bot.close(), 10.0)
        try:
            await asyncio.wait_for(task, 10.0)
        finally:
            if not task.done():
                task.cancel()


def other_user() -> dict[str, Any]:
    return {"id": "1200000000000000009", "username": "bob", "discriminator": "0", "global_name": "Bob",
            "avatar": None, "public_flags": 0}  # fmt: skip


async def test_start_sync_slash_command_and_button_over_the_wire(
    fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    settings = Settings(token="fake-token", database=tmp_path / "wire.db", computer_delay=0.0)
    bot = TrickNightBot(settings, min_edit_interval=0.0, guild_ready_timeout=0.05)
    async with running(bot):
        synced = await fake.wait_for_request("PUT", rf"^/applications/{fake.app_id}/commands$")
        assert {c["name"] for c in synced.json} >= {
            "table",
            "hand",
            "rules",
            "leaderboard",
            "stats",
            "league",
            "admin",
            "help",
        }
        admin = next(c for c in synced.json if c["name"] == "admin")
        assert int(admin["default_member_permissions"]) == 1 << 5  # Manage Server: hidden from members
        table_command = next(c for c in synced.json if c["name"] == "table")
        assert {o["name"] for o in table_command["options"]} >= {"new", "join", "start", "end", "status"}
        identify = next(p for p in fake.gateway_received if p["op"] == 2)
        assert identify["d"]["token"] == "fake-token"

        # /table new game:pitch — a public lobby message with buttons.
        mark = len(fake.requests)
        options = [{"type": 1, "name": "new", "options": [{"type": 3, "name": "game", "value": "pitch"}]}]
        await fake.dispatch("INTERACTION_CREATE", fake.slash_interaction("table", options))
        callback = await fake.wait_for_request("POST", CALLBACK, since=mark)
        assert callback.json["type"] == 4
        data = callback.json["data"]
        assert not data.get("flags", 0) & 64
        assert "Auction Pitch" in data["embeds"][0]["title"]
        custom_ids = [c["custom_id"] for row in data["components"] for c in row["components"]]
        join_id = next(cid for cid in custom_ids if cid.endswith(":join"))
        lobby = fake.original_responses[callback.path.split("/")[3]]

        # Another user clicks Join: an ephemeral answer, and the seat is taken.
        mark = len(fake.requests)
        await fake.dispatch(
            "INTERACTION_CREATE", fake.component_interaction(join_id, lobby, user=other_user())
        )
        answer = await fake.wait_for_request("POST", CALLBACK, since=mark)
        assert answer.json["type"] == 4
        assert answer.json["data"]["flags"] & 64
        assert "seat 2" in answer.json["data"]["content"]
        table = bot.tables.table_in(int(fake.channel_id))
        assert table is not None and table.seat_of(int(other_user()["id"])) == 1
        # The table message is edited (coalesced, off the interaction) to show the new seat.
        edit = await fake.wait_for_request(
            "PATCH", rf"^/channels/{fake.channel_id}/messages/\d+$", since=mark
        )
        assert any("Bob" in f["value"] for f in edit.json["embeds"][0]["fields"])

    assert bot.is_closed()
    problems = [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.levelno >= logging.WARNING]
    assert problems == []
    assert fake.errors == []
    assert fake.unknown_routes == [], [f"{r.method} {r.path}" for r in fake.unknown_routes]
