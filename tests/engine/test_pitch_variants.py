"""The pitch variants of issue 13 (``docs/rules/pitch-*.md``): the worked examples of
``docs/rules/pitch-examples.md`` played through the public API, the refused option combinations,
and the partnership safety valve."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine import BadOption, Card, EngineError, IllegalAction, new_game, parse_cards
from bot.engine.cards import Suit
from bot.engine.pitch import HIGH_JOKER, JOKER, LOW_JOKER, PitchBase, TrumpRules, trick_winner
from tests.engine.helpers import run_script, stacked_pitch_game


def scored(events: list[dict[str, Any]]) -> dict[str, Any]:
    return next(event for event in events if event["type"] == "deal_scored")


def awards_of(event: dict[str, Any]) -> dict[str, tuple[int, str | None]]:
    return {award["point"]: (award["side"], award.get("card")) for award in event["awards"]}


def legal(game: PitchBase, seat: int) -> list[str]:
    return [str(action) for action in game.legal_actions(seat)]


# ----- Example 1: pitch-joker, a whole deal ------------------------------------------------------------
EXAMPLE_1 = {
    0: "KS 2S 10H 3H 9C 7D",
    1: "8S 5S AD QD JC 4C",
    2: "JK JS 10D AH 6C 2D",
}
EXAMPLE_1_PLAY = """
s0 pass, s1 bid 2, s2 pass,
s1 play 8S, s2 play JK, s0 play KS,
s0 play 10H, s1 play 4C, s2 play AH,
s2 play 10D, s0 play 7D, s1 play AD,
s1 play 5S, s2 play JS, s0 play 2S,
s2 play 6C, s0 play 9C, s1 play JC,
s1 play QD, s2 play 2D, s0 play 3H
"""


def example_1(**options: Any) -> PitchBase:
    return stacked_pitch_game("pitch-joker", EXAMPLE_1, dealer=2, players=3, options=options)


def test_example_1_pitch_joker_low_to_the_player_dealt_it() -> None:
    game = example_1()
    events = run_script(game, EXAMPLE_1_PLAY)
    tricks = [event["winner"] for event in events if event["type"] == "trick"]
    assert tricks == [0, 2, 1, 2, 1, 1]
    deal = scored(events)
    assert awards_of(deal) == {
        "high": (0, "KS"),
        "low": (0, "2S"),  # the joker is never Low
        "jack": (2, "JS"),
        "joker": (0, "JK"),  # taken in trick 1
        "game": (1, None),
    }
    assert deal["game_values"] == [3, 17, 15]
    assert deal["points"] == [3, 1, 1] and not deal["made"]
    assert deal["changes"] == [3, -2, 1]


def test_example_1_with_low_by_capture() -> None:
    deal = scored(run_script(example_1(**{"old-high-low": False}), EXAMPLE_1_PLAY))
    assert awards_of(deal)["low"] == (2, "2S")
    assert deal["points"] == [2, 1, 2]


@pytest.mark.parametrize(("old_high_low", "winner"), [(True, 0), (False, 2)])
def test_example_1_target_race_counts_high_low_jack_joker_game(old_high_low: bool, winner: int) -> None:
    game = example_1(**{"old-high-low": old_high_low})
    game.scores = [8, 9, 9]  # the scores before the deal of the example
    events = run_script(game, EXAMPLE_1_PLAY)
    over = next(event for event in events if event["type"] == "game_over")
    assert over["winners"] == [winner]
    assert "(low)" in over["reason"]


# ----- Example 1b: a pitched joker ------------------------------------------------------------------
EXAMPLE_1B = {0: "AC KC 10C 9D 8H 3D", 1: "JK AH KH QD 5C 4C", 2: "10H 9H 7D 6D 3C 2C"}


def test_example_1b_a_pitched_joker_makes_spades_trump_and_no_low_is_scored() -> None:
    game = stacked_pitch_game("pitch-joker", EXAMPLE_1B, dealer=0, players=3)
    events = run_script(
        game,
        """s1 bid 1, s2 pass, s0 pass,
        s1 play JK, s2 play 2C, s0 play 3D,
        s1 play AH, s2 play 9H, s0 play 8H,
        s1 play KH, s2 play 10H, s0 play 9D,
        s1 play QD, s2 play 7D, s0 play 10C,
        s1 play 5C, s2 play 3C, s0 play AC,
        s0 play KC, s1 play 4C, s2 play 6D""",
    )
    assert {"type": "trump", "suit": "S"} in events
    deal = scored(events)
    assert awards_of(deal) == {"high": (1, "JK"), "joker": (1, "JK"), "game": (1, None)}
    assert deal["game_values"] == [7, 29, 0]
    assert sum(deal["points"]) == 3


def test_example_1b_joker_lead_forbidden_and_name() -> None:
    game = stacked_pitch_game(
        "pitch-joker", EXAMPLE_1B, dealer=0, players=3, options={"joker-lead": "forbidden"}
    )
    run_script(game, "s1 bid 1, s2 pass, s0 pass")
    assert legal(game, 1) == ["play AH", "play KH", "play QD", "play 5C", "play 4C"]
    with pytest.raises(IllegalAction, match="joker may not be pitched"):
        game.apply(1, "play JK")
    game = stacked_pitch_game("pitch-joker", EXAMPLE_1B, dealer=0, players=3, options={"joker-lead": "name"})
    run_script(game, "s1 bid 1, s2 pass, s0 pass, s1 play JK")
    assert game.to_act == (1,) and legal(game, 1) == ["trump S", "trump H", "trump D", "trump C"]
    events = run_script(game, "s1 trump H")
    assert events == [{"type": "trump", "suit": "H", "seat": 1}]
    assert legal(game, 2) == ["play 10H", "play 9H"]  # hearts are trump now: follow with a trump


# ----- Example 2: following and winning with the off-jack and jokers ------------------------------------
def follows(hand: str, led: str) -> list[str]:
    game = new_game("pitch-10", seed=1)
    assert isinstance(game, PitchBase)
    game.set_trump(Suit.HEARTS)
    game.trick = [(0, Card.parse(led))]
    return [card.code for card in game.extra_follows(parse_cards(hand), game.trick)]


@pytest.mark.parametrize(
    ("led", "hand", "allowed"),
    [
        ("9D", "JD 5C KC", "JD 5C KC"),  # JD is a heart: void in diamonds
        ("9D", "JD 4D 5C", "JD 4D"),  # holds a diamond: diamond or trump
        ("9C", "LJ 5C 8C", "LJ 5C 8C"),  # a joker is a trump
        ("HJ", "JD 7C 8S", "JD"),  # trump lead: the off-jack must be played
        ("JD", "9D 4C", "9D 4C"),  # the off-jack led is a trump lead; no trump held
    ],
)
def test_example_2_following_by_effective_suit(led: str, hand: str, allowed: str) -> None:
    assert follows(hand, led) == allowed.split()


TWO_JOKERS = TrumpRules(off_jack=True, jokers=2).order(Suit.HEARTS)


@pytest.mark.parametrize(
    ("trick", "winner"),
    [
        ("9C LJ JD HJ", 2),  # the off-jack ranks above both jokers
        ("HJ JD 10H LJ", 1),
        ("10H LJ AD 2H", 1),  # a joker ranks above the 10
    ],
)
def test_example_2_trick_winners(trick: str, winner: int) -> None:
    plays = list(enumerate(parse_cards(trick)))
    assert trick_winner(plays, TWO_JOKERS) == winner


def test_example_2_one_joker_low_or_mid() -> None:
    low = TrumpRules(jokers=1, joker_low=True).order(Suit.SPADES)
    mid = TrumpRules(jokers=1, joker_low=False).order(Suit.SPADES)
    assert trick_winner([(0, Card.parse("2S")), (1, JOKER)], low) == 0
    assert trick_winner([(0, Card.parse("10S")), (1, JOKER)], mid) == 1
    assert low.order[-1] is JOKER and mid.order[4] is JOKER
    assert TWO_JOKERS.order[4:7] == (Card.parse("JD"), HIGH_JOKER, LOW_JOKER)


def test_example_2e_the_off_jack_as_low() -> None:
    game = stacked_pitch_game(
        "pitch",
        {1: "QH HJ AS KS 5C 6C", 0: "JD LJ 9S 2C 7D 8D"},
        dealer=0,
        players=2,
        options={"off-jack": True, "jokers": 2},
    )
    assert legal(game, 1)[-1] == "bid 7"  # 4 + off-jack + two jokers
    events = run_script(
        game,
        """s1 bid 3, s0 pass,
        s1 play QH, s0 play LJ, s1 play HJ, s0 play JD, s0 play 9S, s1 play AS,
        s1 play KS, s0 play 2C, s1 play 5C, s0 play 7D, s1 play 6C, s0 play 8D""",
    )
    deal = scored(events)
    assert awards_of(deal) == {
        "high": (1, "QH"),
        "low": (0, "JD"),
        "off-jack": (0, "JD"),
        "high-joker": (0, "HJ"),
        "low-joker": (1, "LJ"),
        "game": (1, None),
    }
    assert deal["points"] == [3, 3] and deal["changes"] == [3, 3] and deal["made"]


# ----- Example 3: pitch-10, a whole deal ---------------------------------------------------------------
EXAMPLE_3 = {
    0: "JH LJ 2H AS 10D 5C 8S 7D 2C",
    1: "AH JD 3H 10S 6H AD QC 7S 2D",
    2: "9H 8H AC QS KD 6S 9S 3D 6C",
    3: "QH 10H 7H KC 10C 4D 5S 8D 4C",
}
EXAMPLE_3_WIDOW = "KH HJ KS JS 4S 3S 2S 5H 4H QD 9D 6D 5D JC 9C 8C 7C 3C"
EXAMPLE_3_PLAY = """
s1 trump H,
s0 discard 8S, s0 discard 7D, s0 discard 2C,
s1 keep AH, s1 keep KH, s1 keep 10S,
s2 discard 9S, s2 discard 3D, s2 discard 6C,
s3 discard 5S, s3 discard 8D, s3 discard 4C,
s1 play AH, s2 play 8H, s3 play 7H, s0 play 2H,
s1 play KH, s2 play 9H, s3 play 10H, s0 play LJ,
s1 play JD, s2 play 6S, s3 play QH, s0 play JH,
s3 play KC, s0 play 5C, s1 play HJ, s2 play AC,
s1 play 3H, s2 play QS, s3 play 10C, s0 play 10D,
s1 play 10S, s2 play KD, s3 play 4D, s0 play AS
"""


def example_3(bid: str = "6", **options: Any) -> PitchBase:
    game = stacked_pitch_game(
        "pitch-10", EXAMPLE_3, dealer=3, players=4, options=options, widow=EXAMPLE_3_WIDOW
    )
    run_script(game, f"s0 bid 5, s1 bid {bid}, s2 pass, s3 pass")
    return game


def test_example_3_widow_trump_and_discards() -> None:
    game = example_3()
    assert len(game.hands[1]) == 27 and game.public_view()["widow_size"] == 0
    run_script(game, "s1 trump H")
    assert set(legal(game, 0)) == {f"discard {code}" for code in ["2H", "AS", "8S", "10D", "7D", "5C", "2C"]}
    with pytest.raises(IllegalAction, match="point card"):
        game.apply(0, "discard LJ")
    run_script(game, "s0 discard 8S, s0 discard 7D, s0 discard 2C")
    assert game.to_act == (1,)
    keeps = legal(game, 1)
    assert all(action.startswith("keep ") for action in keeps) and len(keeps) == 24  # 27 less JD HJ 3H
    run_script(game, "s1 keep AH, s1 keep KH")
    assert game.view(1)["kept"] == ["AH", "KH"] and len(game.hands[1]) == 27
    run_script(game, "s1 keep 10S")
    assert sorted(card.code for card in game.hands[1]) == sorted(["AH", "KH", "JD", "HJ", "3H", "10S"])
    assert len(game.view(1)["discarded"]) == 21 and game.view(0)["discarded"] == ["8S", "7D", "2C"]
    assert "discarded" not in game.view(2) and "kept" not in game.view(1)


def test_example_3_scores_nine_to_one() -> None:
    game = example_3()
    events = run_script(game, EXAMPLE_3_PLAY)
    assert [event["winner"] for event in events if event["type"] == "trick"] == [1, 1, 3, 1, 1, 0]
    deal = scored(events)
    assert awards_of(deal) == {
        "high": (1, "AH"),
        "low": (0, "2H"),  # played by seat 0; side B took it
        "jack": (1, "JH"),
        "off-jack": (1, "JD"),
        "high-joker": (1, "HJ"),
        "low-joker": (1, "LJ"),
        "three": (1, "3H"),
        "game": (1, None),
    }
    assert deal["game_values"] == [17, 50]
    assert deal["points"] == [1, 9] and deal["changes"] == [1, 9] and deal["made"]


def test_example_3_low_by_capture_gives_b_all_ten() -> None:
    deal = scored(run_script(example_3(**{"old-high-low": False}), EXAMPLE_3_PLAY))
    assert deal["points"] == [0, 10]


@pytest.mark.parametrize(
    ("before", "end", "winner"),
    [
        ([44, 45], "first", 1),
        ([51, 40], "first", 0),
        ([51, 40], "bid-out", None),
        ([51, 45], "first", 1),
    ],
)
def test_example_3_end_of_game(before: list[int], end: str, winner: int | None) -> None:
    game = example_3(end=end)
    game.scores = before[:]
    events = run_script(game, EXAMPLE_3_PLAY)
    over = [event for event in events if event["type"] == "game_over"]
    assert (over[0]["winning_sides"] if over else None) == ([winner] if winner is not None else None)


@pytest.mark.parametrize(
    ("options", "before", "result"),
    [
        ({}, [0, 45], ("over", 0)),  # Low went to A: the moon failed, B loses the game
        ({"old-high-low": False}, [0, 45], ("over", 1)),  # all ten: B wins at once
        ({"old-high-low": False}, [0, -12], ("score", 0)),  # below zero: back to zero
        ({"old-high-low": False}, [0, -4], ("score", 6)),
        ({"moon": False}, [0, 45], ("score", 35)),  # an ordinary 10, missed: -10
    ],
)
def test_example_3_shoot_the_moon(
    options: dict[str, Any], before: list[int], result: tuple[str, int]
) -> None:
    game = example_3("10", **options)
    game.scores = before[:]
    events = run_script(game, EXAMPLE_3_PLAY)
    over = [event for event in events if event["type"] == "game_over"]
    kind, value = result
    if kind == "over":
        assert over and over[0]["winning_sides"] == [value]
        if value == 1:
            assert over[0]["scores"][1] == 55
    else:
        assert not over and scored(events)["scores"][1] == value


def test_example_4_six_players_counts() -> None:
    game = new_game("pitch-10", players=6, seed=3)
    assert isinstance(game, PitchBase)
    assert game.sides == ((0, 3), (1, 4), (2, 5))
    assert [len(hand) for hand in game.hands] == [8] * 6 and len(game.undealt) == 6
    with pytest.raises(EngineError, match="players must be 4 or 6 for pitch-10"):
        new_game("pitch-10", players=5)


# ----- Example 5: slam, smudge and all-four-wins ------------------------------------------------------
DEAL_A = {1: "AS KS QS JS 10S 9S", 2: "2S 9H 10H 3C 4C 5C", 0: "8S 4D 5D 6D 7D 8D"}
DEAL_B = {1: "AS KS QS 8S 10S 9S", 2: "2S 9H 10H 3C 4C 5C", 0: "7S 4D 5D 6D 7D 8D"}
PLAY_A = """s1 play AS, s2 play 2S, s0 play 8S, s1 play KS, s2 play 9H, s0 play 4D,
s1 play QS, s2 play 10H, s0 play 5D, s1 play JS, s2 play 3C, s0 play 6D,
s1 play 10S, s2 play 4C, s0 play 7D, s1 play 9S, s2 play 5C, s0 play 8D"""
PLAY_B = PLAY_A.replace("s0 play 8S", "s0 play 7S").replace("s1 play JS", "s1 play 8S")


def example_5(deal: dict[int, str], bid: str, before: int = 0, **options: Any) -> list[dict[str, Any]]:
    game = stacked_pitch_game("pitch", deal, dealer=0, players=3, options=options)
    game.scores = [0, before, 0]
    return run_script(game, f"s1 {bid}, s2 pass, s0 pass, " + (PLAY_A if deal is DEAL_A else PLAY_B))


def test_example_5_slam_made_and_failed() -> None:
    assert scored(example_5(DEAL_A, "bid 5", slam=True))["changes"] == [0, 5, 0]
    assert scored(example_5(DEAL_A, "bid 4", slam=True))["changes"] == [0, 4, 0]
    failed = scored(example_5(DEAL_B, "bid 5", slam=True))
    assert failed["points"][1] == 3 and failed["changes"] == [0, -5, 0]  # no jack in play


def test_example_5_smudge_and_all_four_wins() -> None:
    events = example_5(DEAL_A, "bid 4", before=3, smudge=True)
    assert events[-1]["type"] == "game_over" and events[-1]["winners"] == [1]
    events = example_5(DEAL_A, "bid 4", before=-3, smudge=True)
    assert scored(events)["scores"][1] == 1 and events[-1]["type"] == "deal"
    events = example_5(DEAL_A, "bid 2", before=-6, **{"all-four-wins": True})
    assert events[-1]["type"] == "game_over" and "all four points" in events[-1]["reason"]
    events = example_5(DEAL_B, "bid 2", **{"all-four-wins": True})
    assert events[-1]["type"] == "deal"


STEAL_A = {0: "AS KS QS JS 10S 9S", 1: "2S 9H 10H 3C 4C 5C", 2: "8S 4D 5D 6D 7D 8D"}
STEAL_PLAY = """s0 play AS, s1 play 2S, s2 play 8S, s0 play KS, s1 play 9H, s2 play 4D,
s0 play QS, s1 play 10H, s2 play 5D, s0 play JS, s1 play 3C, s2 play 6D,
s0 play 10S, s1 play 4C, s2 play 7D, s0 play 9S, s1 play 5C, s2 play 8D"""


def test_dealer_steal_takes_any_highest_bid_a_smudge_of_4_included() -> None:
    """``pitch.md`` §3: with ``dealer-steal`` "the dealer alone may bid equal to the highest bid and
    become pitcher — any highest bid, a bid of 4 with ``smudge`` on included"; §5: a smudge made
    "wins the game at once"."""
    options = {"smudge": True, "dealer-steal": True}
    game = stacked_pitch_game("pitch", STEAL_A, dealer=0, players=3, options=options)
    run_script(game, "s1 bid 3, s2 pass")
    assert legal(game, 0) == ["pass", "bid 3", "bid 4"]  # an ordinary bid may be taken over
    game = stacked_pitch_game("pitch", STEAL_A, dealer=0, players=3, options=options)
    run_script(game, "s1 bid 4")
    assert legal(game, 2) == ["pass"]  # the dealer alone may equal it
    events = run_script(game, "s2 pass, s0 bid 4")
    assert {"type": "pitcher", "seat": 0, "bid": 4} in events
    events = run_script(game, STEAL_PLAY)
    assert events[-1]["type"] == "game_over" and events[-1]["winners"] == [0]  # the stolen smudge made


def test_the_dealer_may_equal_a_smudge_two_players() -> None:
    """The case found by playing: two players, seat 0 bids 4 and the dealer (seat 1) may equal it."""
    game = new_game("pitch", players=2, options={"dealer-steal": True, "smudge": True}, seed=3202)
    assert isinstance(game, PitchBase) and game.dealer == 1
    game.apply(0, "bid 4")
    assert legal(game, 1) == ["pass", "bid 4"]
    game.apply(1, "bid 4")
    assert game.pitcher == 1


def test_a_refused_bid_names_the_dealers_own_floor() -> None:
    """The dealer may equal the highest bid, so it is told its bid must be at least that, not
    "higher than" it; the others are told that only the dealer may equal it."""
    options = {"smudge": True, "dealer-steal": True}
    game = stacked_pitch_game("pitch", STEAL_A, dealer=0, players=3, options=options)
    run_script(game, "s1 bid 2")
    with pytest.raises(IllegalAction, match=r"higher than 2 \(only the dealer may equal it\)"):
        game.apply(2, "bid 2")
    run_script(game, "s2 pass")
    with pytest.raises(IllegalAction) as refused:
        game.apply(0, "bid 1")
    assert str(refused.value) == "Your bid must be at least 2 (the dealer may equal it)."


# ----- refused combinations (pitch-variants.md §6) ---------------------------------------------------
@pytest.mark.parametrize(
    ("variant", "options", "message"),
    [
        ("pitch", {"joker-rank": "mid"}, "needs jokers in the pack"),  # V1
        ("pitch", {"joker-lead": "name"}, "needs jokers in the pack"),
        ("pitch", {"jokers": 2, "joker-rank": "low"}, "is for one joker"),  # V2
        ("pitch", {"smudge": True, "slam": True}, "two meanings"),  # V3
        ("pitch", {"smudge": True, "all-four-wins": True}, "does nothing"),  # V4
        ("pitch", {"slam": True, "all-four-wins": True}, "clash"),  # V5
        ("pitch", {"smudge": True, "off-jack": True}, "four-point game"),  # V6
        ("pitch-joker", {"slam": True}, "four-point game"),
        ("pitch-smudge", {"jokers": 1}, "four-point game"),
        ("pitch", {"slam": True, "old-high-low": True}, "Low would go to the player dealt it"),  # V7
        ("pitch-10", {"target": 21}, "valid values are 52/31"),  # V9
    ],
)
def test_impossible_combinations_are_refused_with_a_reason(
    variant: str, options: dict[str, Any], message: str
) -> None:
    with pytest.raises(BadOption, match=message):
        new_game(variant, options=options)


def test_presets_are_variants_with_their_settings() -> None:
    joker = new_game("pitch-joker", players=3, seed=1)
    assert joker.options["jokers"] == 1 and joker.options["target"] == 10 and joker.options["old-high-low"]
    assert len(joker.pack()) == 53 and JOKER in joker.pack()
    smudge = new_game("pitch-smudge", players=3, seed=1)
    assert smudge.options["all-four-wins"] and smudge.options["target"] == 7
    ten = new_game("pitch-10", seed=1)
    assert len(ten.pack()) == 54 and {HIGH_JOKER, LOW_JOKER} <= set(ten.pack())


def test_new_options_stay_out_of_records_at_their_defaults() -> None:
    assert set(new_game("pitch", seed=1).to_json()["options"]) == {
        "target",
        "old-high-low",
        "dealer-steal",
        "smudge",
    }
    assert set(new_game("pitch-partnership", seed=1).to_json()["options"]) == {"target", "old-high-low"}
    game = new_game("pitch", seed=1, options={"off-jack": True})
    assert game.to_json()["options"]["off-jack"] is True


# ----- the partnership safety valve -------------------------------------------------------------------
def test_a_partnership_at_minus_fifty_loses() -> None:
    game = new_game("pitch-partnership", seed=3)
    assert isinstance(game, PitchBase)
    game.scores = [-48, 3]
    while not game.is_over:
        seat = game.to_act[0]
        # Side 0 bids 5 (smudge) whenever it can and fails; side 1 passes.
        options = legal(game, seat)
        if "bid 5" in options and game.side_of[seat] == 0:
            game.apply(seat, "bid 5")
        elif "pass" in options:
            game.apply(seat, "pass")
        else:
            game.apply(seat, options[0])
    assert game.outcome is not None
    assert "fell to -50" in game.outcome.reason and game.outcome.winning_sides == (1,)


def test_the_deal_limit_ends_a_game_with_the_side_ahead_winning() -> None:
    game = new_game("pitch-partnership", seed=4, options={"deal-limit": 100, "floor": "off"})
    assert isinstance(game, PitchBase)
    game.deal_no = 100  # the hundredth deal is being played
    game.scores = [5, 3]
    while not game.is_over:
        seat = game.to_act[0]
        game.apply(
            seat, legal(game, seat)[-1] if game.public_view()["phase"] == "bidding" else legal(game, seat)[0]
        )
        if game.deal_no > 101:
            game.scores = [5, 3]
    assert game.outcome is not None and "after" in game.outcome.reason


def test_the_valve_and_the_pitch_10_bid_out_end_are_stated_in_the_rules() -> None:
    for variant in ("pitch-partnership", "pitch-10"):
        text = new_game(variant).rules_text
        assert "-50" in text and "200 deals" in text
        assert "[gap]" not in text
