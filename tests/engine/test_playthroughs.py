"""The golden playthroughs (``tests/engine/playthroughs/``) are byte-identical to what the engine
plays now. After an intended change: ``python -m tests.engine.playthroughs --regen``, and explain
the diff."""

from __future__ import annotations

import difflib

import pytest

from bot.engine import variant_names
from tests.engine.playthroughs import HERE, Playthrough, playthroughs, render

SPECS = playthroughs()


@pytest.mark.parametrize("spec", SPECS, ids=[spec.file for spec in SPECS])
def test_playthrough_is_byte_identical(spec: Playthrough) -> None:
    path = HERE / spec.file
    assert path.exists(), f"missing {path.name}: run python -m tests.engine.playthroughs --regen"
    golden = path.read_bytes()
    now = render(spec).encode("utf-8")
    if now != golden:
        diff = difflib.unified_diff(
            golden.decode("utf-8").splitlines(),
            now.decode("utf-8").splitlines(),
            "golden",
            "now",
            lineterm="",
        )
        first = "\n".join(line[:200] for _, line in zip(range(12), diff, strict=False))
        pytest.fail(f"{spec.file} differs from the engine's play now:\n{first}")


def test_every_variant_has_a_short_and_a_full_game() -> None:
    files = {spec.file for spec in SPECS}
    for name in variant_names():
        assert {f"{name}.short.txt", f"{name}.game.txt"} <= files


def test_no_stale_golden_files() -> None:
    assert {path.name for path in HERE.glob("*.txt")} == {spec.file for spec in SPECS}


def test_every_golden_game_ends() -> None:
    for spec in SPECS:
        text = (HERE / spec.file).read_text(encoding="utf-8")
        assert '"type":"game_over"' in text and "# stopped after" not in text, spec.file
