"""Two-hand pinochle (§4 of pinochle.md): stock, one meld per won trick, the class rule, the dix,
the playoff's follow rules, rounding, the match target and declaring out."""

from __future__ import annotations

import random

import pytest

from bot.engine import IllegalAction, Phase, parse_cards
from bot.engine.pinochle import round_counters
from bot.engine.pinochle.two import TwoHand
from tests.engine.pinochle.helpers import check_cards, new, play, rig_two

ELDER = "KS QS JD AH AD AC 10H 10D 9D JS JH 10S"
DEALER = "9S 9H 9D JC QC KC AS AS KH QH KD QD"


def two(seed: int = 1, **options: object) -> TwoHand:
    game = new("pinochle-2", seed, **options)
    assert isinstance(game, TwoHand)
    return game


def test_the_non_dealer_leads_and_the_turned_card_names_trump() -> None:
    game = two()
    game = rig_two(game, dealer=1, elder=ELDER, dealer_hand=DEALER, turned="10C")
    assert game.to_act == (0,)
    view = game.public_view()
    assert view["trump"] == "C" and view["turned"] == "10C" and view["stock"] == 23
    assert view["hand_sizes"] == [12, 12]
    check_cards(game)


def test_no_duty_to_follow_suit_while_the_stock_lasts() -> None:
    game = two()
    game = rig_two(game, dealer=1, elder=ELDER, dealer_hand=DEALER, turned="10C")
    game.apply(0, "play AH")
    legal = {str(a) for a in game.legal_actions(1)}
    assert {"play 9S", "play KH", "play JC", "play KD"} <= legal  # any card, hearts held or not


def test_marriage_and_pinochle_cannot_be_laid_together_but_one_after_the_other() -> None:
    """The worked example: K♠ Q♠ J♦ is not one meld; Q♠ J♦ now, then K♠ after a later trick."""
    game = two()
    game = rig_two(game, dealer=1, elder=ELDER, dealer_hand=DEALER, turned="10C")
    play(game, (0, "play AH"), (1, "play 9S"))
    assert game.phase == "meld" and game.to_act == (0,)
    legal = {str(a) for a in game.legal_actions(0)}
    assert {"meld QS JD", "meld KS QS", "pass"} <= legal
    with pytest.raises(IllegalAction, match="is not one meld"):
        game.apply(0, "meld KS QS JD")
    events = game.apply(0, "meld JD QS")  # any order
    assert [e for e in events if e["type"] == "meld"] == [
        {"type": "meld", "seat": 0, "name": "pinochle", "cards": ["QS", "JD"], "points": 40}
    ]
    assert game.scores == [40, 0]
    assert game.phase == "play" and game.to_act == (0,)  # nothing else to meld: drawn at once
    assert game.public_view()["table"][0] == ["QS", "JD"]
    play(game, (0, "play AD"), (1, "play 9H"))
    game.apply(0, "meld KS QS")  # K♠ from the hand marries the Q♠ already on the table
    assert game.scores == [60, 0]
    assert sorted(game.public_view()["table"][0]) == ["JD", "KS", "QS"]
    assert [m["name"] for m in game.public_view()["meld_log"]] == ["pinochle", "marriage"]
    check_cards(game)


def test_one_meld_per_turn_and_the_same_class_is_not_scored_twice() -> None:
    game = two()
    game = rig_two(
        game, dealer=1, elder="KS QS KH QH KD QD 9C AH AD 10S JS JH", dealer_hand=DEALER, turned="10C"
    )
    play(game, (0, "play AH"), (1, "play 9S"))
    game.apply(0, "meld KS QS")
    # After one combination only the dix may still be shown this turn.
    assert {str(a) for a in game.legal_actions(0)} == {"meld 9C", "exchange 9C", "pass", "declare-out"}
    with pytest.raises(IllegalAction, match="already melded this turn"):
        game.apply(0, "meld KH QH")
    game.apply(0, "meld 9C")  # the dix in the same turn as another meld
    assert game.scores == [30, 0]
    play(game, (0, "play AD"), (1, "play 9H"))
    with pytest.raises(IllegalAction, match="higher-scoring meld of the same class"):
        game.apply(0, "meld KS QS")


def test_melded_cards_are_played_from_the_table_and_cannot_meld_again() -> None:
    game = two()
    game = rig_two(game, dealer=1, elder=ELDER, dealer_hand=DEALER, turned="10C")
    play(game, (0, "play AH"), (1, "play 9S"), (0, "meld QS JD"))
    assert "play QS" in {str(a) for a in game.legal_actions(0)}
    play(game, (0, "play QS"), (1, "play AS"))  # the Q♠ leaves the table
    assert game.public_view()["table"][0] == ["JD"]
    assert "QS" not in game.view(0)["hand"]
    # Seat 0 wins a later trick but can no longer marry the K♠ (its Q♠ was played).
    if game.phase == "meld":
        game.apply(1, "pass")
    play(game, (1, "play 9D"), (0, "play 10D"))
    if game.phase == "meld":
        assert "meld KS QS" not in {str(a) for a in game.legal_actions(0)}
    check_cards(game)


