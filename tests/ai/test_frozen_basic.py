"""The frozen ``basic-2026-11`` level (bench/frozen/) still plays whole games of every family, and
the bot itself never imports the frozen copies."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.ai import base, decide, make_player
from bot.engine import new_game

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def frozen_level() -> str:
    """Register the frozen level for this test (``tests/conftest.py`` takes it away after it)."""
    from bench.frozen import basic_2026_11  # registers the level on first import

    basic_2026_11.register()
    return basic_2026_11.LEVEL


@pytest.mark.parametrize("variant", ["pitch", "pitch-10", "pinochle-4", "pinochle-2", "double-deck"])
def test_frozen_level_plays_a_whole_game(frozen_level: str, variant: str) -> None:
    game = new_game(variant, seed=11)
    family = type(game).family
    assert frozen_level in base.levels(family)
    bots = [make_player(family, frozen_level, seat) for seat in range(game.players)]
    assert type(bots[0]).__module__.startswith("bench.frozen.basic_2026_11.")
    moves = 0
    while not game.is_over and moves < 20_000:
        seat = game.to_act[0]
        game.apply(seat, decide(bots[seat], game, seat))
        moves += 1
    assert game.is_over and game.outcome is not None and game.outcome.winners


def test_the_bot_never_imports_the_bench() -> None:
    for folder in ("bot", "cogs"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            assert "import bench" not in text and "from bench" not in text, path
