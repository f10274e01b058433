"""simcord runs the real bot (setup_hook, cogs, dynamic items, ephemeral replies) offline."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.app import TrickNightBot
from bot.config import Settings
from bot.store import GuildSettingsRepo
from tests.discord_ui.helpers import close_bot_state


@pytest.fixture(autouse=True)
def tables_in_their_channel(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests play each table in the channel itself, as a guild with ``table_threads`` off
    does; tests of tables in threads (test_threads.py) set their guild's setting."""
    monkeypatch.setattr(GuildSettingsRepo, "default_table_threads", "off")


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(token=None, database=tmp_path / "tricknight.db", computer_delay=0.0, shard_count=1)


@pytest.fixture
def simcord_bot(settings: Settings) -> TrickNightBot:
    return TrickNightBot(settings, min_edit_interval=0.0)


@pytest.fixture(autouse=True)
def fail_on_dynamic_item_errors(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """simcord captures view and command errors but not DynamicItem callback errors: fail on their logs."""
    caplog.set_level(logging.ERROR)
    yield
    bad = [
        r
        for r in caplog.get_records("call")
        if r.levelno >= logging.ERROR and r.name.startswith(("discord", "bot"))
    ]
    if bad:
        pytest.fail("errors were logged:\n" + "\n".join(r.getMessage() for r in bad))


@pytest.fixture
async def world(simcord_env: Any) -> AsyncIterator[tuple[Any, Any, Any, Any]]:
    """One server, one channel and two members (alice, bob); tests needing more define their own."""
    env = simcord_env
    guild = env.create_guild("Card Club")
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    try:
        yield env, channel, alice, bob
    finally:
        await close_bot_state(env)
