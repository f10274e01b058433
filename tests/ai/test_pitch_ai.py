"""The rule-based Pitch player: legal, sensible, and clearly better than random play."""

from __future__ import annotations

import pytest

from bot.ai import decide, levels, make_player
from bot.ai.pitch import PitchPlayer
from bot.engine import Card, Suit, new_game, parse_cards
from bot.engine.pitch import AuctionPitch
from bot.simulate import simulate
from tests.engine.helpers import rig_pitch_deal


def test_levels_and_unknown_level() -> None:
    assert levels("pitch") == ["random", "basic", "hard"]
    with pytest.raises(ValueError, match="choose one of: random, basic"):
        make_player("pitch", "grandmaster")


def test_basic_beats_random_head_to_head() -> None:
    result = simulate("pitch", games=60, seed=100, players=2, seat_levels=["basic", "random"])
    assert result.level_wins["basic"] >= 48, result.report()


def test_basic_partnership_beats_random_partnership() -> None:
    result = simulate(
        "pitch-partnership", games=20, seed=7, seat_levels=["basic", "random", "basic", "random"]
    )
    assert result.level_wins["basic"] >= 16, result.report()


def test_bids_on_a_strong_hand_and_passes_a_weak_one() -> None:
    player = PitchPlayer(1)
    strong = parse_cards("AS KS JS 2S 10D 3C")
    weak = parse_cards("9S 7H 6D 5C 8C 4D")
    assert player.estimate(strong, Suit.SPADES, 4) >= 3.0
    assert player.best_suit(weak, 4)[1] < 1.0
    game = new_game("pitch", players=4, seed=1)
    assert isinstance(game, AuctionPitch)
    game = rig_pitch_deal(game, {0: "AS KS JS 2S 10D 3C", 1: "9S 7H 6D 5C 8C 4D"}, dealer=3)
    assert str(decide(player, game, 0)).startswith("bid ")
    game.apply(0, "bid 3")
    assert str(decide(player, game, 1)) == "pass"


def test_leads_the_top_of_its_best_suit_to_name_trump() -> None:
    game = new_game("pitch", players=4, seed=1)
    assert isinstance(game, AuctionPitch)
    game = rig_pitch_deal(game, {0: "AS KS JS 2S 10D 3C"}, dealer=3)
    for seat, action in [(0, "bid 3"), (1, "pass"), (2, "pass"), (3, "pass")]:
        game.apply(seat, action)
    assert str(decide(PitchPlayer(1), game, 0)) == "play AS"


def test_captures_the_jack_when_it_can_and_keeps_points_when_it_cannot() -> None:
    game = new_game("pitch", players=3, seed=1)
    assert isinstance(game, AuctionPitch)
    game = rig_pitch_deal(
        game, {0: "JH 4C 5C 6C 7C 8C", 1: "QH 3H 9D 8D 7D 6D", 2: "AH 10S 2D 3D 4D 5D"}, dealer=2
    )
    for seat, action in [(0, "bid 1"), (1, "pass"), (2, "pass")]:
        game.apply(seat, action)
    game.apply(0, "play JH")
    # Seat 1 cannot beat... it can: QH beats JH and captures the jack.
    assert str(decide(PitchPlayer(1), game, 1)) == "play QH"
    game.apply(1, "play 3H")
    # Seat 2 wins with the ace (jack and more at stake), not by throwing its ten.
    assert str(decide(PitchPlayer(1), game, 2)) == "play AH"


def test_does_not_throw_a_ten_on_a_trick_it_cannot_win() -> None:
    game = new_game("pitch", players=2, seed=1)
    assert isinstance(game, AuctionPitch)
    game = rig_pitch_deal(game, {0: "AH KH 4C 5C 6C 7C", 1: "10S 2D 3D 4D 9S 8S"}, dealer=1)
    game.apply(0, "bid 2")
    game.apply(1, "pass")
    game.apply(0, "play AH")
    choice = decide(PitchPlayer(1), game, 1)
    assert choice.card is not Card.parse("10S")
