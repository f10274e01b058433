"""Double-deck partnership pinochle (double-deck-pinochle.md): bidding, trump, the pass, meld, the
crawl rules, scoring, giving up, and every variation of §8 as an option."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from bot import render
from bot.engine import BadOption, Card, IllegalAction, Phase, Suit, find_variant, new_game, parse_cards
from bot.engine.meld import meld_total
from bot.engine.pinochle.double_deck import DoubleDeck, bid_ladder, double_deck_table
from tests.engine.helpers import strings_in
from tests.engine.pinochle.double_deck.helpers import act, bid_out, check_cards, dd, rig

# Dealer 3: seat 0 bids first. Sides: seats 0 & 2, seats 1 & 3.
# Seat 0 (hearts trump): run 15 + royal marriage 4, spade marriage 2, pinochle 4, aces around 10 = 35.
S0 = "AH 10H KH KH QH QH JH AS AS AD AC KS QS JD JD 10S 10S 10D 10C JC"
NO_QUEENS = "AS AS AS AS 10S 10S 10S 10S KS KS KS KS AH AH AH AH 10H 10H 10H 10H"
# With NO_QUEENS: double pinochle 30, double marriage 4 (no trump named).
OPPONENTS = "AD AD AC AC KD QD KD QD JD QS JD QS 10C 10C 10C 10C JC JC JC JC"
# With S0 (hearts): 6 and 4 meld.
WEAK1 = "10S JS JS AH 10H KH JH AD AD AD 10D KD JD JD AC 10C KC QC QC JC"
WEAK3 = "AS AS KS QS AH 10H QH JH JH 10D KD QD QD QD 10C 10C KC KC JC JC"
# A bidding side (seats 0, 2) under 20 meld with a heart marriage; seat 1 has 29.
BID0 = "AS AS QS JS AH AH AH 10H KH QH KD KD QD AC 10C KC QC QC QC JC"
BID2 = "10S 10S QS JS 10H 10H QH JH AD AD 10D QD QD AC 10C KC KC KC JC JC"
OPP1 = "AS 10S KS KS KS QS JS AH 10H KH KH QH JH AD 10D 10D KD QD JD QC"


def legal(game: DoubleDeck, seat: int) -> list[str]:
    return [str(a) for a in game.legal_actions(seat)]


# ----- options and presets ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"pass-order": "partner-first"}, "needs a card pass"),
        ({"pass-when": "before-trump"}, "needs a card pass"),
        ({"ask": "optional"}, "needs a card pass"),
        ({"trump-marriage": "after-pass"}, "needs a card pass"),
        ({"pass": 3, "ask": "must-give"}, "pass-when=before-trump"),
        ({"pinochle-14": True, "meld": "npa"}, "pinochle-14 and meld=npa"),
        ({"pass": 5}, "valid values are 0/1/2/3/4"),
        ({"rounds": 3}, "valid values"),
        ({"giveup": "half"}, "valid values"),
        ({"kitty": True}, "has no option 'kitty'"),
    ],
)
def test_impossible_option_combinations_are_refused_clearly(options: dict[str, Any], message: str) -> None:
    with pytest.raises(BadOption, match=message):
        new_game("double-deck", options=options, seed=1)


def test_presets_bundle_their_options_and_accept_more() -> None:
    assert find_variant("double-deck").family == "double-deck"
    npa = dd("double-deck-npa")
    assert npa.options["meld"] == "npa"
    toby = dd("double-deck-toby-thomas")
    assert {k: toby.options[k] for k in ("meld", "bidding", "pass", "pass-order", "pass-when", "ask")} == {
        "meld": "toby-thomas",
        "bidding": "toby-thomas",
        "pass": 3,
        "pass-order": "partner-first",
        "pass-when": "before-trump",
        "ask": "must-give",
    }
    assert dd("double-deck-pass").options["pass"] == 3
    assert dd("double-deck-pass").options["pass-order"] == "simultaneous"
    combined = dd("double-deck-pass", min_20=True, giveup="meld+25", **{"100-aces": True})
    assert combined.options["min-20"] and combined.scale == 10
    for name in ("double-deck", "double-deck-npa", "double-deck-toby-thomas", "double-deck-pass"):
        text = find_variant(name).rules_text
        assert "[gap" not in text and "A-10-K-K-K-Q-Q-Q-J = 15 + triple royal 60 = 75" in text


# ----- bidding (§4 and §8) --------------------------------------------------------------------------
def test_bid_ladders() -> None:
    assert bid_ladder("standard", False, 1)[:14] == (50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 65, 70, 75)
    assert bid_ladder("standard", False, 1)[-1] == 500
    assert bid_ladder("any", False, 1)[:13] == tuple(range(50, 63))
    assert 99 in bid_ladder("any", False, 1) and 101 in bid_ladder("any", False, 1)
    tens = bid_ladder("standard", True, 1)
    assert tens[tens.index(95) :][:5] == (95, 100, 110, 120, 130)
    tens_any = bid_ladder("any", True, 1)
    assert tens_any[tens_any.index(99) :][:4] == (99, 100, 110, 120)
    assert bid_ladder("toby-thomas", False, 1)[:3] == (25, 26, 27)
    toby = bid_ladder("toby-thomas", False, 1)
    assert toby[toby.index(49) :][:4] == (49, 50, 55, 60)
    hundred = bid_ladder("standard", False, 10)
    assert hundred[:3] == (500, 510, 520) and hundred[10:13] == (600, 650, 700)


def test_bidding_goes_up_by_one_to_60_then_by_five_and_a_pass_is_final() -> None:
    game = dd()
    game = rig(game, {0: S0})
    assert game.to_act == (0,) and legal(game, 0)[:3] == ["pass", "bid 50", "bid 51"]
    act(game, (0, "bid 58"))
    assert legal(game, 1)[:4] == ["pass", "bid 59", "bid 60", "bid 65"]
    act(game, (1, "pass"), (2, "bid 60"))
    assert legal(game, 3)[:3] == ["pass", "bid 65", "bid 70"]
    act(game, (3, "bid 65"), (0, "pass"))
    assert game.to_act == (2,)  # seat 1 passed: skipped from now on
    act(game, (2, "pass"))
    assert game.phase == "trump" and game.bidder == 3 and game.high_bid == 65


def test_the_dealer_is_stuck_at_50_when_the_first_three_pass() -> None:
    game = dd()
    game = rig(game, {0: S0})
    act(game, (0, "pass"), (1, "pass"), (2, "pass"))
    assert legal(game, 3) == ["bid 50"]
    with pytest.raises(IllegalAction, match="dealer is stuck and must bid 50"):
        game.apply(3, "pass")
    with pytest.raises(IllegalAction, match="stuck at 50"):
        game.apply(3, "bid 55")
    events = act(game, (3, "bid 50"))
    assert {"type": "bidder", "seat": 3, "bid": 50} in events


@pytest.mark.parametrize(
    ("options", "script", "first_bids"),
    [
        ({"bidding": "any"}, [(0, "bid 61"), (1, "bid 62")], ["pass", "bid 63", "bid 64"]),
        ({"bidding": "toby-thomas"}, [(0, "bid 25"), (1, "bid 49")], ["pass", "bid 50", "bid 55"]),
        ({"tens-over-100": True}, [(0, "bid 95"), (1, "bid 100")], ["pass", "bid 110", "bid 120"]),
        ({"100-aces": True}, [(0, "bid 590"), (1, "bid 600")], ["pass", "bid 650", "bid 700"]),
    ],
)
def test_bidding_variations(
    options: dict[str, Any], script: list[tuple[int, str]], first_bids: list[str]
) -> None:
    game = dd(**options)
    game = rig(game, {0: S0})
    act(game, *script)
    assert legal(game, 2)[:3] == first_bids


def test_toby_thomas_bidding_opens_at_25_and_the_stuck_dealer_bids_25() -> None:
    game = dd(bidding="toby-thomas")
    game = rig(game, {0: S0})
    assert legal(game, 0)[:2] == ["pass", "bid 25"]
    act(game, (0, "pass"), (1, "pass"), (2, "pass"))
    assert legal(game, 3) == ["bid 25"]


def test_one_round_of_bidding_each_speaks_once() -> None:
    game = dd(rounds=1)
    game = rig(game, {0: S0})
    act(game, (0, "bid 50"), (1, "bid 51"), (2, "pass"))
    events = act(game, (3, "bid 52"))
    assert {"type": "bidder", "seat": 3, "bid": 52} in events
    assert game.phase == "trump"


def test_two_rounds_of_bidding_and_a_first_round_pass_is_final() -> None:
    game = dd(rounds=2)
    game = rig(game, {0: S0})
    act(game, (0, "bid 50"), (1, "bid 51"), (2, "pass"), (3, "bid 52"), (0, "bid 53"), (1, "bid 54"))
    assert game.to_act == (3,)  # seat 2 passed in the first round: not asked again
    events = act(game, (3, "bid 55"))
    assert {"type": "bidder", "seat": 3, "bid": 55} in events  # seat 0 and 1 have had two turns


def test_unlimited_bidding_continues_until_three_pass() -> None:
    game = dd()
    game = rig(game, {0: S0})
    ladder = iter(bid_ladder("standard", False, 1))
    for _ in range(3):
        for seat in range(4):
            act(game, (seat, f"bid {next(ladder)}"))
    assert game.phase == "bidding" and game.to_act == (0,)


def test_illegal_bids_are_explained() -> None:
    game = dd()
    game = rig(game, {0: S0})
    act(game, (0, "bid 60"))
    with pytest.raises(IllegalAction, match="must beat 60: the next bid is 65"):
        game.apply(1, "bid 60")
    with pytest.raises(
        IllegalAction, match="62 is not a bid here: bids go up by 1 to 60, then in multiples of 5"
    ):
        game.apply(1, "bid 62")
    with pytest.raises(IllegalAction, match="Bids go up to 500"):
        game.apply(1, "bid 505")
    with pytest.raises(IllegalAction, match="not your turn: waiting for seat 2"):
        game.apply(2, "bid 65")
    with pytest.raises(IllegalAction, match="Bidding is under way"):
        game.apply(1, "trump H")


# ----- trump and the marriage rule (§5, §8) ---------------------------------------------------------
def test_trump_must_be_a_suit_with_a_marriage() -> None:
    game = dd()
    game = rig(game, {0: S0})
    bid_out(game, 0, 55)
    assert legal(game, 0) == ["trump S", "trump H"]
    with pytest.raises(
        IllegalAction, match="suit in which you hold a marriage \\(K and Q\\): you may name S, H"
    ):
        game.apply(0, "trump D")
    events = act(game, (0, "trump H"))
    assert events[0] == {"type": "trump", "seat": 0, "suit": "H"}
    assert game.phase == "play" and game.to_act == (0,)  # the bidder leads
    melds = game.public_view()["melds"]
    assert melds[0]["total"] == 35 == meld_total(game.hands[0], Suit.HEARTS, double_deck_table())
    assert game.public_view()["side_meld"] == [
        melds[0]["total"] + melds[2]["total"],
        melds[1]["total"] + melds[3]["total"],
    ]


def test_without_a_marriage_the_hand_is_lost_and_nobody_scores_meld() -> None:
    game = dd()
    game = rig(game, {0: NO_QUEENS})
    events = bid_out(game, 0, 57)
    lost = next(e for e in events if e["type"] == "gave_up")
    assert lost == {"type": "gave_up", "seat": 0, "reason": "no-marriage"}
    scored = next(e for e in events if e["type"] == "deal_scored")
    assert scored["changes"] == [-57, 0] and scored["played"] is False and scored["trump"] is None
    assert game.deal_no == 2 and game.phase == "bidding"


def test_trump_marriage_none_allows_any_suit() -> None:
    game = dd(trump_marriage="none")
    game = rig(game, {0: NO_QUEENS})
    bid_out(game, 0, 50)
    assert legal(game, 0) == ["trump S", "trump H", "trump D", "trump C"]
    act(game, (0, "trump D"))
    assert game.phase == "play"


def test_trump_marriage_after_the_pass() -> None:
    # Any suit may be named; the marriage must be there once the cards are passed.
    partner = "KD QD KD QD " + "JC " * 4 + "JS " * 4 + "JH " * 4 + "QC QC QC QC"
    for gives, lost in (("JC JC JC", True), ("KD QD JC", False)):
        game = dd(**{"pass": 3, "trump-marriage": "after-pass"})
        game = rig(game, {0: NO_QUEENS, 2: partner})
        bid_out(game, 0, 50)
        assert len(legal(game, 0)) == 4
        act(game, (0, "trump D"))
        for card in gives.split():
            act(game, (2, f"give {card}"))
        events = act(game, (0, "give 10H"), (0, "give 10H"), (0, "give AH"))
        gave_up = [e for e in events if e["type"] == "gave_up"]
        assert bool(gave_up) == lost
        if lost:
            assert gave_up[0]["reason"] == "no-marriage"
            assert game.history[-1]["changes"][0] == -50
        else:
            assert game.phase == "play"


def test_no_marriage_after_the_pass_with_giveup_play_is_played_out() -> None:
    partner = "KD QD KD QD " + "JC " * 4 + "JS " * 4 + "JH " * 4 + "QC QC QC QC"
    game = dd(**{"pass": 3, "trump-marriage": "after-pass", "giveup": "play"})
    game = rig(game, {0: NO_QUEENS, 2: partner})
    bid_out(game, 0, 50)
    act(game, (0, "trump D"), (2, "give JC"), (2, "give JC"), (2, "give JC"))
    events = act(game, (0, "give 10H"), (0, "give 10H"), (0, "give AH"))
    assert {"type": "gave_up", "seat": 0, "reason": "no-marriage"} in events
    assert game.phase == "play" and game.public_view()["melds"] is not None
    scored = next(e for e in play_out(game) if e["type"] == "deal_scored")
    assert scored["played"] and scored["made"] is False
    assert scored["changes"] == [-50, scored["meld"][1] + scored["counters"][1]]


# ----- the pass (§8) ------------------------------------------------------------------------------
def test_simultaneous_pass_nobody_sees_what_it_receives_before_choosing() -> None:
    game = dd(**{"pass": 3})
    game = rig(game, {0: S0})
    bid_out(game, 0, 60)
    events = act(game, (0, "trump H"))
    assert events[-1] == {"type": "pass_start", "seats": [0, 2], "count": 3, "order": "simultaneous"}
    assert game.to_act == (0, 2) and game.phase == "pass"
    assert legal(game, 1) == [] and legal(game, 3) == []
    partner_hand = game.hands[2][:]
    give2 = [c.code for c in partner_hand[:3]]
    events = act(game, (0, "give JC"), (2, f"give {give2[0]}"), (0, "give 10C"), (0, "give 10D"))
    assert all("card" not in e and "cards" not in e for e in events)  # events name no passed card
    assert game.to_act == (2,)
    with pytest.raises(IllegalAction, match="You have passed your cards: waiting for your partner"):
        game.apply(0, "give AS")
    # Nothing has changed hands yet: the bidder does not hold the partner's card, nor vice versa.
    assert game.view(0)["received"] == [] and game.view(0)["giving"] == ["JC", "10C", "10D"]
    assert game.view(2)["giving"] == [give2[0]]
    for seat in (1, 2, 3):
        assert not {"JC", "10C", "10D"} & set(strings_in(game.view(seat))) - set(game.view(seat)["hand"])
    assert game.view(1)["passing"]["chosen"] == [3, 0, 1, 0]
    act(game, (2, f"give {give2[1]}"), (2, f"give {give2[2]}"))
    assert game.phase == "play"
    assert sorted(game.view(0)["received"]) == sorted(give2)
    assert game.view(2)["received"] == ["JC", "10C", "10D"]
    assert game.view(0)["gave"] == ["JC", "10C", "10D"]
    assert all(len(hand) == 20 for hand in game.hands)
    assert game.view(1)["received"] == [] and game.view(1)["gave"] == []
    # Meld is counted from the hands after the pass.
    assert game.seat_meld[0] == meld_total(game.hands[0], Suit.HEARTS, game.table)
    check_cards(game)


@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_partner_first_pass_of_one_to_four_cards(count: int) -> None:
    game = dd(**{"pass": count, "pass-order": "partner-first"})
    game = rig(game, {0: S0})
    bid_out(game, 0, 60)
    events = act(game, (0, "trump H"))
    assert events[-1]["seats"] == [2, 0] and game.to_act == (2,)
    assert legal(game, 0) == []
    partner_cards = sorted({c.code for c in game.hands[2]})[:count]
    for code in partner_cards[:-1]:
        act(game, (2, f"give {code}"))
        assert game.to_act == (2,)
    events = act(game, (2, f"give {partner_cards[-1]}"))
    assert {"type": "passed", "from": 2, "to": 0, "count": count} in events
    assert game.to_act == (0,) and sorted(game.view(0)["received"]) == sorted(partner_cards)
    assert len(game.hands[0]) == 20 + count
    # The bidder may pass back cards just received.
    act(game, (0, f"give {partner_cards[0]}"))
    for _ in range(count - 1):
        act(game, (0, "give JC") if "JC" in game.view(0)["hand"] else (0, f"give {game.view(0)['hand'][-1]}"))
    assert game.phase == "play" and all(len(hand) == 20 for hand in game.hands)
    assert partner_cards[0] in game.view(2)["received"]
    check_cards(game)


def test_before_trump_pass_then_trump_with_the_marriage_received() -> None:
    partner = "KD QD KD QD " + "JC " * 4 + "JS " * 4 + "JH " * 4 + "QC QC QC QC"
    game = dd(**{"pass": 2, "pass-when": "before-trump"})
    game = rig(game, {0: NO_QUEENS, 2: partner})
    events = bid_out(game, 0, 50)
    assert game.phase == "pass" and game.trump is None and events[-1]["type"] == "pass_start"
    act(game, (2, "give QD"), (2, "give KD"), (0, "give AS"), (0, "give AS"))
    assert game.phase == "trump" and legal(game, 0) == ["trump D"]
    act(game, (0, "trump D"))
    assert game.phase == "play"


def test_before_trump_pass_without_a_marriage_afterwards_loses_the_hand() -> None:
    game = dd(**{"pass": 1, "pass-when": "before-trump"})
    game = rig(game, {0: NO_QUEENS, 2: "JC " * 4 + "JS " * 4 + "JH " * 4 + "JD " * 4 + "10C " * 4})
    bid_out(game, 0, 50)
    events = act(game, (2, "give JC"), (0, "give AS"))
    assert any(e["type"] == "gave_up" and e["reason"] == "no-marriage" for e in events)


def test_suit_request_with_the_must_give_rule() -> None:
    partner = "AD 10D " + "JS " * 4 + "QC " * 4 + "KC " * 4 + "10C " * 3 + "JH " * 3
    game = dd(**{"pass": 3, "pass-order": "partner-first", "pass-when": "before-trump", "ask": "must-give"})
    game = rig(game, {0: S0, 2: partner})
    bid_out(game, 0, 55)
    assert game.phase == "ask" and legal(game, 0) == ["ask S", "ask H", "ask D", "ask C"]
    with pytest.raises(IllegalAction, match="Name the suit you want from your partner, e.g. 'ask H'"):
        game.apply(0, "pass")
    act(game, (0, "ask D"))
    assert game.public_view()["ask"] == "D"
    assert legal(game, 2) == ["give AD", "give 10D"]  # only diamonds while holding one
    with pytest.raises(IllegalAction, match="asked for diamonds: you must pass a diamond while you hold one"):
        game.apply(2, "give JS")
    act(game, (2, "give 10D"), (2, "give AD"))
    assert "give JS" in legal(game, 2)  # no diamond left: any card makes up the three
    act(game, (2, "give JS"))
    assert sorted(game.view(0)["received"]) == ["10D", "AD", "JS"]
    act(game, (0, "give JC"), (0, "give JS"), (0, "give 10C"))
    assert game.phase == "trump"


def test_optional_suit_request_is_only_a_wish() -> None:
    game = dd(**{"pass": 2, "pass-when": "before-trump", "ask": "optional"})
    game = rig(game, {0: S0})
    bid_out(game, 0, 55)
    assert legal(game, 0) == ["ask S", "ask H", "ask D", "ask C", "pass"]
    act(game, (0, "pass"))
    assert game.public_view()["ask"] is None and game.phase == "pass"
    game2 = dd(**{"pass": 2, "pass-when": "before-trump", "ask": "optional"})
    game2 = rig(game2, {0: S0})
    bid_out(game2, 0, 55)
    act(game2, (0, "ask C"))
    assert len(legal(game2, 2)) == len(set(game2.hands[2]))  # the partner may give anything


def test_toby_thomas_preset_pass_flow() -> None:
    game = dd("double-deck-toby-thomas")
    game = rig(game, {0: S0})
    bid_out(game, 0, 40)
    assert game.phase == "ask"
    act(game, (0, "ask H"))
    for _ in range(3):
        act(game, (2, legal(game, 2)[0]))
    assert game.to_act == (0,) and len(game.hands[0]) == 23
    for _ in range(3):
        act(game, (0, "give JC") if "give JC" in legal(game, 0) else (0, legal(game, 0)[-1]))
    assert game.phase == "trump"
    act(game, (0, legal(game, 0)[0]))
    assert game.phase in ("play", "bidding")
    check_cards(game)


def test_pass_actions_are_one_card_each() -> None:
    game = dd(**{"pass": 2})
    game = rig(game, {0: S0})
    bid_out(game, 0, 60)
    act(game, (0, "trump H"))
    with pytest.raises(IllegalAction, match="one card at a time: 'give JC'"):
        game.apply(0, "give JC 10C")
    with pytest.raises(IllegalAction, match="You do not hold 9"):
        game.apply(0, "give 9C")
    with pytest.raises(IllegalAction, match="Pass 2 more card\\(s\\)"):
        game.apply(0, "play JC")
    # One action per distinct card: never combinations.
    assert len(legal(game, 0)) == len(set(game.hands[0]))


# ----- the crawl rules (§6) -----------------------------------------------------------------------
def crawl(trump: str, trick: str, hand: str) -> tuple[DoubleDeck, int]:
    """A game in play with hearts/… trump: seats 0.. played ``trick`` (one card each), the next
    seat holds ``hand``."""
    game = dd(match="deal")
    plays = parse_cards(trick)
    seat = len(plays)
    game.bidder, game.high_bid, game.trump = 0, 50, Suit.parse(trump)
    game.hands = [[c] for c in plays] + [[] for _ in range(4 - len(plays))]
    game.hands[seat] = parse_cards(hand)
    game.reset_trick_state(0)
    game.phase = Phase.PLAY
    game.start_strict_play()
    game.set_turn(0)
    game.gave_up = "test"  # no throw-in
    game.invalidate()
    for index in range(seat):
        game.apply(index, f"play {plays[index].code}")
    return game, seat


CRAWL = [
    # (clause, trump, trick so far, hand, legal plays)
    ("lead anything", "H", "", "AS 10D JH", "AS 10D JH"),
    ("head the trick", "H", "KS", "AS 10S QS JS AD", "AS 10S"),
    ("head the best card so far", "H", "QS KS", "AS 10S JS", "AS 10S"),
    ("follow when you cannot head", "H", "AS", "10S QS JS KD", "10S QS JS"),
    ("an identical card does not head", "H", "10S", "10S QS AD", "10S QS"),
    ("cannot head the best so far", "H", "QS AS", "10S KS JS AH", "10S KS JS"),
    ("head a trump lead", "H", "QH", "KH JH AS", "KH"),
    ("follow a trump lead unable to head", "H", "AH", "KH JH AS", "KH JH"),
    ("free follow once trumped", "H", "AS JH", "10S QS KH AD", "10S QS"),
    ("must trump when void", "H", "AS", "JH AD 10C", "JH"),
    ("over-trump", "H", "AS QH", "KH JH AD", "KH"),
    ("over-trump the best trump", "H", "AS QH KH", "AH 10H JH", "AH 10H"),
    ("trump when you cannot over-trump", "H", "AS AH", "KH JH AD", "KH JH"),
    ("an identical trump does not over-trump", "H", "AS KH", "KH JH AD", "KH JH"),
    ("anything when void in both", "H", "AS", "AD 10C QD", "AD 10C QD"),
    ("anything when void in both, trumped", "H", "AS JH", "AD 10C", "AD 10C"),
    ("trump suit is another suit", "C", "KD AC", "AD QD JD", "AD QD JD"),
]


@pytest.mark.parametrize(("clause", "trump", "trick", "hand", "plays"), CRAWL, ids=[c[0] for c in CRAWL])
def test_crawl_rules(clause: str, trump: str, trick: str, hand: str, plays: str) -> None:
    game, seat = crawl(trump, trick, hand)
    expected = sorted(f"play {code}" for code in plays.split())
    assert sorted(legal(game, seat)) == expected, clause
    assert sorted(c.code for c in game.crawl_playable(game.hands[seat])) == sorted(plays.split())
    for card in set(parse_cards(hand)) - set(parse_cards(plays)):
        with pytest.raises(IllegalAction) as refused:
            game.apply(seat, f"play {card.code}")
        assert len(str(refused.value)) > 20


@pytest.mark.parametrize(
    ("trick", "hand", "card", "message"),
    [
        ("KS", "AS QS AD", "QS", "You must head the trick: you hold a spade higher than K♠"),
        ("KS", "AS QS AD", "AD", "You must follow suit: you hold a spade"),
        ("AS", "JH AD", "AD", "You have no spade: you must play a trump \\(♥\\)"),
        ("AS QH", "KH JH AD", "JH", "The trick is trumped: you must over-trump Q♥, and you can"),
        ("AS", "JH AD", "9H", "You do not hold 9♥"),
    ],
)
def test_crawl_rule_messages(trick: str, hand: str, card: str, message: str) -> None:
    game, seat = crawl("H", trick, hand)
    with pytest.raises(IllegalAction, match=message):
        game.apply(seat, f"play {card}")


@pytest.mark.parametrize(
    ("cards", "winner"),
    [
        ("AS AS KS QS", 0),  # the first of two identical cards wins
        ("KS AS AS QS", 1),
        ("AS JH JH 10H", 3),
        ("AS JH JH QH", 3),
        ("AS KH KH AD", 1),  # identical trumps: the first
        ("QD QD QD QD", 0),
    ],
)
def test_trick_winner_first_of_identical_cards(cards: str, winner: int) -> None:
    plays = cards.split()
    game, _ = crawl("H", " ".join(plays[:3]), plays[3])
    events = game.apply(3, f"play {plays[3]}")
    trick = next(e for e in events if e["type"] == "trick")
    assert trick["winner"] == winner


# ----- playing a deal, counters and scoring (§2, §7) ----------------------------------------------
def play_out(game: DoubleDeck, seed: int = 1) -> list[dict[str, Any]]:
    import random

    rng = random.Random(seed)
    events: list[dict[str, Any]] = []
    deal = game.deal_no
    while not game.is_over and game.deal_no == deal:
        check_cards(game)
        seat = game.to_act[0]
        choices = [a for a in game.legal_actions(seat) if a.kind.value != "throw-in"]
        events += game.apply(seat, rng.choice(choices))
    return events


def test_a_played_deal_has_50_counters_and_the_last_trick_is_worth_2() -> None:
    game = dd(match="deal")
    game = rig(game, {0: S0})
    bid_out(game, 0, 50)
    act(game, (0, "trump H"))
    events = play_out(game)
    tricks = [e for e in events if e["type"] == "trick"]
    assert len(tricks) == 20
    scored = next(e for e in events if e["type"] == "deal_scored")
    assert sum(scored["counters"]) == 50
    assert sum(t["points"] for t in tricks) == 48
    assert scored["last_trick"] == game.side_of[tricks[-1]["winner"]]
    json.dumps(events)


def score(
    game: DoubleDeck, *, bid: int, meld: list[int], taken: list[int], bidder: int = 0
) -> dict[str, Any]:
    """Score a deal described directly (played to the end)."""
    game.bidder, game.high_bid, game.trump = bidder, bid, Suit.HEARTS
    game.side_meld = meld[:]
    floor = 20 * game.scale
    game.laid = [not game.min20 or m >= floor for m in meld]
    game.meld_hands = [tuple(h) for h in game.hands]
    game.taken = taken[:]
    return next(e for e in game.score_deal(None) if e["type"] == "deal_scored")


def test_making_the_bid_both_sides_add_what_they_made() -> None:
    game = dd()
    scored = score(game, bid=60, meld=[40, 25], taken=[20, 30])
    assert scored["made"] is True and scored["changes"] == [60, 55] and game.scores == [60, 55]


def test_set_the_bid_is_subtracted_and_the_other_side_keeps_its_points() -> None:
    game = dd()
    scored = score(game, bid=65, meld=[40, 25], taken=[20, 30])
    assert scored["made"] is False and scored["changes"] == [-65, 55]
    assert scored["meld_counted"] == [0, 25]


def test_500_wins_and_the_bidding_side_wins_a_tie_for_it() -> None:
    game = dd()
    game.scores = [450, 460]
    score(game, bid=50, meld=[30, 30], taken=[25, 25], bidder=1)
    assert game.outcome is not None and game.outcome.winning_sides == (1,)  # both past 500: bidders
    game = dd()
    game.scores = [450, 300]
    score(game, bid=50, meld=[30, 30], taken=[25, 25], bidder=1)
    assert game.outcome is not None and game.outcome.winning_sides == (0,)
    game = dd()
    game.scores = [100, 300]
    score(game, bid=50, meld=[30, 30], taken=[25, 25], bidder=1)
    assert game.outcome is None and game.deal_no == 2


def test_match_options() -> None:
    game = dd(match=250)
    game.scores = [200, 0]
    score(game, bid=50, meld=[30, 10], taken=[25, 25])
    assert game.outcome is not None and game.outcome.winning_sides == (0,)
    game = dd(match="deal")
    score(game, bid=50, meld=[0, 5], taken=[25, 25], bidder=1)  # set: -50 vs 25
    assert game.outcome is not None and game.outcome.winning_sides == (0,)
    game = dd(match="deal")
    score(game, bid=50, meld=[25, 25], taken=[25, 25], bidder=1)  # 50 each: the bidders win the tie
    assert game.outcome is not None and game.outcome.winning_sides == (1,)
    assert dd(**{"100-aces": True}).target == 5000


# ----- throw-in, hopeless bids and what the opponents score (§7, §8) ------------------------------
def after_trump(options: dict[str, Any], *, bid: int, hands: dict[int, str] | None = None) -> DoubleDeck:
    game = dd(**options)
    game = rig(game, hands or {0: S0})
    bid_out(game, 0, bid)
    act(game, (0, "trump H"))
    return game


def test_throw_in_only_by_the_bidder_before_the_first_lead() -> None:
    game = after_trump({}, bid=60)
    assert legal(game, 0)[-1] == "throw-in" and game.public_view()["throw_in"]
    with pytest.raises(IllegalAction, match="Only the bidder may throw in"):
        game.apply(1, "throw-in")
    act(game, (0, legal(game, 0)[0]))
    assert "throw-in" not in legal(game, 1)
    with pytest.raises(IllegalAction, match="before the first lead"):
        game.apply(0, "throw-in")


def side_meld(game: DoubleDeck, side: int) -> int:
    return sum(meld_total(game.hands[s], game.trump, game.table) for s in game.sides[side])


@pytest.mark.parametrize(
    ("giveup", "gain"),
    [
        ("standard", lambda meld: meld),
        ("nothing", lambda meld: 0),
        ("meld", lambda meld: meld if meld >= 20 else 0),
        ("meld+25", lambda meld: 25 + (meld if meld >= 20 else 0)),
        ("meld+50", lambda meld: 50 + (meld if meld >= 20 else 0)),
    ],
)
def test_throw_in_and_what_the_opponents_score(giveup: str, gain: Any) -> None:
    game = after_trump({"giveup": giveup}, bid=75)
    opponents = side_meld(game, 1)
    events = act(game, (0, "throw-in"))
    assert events[:2] == [
        {"type": "throw_in", "seat": 0},
        {"type": "gave_up", "seat": 0, "reason": "throw-in"},
    ]
    scored = next(e for e in events if e["type"] == "deal_scored")
    assert scored["changes"] == [-75, gain(opponents)] and scored["played"] is False
    bonus = {"meld+25": 25, "meld+50": 50}.get(giveup, 0)
    assert scored["meld_counted"] == [0, gain(opponents) - bonus]


def test_throw_in_with_giveup_play_plays_the_hand_out() -> None:
    game = after_trump({"giveup": "play"}, bid=75)
    act(game, (0, "throw-in"))
    assert game.phase == "play" and game.to_act == (0,) and "throw-in" not in legal(game, 0)
    events = play_out(game)
    scored = next(e for e in events if e["type"] == "deal_scored")
    assert scored["played"] and scored["gave_up"] == "throw-in" and scored["made"] is False
    assert scored["changes"] == [-75, scored["meld"][1] + scored["counters"][1]]


@pytest.mark.parametrize(
    ("giveup", "expected"),
    [
        ("standard", 0),
        ("nothing", 0),
        ("play", 0),
        ("meld", "meld"),
        ("meld+25", "25+meld"),
        ("meld+50", "50+meld"),
    ],
)
def test_no_marriage_and_what_the_opponents_score(giveup: str, expected: int | str) -> None:
    game = dd(giveup=giveup)
    game = rig(game, {0: NO_QUEENS, 1: OPPONENTS})
    # Counted without a trump suit [gap]: the opponents' meld with plain marriages only.
    meld = sum(meld_total(game.hands[seat], None, game.table) for seat in (1, 3))
    assert meld >= 20
    events = bid_out(game, 0, 60)
    scored = next(e for e in events if e["type"] == "deal_scored")
    want = {0: 0, "meld": meld, "25+meld": 25 + meld, "50+meld": 50 + meld}[expected]
    assert scored["changes"] == [-60, want]
    # Not played: the deal's report lists the meld laid down (only the opponents scoring it).
    shown = [m["seat"] for m in game.public_view()["last_deal"]["melds"] or [] if m["laid"]]
    assert shown == ([] if expected == 0 else [1, 3])


WEAK = "JS JS JS JS JH JH JH JH JD JD JC JC KH QH 10S 10S 10D 10D 10C 10C"


def test_a_side_more_than_50_short_is_offered_the_throw_in_with_its_cost() -> None:
    """§7: "a bidding side that knows it cannot make the bid MAY throw in" — the source makes it
    the side's choice, so a side more than 50 short is offered it (with its cost), not made to."""
    game = dd()
    game = rig(game, {0: WEAK})
    bid_out(game, 0, 100)
    events = act(game, (0, "trump H"))
    assert not any(e["type"] == "gave_up" for e in events)
    assert game.phase == "play" and game.to_act == (0,) and "throw-in" in legal(game, 0)
    offer = game.public_view()["throw_in_offer"]
    their_meld = game.side_meld[1]
    assert offer == {"bid": 100, "meld": their_meld, "bonus": 0, "played": False, "short": True}
    view = game.view(0)
    assert render.throw_in_line(view) == (
        "Your side's meld is more than 50 short of your bid of 100. You may throw in before the first "
        f"lead: you lose 100; the opponents score their meld {their_meld}."
    )
    events = act(game, (0, "throw-in"))  # its choice: it throws in …
    assert game.history[-1]["changes"] == [-100, their_meld]


