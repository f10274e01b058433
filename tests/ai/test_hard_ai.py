"""The ``hard`` level: search over sampled worlds, deterministic, within its time budget, legal,
discreet in its advice, and right in positions with one obviously best play."""

from __future__ import annotations

import time
from typing import Any

import pytest

from bot.ai import decide, levels, make_player
from bot.ai.hard import Advice, HardPlayer
from bot.engine import Action, Card, Game, Kind, new_game, parse_cards
from bot.engine.pinochle.partnership import PartnershipBase
from tests.engine.pinochle.helpers import rig_hands

VARIANTS: list[tuple[str, int | None, dict[str, Any]]] = [
    ("pinochle-4", None, {"match": "deal"}),
    ("pinochle-4-auction", None, {"match": "deal"}),
    ("pinochle-2", None, {"match": "deal"}),
    ("pinochle-3", None, {"deals": 3}),
    ("double-deck", None, {"match": "deal"}),
    ("pitch", 4, {}),
    ("pitch-partnership", None, {}),
    ("pinochle-4", None, {}),  # to 1000: declaring out is legal throughout
    ("pinochle-2", None, {}),
]


def quick(seed: int = 1, **kwargs: Any) -> HardPlayer:
    """A hard player with few samples: the same search, fast enough for tests."""
    kwargs.setdefault("samples", 4)
    kwargs.setdefault("rollouts", 24)
    return HardPlayer(seed, **kwargs)


def first_deal(game: Game, players: dict[int, Any], *, stop: Any = None) -> Game:
    """Play ``game``'s first deal (seats missing from ``players`` play basic)."""
    basic = make_player(game.family, "basic", 5)
    deal = game.deal_no
    while not game.is_over and game.deal_no == deal:
        seat = game.to_act[0]
        if stop is not None and stop(game, seat):
            break
        game.apply(seat, decide(players.get(seat, basic), game, seat))
    return game


def test_hard_is_a_level_of_every_family() -> None:
    for family in ("pitch", "pinochle", "double-deck"):
        assert "hard" in levels(family)
        player = make_player(family, "hard", 3)
        assert isinstance(player, HardPlayer)
        assert player.seed == 3


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="budget"):
        HardPlayer(1, budget=0)
    with pytest.raises(ValueError, match="samples"):
        HardPlayer(1, samples=0)


@pytest.mark.parametrize(("variant", "players", "options"), VARIANTS)
def test_plays_only_legal_actions_through_a_deal(
    variant: str, players: int | None, options: dict[str, Any]
) -> None:
    game = new_game(variant, players=players, seed=21, options=options)
    hard = quick()
    checked = 0
    deal = game.deal_no
    basic = make_player(game.family, "basic", 5)
    # Through the first deal, and on while it gave hard fewer than 3 choices (a deal conceded early).
    while not game.is_over and (game.deal_no == deal or checked < 3):
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        if game.side_of[seat] == 0:
            action = hard.choose_for(game, seat, legal)
            assert action in legal
            checked += 1
        else:
            action = decide(basic, game, seat)
        game.apply(seat, action)
    assert checked >= 3


@pytest.mark.parametrize(("variant", "players", "options"), VARIANTS[:1] + VARIANTS[5:6])
def test_same_seed_same_choices(variant: str, players: int | None, options: dict[str, Any]) -> None:
    def choices(seed: int) -> list[Action]:
        game = new_game(variant, players=players, seed=8, options=options)
        hard = quick(seed)
        made: list[Action] = []
        deal = game.deal_no
        while not game.is_over and game.deal_no == deal and len(made) < 12:
            seat = game.to_act[0]
            action = hard.choose_for(game, seat, game.legal_actions(seat))
            made.append(action)
            game.apply(seat, action)
        return made

    assert choices(4) == choices(4)


