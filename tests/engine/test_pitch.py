"""Every rule and option of docs/rules/pitch.md, table-driven where the rule has cases."""

from __future__ import annotations

from typing import TypeVar

import pytest

from bot.engine import IllegalAction, Kind, new_game
from bot.engine.pitch import AuctionPitch, PartnershipPitch, PitchBase, game_points
from tests.engine.helpers import rig_pitch_deal, score_pitch_deal

P = TypeVar("P", bound=PitchBase)

FOUR_HANDS = {
    0: "AH KH 2C 3D 4S 5S",
    1: "QH 10H 9C 10C 3S 4D",
    2: "9S 8C 7C 6C 5C 4C",
    3: "JH 2D 6D 7D 8D 9D",
}


def pitch(players: int = 4, **options: object) -> AuctionPitch:
    game = new_game("pitch", players=players, options=options, seed=11)
    assert isinstance(game, AuctionPitch)
    return game


def partnership(**options: object) -> PartnershipPitch:
    game = new_game("pitch-partnership", options=options, seed=5)
    assert isinstance(game, PartnershipPitch)
    return game


def legal_texts(game: PitchBase, seat: int) -> list[str]:
    return [str(action) for action in game.legal_actions(seat)]


# ----- dealing and bidding ----------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_every_player_gets_six_cards_and_bidding_starts_left_of_dealer(players: int) -> None:
    game = pitch(players)
    assert [len(hand) for hand in game.hands] == [6] * players
    assert game.to_act == ((game.dealer + 1) % players,)
    assert len({card for hand in game.hands for card in hand}) == 6 * players


def test_first_dealer_is_whoever_draws_the_highest_card() -> None:
    for seed in range(30):
        game = new_game("pitch", players=5, seed=seed)
        assert isinstance(game, PitchBase)
        final = game.first_draw[-1]
        ranks = {seat: game_rank(code) for seat, code in final["draws"].items()}
        assert int(max(ranks, key=lambda seat: ranks[seat])) == game.dealer
        for earlier in game.first_draw[:-1]:
            assert earlier["winner"] is None  # a tie for highest: those players drew again


def game_rank(code: str) -> int:
    from bot.engine import Card
    from bot.engine.pitch import STRENGTH

    return STRENGTH[Card.parse(code).rank]


def test_bids_go_from_1_to_4_and_must_beat_the_last() -> None:
    game = pitch()
    game = rig_pitch_deal(game, FOUR_HANDS, dealer=3)
    assert legal_texts(game, 0) == ["pass", "bid 1", "bid 2", "bid 3", "bid 4"]
    game.apply(0, "bid 2")
    assert legal_texts(game, 1) == ["pass", "bid 3", "bid 4"]
    with pytest.raises(IllegalAction, match="higher than 2"):
        game.apply(1, "bid 2")
    with pytest.raises(IllegalAction, match="from 1 to 4"):
        game.apply(1, "bid 5")
    with pytest.raises(IllegalAction, match="not your turn"):
        game.apply(2, "bid 3")


def test_without_dealer_steal_the_dealer_cannot_equal_the_bid() -> None:
    game = pitch()
    game = rig_pitch_deal(game, FOUR_HANDS, dealer=3)
    for seat, action in [(0, "bid 2"), (1, "pass"), (2, "pass")]:
        game.apply(seat, action)
    assert "bid 2" not in legal_texts(game, 3)
    assert "bid 3" in legal_texts(game, 3)


def test_dealer_steal_lets_only_the_dealer_equal_the_highest_bid() -> None:
    game = pitch(**{"dealer-steal": True})
    game = rig_pitch_deal(game, FOUR_HANDS, dealer=3)
    game.apply(0, "bid 2")
    assert "bid 2" not in legal_texts(game, 1)
    game.apply(1, "pass")
    game.apply(2, "pass")
    assert "bid 2" in legal_texts(game, 3)
    events = game.apply(3, "bid 2")
    assert game.pitcher == 3
    assert {"type": "pitcher", "seat": 3, "bid": 2} in events
    assert game.to_act == (3,)  # the pitcher leads


