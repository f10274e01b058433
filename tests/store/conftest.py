"""The store tests run on both backends: an SQLite file, and a PostgreSQL schema of their own
(skipped, and said so, where no test server is configured: ``tests/services/postgres.py``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import Store


@pytest.fixture(params=["sqlite", "postgresql"])
def store_target(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """Where a test's store lives: a file, or a fresh PostgreSQL schema."""
    if request.param == "postgresql":
        url: str = request.getfixturevalue("postgres_url")
        return url
    return tmp_path / "tricknight.db"


@pytest.fixture
async def store(store_target: str | Path) -> AsyncIterator[Store]:
    opened = await Store.open(store_target)
    yield opened
    await opened.close()
