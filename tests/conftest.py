"""Every test gets the bot's level registry back as it found it: the bench's entry points and some
tests register bench-only levels (``bench.frozen``, ``bench.oracle``), and the tests run after them
must see the bot's own levels whatever the order."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.ai import base


@pytest.fixture(autouse=True)
def bot_levels_restored() -> Iterator[None]:
    saved = {family: dict(found) for family, found in base._LEVELS.items()}
    yield
    base._LEVELS.clear()
    base._LEVELS.update(saved)