def test_everyone_passing_means_the_same_dealer_deals_again() -> None:
    game = pitch()
    dealer, deal_no = game.dealer, game.deal_no
    old_hands = [hand[:] for hand in game.hands]
    for _ in range(4):
        events = game.apply(game.to_act[0], "pass")
    assert events[-1] == {"type": "redeal", "dealer": dealer, "reason": "everyone passed"}
    assert game.dealer == dealer
    assert game.deal_no == deal_no + 1
    assert game.phase == "bidding"
    assert game.hands != old_hands
    assert game.to_act == ((dealer + 1) % 4,)


def test_each_player_bids_only_once() -> None:
    game = pitch()
    game = rig_pitch_deal(game, FOUR_HANDS, dealer=3)
    for seat, action in [(0, "bid 1"), (1, "bid 2"), (2, "pass"), (3, "pass")]:
        game.apply(seat, action)
    assert game.phase == "play"
    assert game.pitcher == 1
    assert game.to_act == (1,)


# ----- play -------------------------------------------------------------------------------------
def start_play(game: P) -> P:
    """``game`` dealt ``FOUR_HANDS`` by seat 3, seat 0 pitching with a bid of 2."""
    game = rig_pitch_deal(game, FOUR_HANDS, dealer=3)
    for seat, action in [(0, "bid 2"), (1, "pass"), (2, "pass"), (3, "pass")]:
        game.apply(seat, action)
    return game


def test_the_pitchers_first_card_names_trump() -> None:
    game = pitch()
    game = start_play(game)
    assert game.trump is None
    events = game.apply(0, "play AH")
    assert events[0] == {"type": "trump", "suit": "H"}
    assert game.trump is not None and game.trump.value == "H"


def test_on_a_trump_lead_you_must_play_trump_if_you_can() -> None:
    game = pitch()
    game = start_play(game)
    game.apply(0, "play AH")
    assert legal_texts(game, 1) == ["play QH", "play 10H"]
    with pytest.raises(IllegalAction, match="Trump was led: you must play trump"):
        game.apply(1, "play 9C")
    game.apply(1, "play QH")
    assert len(legal_texts(game, 2)) == 6  # no trump: any card
    game.apply(2, "play 9S")
    assert legal_texts(game, 3) == ["play JH"]


def test_on_a_plain_lead_follow_suit_or_trump_but_never_a_third_suit() -> None:
    game = pitch()
    game = start_play(game)
    for seat, card in [(0, "AH"), (1, "QH"), (2, "9S"), (3, "JH")]:
        game.apply(seat, f"play {card}")
    assert game.to_act == (0,)  # the ace of trump took the trick
    game.apply(0, "play 2C")
    assert sorted(legal_texts(game, 1)) == ["play 10C", "play 10H", "play 9C"]
    with pytest.raises(IllegalAction, match="follow suit or trump"):
        game.apply(1, "play 3S")
    game.apply(1, "play 10H")
    game.apply(2, "play 8C")
    assert len(legal_texts(game, 3)) == 5  # void in clubs, no trump left: anything
    events = game.apply(3, "play 2D")
    assert events[-1]["type"] == "trick" and events[-1]["winner"] == 1  # trumped


def test_a_card_you_do_not_hold_is_refused_and_changes_nothing() -> None:
    game = pitch()
    game = start_play(game)
    before = game.to_json()
    with pytest.raises(IllegalAction, match="do not hold"):
        game.apply(0, "play 2S")
    with pytest.raises(IllegalAction, match="play a card"):
        game.apply(0, "bid 3")
    assert game.to_json() == before


# ----- points of a deal ----------------------------------------------------------------------
DEALT = {0: "AH 3C", 1: "2H 4C", 2: "JH 5C", 3: "10D 6C"}