def test_a_short_side_may_play_on_instead() -> None:
    game = dd()
    game = rig(game, {0: WEAK})
    bid_out(game, 0, 100)
    act(game, (0, "trump H"))
    events = play_out(game)  # … or plays (and is set)
    scored = next(e for e in events if e["type"] == "deal_scored")
    assert scored["played"] and scored["made"] is False and scored["gave_up"] is None
    assert scored["changes"][0] == -100 and scored["meld_lost"][0] == "set"


def test_a_short_side_throwing_in_pays_the_opponents_by_the_giveup_option() -> None:
    game = dd(giveup="meld+50")
    game = rig(game, {0: WEAK})
    bid_out(game, 0, 150)
    act(game, (0, "trump H"))
    meld = game.side_meld[1] if game.side_meld[1] >= 20 else 0
    offer = game.public_view()["throw_in_offer"]
    assert offer["short"] and (offer["meld"], offer["bonus"]) == (meld, 50)
    act(game, (0, "throw-in"))
    scored = game.history[-1]
    assert scored["changes"] == [-150, 50 + meld] and scored["meld_counted"] == [0, meld]


def test_the_computer_bidder_decides_for_itself_whether_to_throw_in() -> None:
    from bot.ai.double_deck import DoubleDeckPlayer

    player = DoubleDeckPlayer(seed=1)
    for giveup, throws in (("standard", True), ("meld+50", False), ("play", False)):
        game = dd(giveup=giveup)
        game = rig(game, {0: WEAK})
        bid_out(game, 0, 100)
        act(game, (0, "trump H"))
        choice = player.choose(game.view(0), game.legal_actions(0))
        assert (str(choice) == "throw-in") is throws, giveup


