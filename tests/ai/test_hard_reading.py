"""Inference from the play (``bot.ai.hard.reading``): a world is read against the plays the other
seats made, as ``basic`` (pitch) or the fast policy (pinochle) would have made them with the hands
the world gives them."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bot.ai import make_player
from bot.ai.hard.inference import PINOCHLE_READING, sample_fitting
from bot.ai.hard.policy import RolloutPolicy
from bot.ai.hard.reading import pinochle_misreads, pitch_misreads
from bot.engine import new_game
from bot.engine.events import Phase
from bot.engine.pinochle.common import PinochleGame
from bot.engine.pitch import PitchBase


def basic_positions(variant: str, seeds: range) -> Iterator[tuple[PitchBase, int]]:
    """Every position of the first deal of ``variant`` with four ``basic`` seats once trump is
    known: (the real game, the seat to act)."""
    for seed in seeds:
        game = new_game(variant, seed=seed)
        assert isinstance(game, PitchBase)
        players = [make_player("pitch", "basic", seed * 10 + seat) for seat in range(game.players)]
        while game.outcome is None and game.deal_no == 1:
            seat = game.to_act[0]
            if game.trumps is not None:
                yield game, seat
            game.apply(seat, players[seat].choose(game.view(seat), game.legal_actions(seat)))


@pytest.mark.parametrize("variant", ["pitch", "pitch-partnership"])
def test_the_true_deal_explains_every_play_of_basic_seats(variant: str) -> None:
    positions = 0
    for game, seat in basic_positions(variant, range(8)):
        assert pitch_misreads(game.copy(), seat, 99) == 0
        positions += 1
    assert positions > 100


def test_hands_moved_to_other_seats_leave_plays_unexplained() -> None:
    misread = late = 0
    for game, seat in basic_positions("pitch", range(8)):
        if len(game.tricks) < 2:
            continue
        late += 1
        world = game.copy()
        first, second = [other for other in range(game.players) if other != seat][:2]
        world.hands[first], world.hands[second] = world.hands[second], world.hands[first]
        count = pitch_misreads(world, seat, 99)
        assert pitch_misreads(world, seat, 1) == min(count, 1)  # counting stops at the limit
        misread += count > 0
    # Two seats' hands swapped two tricks in: most of their past plays no longer fit.
    assert late > 40
    assert misread > late * 0.6


def test_searched_worlds_explain_more_of_the_play_than_plain_samples() -> None:
    rng = random.Random(5)
    fitted = plain = 0
    for game, seat in basic_positions("pitch", range(6)):
        if len(game.tricks) < 1:
            continue
        view = game.view(seat)
        for _ in range(3):
            fit = sample_fitting(game, seat, view, rng, lambda: False)
            assert isinstance(fit, PitchBase)
            fitted += pitch_misreads(fit, seat, 99)
            raw = game.sample_world(seat, rng)
            plain += pitch_misreads(raw, seat, 99)
    assert plain > 0
    assert fitted < plain / 2


PINOCHLE_VARIANTS = ["pinochle-4", "pinochle-4-auction", "pinochle-3"]


def policy_positions(variant: str, seeds: range) -> Iterator[tuple[PinochleGame, int]]:
    """Every card-play position after the first trick of the first deal of ``variant`` with every
    seat playing the fast policy: (the real game, the seat to act)."""
    policy = RolloutPolicy("pinochle")
    for seed in seeds:
        game = new_game(variant, seed=seed)
        assert isinstance(game, PinochleGame)
        while game.outcome is None and game.deal_no == 1:
            seat = game.to_act[0]
            if game.phase is Phase.PLAY and game.tricks:
                yield game, seat
            game.apply(seat, policy(game, seat, game.legal_actions(seat)))


@pytest.mark.parametrize("variant", PINOCHLE_VARIANTS)
def test_the_true_deal_explains_every_play_of_fast_policy_seats(variant: str) -> None:
    positions = 0
    for game, seat in policy_positions(variant, range(3)):
        assert pinochle_misreads(game, seat, 99, 99) == 0
        positions += 1
    assert positions > 40  # three-hand's deals are often conceded before a trick


def test_pinochle_hands_moved_to_other_seats_leave_plays_unexplained() -> None:
    misread = late = 0
    for game, seat in policy_positions("pinochle-4", range(4)):
        if len(game.tricks) < 3:
            continue
        late += 1
        world = game.copy()
        first, second = [other for other in range(game.players) if other != seat][:2]
        world.hands[first], world.hands[second] = world.hands[second], world.hands[first]
        count = pinochle_misreads(world, seat, 99, 99)
        assert pinochle_misreads(world, seat, 1, 99) == min(count, 1)  # counting stops at the limit
        # Only the plays of the last trick (the one under way counted) are read with a window of 1.
        assert pinochle_misreads(world, seat, 99, 1) <= game.players
        assert pinochle_misreads(world, seat, 99, 1) <= count
        misread += count > 0
    # Two seats' hands swapped three tricks in: most of their past plays no longer fit.
    assert late > 60
    assert misread > late * 0.6


@pytest.mark.parametrize("variant", sorted(PINOCHLE_READING))
def test_searched_pinochle_worlds_explain_more_of_the_play_than_plain_samples(variant: str) -> None:
    rng = random.Random(5)
    fitted = plain = 0
    for game, seat in policy_positions(variant, range(2)):
        view = game.view(seat)
        fit = sample_fitting(game, seat, view, rng, lambda: False)
        assert isinstance(fit, PinochleGame)
        fitted += pinochle_misreads(fit, seat, 99, 99)
        plain += pinochle_misreads(game.sample_world(seat, rng), seat, 99, 99)
    assert plain > 0
    assert fitted < plain * 0.75