@pytest.mark.parametrize(
    ("taken", "old_high_low", "expected"),
    [
        # High and Low to whoever takes them; Jack to its taker; Game to the highest count.
        (
            {0: "AH 2H", 1: "JH", 2: "10D 3C 4C 5C 6C"},
            False,
            [("high", 0, "AH"), ("low", 0, "2H"), ("jack", 1, "JH"), ("game", 2, None)],
        ),
        # old-high-low: High and Low go to the players dealt them.
        (
            {0: "AH 2H", 1: "JH", 2: "10D 3C 4C 5C 6C"},
            True,
            [("high", 0, "AH"), ("low", 1, "2H"), ("jack", 1, "JH"), ("game", 2, None)],
        ),
    ],
)
def test_points_of_a_deal(taken: dict[int, str], old_high_low: bool, expected: list[object]) -> None:
    game = pitch(**{"old-high-low": old_high_low})
    events = score_pitch_deal(game, trump="H", pitcher=0, bid=1, dealt=DEALT, taken=taken)
    awards = [(a["point"], a["side"], a["card"]) for a in events[0]["awards"]]
    assert awards == expected


def test_a_tie_for_game_scores_no_game_point() -> None:
    game = pitch()
    dealt = {0: "AH 3D", 1: "2H KD", 2: "JH AC"}
    events = score_pitch_deal(
        game, trump="H", pitcher=0, bid=1, dealt=dealt, taken={0: "AH 2H 3D", 1: "KD JH", 2: "AC"}
    )
    assert events[0]["game_values"] == [4, 4, 4, 0]
    assert [a["point"] for a in events[0]["awards"]] == ["high", "low", "jack"]


def test_no_jack_point_when_the_jack_of_trump_was_not_dealt() -> None:
    game = pitch()
    dealt = {0: "AH 3C", 1: "2H 4C", 2: "9H 5C", 3: "10D 6C"}
    events = score_pitch_deal(
        game, trump="H", pitcher=0, bid=1, dealt=dealt, taken={0: "AH 2H 9H", 3: "10D 3C 4C 5C 6C"}
    )
    assert [a["point"] for a in events[0]["awards"]] == ["high", "low", "game"]


def test_game_values_a4_k3_q2_j1_ten10() -> None:
    from bot.engine import parse_cards

    assert game_points(parse_cards("AS KS QS JS 10S 9S 2S")) == 20


# ----- scoring ---------------------------------------------------------------------------------
def test_pitcher_who_makes_the_bid_scores_what_was_taken_others_too() -> None:
    game = pitch()
    events = score_pitch_deal(
        game, trump="H", pitcher=0, bid=2, dealt=DEALT, taken={0: "AH 2H", 1: "JH", 2: "10D 3C 4C 5C 6C"}
    )
    assert events[0]["made"] is True
    assert game.scores == [2, 1, 1, 0]


def test_pitcher_who_falls_short_is_set_back_by_the_bid_and_can_go_negative() -> None:
    game = pitch()
    events = score_pitch_deal(
        game, trump="H", pitcher=1, bid=3, dealt=DEALT, taken={0: "AH 2H", 1: "JH", 2: "10D 3C 4C 5C 6C"}
    )
    assert events[0]["made"] is False
    assert game.scores == [2, -3, 1, 0]


@pytest.mark.parametrize(
    ("before", "pitcher", "taken", "winner"),
    [
        # Only one reaches 11.
        ([10, 0, 0, 0], 1, {0: "AH 2H", 1: "JH", 2: "10D 3C 4C 5C 6C"}, 0),
        # Two reach 11 and the pitcher is among them: the pitcher wins (seat 1 reached with Jack).
        ([10, 10, 0, 0], 1, {0: "AH 2H", 1: "JH", 2: "10D 3C 4C 5C 6C"}, 1),
        # The pitcher is not among them: High is counted first.
        ([10, 10, 9, 0], 2, {0: "AH", 1: "2H", 2: "JH", 3: "10D 3C 4C 5C 6C"}, 0),
        # Low before Jack.
        ([9, 10, 10, 0], 0, {0: "AH", 1: "JH", 2: "2H", 3: "10D 3C 4C 5C 6C"}, 2),
        # Jack before Game.
        ([10, 10, 0, 0], 3, {0: "10D 3C 4C 5C 6C", 1: "JH", 2: "AH 2H"}, 1),
    ],
)
def test_reaching_eleven_and_the_tie_break(
    before: list[int], pitcher: int, taken: dict[int, str], winner: int
) -> None:
    game = pitch()
    events = score_pitch_deal(
        game, trump="H", pitcher=pitcher, bid=1, dealt=DEALT, taken=taken, scores=before
    )
    assert game.outcome is not None, events
    assert game.outcome.winners == (winner,)
    assert events[-1]["type"] == "game_over"


