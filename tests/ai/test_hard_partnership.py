"""The ``hard`` level in partnership pinochle (``pinochle-4``, ``pinochle-4-auction``): the rollout
policy's partner play, and the search's settings for these variants."""

from __future__ import annotations

import random

from bot.ai import decide, make_player
from bot.ai.hard import HardPlayer
from bot.ai.hard.policy import RolloutPolicy
from bot.ai.hard.search import Clock, Evaluator, Tally, evaluate
from bot.engine import Kind, new_game, parse_cards
from bot.engine.pinochle.partnership import PartnershipBase
from tests.engine.pinochle.helpers import rig_hands

COVER_HANDS = {
    0: "KS QS 9D 9D QD QD AD AD 10D 10D KD KD",
    1: "9S 9S JS JC JC 9C 9C QC QC KC KC 10C",
    2: "AS JS QS AC AC 10C AH AH 10H KH QH JD",
    3: "AS 10S 10S KS JD 10H KH QH JH JH 9H 9H",  # its 9♥ is turned: hearts are trump
}


def _four_hand(hands: dict[int, str] = COVER_HANDS) -> PartnershipBase:
    game = new_game("pinochle-4", seed=1, options={"match": "deal"})
    assert isinstance(game, PartnershipBase)
    rigged = rig_hands(game, hands, dealer=3)
    while rigged.legal_actions(rigged.to_act[0])[0].kind is not Kind.PLAY:
        rigged.apply(rigged.to_act[0], "pass")  # no dix exchanges
    return rigged


def test_rollouts_cover_a_partner_whose_trick_an_opponent_can_still_take() -> None:
    game = _four_hand()
    game.apply(0, "play KS")
    game.apply(1, "play 9S")
    # Seat 3 may still hold a 10♠ or an A♠ (seat 2 knows they are out, not where): the rollout
    # seat takes its partner's K♠ safe with its A♠, instead of ducking with the J♠.
    action = RolloutPolicy("pinochle")(game, 2, game.legal_actions(2))
    assert action.cards == tuple(parse_cards("AS"))


def test_rollouts_duck_under_a_partner_trick_they_cannot_secure() -> None:
    hands = dict(COVER_HANDS)
    hands[2], hands[3] = (
        "10S JS QS AC AC 10C AH AH 10H KH QH JD",
        "AS AS 10S KS JD 10H KH QH JH JH 9H 9H",
    )
    game = _four_hand(hands)
    game.apply(0, "play KS")
    game.apply(1, "play 9S")
    # The 10♠ would beat the K♠ but an A♠ is still out: duck with the J♠ (no ten given away).
    action = RolloutPolicy("pinochle")(game, 2, game.legal_actions(2))
    assert action.cards == tuple(parse_cards("JS"))


def test_rollouts_smear_a_counter_last_on_a_partner_trick_won_with_a_low_trump() -> None:
    game = _four_hand(
        {
            0: "AS KS KS AH AH 10H AD AD 10D 10D KD KD",
            1: "9H JH QH KH AC AC 10C 10C KC KC QC QC",
            2: "AS QS JS 10H KH QD QD JD JD 9D 9D JC",
            3: "10S 10S QS JS 9S 9S QH JH JC 9C 9C 9H",  # its 9♥ is turned: hearts are trump
        }
    )
    game.apply(0, "play AS")
    game.apply(1, "play 9H")  # trumped with the lowest trump, the aces of trump still out
    game.apply(2, "play QS")
    # Seat 3 plays last: its partner's trick is sure whatever trumps are out, so it gives the 10♠
    # (it threw the 9♠ when it weighed the trick as if others were still to play).
    action = RolloutPolicy("pinochle")(game, 3, game.legal_actions(3))
    assert action.cards == tuple(parse_cards("10S"))


def test_auction_bids_one_step_at_a_time() -> None:
    game = new_game("pinochle-4-auction", seed=1, options={"match": "deal"})
    assert isinstance(game, PartnershipBase)
    # A spade flush with a hundred aces and eighty kings: the contract is plainly worth taking, and
    # a made contract scores what it takes whatever the bid, so the first call is the lowest bid
    # (a jump would only add to the risk of a set).
    game = rig_hands(game, {0: "AS 10S KS QS JS AH AD AC KH KD KC QD"}, dealer=3)
    assert list(game.to_act) == [0]
    action = HardPlayer(3, samples=8, rollouts=64).choose_for(game, 0, game.legal_actions(0))
    assert action.kind is Kind.BID and action.amount == 100


def test_the_rollouts_of_dropped_candidates_go_to_the_others_within_the_decisions_rollouts() -> None:
    # Seed 4: eight of the ten leads are dropped early. (In seed 3's first lead, since the rollouts
    # keep the high trumps, one lead is dropped late and leaves 8 rollouts for eleven others.)
    game = new_game("pinochle-4-auction", seed=4, options={"match": "deal"})
    basic = make_player(game.family, "basic", 5)
    while game.legal_actions(game.to_act[0])[0].kind is not Kind.PLAY:
        seat = game.to_act[0]
        game.apply(seat, decide(basic, game, seat))
    seat = game.to_act[0]
    candidates = game.legal_actions(seat)
    rollouts = 20 * len(candidates)  # a fixed share would be 20 worlds each
    rng = random.Random(1)

    def search(worlds: int, rollouts: int | None = None) -> list[Tally]:
        return evaluate(
            game,
            seat,
            candidates,
            worlds=worlds,
            policy=RolloutPolicy(game.family),
            score=Evaluator(game, seat, 0.0),
            clock=Clock(60.0),
            sample=lambda: game.sample_world(seat, rng),
            rollouts=rollouts,
        )

    tallies = search(60, rollouts)
    assert any(t.pruned for t in tallies)  # the position has clearly worse leads
    assert sum(t.count for t in tallies) <= rollouts
    assert max(t.count for t in tallies) > 20  # the survivors took the dropped candidates' share
    fixed = search(20)
    assert max(t.count for t in fixed) == 20


def test_does_not_outbid_its_partner_into_a_set() -> None:
    # Duel seed 1, pair 84 (seats 1 and 3 hard): each partner held a long suit and a big meld; with
    # the partner's contract valued as set when passing, they raised each other to 570 and were set.
    # At 410 seat 1 bid 420 (made in 41% of its sampled deals) as passing looked worse still.
    game = new_game("pinochle-4-auction", seed=1_000_087, options={"match": "deal"})
    calls = "3:100 0:110 1:120 2:130 3:140 0:150 1:160 2:170 3:180 0:pass 1:190 2:200 3:210 1:220 2:pass"
    calls += " 3:230 1:240 3:250 1:260 3:270 1:280 3:290 1:300 3:310 1:320 3:330 1:340 3:350 1:360 3:370"
    calls += " 1:380 3:390 1:400 3:410"
    for call in calls.split():
        seat, amount = call.split(":")
        game.apply(int(seat), "pass" if amount == "pass" else f"bid {amount}")
    for seed in range(3):
        advice = HardPlayer(seed, budget=60.0).advise(game, 1)
        assert advice.action.kind is Kind.PASS, advice.reason