# ----- why a side's meld was lost (the deal's report) -------------------------------------------------
def test_the_deal_report_says_why_a_set_side_lost_its_meld() -> None:
    """§7: a set side "scores nothing for meld or tricks" because the bid was not made — there is no
    trick requirement in double-deck, so the report must not say "no trick"."""
    game = dd()
    scored = score(game, bid=120, meld=[49, 30], taken=[40, 10])  # 13+ tricks, still set
    assert scored["made"] is False and scored["meld_lost"] == ["set", None]
    text = render.deal_summary(scored, game.public_view(), ["Ann", "Bob", "Cy", "Di"])
    assert "meld 49 (lost: the bid was not made)" in text and "no trick" not in text


def test_the_deal_report_of_a_throw_in_says_the_hand_was_given_up() -> None:
    game = after_trump({}, bid=75)
    events = act(game, (0, "throw-in"))
    scored = next(e for e in events if e["type"] == "deal_scored")
    assert scored["meld_lost"][0] == "gave-up"
    names = ["You", "Bob", "Cy", "Di"]
    text = render.deal_summary(scored, game.public_view(), names)
    assert "You threw in the hand." in text and "(lost: the hand was given up)" in text
    assert "throw-in)" not in text and "no trick" not in text
    assert [render.describe_event(e, game.public_view(), names) for e in events[:2]] == [
        "You throw in the hand.",
        "",
    ]


