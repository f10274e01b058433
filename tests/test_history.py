"""Replays rebuilt from seed + action log (``bot.history``): tricks in the order they were played,
hands as dealt, and nothing of a deal that is not over."""

from __future__ import annotations

from typing import Any

import pytest

from bot.ai import decide, make_player
from bot.engine import Game, new_game
from bot.history import Replay, clamp, is_first, is_last, replay, step

VARIANTS = ["pitch", "pitch-partnership", "pinochle-2", "pinochle-3", "pinochle-4", "double-deck-pass"]


def played(variant: str, seed: int, actions: int | None = None) -> tuple[Game, list[dict[str, Any]]]:
    """A computer-played game (to the end, or ``actions`` actions) and, per deal, what was seen
    while it was played: deal number, hands when it started, each trick's (seat, card) plays."""
    game = new_game(variant, seed=seed)
    bots = [make_player(type(game).family, "basic", seed + seat) for seat in range(game.players)]
    deals: list[dict[str, Any]] = []

    def start_deal() -> None:
        hands = [game.private_view(seat)["hand"] for seat in range(game.players)]
        deals.append({"number": game.public_view()["deal"], "hands": hands, "tricks": [], "current": []})

    start_deal()
    count = 0
    while not game.is_over and (actions is None or count < actions):
        seat = game.to_act[0]
        number = game.public_view()["deal"]
        for event in game.apply(seat, decide(bots[seat], game, seat)):
            if event["type"] == "play":
                deals[-1]["current"].append((event["seat"], event["card"]))
            elif event["type"] == "trick":
                deals[-1]["tricks"].append((tuple(deals[-1]["current"]), event["winner"]))
                deals[-1]["current"] = []
        count += 1
        if not game.is_over and game.public_view()["deal"] != number:
            start_deal()
    return game, deals


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_finished_game_replays_every_deal_trick_by_trick(variant: str) -> None:
    game, seen = played(variant, seed=11)
    shown = replay(game.to_json())
    assert shown.game_over and not shown.deal_in_play
    assert [deal.number for deal in shown.deals] == [deal["number"] for deal in seen]
    for deal, truth in zip(shown.deals, seen, strict=True):
        assert [list(hand) for hand in deal.hands] == truth["hands"]
        finished = [t for t in deal.tricks if t.winner is not None]
        assert [(t.plays, t.winner) for t in finished] == truth["tricks"]
        assert [t.number for t in deal.tricks] == list(range(1, len(deal.tricks) + 1))
    assert shown.deals[-1].ending in ("scored", "game over")


def test_pitch_hands_as_dealt_hold_every_card_each_seat_played() -> None:
    game, _ = played("pitch", seed=5)
    for deal in replay(game.to_json()).deals:
        for trick in deal.tricks:
            for seat, card in trick.plays:
                assert card in deal.hands[seat]
        if deal.summary is not None:
            assert deal.trump == deal.summary["trump"]
            assert len(deal.tricks) == 6


@pytest.mark.parametrize("variant", ["pitch", "pinochle-4", "double-deck-pass", "pinochle-2"])
@pytest.mark.parametrize("cut", [0, 1, 9, 40, 77])
def test_a_game_in_play_shows_only_the_deals_that_are_over(variant: str, cut: int) -> None:
    game, seen = played(variant, seed=23, actions=cut)
    shown = replay(game.to_json())
    assert not shown.game_over and shown.deal_in_play
    current = game.public_view()["deal"]
    # The deal under way (and its hands) is never in the replay, only the deals before it.
    assert all(deal.number < current for deal in shown.deals)
    assert [deal.number for deal in shown.deals] == [d["number"] for d in seen[:-1]]
    dealt_now = {tuple(hand) for hand in seen[-1]["hands"]}
    for deal in shown.deals:
        assert not dealt_now & set(deal.hands)


def test_stepping_walks_every_page_in_order_and_back() -> None:
    game, _ = played("pitch-partnership", seed=3)
    shown = replay(game.to_json())
    pages = [(deal.number, page) for deal in shown.deals for page in range(deal.pages)]
    at = (shown.deals[0].number, 0)
    assert is_first(shown, *at)
    walked = [at]
    while not is_last(shown, *at):
        at = step(shown, *at, 1)
        walked.append(at)
    assert walked == pages
    back = [at]
    while not is_first(shown, *at):
        at = step(shown, *at, -1)
        back.append(at)
    assert back == pages[::-1]
    assert step(shown, *pages[0], -5) == pages[0]
    assert step(shown, *pages[-1], 3) == pages[-1]
    assert step(shown, *pages[0], 3) == pages[3]


def test_clamp_goes_to_the_nearest_page_and_refuses_an_empty_replay() -> None:
    game, _ = played("pitch", seed=9)
    shown = replay(game.to_json())
    last = shown.deals[-1]
    assert clamp(shown, 999, 999) == (last.number, last.pages - 1)
    assert clamp(shown, -3, -3) == (shown.deals[0].number, 0)
    empty = Replay("pitch", "Auction Pitch", 4, ((0,), (1,), (2,), (3,)), {}, (), False, True)
    with pytest.raises(ValueError, match="no finished deal"):
        clamp(empty, 1, 0)


def test_a_game_that_has_not_started_playing_has_no_deal_to_replay() -> None:
    game = new_game("pinochle-4", seed=4)
    shown = replay(game.to_json())
    assert shown.deals == () and shown.deal_in_play