@pytest.mark.parametrize("target", [7, 9, 11, 21])
def test_target_option(target: int) -> None:
    game = pitch(target=target)
    score_pitch_deal(
        game,
        trump="H",
        pitcher=0,
        bid=1,
        dealt=DEALT,
        taken={0: "AH 2H", 1: "JH 10D"},
        scores=[target - 3, 0, 0, 0],
    )
    assert game.outcome is None
    score_pitch_deal(
        game,
        trump="H",
        pitcher=0,
        bid=1,
        dealt=DEALT,
        taken={0: "AH 2H", 1: "JH 10D"},
        scores=[target - 2, 0, 0, 0],
    )
    assert game.outcome is not None and game.outcome.winners == (0,)


def test_target_option_rejects_other_values() -> None:
    from bot.engine import BadOption

    with pytest.raises(BadOption, match="valid values are 7/9/10/11/21"):
        pitch(target=15)


ALL_FOUR = {0: "AH 2H JH 10D 3C 4C 5C 6C"}


def test_smudge_made_wins_the_game_at_once() -> None:
    game = pitch(smudge=True)
    score_pitch_deal(game, trump="H", pitcher=0, bid=4, dealt=DEALT, taken=ALL_FOUR, scores=[0, 9, 9, 9])
    assert game.outcome is not None and game.outcome.winners == (0,)
    assert "smudge" in game.outcome.reason


def test_smudge_made_from_a_negative_score_scores_only_four() -> None:
    game = pitch(smudge=True)
    score_pitch_deal(game, trump="H", pitcher=0, bid=4, dealt=DEALT, taken=ALL_FOUR, scores=[-2, 0, 0, 0])
    assert game.outcome is None
    assert game.scores[0] == 2


def test_smudge_failed_is_minus_four() -> None:
    game = pitch(smudge=True)
    score_pitch_deal(
        game, trump="H", pitcher=0, bid=4, dealt=DEALT, taken={0: "AH 2H JH", 1: "10D 3C 4C 5C 6C"}
    )
    assert game.outcome is None
    assert game.scores == [-4, 1, 0, 0]


def test_without_the_smudge_option_a_made_four_is_just_four_points() -> None:
    game = pitch()
    score_pitch_deal(game, trump="H", pitcher=0, bid=4, dealt=DEALT, taken=ALL_FOUR, scores=[0, 9, 9, 9])
    assert game.outcome is None and game.scores[0] == 4


# ----- partnership pitch ----------------------------------------------------------------------
def test_partnership_sides_are_partners_opposite() -> None:
    game = partnership()
    assert game.sides == ((0, 2), (1, 3))


def test_partnership_has_no_bid_of_one_and_smudge_above_four() -> None:
    game = partnership()
    game = rig_pitch_deal(game, FOUR_HANDS, dealer=3)
    assert legal_texts(game, 0) == ["pass", "bid 2", "bid 3", "bid 4", "bid 5"]
    with pytest.raises(IllegalAction, match="from 2 to 5"):
        game.apply(0, "bid 1")


def test_partnership_dealer_must_bid_two_or_more_when_the_others_pass() -> None:
    game = partnership()
    game = rig_pitch_deal(game, FOUR_HANDS, dealer=3)
    for seat in (0, 1, 2):
        game.apply(seat, "pass")
    assert "pass" not in legal_texts(game, 3)
    with pytest.raises(IllegalAction, match="dealer must bid"):
        game.apply(3, "pass")
    game.apply(3, "bid 2")
    assert game.pitcher == 3