def test_the_deal_report_under_min_20_names_the_20() -> None:
    game = dd(min_20=True)
    scored = score(game, bid=60, meld=[120, 40], taken=[15, 35])
    assert scored["meld_lost"] == ["tricks-under-20", None]
    text = render.deal_summary(scored, game.public_view(), ["Ann", "Bob", "Cy", "Di"])
    assert "meld 120 (lost: under 20 in tricks)" in text


def test_give_ups_are_written_as_sentences() -> None:
    game = dd()
    game = rig(game, {0: NO_QUEENS, 1: OPPONENTS})
    events = bid_out(game, 0, 60)
    names = ["Ann", "Bob", "Cy", "Di"]
    lines = [render.describe_event(e, game.public_view(), names) for e in events]
    assert "Ann has no marriage to name trump with: the bid is lost without play." in lines
    summary = next(line for line, e in zip(lines, events, strict=True) if e["type"] == "deal_scored")
    assert "Ann had no marriage to name trump with: the hand was not played." in summary
    assert "(no-marriage)" not in summary


# ----- minimum 20 (§8) ----------------------------------------------------------------------------
def test_min_20_a_side_under_20_meld_announces_but_does_not_lay_it_down() -> None:
    game = dd(min_20=True)
    game = rig(game, {0: S0, 1: WEAK1, 3: WEAK3})
    bid_out(game, 0, 60)
    act(game, (0, "trump H"))
    assert game.side_meld[1] == 10 and game.phase == "play"
    view = game.view(2)
    assert view["meld_laid"] == [True, False]
    for entry in view["melds"]:
        if entry["seat"] in (1, 3):
            assert entry["laid"] is False and entry["melds"] == [] and entry["total"] in (4, 6)
    assert game.view(1)["my_meld"]["total"] == 6  # its own meld, privately
    events = play_out(game)
    scored = next(e for e in events if e["type"] == "deal_scored")
    assert scored["meld_counted"][1] == 0
    assert scored["changes"][1] in (0, scored["counters"][1])


