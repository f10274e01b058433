"""Issue 46 (7): every start printed discord.py's "PyNaCl is not installed…" and "davey is not
installed…" warnings, though the bot uses no voice. They are dropped at their logger; every other
warning still shows."""

from __future__ import annotations

import logging

import discord
import pytest
from discord.voice_client import VoiceClient

from bot.lifecycle import VOICE_LOGGER, silence_voice_warnings


@pytest.fixture
def voice_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    """As on a machine without PyNaCl or davey: the next client warns about both."""
    monkeypatch.setattr(VoiceClient, "warn_nacl", True)
    monkeypatch.setattr(VoiceClient, "warn_dave", True)


def test_without_the_filter_discord_warns_about_voice(
    voice_missing: None, caplog: pytest.LogCaptureFixture
) -> None:
    """The premise: a client made without the voice libraries warns twice at ``discord.client``."""
    logger = logging.getLogger(VOICE_LOGGER)
    saved = logger.filters[:]
    logger.filters.clear()
    try:
        with caplog.at_level(logging.WARNING):
            discord.Client(intents=discord.Intents.none())
    finally:
        logger.filters[:] = saved
    assert [r.name for r in caplog.records if "voice will NOT be supported" in r.getMessage()] == [
        VOICE_LOGGER,
        VOICE_LOGGER,
    ]


def test_the_voice_warnings_are_silenced_and_real_warnings_are_not(
    voice_missing: None, caplog: pytest.LogCaptureFixture
) -> None:
    silence_voice_warnings()
    silence_voice_warnings()  # twice: still one filter
    assert len(logging.getLogger(VOICE_LOGGER).filters) == 1
    with caplog.at_level(logging.WARNING):
        discord.Client(intents=discord.Intents.none())
        logging.getLogger(VOICE_LOGGER).warning("a real warning about the gateway")
    messages = [r.getMessage() for r in caplog.records]
    assert not [m for m in messages if "voice" in m], messages
    assert "a real warning about the gateway" in messages
