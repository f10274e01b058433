"""The wording slips of issue 11, each pinned: "You wins", "was set back", "1 cards", "(pitcher)"
during the auction, [gap] markers, a side of three losing a name, the deal report's cards, drawn
cards in two-hand, buried cards at the end of the deal."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest

from bot import render
from bot.ai import decide, make_player
from bot.cli import build_parser, play_command
from bot.discord_ui import hand_text, rules_page
from bot.engine import find_variant, new_game, variant_names
from bot.tables import Seat, Table

NAMES = ["You", "Computer 2", "Computer 3", "Computer 4", "Computer 5", "Computer 6"]


def test_you_win_and_two_players_win() -> None:
    view = {"sides": [[0], [1]]}
    event = {"type": "game_over", "winners": [0], "reason": "seat 1 reached 11"}
    assert render.describe_event(event, view, NAMES).startswith("Game over: You win (You reached 11).")
    event = {"type": "game_over", "winners": [1], "reason": "seat 2 reached 11"}
    assert render.describe_event(event, view, NAMES).startswith("Game over: Computer 2 wins")
    event = {"type": "game_over", "winners": [0, 2], "reason": "seats 1 & 3 reached 11"}
    assert "You & Computer 3 win (" in render.describe_event(event, view, NAMES)


def pitch_report(pitcher: int, made: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    summary = {
        "type": "deal_scored", "deal": 3, "pitcher": pitcher, "bid": 3, "trump": "S", "made": made,
        "awards": [{"point": "high", "side": 1, "card": "AS"}, {"point": "low", "side": 0, "card": "2S"},
                   {"point": "game", "side": 1, "card": None}],
        "game_values": [12, 27], "changes": [-3, 2], "scores": [-3, 2],
    }  # fmt: skip
    return summary, {"sides": [[0], [1]], "bid_names": {}}


def test_you_were_set_back_and_the_report_names_the_cards_and_game_counts() -> None:
    summary, view = pitch_report(0, made=False)
    text = render.describe_event(summary, view, NAMES)
    assert "You bid 3 and were set back." in text and "was set back" not in text
    assert "  High (A♠): Computer 2" in text and "  Low (2♠): You" in text
    assert "  Jack: nobody (the jack of trump was not dealt)" in text
    assert "  Game: Computer 2 with 27 (You 12)" in text
    summary, view = pitch_report(1, made=False)
    assert "Computer 2 bid 3 and was set back." in render.describe_event(summary, view, NAMES)


def test_a_tied_game_point_shows_the_counts() -> None:
    summary, view = pitch_report(1, made=True)
    summary["awards"] = summary["awards"][:2]
    summary["game_values"] = [20, 20]
    assert "  Game: nobody (tied: You 20, Computer 2 20)" in render.describe_event(summary, view, NAMES)


def test_one_card_is_singular() -> None:
    game = new_game("pitch", players=2, seed=1)
    while game.public_view()["hand_sizes"] != [1, 1]:
        seat = game.to_act[0]
        game.apply(seat, game.legal_actions(seat)[-1])  # a bid, never "everyone passes" for ever
    seats = dict(render.table_fields(game.public_view(), NAMES[:2]))["Seats"]
    assert "· 1 card" in seats and "1 cards" not in seats
    assert render.count(1, "card") == "1 card" and render.count(0, "card") == "0 cards"


def test_no_pitcher_mark_during_the_auction() -> None:
    game = new_game("pitch", players=3, seed=2)
    seat = game.to_act[0]
    game.apply(seat, "bid 2")
    seats = dict(render.table_fields(game.public_view(), NAMES[:3]))["Seats"]
    assert "pitcher" not in seats
    while game.public_view()["phase"] == "bidding":
        game.apply(game.to_act[0], "pass")
    assert "(pitcher" in dict(render.table_fields(game.public_view(), NAMES[:3]))["Seats"]


def test_the_terminal_help_lists_only_this_games_actions() -> None:
    args = build_parser().parse_args(["play", "pitch", "--players", "2", "--seed", "5"])
    out = io.StringIO()
    play_command(
        args, io.StringIO("help\n3\nhelp\nfly\nquit\n"), out
    )  # help in the auction, bid 4, help in play
    text = out.getvalue()
    assert "play CARD" in text and "bid N" in text
    for pinochle in ("meld", "bury", "declare-out", "throw-in", "exchange", "trump SUIT"):
        assert pinochle not in text
    assert "unknown action 'fly'" in text and "now you can" in text


@pytest.mark.parametrize("variant", variant_names())
def test_players_never_see_the_gap_markers(variant: str) -> None:
    text = find_variant(variant).rules_text
    shown = render.player_text(text)
    assert "[gap" not in shown and "gap]" not in shown
    for page in range(5):
        embed, _ = rules_page(variant, page)
        assert "gap" not in str(embed.to_dict()).replace("gaps", "")


def test_a_gap_note_stays_as_a_plain_remark() -> None:
    assert render.player_text("Play: the bidder leads [gap]. Up to 500 [gap: the source is silent].") == (
        "Play: the bidder leads. Up to 500 (the source is silent)."
    )


def test_a_side_of_three_keeps_every_name() -> None:
    text = "seats 2 & 4 & 6 declared out with 1020 (target 1000)"
    assert (
        render.name_seats(text, NAMES)
        == "Computer 2 & Computer 4 & Computer 6 declared out with 1020 (target 1000)"
    )
    assert (
        render.name_seats("seats 1 & 3 won; seat 9 is not here", NAMES)
        == "You & Computer 3 won; seat 9 is not here"
    )


def test_the_drawer_alone_is_told_the_card_drawn_in_two_hand() -> None:
    game = new_game("pinochle-2", seed=3)
    bots = [make_player("pinochle", "basic", seat) for seat in range(2)]
    while not game.view(0).get("drew"):  # until the first trick's cards are drawn
        seat = game.to_act[0]
        game.apply(seat, decide(bots[seat], game, seat))
    drew = [game.view(seat)["drew"] for seat in range(2)]
    assert all(drew) and drew[0] != drew[1]
    assert drew[0] in game.view(0)["hand"] and drew[1] in game.view(1)["hand"]
    assert "drew" not in game.public_view()
    assert drew[0] not in str(game.view(1).get("drew"))
    seats: list[Seat | None] = [Seat("human", "Ann", 1), Seat("computer", "Computer 2")]
    table = Table(1, 1, 1, 1, "pinochle-2", dict(game.options), 2, seats, status="playing", game=game)
    assert f"You drew {render.pretty(drew[0])} from the stock last" in hand_text(table, 0, game.view(0))


def test_the_buried_cards_are_shown_when_the_three_hand_deal_is_scored() -> None:
    game = new_game("pinochle-3", options={"deals": 1}, seed=4)
    bots = [make_player("pinochle", "basic", seat) for seat in range(3)]
    rng = random.Random(1)
    reports = []
    while not game.is_over:
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        action = decide(bots[seat], game, seat) if "concede" not in map(str, legal) else rng.choice(
            [a for a in legal if str(a) != "concede"])  # fmt: skip
        buried = list(game.view(seat).get("buried") or [])
        for event in game.apply(seat, action):
            if event["type"] == "deal_scored":
                reports.append((event, buried))
        bidder = game.public_view().get("bidder")
        if bidder is not None and game.view(bidder).get("buried"):
            last_buried = game.view(bidder)["buried"]
    event, _ = reports[0]
    assert sorted(event["buried"]) == sorted(last_buried)
    text = render.describe_event(event, game.public_view(), NAMES[:3])
    assert (
        f"had buried {render.pretty_cards(event['buried'])}, worth {event['buried_counters']} in counters"
        in text
    )


def test_a_tiny_negative_rating_reads_zero_not_minus_zero() -> None:
    from bot import render

    assert render.rating(-0.04) == "0.0"
    assert render.rating(-0.06) == "-0.1"
    assert render.rating(12.345) == "12.3"