def test_min_20_a_side_taking_under_20_scores_nothing() -> None:
    game = dd(min_20=True)
    scored = score(game, bid=60, meld=[60, 40], taken=[35, 15])
    assert scored["changes"] == [95, 0]


def test_min_20_a_bidding_side_taking_under_20_is_set_whatever_its_meld() -> None:
    game = dd(min_20=True)
    scored = score(game, bid=60, meld=[120, 40], taken=[15, 35])
    assert scored["made"] is False and scored["changes"] == [-60, 75]
    without = dd()
    assert score(without, bid=60, meld=[120, 40], taken=[15, 35])["changes"] == [135, 75]


def test_min_20_a_bidding_side_under_20_meld_loses_without_play() -> None:
    game = dd(min_20=True)
    game = rig(game, {0: BID0, 2: BID2, 1: OPP1})
    bid_out(game, 0, 50)
    events = act(game, (0, "trump H"))  # it still names trump
    assert any(e["type"] == "gave_up" and e["reason"] == "under-20" for e in events)
    scored = game.history[-1]
    assert scored["meld"][0] < 20 <= scored["meld"][1]
    assert scored["played"] is False
    assert scored["changes"] == [-50, scored["meld"][1]]  # their meld (>= 20), no tricks needed


def test_100_aces_multiplies_counters_bids_and_the_minimum_by_ten() -> None:
    game = dd(match="deal", **{"100-aces": True})
    game = rig(game, {0: S0})
    assert legal(game, 0)[:3] == ["pass", "bid 500", "bid 510"]
    bid_out(game, 0, 500)
    act(game, (0, "trump H"))
    assert game.public_view()["melds"][0]["total"] == 350
    events = play_out(game)
    scored = next(e for e in events if e["type"] == "deal_scored")
    assert sum(scored["counters"]) == 500


