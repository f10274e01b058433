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
    assert levels("pitch") == ["random", "basic"]
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


# ----- issue 15: the blunders of the November 2026 basic, each on a rigged position ---------------
def auction_deal(
    hands: dict[int, str], bids: list[str], players: int = 4, variant: str = "pitch"
) -> AuctionPitch:
    """A rigged auction-pitch deal (dealer the last seat) after ``bids`` from seat 0 on."""
    game = new_game(variant, players=players, seed=1)
    assert isinstance(game, AuctionPitch)
    game = rig_pitch_deal(game, hands, dealer=players - 1)
    for seat, action in enumerate(bids):
        game.apply(seat, action)
    return game


# Seats 2 and 3 hold no spade: the 2♠ is undealt, so seat 1's 3♠ is the Low (it cannot know that,
# but the 2♠ is more likely out of play than in).
NO_TWO_OF_SPADES = {2: "10H JH QH KH AH 2H", 3: "10D JD QD KD AD 2D"}


def test_keeps_its_probable_low_when_the_trick_is_lost() -> None:
    game = auction_deal(
        {0: "AS KS 9H 9D 9C 8C", 1: "3S 7S 4H 5H 6D 7D", **NO_TWO_OF_SPADES},
        ["bid 2", "pass", "pass", "pass"],
    )
    game.apply(0, "play AS")
    # The old basic counted only a trump below every unseen one as "possibly the Low" and threw the 3♠.
    assert str(decide(PitchPlayer(1), game, 1)) == "play 7S"


def test_does_not_throw_the_lowest_of_two_low_trumps() -> None:
    game = auction_deal(
        {0: "AS KS 9H 9D 9C 8C", 1: "2S 3S 4H 5H 6D 7D", **NO_TWO_OF_SPADES},
        ["bid 2", "pass", "pass", "pass"],
    )
    game.apply(0, "play AS")
    # Holding 2♠ and 3♠, only the 2♠ can be the Low: the 3♠ goes.
    assert str(decide(PitchPlayer(1), game, 1)) == "play 3S"


def test_wins_a_trick_with_the_low_when_no_one_after_can_overtrump() -> None:
    game = auction_deal(
        {
            0: "AS 8C 2C 3C 4C 5C",
            1: "6S 9C 10D JD QD KD",
            2: "5S 2S 4H 5H 6H 7H",
            3: "8H 9H 10H JH QH KH",
        },
        ["bid 2", "pass", "pass", "pass"],
    )
    for seat, card in [(0, "AS"), (1, "6S"), (2, "5S"), (3, "8H"), (0, "8C"), (1, "9C")]:
        game.apply(seat, f"play {card}")
    # Seat 4 showed it has no trump on the first trick: the 2♠ (the Low for sure) takes this one.
    assert str(decide(PitchPlayer(1), game, 2)) == "play 2S"


def test_leads_a_trump_from_a_hand_that_no_one_else_can_trump() -> None:
    game = auction_deal(
        {0: "AS 2S 9C 10C 4D 5D", 1: "6C 9D 10D JD QD KD", 2: "7C 8C 4H 5H 6H 7H", 3: "8H 9H 10H JH QH KH"},
        ["bid 2", "pass", "pass", "pass"],
    )
    for seat, card in [(0, "AS"), (1, "6C"), (2, "7C"), (3, "8H")]:
        game.apply(seat, f"play {card}")
    # Every other seat has shown it holds no trump: the 2♠ led wins the Low.
    assert str(decide(PitchPlayer(1), game, 0)) == "play 2S"


def test_does_not_pitch_an_unguarded_jack() -> None:
    game = auction_deal({0: "JS 7S 4S 9H 8D 6C"}, ["bid 2", "pass", "pass", "pass"])
    # The old basic pitched its top card, the jack, into the A, K and Q it could not see.
    choice = decide(PitchPlayer(1), game, 0)
    assert choice.card.suit is Suit.SPADES and choice.card != Card.parse("JS")


def test_pulls_trump_with_the_ace_before_the_jack() -> None:
    game = auction_deal({0: "AS JS 4S 9H 8D 6C"}, ["bid 2", "pass", "pass", "pass"])
    assert str(decide(PitchPlayer(1), game, 0)) == "play AS"


def test_bids_four_with_a_hand_that_takes_every_trick() -> None:
    player = PitchPlayer(1)
    hand = parse_cards("AS KS QS JS 10S 3S")
    assert player.estimate(hand, Suit.SPADES, 4) >= 3.8
    game = auction_deal({0: "AS KS QS JS 10S 3S"}, [])
    assert str(decide(player, game, 0)) == "bid 4"


def test_bids_smudge_in_partnership_pitch_with_a_hand_that_takes_everything() -> None:
    game = new_game("pitch-partnership", seed=1)
    game = rig_pitch_deal(game, {0: "AS KS QS JS 10S 3S"}, dealer=3)
    assert game.view(0)["bid_names"] == {"5": "smudge"}
    assert str(decide(PitchPlayer(1), game, 0)) == "bid 5"


def test_does_not_bid_smudge_without_the_top_trumps() -> None:
    game = new_game("pitch-partnership", seed=1)
    game = rig_pitch_deal(game, {0: "KS QS JS 10S 3S AH"}, dealer=3)
    assert str(decide(PitchPlayer(1), game, 0)) not in ("bid 5", "bid 4")


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("pitch", {"off-jack": True}),
        ("pitch", {"jokers": 2}),
        ("pitch", {"jokers": 1, "joker-rank": "low"}),
        ("pitch-joker", {}),
        ("pitch-smudge", {}),
        ("pitch-10", {}),
        ("pitch-10", {"three": False}),
        ("pitch-partnership", {}),
    ],
)
def test_plays_whole_games_of_every_pitch_variant(variant: str, options: dict[str, object]) -> None:
    """Extra trumps, ten-point pitch's widow, trump naming and discard: basic in every seat
    finishes the game with legal moves only (``decide`` picks among the legal actions)."""
    for seed in range(3):
        result = simulate(variant, games=1, seed=seed, options=options, max_deals=300)
        assert result.unfinished == 0, result.report()
