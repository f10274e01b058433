"""``hard``'s pitch auction: a bid's rollout value is charged the risk measured at the table, so a
hand that is only a little better as pitcher than as a defender in the rollouts does not bid up; and
a partner still to call may bid in the rollouts, so a junk hand leaves the contract to it."""

from __future__ import annotations

from bot.ai.hard import HardPlayer
from bot.ai.hard.bidding import BID_RISK, best_call
from bot.ai.hard.search import Tally
from bot.engine import Action, Kind, new_game, parse_cards


def tally(action: Action, mean: float) -> Tally:
    found = Tally(action)
    found.total, found.count = mean, 1
    return found


def test_a_bid_above_the_lowest_is_charged_its_risk() -> None:
    passing = tally(Action(Kind.PASS), -0.5)
    one = tally(Action(Kind.BID, amount=1), -0.45)
    two = tally(Action(Kind.BID, amount=2), 0.0)
    three = tally(Action(Kind.BID, amount=3), 0.7)
    tallies = [passing, one, two, three]
    # Without a risk the best rollout mean wins; with 0.6 a step, 2 is worth -0.6 and 3 is -0.5.
    assert best_call(tallies, 0.0, 1) is three
    assert best_call(tallies, 0.6, 1) is one
    assert best_call([passing, two], 0.6, 1) is passing
    assert best_call([passing, two], 0.6, 2) is two  # the game's lowest bid carries no charge


def test_a_weak_hand_does_not_bid_two_in_four_player_pitch() -> None:
    game = new_game("pitch", players=4, seed=103)
    seat = game.to_act[0]
    assert sorted(c.code for c in game.hand(seat)) == sorted(c.code for c in parse_cards("7S KH 9D KC 7C 3C"))
    assert BID_RISK["pitch"] > 0
    # No High to speak of, no jack, a Low only by luck: the rollouts value 2 above passing (they
    # overcall and defend more weakly than the table does), the charged value does not.
    action = HardPlayer(1, budget=30).choose_for(game, seat, game.legal_actions(seat))
    assert action.kind is Kind.PASS or (action.amount or 0) <= 1


def test_a_junk_hand_leaves_the_call_to_a_partner_still_to_bid() -> None:
    game = new_game("pitch-partnership", seed=109)
    seat = game.to_act[0]
    assert sorted(c.code for c in game.hand(seat)) == sorted(c.code for c in parse_cards("3H 4S 6D 6H 9D QS"))
    assert not game.view(seat)["bids"]  # the first call: the partner is still to call
    # Counting the partner out (every partner passes in the rollouts) made passing look worse than
    # bidding 2 on a hand with no trump suit worth naming.
    action = HardPlayer(1, budget=30).choose_for(game, seat, game.legal_actions(seat))
    assert action.kind is Kind.PASS