# ----- views --------------------------------------------------------------------------------------
def test_views_are_json_and_show_only_ones_own_hand() -> None:
    game = dd(**{"pass": 2})
    game = rig(game, {0: S0})
    view = game.view(0)
    assert json.loads(json.dumps(view)) == view
    assert Counter(view["hand"]) == Counter(c.code for c in game.hands[0])
    assert view["phase"] == "bidding" and view["min_bid"] == 50 and view["legal"][0] == "pass"
    assert view["family"] == "double-deck" and view["hand_sizes"] == [20, 20, 20, 20]
    assert "hands" not in view and "giving" in view


def test_same_seed_same_deal_and_a_record_replays() -> None:
    first = dd(seed=9)
    second = dd(seed=9)
    assert first.hands == second.hands
    play_out(first)
    again = DoubleDeck.from_json(first.to_json())
    assert again.to_json() == first.to_json()
    assert [again.view(s) for s in range(4)] == [first.view(s) for s in range(4)]


def test_cards_are_the_80_card_pack() -> None:
    game = dd()
    assert sum(len(hand) for hand in game.hands) == 80
    assert Counter(c for hand in game.hands for c in hand)[Card.parse("AS")] == 4
    assert all(c.rank.value in ("A", "10", "K", "Q", "J") for hand in game.hands for c in hand)


