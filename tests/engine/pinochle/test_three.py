"""Three-hand auction pinochle (§5): bidding, the forced 250, the widow, burying, settlement in chips
with the kitty and every chip-table option, conceding."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.engine import IllegalAction, Suit, parse_cards
from bot.engine.pinochle.three import CHIP_TABLES, ThreeHand, chip_value
from tests.engine.pinochle.helpers import check_cards, new, play, rig_hands

# Dealer 2: seat 0 bids first. Seat 0 holds a heart flush and pinochle.
H0 = "AH 10H KH QH JH 9H QS JD AS AS 10C 9C 9D 9S KD"
H1 = "AC AC 10S 10S KS KS QS JS JS 9S KC QC JC 9C 10D"
H2 = "AD AD 10D KD QD QD JD 9D AH 10H KH QH JH 9H 10C"
WIDOW = "KC QC JC"


def three(seed: int = 1, **options: Any) -> ThreeHand:
    game = new("pinochle-3", seed, **options)
    assert isinstance(game, ThreeHand)
    return game


def rigged(**options: Any) -> ThreeHand:
    game = three(**options)
    game = rig_hands(game, {0: H0, 1: H1, 2: H2}, dealer=2, extra=WIDOW)
    return game


def test_bidding_starts_left_of_the_dealer_at_300_in_tens_and_a_pass_is_final() -> None:
    game = rigged()
    assert game.to_act == (0,)
    legal = [str(a) for a in game.legal_actions(0)]
    assert legal[:3] == ["pass", "bid 300", "bid 310"]
    with pytest.raises(IllegalAction, match="at least 300"):
        game.apply(0, "bid 250")
    with pytest.raises(IllegalAction, match="steps of 10"):
        game.apply(0, "bid 305")
    play(game, (0, "bid 300"), (1, "pass"), (2, "bid 320"))
    assert game.to_act == (0,)  # seat 1 passed and is out
    with pytest.raises(IllegalAction, match="at least 330"):
        game.apply(0, "bid 320")
    play(game, (0, "bid 350"), (2, "pass"))
    assert game.phase == "trump" and game.to_act == (0,) and game.public_view()["bidder"] == 0


def test_the_widow_is_turned_up_and_taken_by_the_bidder() -> None:
    game = rigged()
    events = play(game, (0, "bid 300"), (1, "pass"), (2, "pass"))
    assert {"type": "widow", "seat": 0, "cards": ["KC", "QC", "JC"]} in events
    view = game.view(1)
    assert view["widow"] == ["KC", "QC", "JC"]
    assert view["hand_sizes"] == [18, 15, 15]
    assert [str(a) for a in game.legal_actions(0)] == ["trump S", "trump H", "trump D", "trump C", "concede"]
    check_cards(game)


def test_meld_is_shown_then_three_non_meld_cards_are_buried_and_the_bidder_leads() -> None:
    game = rigged()
    play(game, (0, "bid 300"), (1, "pass"), (2, "pass"))
    events = game.apply(0, "trump H")
    shown = next(e for e in events if e["type"] == "meld_shown")
    # flush 150 + dix 10 + pinochle 40 + clubs marriage (K♣ Q♣ from the widow) 20 = 220
    assert shown["total"] == 220
    assert game.public_view()["meld"]["total"] == 220
    buryable = {str(a) for a in game.legal_actions(0)}
    assert "bury AH" not in buryable and "bury QS" not in buryable and "bury KC" not in buryable
    assert {"bury AS", "bury 10C", "bury 9S", "concede"} <= buryable
    with pytest.raises(IllegalAction, match="part of your meld"):
        game.apply(0, "bury QS")
    play(game, (0, "bury AS"), (0, "bury AS"), (0, "bury 10C"))
    assert game.phase == "play" and game.to_act == (0,)
    assert game.view(0)["buried"] == ["AS", "AS", "10C"]
    assert game.view(1)["buried"] == [] and game.public_view()["buried_count"] == 3
    check_cards(game)


def _settle(
    game: ThreeHand,
    *,
    bid: int,
    trump: str | None,
    meld: int,
    tricks: int,
    buried: str = "",
    conceded: str | None = None,
    bidder: int = 0,
) -> dict[str, Any]:
    game.bidder = bidder
    game.high_bid = bid
    game.trump = Suit.parse(trump) if trump else None
    game.buried = parse_cards(buried)
    game.taken = [0, 0, 0]
    game.taken[bidder] = tricks
    game.conceded = conceded
    game.meld = None
    game.bidder_points = lambda: (meld, tricks + sum(game.points[c] for c in game.buried))  # type: ignore[method-assign]
    events = game.settle()
    del game.bidder_points  # type: ignore[attr-defined]
    return events[0]


def test_made_bid_is_paid_by_each_opponent_and_the_kitty() -> None:
    game = three()
    scored = _settle(game, bid=350, trump="D", meld=200, tricks=140, buried="10S")  # 200 + 150
    assert scored["made"] is True and scored["chips"] == 5
    assert scored["changes"] == [15, -5, -5] and scored["kitty_change"] == -5
    assert sum(game.scores) + game.kitty == 0


def test_a_set_bidder_pays_each_double_including_the_kitty() -> None:
    game = three()
    scored = _settle(game, bid=400, trump="D", meld=200, tricks=150, buried="9S")  # 350 < 400
    assert scored["made"] is False and scored["changes"] == [-60, 20, 20] and scored["kitty_change"] == 20


def test_conceding_after_the_widow_pays_single() -> None:
    game = three()
    scored = _settle(game, bid=400, trump=None, meld=0, tricks=0, conceded="widow")
    assert scored["changes"] == [-30, 10, 10] and scored["kitty_change"] == 10


def test_forced_dealer_may_concede_without_the_widow_for_one_chip_to_the_kitty() -> None:
    game = rigged()
    events = play(game, (0, "pass"), (1, "pass"), (2, "pass"))
    assert {"type": "forced_bid", "seat": 2, "bid": 250} in events
    assert game.phase == "forced" and game.to_act == (2,)
    assert [str(a) for a in game.legal_actions(2)] == ["bid 250", "concede"]
    assert game.public_view()["widow"] is None
    events = game.apply(2, "concede")
    scored = next(e for e in events if e["type"] == "deal_scored")
    assert scored["changes"] == [0, 0, -1] and scored["kitty_change"] == 1
    assert game.kitty == 1 and game.deal_no == 2


def test_forced_dealer_may_play_the_250() -> None:
    game = rigged()
    play(game, (0, "pass"), (1, "pass"), (2, "pass"), (2, "bid 250"))
    assert game.phase == "trump" and game.public_view()["widow"] == ["KC", "QC", "JC"]
    assert game.public_view()["high_bid"] == 250
    scored = _settle(game, bid=250, trump="S", meld=100, tricks=160, bidder=2)
    assert scored["chips"] == 3  # the forced 250 pays as the first band


@pytest.mark.parametrize(
    ("chips", "bid", "value"),
    [
        ("3-5-10-15-20-25-30", 300, 3),
        ("3-5-10-15-20-25-30", 349, 3),
        ("3-5-10-15-20-25-30", 350, 5),
        ("3-5-10-15-20-25-30", 450, 15),
        ("3-5-10-15-20-25-30", 600, 30),
        ("3-5-10-15-20-25-30", 790, 30),
        ("3-5-10-20-40-80-160", 500, 40),
        ("3-5-10-20-40-80-160", 650, 160),
        ("1-2-4-6-8-10-12", 300, 1),
        ("1-2-4-6-8-10-12", 550, 10),
    ],
)
def test_chip_tables(chips: str, bid: int, value: int) -> None:
    assert chip_value(bid, CHIP_TABLES[chips]) == value
    game = three(chips=chips)
    scored = _settle(game, bid=bid, trump="D", meld=bid, tricks=0)
    assert scored["changes"][0] == 3 * value


@pytest.mark.parametrize(("trump", "factor"), [("S", 2), ("H", 3), ("D", 1), ("C", 1)])
def test_spades_pay_double_and_hearts_triple(trump: str, factor: int) -> None:
    game = three(**{"suit-bonus": True})
    scored = _settle(game, bid=400, trump=trump, meld=400, tricks=0)
    assert scored["chips"] == 10 * factor


def test_set_single_option_a_set_costs_single_and_a_concession_half() -> None:
    game = three(**{"set-single": True})
    assert _settle(game, bid=400, trump="D", meld=0, tricks=100)["changes"] == [-30, 10, 10]
    game = three(**{"set-single": True})
    assert _settle(game, bid=350, trump="D", meld=0, tricks=0, conceded="widow")["changes"] == [-9, 3, 3]


def test_the_bidder_may_concede_after_burying_until_the_first_lead() -> None:
    """§5: "After seeing the widow the bidder may concede and pay single" — the rules text says
    until the first lead, so burying does not close the window (issue 13's repro: seed 7)."""
    game = three(seed=7)
    bidder = game.to_act[0]
    play(game, (bidder, "bid 300"))
    while game.phase == "bidding":
        play(game, (game.to_act[0], "pass"))
    play(game, (bidder, "trump S"))
    for _ in range(3):
        bury = next(a for a in game.legal_actions(bidder) if a.kind.value == "bury")
        game.apply(bidder, bury)
    assert game.phase == "play" and game.to_act == (bidder,)
    assert "concede" in [str(a) for a in game.legal_actions(bidder)]
    events = game.apply(bidder, "concede")
    scored = next(e for e in events if e["type"] == "deal_scored")
    assert scored["conceded"] == "widow" and scored["changes"][bidder] == -9  # single: 3 chips x 3


def test_too_late_to_concede_once_the_first_card_is_led() -> None:
    game = rigged()
    play(game, (0, "bid 300"), (1, "pass"), (2, "pass"), (0, "trump H"))
    play(game, (0, "bury AS"), (0, "bury AS"), (0, "bury 10C"), (0, "play AH"))
    assert "concede" not in [str(a) for a in game.legal_actions(1)]
    play(game, (1, next(str(a) for a in game.legal_actions(1))))
    with pytest.raises(IllegalAction, match="Only the bidder may concede"):
        game.apply(2, "concede")
    play(game, (2, next(str(a) for a in game.legal_actions(2))))
    while game.to_act != (0,):
        play(game, (game.to_act[0], next(str(a) for a in game.legal_actions(game.to_act[0]))))
    with pytest.raises(IllegalAction, match="too late to concede"):
        game.apply(0, "concede")


def test_three_players_must_beat_the_best_trump_on_a_trump_lead() -> None:
    game = rigged()
    play(game, (0, "bid 300"), (1, "pass"), (2, "pass"), (0, "trump C"))
    play(game, (0, "bury AS"), (0, "bury AS"), (0, "bury 9D"))
    # Clubs trump. Seat 0 leads J♣; seat 1 holds A♣ A♣ K♣ Q♣ J♣ 9♣: must beat the J♣.
    game.apply(0, "play JC")
    legal1 = {str(a) for a in game.legal_actions(1)}
    assert legal1 == {"play AC", "play KC", "play QC"}
    game.apply(1, "play QC")
    # Seat 2 holds 10♣ only: it beats Q♣, so must play it.
    assert {str(a) for a in game.legal_actions(2)} == {"play 10C"}


def test_session_of_deals_then_most_chips_wins_and_counters_total_250() -> None:
    for seed in range(4):
        game = three(seed, deals=3)
        rng = random.Random(seed)
        while not game.is_over:
            check_cards(game)
            seat = game.to_act[0]
            for event in game.apply(seat, rng.choice(game.legal_actions(seat))):
                if event["type"] == "deal_scored" and event["conceded"] is None:
                    assert sum(event["trick_counters"]) + event["buried_counters"] == 250
        assert game.deal_no == 3
        assert game.outcome is not None
        assert sum(game.scores) + game.kitty == 0
        best = max(game.scores)
        assert all(game.scores[s] == best for s in game.outcome.winners)
