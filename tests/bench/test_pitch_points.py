"""The pitch points bench: a pair's margin split by point adds back up to the whole margin."""

from __future__ import annotations

import pytest

from bench import duel, pitch_points


@pytest.mark.parametrize("variant", ["pitch", "pitch-partnership"])
def test_points_and_sets_add_up_to_the_pairs_margin(variant: str) -> None:
    match = duel.Match(variant, "basic", "random", seed=3)
    for pair in range(4):
        parts = pitch_points.pair_points(match, pair)
        assert "total" in parts
        pieces = sum(value for name, value in parts.items() if name != "total")
        assert pieces == pytest.approx(parts["total"])


def test_prints_a_line_per_point_and_the_total(capsys: pytest.CaptureFixture[str]) -> None:
    assert pitch_points.main(["pitch", "--a", "basic", "--b", "random", "--pairs", "3", "--seed", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "pitch: basic (A) vs random (B), 3 pairs, seed 2"
    names = [line.split()[0] for line in lines[2:]]
    assert names[-1] == "total"
    assert {"high", "low", "jack", "game"} <= {name.lower() for name in names}