def test_advice_matches_the_choice_and_is_deterministic() -> None:
    game = new_game("pinochle-4", seed=3, options={"match": "deal"})
    first_deal(game, {}, stop=lambda g, seat: g.legal_actions(seat)[0].kind is Kind.PLAY)
    seat = game.to_act[0]
    advice = quick(9).advise(game, seat)
    assert isinstance(advice, Advice)
    assert advice.action in game.legal_actions(seat)
    assert advice == quick(9).advise(game, seat)
    assert quick(9).choose_for(game, seat, game.legal_actions(seat)) == advice.action
    assert "\n" not in advice.reason and len(advice.reason) < 200


def test_budget_is_kept() -> None:
    game = new_game("double-deck", seed=4, options={"match": "deal"})
    first_deal(game, {}, stop=lambda g, seat: g.legal_actions(seat)[0].kind is Kind.PLAY)
    seat = game.to_act[0]
    budget = 0.5  # long enough that one rollout fits many times over, even on a loaded machine
    hard = HardPlayer(2, budget=budget, samples=10_000, rollouts=10_000_000)
    start = time.perf_counter()
    action = hard.choose_for(game, seat, game.legal_actions(seat))
    elapsed = time.perf_counter() - start
    assert action in game.legal_actions(seat)
    assert elapsed <= budget * 1.1, elapsed


def _hidden_cards_of_others(game: Game, seat: int) -> set[str]:
    hands = [game.hand(s) for s in range(game.players)]
    own = set(hands[seat])
    return {card.pretty for s, hand in enumerate(hands) if s != seat for card in hand if card not in own}


@pytest.mark.parametrize("variant", ["pinochle-4", "pitch-partnership"])
def test_advice_names_no_hidden_card_of_another_seat(variant: str) -> None:
    game = new_game(variant, seed=12, options={"match": "deal"} if variant.startswith("pinochle") else {})
    hard = quick(1)
    deal = game.deal_no
    basic = make_player(game.family, "basic", 5)
    seen = 0
    while not game.is_over and game.deal_no == deal:
        seat = game.to_act[0]
        if len(game.legal_actions(seat)) > 1:
            reason = hard.advise(game, seat).reason
            for pretty in _hidden_cards_of_others(game, seat):
                assert pretty not in reason, (pretty, reason)
            seen += 1
        game.apply(seat, decide(basic, game, seat))
    assert seen >= 5


# ----- rigged positions: one play is plainly best -----------------------------------------------------
def _rigged_four(hands: dict[int, str]) -> PartnershipBase:
    """Partnership pinochle, seat 3 deals (clubs turned: the dealer's last card), seat 0 leads."""
    game = new_game("pinochle-4", seed=1, options={"match": "deal"})
    assert isinstance(game, PartnershipBase)
    rigged = rig_hands(game, hands, dealer=3)
    while rigged.legal_actions(rigged.to_act[0])[0].kind is not Kind.PLAY:
        rigged.apply(rigged.to_act[0], "pass")  # no dix exchanges
    assert rigged.trump is not None and rigged.trump.value == "C"
    return rigged


FOUR_HANDS = {
    0: "AS JS 10H KH QH AD KD QD 9D JC 9C QC",
    1: "9S KS QS 9H JH JH 10D JD 9D 9C 10C JC",
    2: "KS QS JS AH KH 9H 10D JD KD QD AC 10C",
    3: "10S 10S AS 9S 10H QH AH AD KC QC KC AC",  # ends with a club: clubs are trump
}


def test_does_not_throw_a_counter_onto_the_opponents_sure_trick() -> None:
    game = _rigged_four(FOUR_HANDS)
    game.apply(0, "play AS")
    game.apply(1, "play 9S")
    game.apply(2, "play KS")
    # Seat 3 must follow spades under an ace it cannot beat (its own ace would come second): the
    # 9, not a ten or the ace. The three differ by about 10 points a deal against a deal's spread
    # of hundreds, so the search needs worlds enough: with 8 worlds and 64 rollouts 4 to 6 seeds
    # of 20 played another card; with 32 and 256, 1 of 20.
    action = quick(2, samples=32, rollouts=256).choose_for(game, 3, game.legal_actions(3))
    assert action.cards == tuple(parse_cards("9S"))


