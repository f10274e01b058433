"""Fixtures for the hosting tests: the wire fake of Discord for a bot run as its own process."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.discord_ui.fake_discord import FakeDiscord
from tests.hosting.harness import start_fake


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = await start_fake()
    try:
        yield server
    finally:
        await server.stop()
