"""Partnership pinochle (§6), partnership auction (§7) and the 6- and 8-player games (§8)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.engine import BadOption, IllegalAction, Suit, new_game, parse_cards
from bot.engine.meld import FOUR_HAND, count_meld
from bot.engine.pinochle.common import POINTS
from bot.engine.pinochle.partnership import PartnershipBase
from tests.engine.pinochle.helpers import check_cards, new, play, rig_hands


def four(variant: str = "pinochle-4", seed: int = 1, **options: Any) -> PartnershipBase:
    game = new(variant, seed, **options)
    assert isinstance(game, PartnershipBase)
    return game


# Dealer 3: seats 0, 1, 2 are dealt first; the dealer's 12th card is turned.
S0 = "AS AS 10S 10S KS QS JS 9S KD QD JD 9D"
S1 = "9H KH QH AD 10D KC QC JC 9C 9C 10C AC"
S2 = "AC 10C KC QC JC KD QD AD 10D JD 9D KS"
S3 = "QS JS 9S AH 10H JH JH 10H QH KH 9H AH"  # turned: A♥


def test_turned_card_names_trump_and_dix_holders_exchange_from_the_dealers_left() -> None:
    game = four()
    game = rig_hands(game, {0: S0, 1: S1, 2: S2, 3: S3}, dealer=3)
    view = game.public_view()
    assert view["trump"] == "H" and view["turned"] == "AH" and view["phase"] == "exchange"
    # Seat 0 holds no dix; seat 1 (9♥) is asked first.
    assert game.to_act == (1,)
    assert [str(a) for a in game.legal_actions(1)] == ["exchange 9H", "pass"]
    events = game.apply(1, "exchange 9H")
    assert events[0] == {"type": "exchange", "seat": 1, "gave": "9H", "took": "AH"}
    assert game.phase == "play" and game.to_act == (0,)  # everyone melds; dealer's left leads
    assert "AH" in game.view(1)["hand"] and len(game.hands[3]) == 12 and "9H" in game.view(3)["hand"]
    melds = game.public_view()["melds"]
    assert [m["name"] for m in melds[1]["melds"]][-1] == "dix (exchanged)"
    # The dealer's meld does not count the dix received by the exchange, only his own 9♥.
    dealer_names = [m["name"] for m in melds[3]["melds"]]
    assert dealer_names.count("dix") == 1
    check_cards(game)


def test_a_dix_holder_may_pass_and_the_next_holder_is_asked() -> None:
    game = four()
    s0 = S0.replace("9S", "9H")
    s3 = S3.replace("9H", "9S")
    game = rig_hands(game, {0: s0, 1: S1, 2: S2, 3: s3}, dealer=3)
    assert game.to_act == (0,)
    game.apply(0, "pass")
    assert game.to_act == (1,)
    game.apply(1, "pass")
    assert game.phase == "play"
    assert game.public_view()["exchanges"] == []
    assert "AH" in game.view(3)["hand"]


def test_a_turned_up_dix_is_the_dealers_and_nobody_exchanges() -> None:
    game = four()
    s3 = "QS JS 9S AH 10H JH JH 10H QH KH AH 9H"  # the dealer's last card, 9♥, is turned
    game = rig_hands(game, {0: S0, 1: S1, 2: S2, 3: s3}, dealer=3)
    assert game.phase == "play" and game.public_view()["turned"] == "9H"
    melds = game.public_view()["melds"]
    assert "dix" in [m["name"] for m in melds[3]["melds"]]  # the dealer's 10 for the turned dix
    assert "dix" in [m["name"] for m in melds[1]["melds"]]  # the other dix is melded as usual


def test_everyones_meld_is_shown_before_play() -> None:
    game = four()
    game = rig_hands(game, {0: S0, 1: S1, 2: S2, 3: S3}, dealer=3)
    game.apply(1, "pass")
    view = game.view(2)
    assert view["phase"] == "play"
    for entry in view["melds"]:
        hand = game.hands[entry["seat"]]
        assert entry["total"] == count_meld(hand, Suit.HEARTS, FOUR_HAND).total
    totals = [entry["total"] for entry in view["melds"]]
    assert view["side_meld"] == [totals[0] + totals[2], totals[1] + totals[3]]
    # Shown meld cards are public; every meld lists its cards.
    assert all(m["cards"] for entry in view["melds"] for m in entry["melds"])


def _score(
    game: PartnershipBase, *, meld: list[int], taken: list[int], tricks: list[int], scores: list[int]
) -> dict[str, Any]:
    game.trump = Suit.HEARTS
    game.side_meld = meld[:]
    game.taken = taken[:]
    game.tricks_won = tricks[:]
    game.scores = scores[:]
    return game.score_deal()[0]


def test_a_side_must_take_a_trick_to_score_its_meld() -> None:
    game = four(match="deal")
    scored = _score(game, meld=[120, 300], taken=[250, 0], tricks=[12, 0], scores=[0, 0])
    assert scored["meld_counted"] == [120, 0]
    assert scored["changes"] == [370, 0]


def test_sides_add_meld_and_rounded_counters_and_125s_lose_ten() -> None:
    game = four(match="deal")
    scored = _score(game, meld=[60, 40], taken=[125, 125], tricks=[6, 6], scores=[0, 0])
    assert scored["counted"] == [120, 120] and scored["changes"] == [180, 160]


def test_1000_wins_and_both_past_it_raise_the_target_to_1250() -> None:
    game = four()
    _score(game, meld=[100, 100], taken=[130, 120], tricks=[6, 6], scores=[800, 850])
    assert game.outcome is None and game.target == 1250
    _score(game, meld=[0, 0], taken=[200, 50], tricks=[10, 2], scores=[1100, 1100])
    assert game.outcome is not None and game.outcome.winners == (0, 2) and game.outcome.winning_sides == (0,)


def test_declaring_out_counts_meld_only_with_a_trick() -> None:
    game = four()
    game = rig_hands(game, {0: S0, 1: S1, 2: S2, 3: S3}, dealer=3)
    game.apply(1, "pass")
    game.scores = [900, 500]
    game.side_meld = [90, 0]
    game.taken = [7, 0]
    game.tricks_won = [0, 0]
    game.invalidate()
    assert "declare-out" in {str(a) for a in game.legal_actions(2)}  # any seat, any moment of play
    game.apply(2, "declare-out")  # 900 + 0 (no trick yet) + 10 < 1000: loses
    assert game.outcome is not None and game.outcome.winning_sides == (1,)
    game = four()
    game = rig_hands(game, {0: S0, 1: S1, 2: S2, 3: S3}, dealer=3)
    game.apply(1, "pass")
    game.scores = [900, 1100 - 200]
    game.side_meld = [90, 0]
    game.taken = [7, 200]
    game.tricks_won = [1, 3]
    game.invalidate()
    game.apply(0, "declare-out")  # 900 + 90 + 7 (rounds to 10) = 1000
    assert game.outcome is not None and game.outcome.winning_sides == (0,)


@pytest.mark.parametrize(
    ("count", "values"),
    [
        ("standard", {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0}),
        ("tens-fives", {"A": 10, "10": 10, "K": 5, "Q": 5, "J": 0, "9": 0}),
        ("tens", {"A": 10, "10": 10, "K": 10, "Q": 0, "J": 0, "9": 0}),
    ],
)
def test_counting_options(count: str, values: dict[str, int]) -> None:
    points = POINTS[count]
    for rank, value in values.items():
        assert points[parse_cards(f"{rank}S")[0]] == value
    assert (
        sum(points[c] for c in parse_cards(" ".join(f"{r}{s}" for r in values for s in "SHDC"))) * 2 + 10
        == 250
    )
    game = four(count=count, match="deal")
    rng = random.Random(1)
    while not game.is_over:
        seat = game.to_act[0]
        events = game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert sum(next(e for e in events if e["type"] == "deal_scored")["counters"]) == 250


def _to_play(s0: str, s1: str, s2: str, s3: str) -> PartnershipBase:
    """A four-hand game dealt these hands (seat 3 deals), past the dix exchange."""
    game = four()
    game = rig_hands(game, {0: s0, 1: s1, 2: s2, 3: s3}, dealer=3)
    while game.phase == "exchange":
        game.apply(game.to_act[0], "pass")
    return game


def test_on_a_trump_lead_each_player_must_beat_the_best_trump_if_able() -> None:
    game = _to_play(
        "QH AS 10S 10S KS QS JS 9S KD QD JD 9D",
        "9H KH 10H AD 10D KC QC JC 9C 9C 10C AC",
        "AC 10C KC QC JC KD QD AD 10D JD 9D KS",
        "QS JS 9S AH AS JH JH 9H QH KH 10H AH",
    )
    game.apply(0, "play QH")
    assert {str(a) for a in game.legal_actions(1) if str(a) != "declare-out"} == {"play KH", "play 10H"}
    with pytest.raises(IllegalAction, match="must beat Q♥"):
        game.apply(1, "play 9H")


def test_no_duty_to_over_trump_a_plain_trick_already_trumped() -> None:
    game = _to_play(
        "AS 10S 10S KS QS JS 9S KD QD JD 9D JS",
        "9H KH QH AD 10D KC QC JC 9C 9C 10C AC",
        "AC 10C KC QC JC KD QD AD 10D JD 9D 10H",
        "QS 9S KS AH AS JH JH 9H QH KH 10H AH",
    )
    # Seat 0 leads a spade; seat 1 has none and must trump (any trump).
    game.apply(0, "play AS")
    legal1 = {str(a) for a in game.legal_actions(1) if str(a) != "declare-out"}
    assert legal1 == {"play 9H", "play KH", "play QH"}
    with pytest.raises(IllegalAction, match="must play a trump"):
        game.apply(1, "play AD")
    game.apply(1, "play KH")
    # Seat 2 has no spade either: must trump, but need not over-trump the K♥ (10♥ or nothing else).
    assert {str(a) for a in game.legal_actions(2) if str(a) != "declare-out"} == {"play 10H"}


# ----- partnership auction -------------------------------------------------------------------
def test_auction_minimum_100_steps_of_10_hard_pass_and_dealer_stuck() -> None:
    game = four("pinochle-4-auction")
    dealer = game.dealer
    first = (dealer + 1) % 4
    assert game.to_act == (first,) and game.phase == "bidding"
    legal = [str(a) for a in game.legal_actions(first)]
    assert legal[:3] == ["pass", "bid 100", "bid 110"]
    with pytest.raises(IllegalAction, match="at least 100"):
        game.apply(first, "bid 90")
    with pytest.raises(IllegalAction, match="steps of 10"):
        game.apply(first, "bid 105")
    for k in range(3):
        game.apply((dealer + 1 + k) % 4, "pass")
    assert game.to_act == (dealer,)
    assert "pass" not in {str(a) for a in game.legal_actions(dealer)}  # stuck at 100
    with pytest.raises(IllegalAction, match="dealer is stuck"):
        game.apply(dealer, "pass")
    game.apply(dealer, "bid 100")
    assert game.phase == "trump" and game.to_act == (dealer,)
    game.apply(dealer, "trump S")
    assert game.phase == "play" and game.to_act == (first,)  # dealer's left leads
    assert game.public_view()["melds"] is not None
    assert "declare-out" not in {str(a) for a in game.legal_actions(first)}


def test_auction_passed_players_are_out_and_the_last_bidder_wins() -> None:
    game = four("pinochle-4-auction")
    d = game.dealer
    s = [(d + 1 + k) % 4 for k in range(4)]
    play(game, (s[0], "bid 100"), (s[1], "pass"), (s[2], "bid 120"), (s[3], "pass"), (s[0], "bid 150"))
    assert game.to_act == (s[2],)  # passed players are skipped
    play(game, (s[2], "pass"))
    assert game.phase == "trump" and game.public_view()["bidder"] == s[0]


def _auction_score(game: PartnershipBase, *, bidder: int, bid: int, **kwargs: Any) -> dict[str, Any]:
    game.bidder = bidder
    game.high_bid = bid
    return _score(game, **kwargs)


def test_auction_made_scores_everything_set_loses_the_bid_other_side_always_scores() -> None:
    game = four("pinochle-4-auction", match="deal")
    made = _auction_score(
        game, bidder=0, bid=250, meld=[100, 60], taken=[160, 90], tricks=[8, 4], scores=[0, 0]
    )
    assert made["made"] is True and made["changes"] == [260, 150]
    game = four("pinochle-4-auction", match="deal")
    set_ = _auction_score(
        game, bidder=1, bid=300, meld=[100, 60], taken=[160, 90], tricks=[8, 4], scores=[0, 0]
    )
    assert set_["made"] is False and set_["changes"] == [260, -300]


def test_auction_the_bidding_side_is_counted_first_at_1000() -> None:
    game = four("pinochle-4-auction")
    _auction_score(game, bidder=1, bid=200, meld=[0, 100], taken=[130, 120], tricks=[6, 6], scores=[900, 800])
    assert game.outcome is not None and game.outcome.winning_sides == (1,)  # both at 1000+: bidders win
    game = four("pinochle-4-auction")
    _auction_score(game, bidder=1, bid=400, meld=[0, 100], taken=[130, 120], tricks=[6, 6], scores=[900, 800])
    assert game.outcome is not None and game.outcome.winning_sides == (0,)


def test_pass_four_partner_gives_then_the_bidder_gives_back() -> None:
    game = four("pinochle-4-auction", seed=3, **{"pass": 4})
    d = game.dealer
    bidder = (d + 1) % 4
    partner = (bidder + 2) % 4
    play(game, (bidder, "bid 100"), ((d + 2) % 4, "pass"), ((d + 3) % 4, "pass"), (d, "pass"))
    game.apply(bidder, "trump C")
    assert game.phase == "pass" and game.to_act == (partner,)
    given = []
    for _ in range(4):
        action = game.legal_actions(partner)[0]
        given.append(action.cards[0].code)
        game.apply(partner, action)
        check_cards(game)
    assert game.to_act == (bidder,) and len(game.hands[bidder]) == 16
    assert game.view(partner)["gave"] == given and game.view(bidder)["received"] == given
    for _ in range(4):
        game.apply(bidder, game.legal_actions(bidder)[-1])
    assert game.phase == "play" and [len(h) for h in game.hands] == [12, 12, 12, 12]
    check_cards(game)


def test_pass_four_needs_the_auction_rules() -> None:
    with pytest.raises(BadOption, match="rules=auction"):
        new_game("pinochle-8", options={"pass": 4})
    new_game("pinochle-8", options={"pass": 4, "rules": "auction"})


# ----- six and eight players ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("variant", "players", "size", "sides"),
    [
        ("pinochle-6", 6, 16, [[0, 2, 4], [1, 3, 5]]),
        ("pinochle-8", 8, 12, [[0, 4], [1, 5], [2, 6], [3, 7]]),
    ],
)
def test_96_cards_seating_and_hand_sizes(
    variant: str, players: int, size: int, sides: list[list[int]]
) -> None:
    for rules in ("partnership", "auction"):
        game = four(variant, rules=rules)
        view = game.public_view()
        assert view["sides"] == sides and view["players"] == players
        expected = [size] * players
        if rules == "partnership":
            expected[game.dealer] -= 1  # the turned card is the dealer's 12th/16th
        assert view["hand_sizes"] == expected
        check_cards(game)


def test_96_card_deal_counters_total_490() -> None:
    game = four("pinochle-8", match="deal")
    rng = random.Random(2)
    while not game.is_over:
        seat = game.to_act[0]
        events = game.apply(seat, rng.choice(game.legal_actions(seat)))
        check_cards(game)
    assert sum(next(e for e in events if e["type"] == "deal_scored")["counters"]) == 490


@pytest.mark.parametrize("variant", ["pinochle-4", "pinochle-4-auction", "pinochle-6"])
def test_simplified_counts_score_the_counters_as_taken(variant: str) -> None:
    """§2: tens-fives counts A,10 = 10 and K,Q = 5, so every total is a multiple of 5; the §4
    rounding (7 up, else dropped) is for the standard count's odd values and would drop every 5
    (two sides of 125 would score 120 each). Under tens-fives a side scores 125 for 125."""
    seen_five = False
    for seed in range(1, 30):
        game = four(variant, seed, count="tens-fives", match="deal")
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.to_act[0]
            events = game.apply(seat, rng.choice(game.legal_actions(seat)))
        scored = next(e for e in events if e["type"] == "deal_scored")
        assert scored["counted"] == scored["counters"]
        seen_five = seen_five or any(points % 10 == 5 for points in scored["counters"])
        if seen_five:
            break
    assert seen_five


def test_the_standard_count_is_still_rounded_to_tens() -> None:
    game = four(match="deal")
    rng = random.Random(3)
    while not game.is_over:
        seat = game.to_act[0]
        events = game.apply(seat, rng.choice(game.legal_actions(seat)))
    scored = next(e for e in events if e["type"] == "deal_scored")
    assert scored["counted"] == [
        points - points % 10 + (10 if points % 10 >= 7 else 0) for points in scored["counters"]
    ]
    assert all(points % 10 == 0 for points in scored["counted"])


def test_declaring_out_under_tens_fives_counts_a_five() -> None:
    game = four(count="tens-fives")
    game = rig_hands(game, {0: S0, 1: S1, 2: S2, 3: S3}, dealer=3)
    game.apply(1, "pass")
    game.scores = [905, 500]
    game.side_meld = [0, 0]
    game.taken = [95, 0]
    game.tricks_won = [1, 0]
    game.invalidate()
    game.apply(2, "declare-out")  # 905 + 95 = 1000 (rounding would make it 905 + 90 = 995)
    assert game.outcome is not None and game.outcome.winning_sides == (0,)