def test_only_the_receiver_sees_which_cards_a_pass_brought() -> None:
    """§8: the cards are passed face down; the receiver looks at them (only it)."""
    game = dd("double-deck-pass")
    game = rig(game, {0: S0})
    bid_out(game, 0, 60)
    act(game, (0, "trump H"))
    partner_gives = [str(a) for a in game.legal_actions(2)][:1]
    act(game, (2, partner_gives[0]))
    lines = render.seat_lines(game.view(2), ["Ann", "Bob", "Cy", "Di"])
    assert any(line.startswith("Cards you chose to pass (1 of 3): ") for line in lines)
    while game.phase == "pass":
        seat = game.to_act[0]
        events = act(game, (seat, str(game.legal_actions(seat)[0])))
    passed = [e for e in events if e["type"] == "passed"]
    assert passed and all(set(e) == {"type", "from", "to", "count"} for e in passed)
    to_bidder = next(e for e in passed if e["to"] == 0)
    bidder, partner, opponent = game.view(0), game.view(2), game.view(1)
    assert bidder["received"] == partner["gave"] and len(bidder["received"]) == 3
    assert bidder["received_from"] == 2 and opponent["received"] == [] and opponent["received_from"] is None
    names = ["Ann", "Bob", "Cy", "Di"]
    assert render.describe_event(to_bidder, game.public_view(), names) == "Cy passed 3 cards to Ann."
    line = render.private_event_line(to_bidder, bidder, names)
    assert line == f"You received {render.pretty_cards(bidder['received'])} from Cy (only you see these)."
    assert render.private_event_line(to_bidder, opponent, names) == ""
    assert render.private_event_line(to_bidder, partner, names) == ""