def test_only_the_trick_winner_melds_before_drawing() -> None:
    game = two()
    game = rig_two(game, dealer=1, elder=ELDER, dealer_hand=DEALER, turned="10C")
    play(game, (0, "play AH"), (1, "play 9S"))
    with pytest.raises(IllegalAction, match="Only the winner of a trick may meld"):
        game.apply(1, "meld KH QH")
    with pytest.raises(IllegalAction, match="meld if you wish, then 'pass' to draw"):
        game.apply(0, "play AD")


def test_a_turned_up_dix_scores_ten_for_the_dealer_at_once() -> None:
    game = two()
    game = rig_two(game, dealer=1, elder=ELDER, dealer_hand=DEALER, turned="9C")
    assert game.scores == [0, 10]
    assert game.public_view()["meld_log"] == [
        {"seat": 1, "name": "dix (turned up)", "cards": ["9C"], "points": 10}
    ]


def test_exchanging_the_dix_scores_it_and_the_dix_is_the_last_card_drawn() -> None:
    game = two()
    elder = "9C AH AD AS 10H 10D 10S JS JH QD KH JC"
    game = rig_two(game, dealer=1, elder=elder, dealer_hand=None, turned="AC")
    first = game.view(1)["hand"]
    card = next(c for c in first if not c.startswith("A") and not c.endswith("C"))
    play(game, (0, "play AH"), (1, f"play {card}"))
    assert "exchange 9C" in {str(a) for a in game.legal_actions(0)}
    events = game.apply(0, "exchange 9C")
    assert events[0] == {"type": "exchange", "seat": 0, "gave": "9C", "took": "AC"}
    assert game.scores[0] == 10
    assert game.public_view()["turned"] == "9C"
    assert "AC" in game.view(0)["hand"]
    # Play out the stock at random: whoever loses the 12th trick takes the dix.
    rng = random.Random(3)
    while game.phase != "playoff":
        seat = game.to_act[0]
        choices = [a for a in game.legal_actions(seat) if a.kind.value in ("play", "pass")]
        before = game.leader
        game.apply(seat, rng.choice(choices))
        check_cards(game)
    loser = 1 - game.to_act[0]
    assert before is not None
    assert game.hands[loser].count(parse_cards("9C")[0]) >= 1
    view = game.public_view()
    assert view["stock"] == 0 and view["turned"] is None and view["table"] == [[], []]
    assert view["hand_sizes"] == [12, 12]


def _playoff(leader_hand: str, other: str, dealer_hand: str, trump_turned: str = "10C") -> TwoHand:
    """The playoff's follow rules alone: seat 0 (elder) leads from ``leader_hand`` and seat 1 holds
    exactly ``other``. The hands differ in size, a position no deal reaches, so it is set by hand
    on a stacked deal (stock gone, playoff begun)."""
    game = rig_two(two(), dealer=1, elder=leader_hand, dealer_hand=dealer_hand, turned=trump_turned)
    game.stock, game.turned, game.phase = [], None, Phase.PLAYOFF
    game.hands[1] = parse_cards(other)
    game.start_strict_play()
    game.invalidate()
    return game


@pytest.mark.parametrize(
    ("lead", "other", "legal", "refused", "message"),
    [
        # follow suit if able (any heart: no duty to head a plain suit)
        ("AH", "9H KH 9C 9S", {"9H", "KH"}, "9C", "You must follow suit: you hold a heart"),
        # on a trump lead, win it if able
        ("QC", "9C KC AS 9S", {"KC"}, "9C", "you must beat Q♣"),
        # on a trump lead with no higher trump, any trump
        ("AC", "9C KC AS 9S", {"9C", "KC"}, "AS", "follow suit"),
        # no card of the led suit: trump if able
        ("AH", "9C KC AS 9S", {"9C", "KC"}, "AS", "you must play a trump"),
        # neither: anything
        ("AH", "9S AS 9D KD", {"9S", "AS", "9D", "KD"}, None, ""),
    ],
)
def test_playoff_follow_rules(
    lead: str, other: str, legal: set[str], refused: str | None, message: str
) -> None:
    game = _playoff(
        lead + " JS JS QS QS 10S 10S JH JH QH QH 10H", other, other + " JD JD QD QD 10D 10D QC JC"
    )
    game.apply(0, f"play {lead}")
    assert {str(a)[5:] for a in game.legal_actions(1) if str(a).startswith("play")} == legal
    if refused:
        with pytest.raises(IllegalAction, match=message):
            game.apply(1, f"play {refused}")


