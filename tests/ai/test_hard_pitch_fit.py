"""The pitch card-play fitter: swaps keep every card and every fact seen, and explain more plays."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.ai.hard import inference
from bot.ai.hard.pitch_fit import fit_plays
from bot.ai.hard.reading import pitch_misreads
from bot.engine.pitch import PitchBase
from bot.engine.pitch.worlds import revealed
from tests.ai.test_hard_reading import basic_positions


def no_calls(seat: int, hand: list[object]) -> float:
    return 0.0


def unseen(world: PitchBase, seat: int) -> Counter[object]:
    cards: Counter[object] = Counter(world.undealt)
    for other in range(world.players):
        if other != seat:
            cards.update(world.hands[other])
    return cards


def test_swaps_keep_the_cards_the_seat_sees_and_the_voids_shown() -> None:
    rng = random.Random(3)
    fitted = 0
    for game, seat in basic_positions("pitch", range(6)):
        if not game.tricks:
            continue
        world = game.sample_world(seat, rng)
        before = unseen(world, seat)
        sizes = [len(hand) for hand in world.hands]
        fit_plays(world, seat, rng, no_calls, 1.0)
        assert unseen(world, seat) == before
        assert [len(hand) for hand in world.hands] == sizes
        assert world.hands[seat] == game.hands[seat]
        played, forbidden = revealed(game)
        for other in range(world.players):
            assert not set(world.hands[other]) & forbidden[other]
            assert sorted(world.dealt[other], key=str) == sorted(world.hands[other] + played[other], key=str)
            assert world.hands[other] == world.sort_cards(world.hands[other])
        fitted += 1
    assert fitted > 40


def test_the_fit_leaves_fewer_plays_unexplained_and_reports_what_is_left() -> None:
    rng = random.Random(4)
    before = after = 0
    for game, seat in basic_positions("pitch", range(6)):
        if len(game.tricks) < 2:
            continue
        for _ in range(3):
            world = game.sample_world(seat, rng)
            was = pitch_misreads(world, seat, 99)
            left = fit_plays(world, seat, rng, no_calls, 1.0)
            now = pitch_misreads(world, seat, 99)
            assert now <= was
            assert left == now
            before += was
            after += now
    assert before > 0
    assert after < before / 2


def test_a_world_that_explains_every_play_is_left_as_it_is() -> None:
    rng = random.Random(5)
    for game, seat in basic_positions("pitch", range(3)):
        world = game.copy()
        hands = [hand[:] for hand in world.hands]
        assert fit_plays(world, seat, rng, no_calls, 1.0) == 0.0
        assert world.hands == hands


def test_partnership_pitch_worlds_are_fitted_where_the_setting_says(monkeypatch: pytest.MonkeyPatch) -> None:
    def misreads_left(enabled: frozenset[str]) -> int:
        monkeypatch.setattr(inference, "PITCH_FIT", enabled)
        rng = random.Random(6)
        left = 0
        for game, seat in basic_positions("pitch-partnership", range(5)):
            if len(game.tricks) < 2:
                continue
            world = inference.sample_fitting(game, seat, game.view(seat), rng, lambda: False)
            assert isinstance(world, PitchBase)
            left += pitch_misreads(world, seat, 99)
        return left

    assert "pitch-partnership" in inference.PITCH_FIT
    assert "pitch" not in inference.PITCH_FIT
    plain = misreads_left(frozenset())
    assert plain > 0
    assert misreads_left(frozenset({"pitch-partnership"})) < plain / 2