def test_takes_a_trick_full_of_counters_when_last_to_play() -> None:
    game = _rigged_four(FOUR_HANDS)
    game.apply(0, "play 10H")
    game.apply(1, "play 9H")
    game.apply(2, "play KH")
    action = quick(2, samples=8, rollouts=64).choose_for(game, 3, game.legal_actions(3))
    assert action.cards == tuple(parse_cards("AH"))


def test_smears_a_counter_onto_the_partners_sure_trick() -> None:
    game = _rigged_four(FOUR_HANDS)
    game.apply(0, "play AD")  # seat 2's partner leads an ace
    game.apply(1, "play 9D")
    # Seat 3, last, holds the other ace of diamonds, which cannot beat the first: the trick is the
    # partner's, so seat 2 gives it the ten (which that ace would take later anyway).
    action = quick(2, samples=8, rollouts=64).choose_for(game, 2, game.legal_actions(2))
    assert action.cards == tuple(parse_cards("10D"))


# ----- declaring out, and hints out of turn -----------------------------------------------------------
def _at_first_lead(variant: str = "pinochle-4") -> Game:
    game = new_game(variant, seed=6)
    first_deal(game, {}, stop=lambda g, seat: g.legal_actions(seat)[0].kind is Kind.PLAY)
    return game


def test_declares_out_exactly_when_it_wins() -> None:
    game = _at_first_lead()
    seat = game.to_act[0]
    side = game.side_of[seat]
    legal = game.legal_actions(seat)
    assert any(a.kind is Kind.DECLARE_OUT for a in legal)
    assert quick(1).choose_for(game, seat, legal).kind is Kind.PLAY  # 0 points: declaring loses
    game.scores[side] = 1000  # type: ignore[attr-defined]
    assert quick(1).choose_for(game, seat, legal).kind is Kind.DECLARE_OUT


def test_advice_out_of_turn_is_only_a_winning_declare_out() -> None:
    game = _at_first_lead()
    waiting = next(s for s in range(4) if s not in game.to_act)
    with pytest.raises(ValueError, match="nothing to do"):
        quick(1).advise(game, waiting)
    game.scores[game.side_of[waiting]] = 1000  # type: ignore[attr-defined]
    advice = quick(1).advise(game, waiting)
    assert advice.action.kind is Kind.DECLARE_OUT
    assert "target" in advice.reason


def test_pitch_keeps_the_low_off_the_opponents_trick() -> None:
    def deal(seat1: str, seat0: str) -> list[Card]:
        """A pitch pack whose deal (dealer 0: seat 1 gets the first packet) gives these hands."""
        ones, zeros = parse_cards(seat1), parse_cards(seat0)
        top = ones[:3] + zeros[:3] + ones[3:] + zeros[3:]  # dealt first to last, off the end
        rest = [c for c in new_game("pitch", players=2, seed=1).pack() if c not in top]
        return rest + top[::-1]

    pack = deal("AH KS QS JS 10S 9S", "2H 9H 3C 4C 5D 6D")
    game = new_game("pitch", players=2, seed=1, decks=[pack], dealer=0)
    assert sorted(game.hand(0), key=lambda c: c.id) == sorted(
        parse_cards("2H 9H 3C 4C 5D 6D"), key=lambda c: c.id
    )
    game.apply(1, "bid 2")
    game.apply(0, "pass")
    game.apply(1, "play AH")  # hearts are trump; the ace will take whatever seat 0 plays
    action = quick(3, samples=12, rollouts=60).choose_for(game, 0, game.legal_actions(0))
    assert action.cards == tuple(parse_cards("9H"))  # the 2 is the Low: never give it away
