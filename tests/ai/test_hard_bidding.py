"""``hard``'s auction by simulation (``bot.ai.hard.bidding``): how a deal the seat passed is valued."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.ai.hard.bidding import PartnersPass, call_policy, partners, pass_margin
from bot.ai.hard.policy import RolloutPolicy
from bot.ai.hard.rollout import DealResult
from bot.ai.hard.search import Clock, Context, Evaluator
from bot.engine import Kind, new_game
from bot.engine.pinochle.partnership import PartnershipBase
from tests.engine.pinochle.helpers import rig_hands

PARTNERS_SETS: dict[str, tuple[dict[str, Any], int]] = {
    # Seat 0 passed; its partner (seat 2) held the contract at 85 and was set in the rollout: passing
    # is valued with the contract made (meld 54 + counters 29 against 24).
    "double-deck": (
        {
            "bidder": 2,
            "bid": 85,
            "made": False,
            "meld": [54, 24],
            "counters": [29, 21],
            "tricks_won": [11, 9],
            "changes": [-85, 24],
        },
        54 + 29 - 24,
    ),
    # Seat 0 passed into its partner's 350 and the rollout set it: valued as seats 0 and 2 took it.
    # Valued as a set, two hard partners outbade each other from 230 to 570 (duel seed 1, pair 84).
    "pinochle-4-auction": (
        {
            "bidder": 2,
            "bid": 350,
            "made": False,
            "meld": [190, 40],
            "counters": [150, 100],
            "counted": [150, 100],
            "tricks_won": [7, 5],
            "changes": [-350, 140],
        },
        190 + 150 - 140,
    ),
}


def context(seat: int, variant: str) -> Context:
    """A search context for ``seat`` at the start of a ``variant`` deal."""
    game = new_game(variant, seed=1, options={"match": "deal"})
    return Context(
        game,
        seat,
        game.view(seat),
        RolloutPolicy(type(game).family),
        Evaluator(game, seat, 0.0),
        Clock(1.0),
        random.Random(1),
        4,
        24,
    )


@pytest.mark.parametrize("variant", sorted(PARTNERS_SETS))
def test_a_partners_contract_set_in_a_pass_rollout_counts_as_made(variant: str) -> None:
    # The sampled partner hand rarely holds the meld its bids showed, so the set is the sampler's,
    # not the table's.
    summary, expected = PARTNERS_SETS[variant]
    changes = (float(summary["changes"][0]), float(summary["changes"][1]))
    seat_0 = context(0, variant)
    assert pass_margin(DealResult(changes, summary, None), seat_0) == expected
    # The seat's own set (it cannot pass into its own contract) is as scored.
    own = {**summary, "bidder": 0}
    assert pass_margin(DealResult(changes, own, None), seat_0) == changes[0] - changes[1]


def test_a_partner_still_to_call_bids_in_the_partnership_auctions_call_rollouts() -> None:
    game = new_game("pinochle-4-auction", seed=1, options={"match": "deal"})
    assert isinstance(game, PartnershipBase)
    # Seat 0 (first to call, dealer 3) weighs passing; its partner, seat 2, holds a spade flush.
    game = rig_hands(game, {2: "AS 10S KS QS JS AH AD AC KH KD KC QD"}, dealer=3)
    policy = RolloutPolicy(game.family)
    rollout = call_policy(game, 0, policy)
    assert rollout is policy
    game.apply(0, "pass")
    game.apply(1, rollout(game, 1, game.legal_actions(1)))
    assert rollout(game, 2, game.legal_actions(2)).kind is Kind.BID
    # Where partners are counted out (double-deck), the same call is a pass.
    quiet = PartnersPass(policy, partners(game, 0))
    assert quiet(game, 2, game.legal_actions(2)).kind is Kind.PASS
    double_deck = new_game("double-deck", seed=1, options={"match": "deal"})
    assert isinstance(call_policy(double_deck, 0, policy), PartnersPass)