# ----- presets and table options the source lists (§8, §9) ---------------------------------------------
def test_jim_davis_passing_game_is_a_preset() -> None:
    """Source: Jim Davis's system "is for a game where any number from 50 may be bid, and in which
    four cards are passed"."""
    game = dd("double-deck-jim-davis")
    assert game.options["bidding"] == "any" and game.options["pass"] == 4
    assert legal(game, game.to_act[0])[:5] == ["pass", "bid 50", "bid 51", "bid 52", "bid 53"]
    assert "bid 66" in legal(game, game.to_act[0]) and "bid 88" in legal(game, game.to_act[0])
    text = find_variant("double-deck-jim-davis").rules_text
    assert "any number from 50" in text and "pass 4 cards" in text and "55 needs jacks of every suit" in text
    game = rig(game, {0: S0})
    bid_out(game, 0, 53)
    act(game, (0, "trump H"))
    assert game.phase == "pass" and game.public_view()["passing"]["count"] == 4


TELLS_20 = "AH 10H KH QH JH AS AD AC QS JD JS JS JC JC 10S 10S 10D 10D 10C 10C"


def test_meld_information_with_a_bid_is_an_option_off_by_default() -> None:
    """Source: "some players allow extra information to be given with the bid — usually about the
    meld held; it is generally agreed that pointing at a particular suit is illegal"."""
    game = rig(dd(), {0: TELLS_20})
    assert "tell-meld" not in legal(game, 0)
    with pytest.raises(IllegalAction, match="table option"):
        game.apply(0, "tell-meld")
    game = rig(dd(**{"meld-info": True}), {0: TELLS_20})
    assert legal(game, 0)[-1] == "tell-meld"
    events = act(game, (0, "tell-meld"))
    # Counted without trump, so no run (it would point at hearts):
    # heart marriage 2 + aces 10 + jacks 4 + pinochle 4.
    assert events == [{"type": "meld_told", "seat": 0, "meld": 20}]
    assert render.describe_event(events[0], game.public_view(), ["Ann", "Bob", "Cy", "Di"]) == (
        "Ann tells a meld of 20 (counted without trump)."
    )
    assert game.to_act == (0,) and "tell-meld" not in legal(game, 0)  # it still bids, once told
    assert game.public_view()["meld_told"] == [20, None, None, None]
    with pytest.raises(IllegalAction, match="told your meld already"):
        game.apply(0, "tell-meld")
    act(game, (0, "bid 52"))
    assert game.to_act == (1,)