def test_identical_cards_the_first_played_wins() -> None:
    game = two()
    game = rig_two(game, dealer=1, elder=ELDER, dealer_hand=DEALER, turned="10C")
    events = play(game, (0, "play 10S"), (1, "play AS"))
    assert next(e for e in events if e["type"] == "trick")["winner"] == 1
    game = two()
    dealer = DEALER.replace("AS AS", "AS 10S")
    game = rig_two(
        game, dealer=1, elder="AS " + ELDER.replace("10S", "").strip(), dealer_hand=dealer, turned="10C"
    )
    events = play(game, (0, "play AS"), (1, "play AS"))
    assert next(e for e in events if e["type"] == "trick")["winner"] == 0


@pytest.mark.parametrize(
    ("points", "counted"), [(87, 90), (126, 120), (124, 120), (125, 120), (250, 250), (7, 10), (6, 0), (0, 0)]
)
def test_counters_round_to_tens_seven_and_up(points: int, counted: int) -> None:
    assert round_counters(points) == counted


def _score(game: TwoHand, taken: list[int], scores: list[int]) -> list[dict[str, object]]:
    game.scores = scores[:]
    game.taken = taken[:]
    return game.score_deal()


def test_125_and_125_count_120_each_and_10_is_lost() -> None:
    game = two(match="deal")
    events = _score(game, [125, 125], [0, 0])
    scored = events[0]
    assert scored["counted"] == [120, 120] and scored["scores"] == [120, 120]
    assert game.outcome is not None and game.outcome.winners == (0, 1)  # a tie shares the win


def test_87_counts_90() -> None:
    game = two(match="deal")
    events = _score(game, [87, 163], [0, 0])
    assert events[0]["counted"] == [90, 160]
    assert game.outcome is not None and game.outcome.winners == (1,)


def test_match_continues_until_one_player_reaches_1000() -> None:
    game = two()
    _score(game, [100, 150], [500, 600])
    assert game.outcome is None and game.scores == [600, 750] and game.deal_no == 2
    _score(game, [200, 50], [900, 700])
    assert game.outcome is not None and game.outcome.winners == (0,)
    assert "reached 1000" in game.outcome.reason


def test_both_past_1000_raise_the_target_to_1250_then_1500() -> None:
    game = two()
    _score(game, [130, 120], [900, 950])
    assert game.outcome is None and game.target == 1250
    assert game.public_view()["target"] == 1250
    _score(game, [140, 110], [1200, 1180])  # both past 1250: 1500
    assert game.outcome is None and game.target == 1500
    _score(game, [200, 50], [1400, 1300])
    assert game.outcome is not None and game.outcome.winners == (0,)


def test_declaring_out_right_wins_even_if_the_other_player_has_more() -> None:
    game = two()
    game = rig_two(game, dealer=1, elder=ELDER, dealer_hand=DEALER, turned="10C")
    game.scores = [950, 990]
    game.taken = [47, 200]
    game.invalidate()
    assert "declare-out" in {str(a) for a in game.legal_actions(1)}  # not seat 1's turn: still allowed
    events = game.apply(0, "declare-out")
    assert events[0] == {"type": "declare_out", "seat": 0, "total": 1000, "target": 1000}
    assert game.outcome is not None and game.outcome.winners == (0,)
    assert game.is_over and game.to_act == ()


def test_declaring_out_wrongly_loses() -> None:
    game = two()
    game = rig_two(game, dealer=1, elder=ELDER, dealer_hand=DEALER, turned="10C")
    game.scores = [900, 300]
    game.taken = [46, 0]  # 900 + 50 = 950 < 1000
    game.invalidate()
    game.apply(0, "declare-out")
    assert game.outcome is not None and game.outcome.winners == (1,)
    assert "loses" in game.outcome.reason


def test_single_deal_has_no_declaring_out() -> None:
    game = two(match="deal")
    assert "declare-out" not in {str(a) for a in game.legal_actions(0)}
    with pytest.raises(IllegalAction, match="single-deal"):
        game.apply(0, "declare-out")


def test_deck64_has_64_cards_and_the_seven_is_the_dix() -> None:
    game = two(deck64=True)
    check_cards(game)
    assert game.public_view()["stock"] == 64 - 25
    game = rig_two(game, dealer=1, elder=None, dealer_hand=None, turned="7H")
    assert game.scores[1] == 10 and game.dix.code == "7H"


def test_a_random_deal_conserves_cards_and_counters_total_250() -> None:
    for seed in range(8):
        game = two(seed, match="deal")
        rng = random.Random(seed)
        while not game.is_over:
            check_cards(game)
            seat = game.to_act[0]
            events = game.apply(seat, rng.choice(game.legal_actions(seat)))
        scored = next(e for e in events if e["type"] == "deal_scored")
        assert sum(scored["counters"]) == 250
