"""The bench-only ``hard-sees-all`` levels: their worlds are the true deal, and only where they say."""

from __future__ import annotations

import random

import pytest

from bench import duel, oracle
from bot.ai import levels, make_player
from bot.ai.hard.search import Clock, Context, Evaluator
from bot.engine import Action, Game, Kind, new_game


def _context(game: Game, seen: str | type[Context]) -> Context:
    seat = game.to_act[0]
    context = oracle.CONTEXTS[seen] if isinstance(seen, str) else seen
    return context(
        game,
        seat,
        game.view(seat),
        lambda world, s, legal: legal[0],
        Evaluator(game, seat, 0.0),
        Clock(5.0),
        random.Random(1),
        8,
        64,
    )


def _hidden(game: Game, seat: int) -> list[list[str]]:
    return [sorted(map(str, game.hand(s))) for s in range(game.players) if s != seat]


def _bidding_and_playing() -> tuple[Game, Game]:
    bidding = new_game("pitch", players=4, seed=3)
    playing = bidding.copy()
    while not any(a.kind is Kind.PLAY for a in playing.legal_actions(playing.to_act[0])):
        seat = playing.to_act[0]
        legal = playing.legal_actions(seat)
        bid = next((a for a in legal if a.kind is Kind.BID), legal[0])
        playing.apply(seat, bid)
    return bidding, playing


@pytest.mark.parametrize("seen", ["all", "calls", "play"])
def test_worlds_are_the_true_deal_only_where_the_level_sees(seen: str) -> None:
    for game, calling in zip(_bidding_and_playing(), (True, False), strict=True):
        ctx = _context(game, seen)
        truth = _hidden(game, ctx.seat)
        worlds = [_hidden(ctx.sample(), ctx.seat) for _ in range(4)]
        sees = seen == "all" or (seen == "calls") == calling
        if sees:
            assert all(world == truth for world in worlds)
        else:
            assert any(world != truth for world in worlds)


@pytest.fixture
def bench_levels() -> None:
    """The bench's levels registered for this test (``tests/conftest.py`` takes them away after it)."""
    duel.load_frozen_levels()
    oracle.register()


def test_the_duel_bench_seats_the_levels(bench_levels: None) -> None:
    for family in ("pitch", "pinochle", "double-deck"):
        assert {oracle.LEVEL, f"{oracle.LEVEL}-calls", f"{oracle.LEVEL}-play"} <= set(levels(family))
    assert oracle.DEALT in levels("pitch") and oracle.DEALT not in levels("pinochle")
    player = make_player("pitch", oracle.LEVEL, 1)
    game = new_game("pitch", players=4, seed=5)
    seat = game.to_act[0]
    action = player.choose_for(game, seat, game.legal_actions(seat))  # type: ignore[attr-defined]
    assert isinstance(action, Action) and action in game.legal_actions(seat)


def test_the_dealt_level_knows_the_cards_in_play_not_who_holds_them() -> None:
    _, playing = _bidding_and_playing()
    for _ in range(2):  # the pitch names trump; the worlds are dealt this way from then on
        pitcher = playing.to_act[0]
        playing.apply(pitcher, playing.legal_actions(pitcher)[0])
    assert playing.trumps is not None
    ctx = _context(playing, oracle.DealtContext)
    seat = ctx.seat
    truth = _hidden(playing, seat)
    in_hands = sorted(card for hand in truth for card in hand)
    worlds = [ctx.sample() for _ in range(6)]
    for world in worlds:
        assert sorted(map(str, world.undealt)) == sorted(map(str, playing.undealt))
        assert sorted(card for hand in _hidden(world, seat) for card in hand) == in_hands
        assert [len(hand) for hand in _hidden(world, seat)] == [len(hand) for hand in truth]
        assert world.hand(seat) == playing.hand(seat)
    assert any(_hidden(world, seat) != truth for world in worlds)