def test_partnership_dealer_may_steal_2_pass_3_3() -> None:
    game = partnership()
    game = rig_pitch_deal(game, FOUR_HANDS, dealer=3)
    for seat, action in [(0, "bid 2"), (1, "pass"), (2, "bid 3")]:
        game.apply(seat, action)
    game.apply(3, "bid 3")
    assert game.pitcher == 3 and game.high_bid == 3


def test_partnership_smudge_made_is_plus_five() -> None:
    game = partnership()
    score_pitch_deal(
        game, trump="H", pitcher=0, bid=5, dealt=DEALT, taken={0: ALL_FOUR[0]}, tricks_won=[6, 0]
    )
    assert game.scores == [5, 0]


def test_partnership_smudge_needs_every_trick_too() -> None:
    game = partnership()
    score_pitch_deal(
        game,
        trump="H",
        pitcher=0,
        bid=5,
        dealt=DEALT,
        taken={0: ALL_FOUR[0], 1: "9S 8S 7S 6S"},
        tricks_won=[5, 1],
    )
    assert game.scores == [-5, 0]


def test_partnership_all_points_and_tricks_without_a_smudge_bid_is_four() -> None:
    game = partnership()
    score_pitch_deal(
        game, trump="H", pitcher=0, bid=3, dealt=DEALT, taken={0: ALL_FOUR[0]}, tricks_won=[6, 0]
    )
    assert game.scores == [4, 0]


def test_partnership_failed_bid_is_subtracted_and_opponents_score() -> None:
    game = partnership()
    score_pitch_deal(game, trump="H", pitcher=1, bid=3, dealt=DEALT, taken={0: "AH 2H", 1: "JH 10D 3C"})
    assert game.scores == [2, -3]


def test_partnership_only_a_pitching_side_that_makes_its_bid_can_win_at_21() -> None:
    game = partnership()
    # The non-pitching side reaches 21: the game goes on.
    score_pitch_deal(
        game, trump="H", pitcher=1, bid=2, dealt=DEALT, taken={0: "AH 2H", 1: "JH 10D"}, scores=[20, 10]
    )
    assert game.scores == [22, 12] and game.outcome is None
    # The pitching side fails its bid while over 21: still no end.
    score_pitch_deal(
        game, trump="H", pitcher=0, bid=4, dealt=DEALT, taken={0: "AH 2H", 1: "JH 10D"}, scores=[25, 10]
    )
    assert game.scores == [21, 12] and game.outcome is None
    # The pitching side makes its bid and has 21 or more: it wins though the others have more.
    score_pitch_deal(
        game, trump="H", pitcher=1, bid=2, dealt=DEALT, taken={0: "AH", 1: "2H JH 10D"}, scores=[30, 18]
    )
    assert game.outcome is not None and game.outcome.winners == (1, 3)
    assert game.outcome.scores == (31, 21)


def test_partnership_views_hide_partner_hands_too() -> None:
    game = partnership()
    view = game.view(0)
    assert view["hand"] == [card.code for card in game.hands[0]]
    for code in (card.code for card in game.hands[2]):
        assert code not in view["hand"]


def test_deal_scored_event_then_the_deal_passes_left() -> None:
    game = pitch()
    dealer = game.dealer
    events = score_pitch_deal(game, trump="H", pitcher=0, bid=1, dealt=DEALT, taken={0: "AH 2H", 1: "JH 10D"})
    assert [e["type"] for e in events] == ["deal_scored", "deal"]
    assert game.dealer == (dealer + 1) % 4
    assert game.phase == "bidding"
    assert all(len(hand) == 6 for hand in game.hands)


def test_legal_actions_are_empty_for_seats_not_to_act() -> None:
    game = pitch()
    waiting = [seat for seat in range(4) if seat not in game.to_act]
    assert all(game.legal_actions(seat) == [] for seat in waiting)
    assert all(a.kind in (Kind.BID, Kind.PASS) for a in game.legal_actions(game.to_act[0]))
