"""The fair ``random`` level: random legal play that never makes an unsound claim (declaring out
without the points, conceding or throwing in a deal that could still be made), and that always
makes a sound one (it declares out as soon as that wins)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from bot.ai import RandomPlayer, decide
from bot.ai.claims import deal_is_lost, declare_out_wins
from bot.engine import Action, Card, Game, Kind, Suit, new_game
from bot.engine.meld import meld_total
from bot.engine.pinochle.common import LAST_TRICK, PinochleGame
from bot.engine.pinochle.double_deck import DoubleDeck
from bot.engine.pinochle.three import ThreeHand


class LowBidRandom(RandomPlayer):
    """``random`` except in the auction, where it passes or makes the lowest bid: its contracts
    are often makeable, so the claims are tested both ways."""

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        bids = [action for action in legal if action.kind is Kind.BID]
        if not bids:
            return super().choose(view, legal)
        passes = [action for action in legal if action.kind is Kind.PASS]
        if passes and self.rng.random() < 0.5:
            return passes[0]
        return min(bids, key=lambda action: action.amount or 0)


def play_out(
    game: Game, seed: int, check: Any, max_moves: int = 20_000, player: type[RandomPlayer] = RandomPlayer
) -> None:
    """Play ``game`` with ``player`` in every seat, calling ``check(game, seat, legal, chosen)``
    before each move."""
    bots = [player(seed * 10 + seat) for seat in range(game.players)]
    moves = 0
    while not game.is_over and moves < max_moves:
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        chosen = decide(bots[seat], game, seat)
        check(game, seat, legal, chosen)
        game.apply(seat, chosen)
        moves += 1
    assert game.is_over


@pytest.mark.parametrize("variant", ["pinochle-2", "pinochle-4", "pinochle-6", "pinochle-8"])
def test_random_declares_out_exactly_when_it_wins(variant: str) -> None:
    seen: Counter[str] = Counter()

    def check(game: Game, seat: int, legal: list[Action], chosen: Action) -> None:
        if not any(action.kind is Kind.DECLARE_OUT for action in legal):
            return
        assert isinstance(game, PinochleGame) and game.target is not None
        wins = game.declared_total(game.side_of[seat]) >= game.target  # the engine's own verdict
        assert declare_out_wins(game.view(seat)) == wins
        assert (chosen.kind is Kind.DECLARE_OUT) == wins, (variant, seat, game.scores, game.taken)
        seen["wins" if wins else "would lose"] += 1

    for seed in range(25):
        game = new_game(variant, seed=seed)
        play_out(game, seed, check)
        assert game.outcome is not None
        if "declared out" in game.outcome.reason:
            assert "and loses" not in game.outcome.reason
    # Both kinds of position came up, so the assertions above were tested both ways.
    assert seen["wins"] >= 10 and seen["would lose"] >= 1000, seen


def test_random_two_hand_reaches_the_first_score() -> None:
    """The old ``random`` declared out falsely before the first deal was scored, every game."""
    for seed in range(20):
        game = new_game("pinochle-2", seed=seed)
        play_out(game, seed, lambda *_: None)
        assert game.outcome is not None and game.history, seed


def three_hand_lost(game: ThreeHand) -> bool:
    """The engine-side truth: the bidder's best meld with its cards plus every counter is short."""
    assert game.bidder is not None
    cards = game.hands[game.bidder] + game.buried
    suits = [game.trump] if game.trump is not None else list(Suit)
    best_meld = max(meld_total(cards, suit, game.meld_table) for suit in suits)
    counters = sum(game.points.get(card, 0) for card in game.pack()) + LAST_TRICK
    return best_meld + counters < game.high_bid


def test_random_concedes_three_hand_only_when_the_bid_cannot_be_made() -> None:
    seen: Counter[str] = Counter()

    def check(game: Game, seat: int, legal: list[Action], chosen: Action) -> None:
        if not any(action.kind is Kind.CONCEDE for action in legal):
            return
        assert isinstance(game, ThreeHand)
        if not game.widow_shown:  # forced to 250 before seeing the widow: never lost
            assert chosen.kind is not Kind.CONCEDE
            seen["forced"] += 1
            return
        lost = three_hand_lost(game)
        assert deal_is_lost(game.view(seat)) == lost
        assert (chosen.kind is Kind.CONCEDE) == lost
        seen["lost" if lost else "makeable"] += 1

    for seed in range(40):
        play_out(new_game("pinochle-3", seed=seed), seed, check)
        play_out(new_game("pinochle-3", seed=seed), seed, check, player=LowBidRandom)
    assert seen["lost"] >= 20 and seen["makeable"] >= 20 and seen["forced"] >= 1, seen


def test_a_three_hand_bidder_who_can_make_it_plays_on() -> None:
    game = new_game("pinochle-3", seed=3)
    assert isinstance(game, ThreeHand)
    while game.phase.value == "bidding":
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        low = min((a for a in legal if a.kind is Kind.BID), key=lambda a: a.amount or 0, default=None)
        game.apply(seat, low if seat == (game.dealer + 1) % 3 and low is not None else legal[0])
    assert game.high_bid == 300 and not three_hand_lost(game)
    assert not deal_is_lost(game.view(game.to_act[0]))
    player = RandomPlayer(1)
    for _ in range(200):
        choice = decide(player, game, game.to_act[0])
        assert choice.kind is not Kind.CONCEDE


def test_random_throws_in_double_deck_only_when_short() -> None:
    seen: Counter[str] = Counter()

    def check(game: Game, seat: int, legal: list[Action], chosen: Action) -> None:
        if not any(action.kind is Kind.THROW_IN for action in legal):
            return
        assert isinstance(game, DoubleDeck)
        short = game.is_short()
        assert deal_is_lost(game.view(seat)) == short
        assert (chosen.kind is Kind.THROW_IN) == short
        seen["short" if short else "makeable"] += 1

    for seed in range(40):
        for giveup in ("standard", "play"):
            for player in (RandomPlayer, LowBidRandom):
                game = new_game("double-deck", seed=seed, options={"match": "deal", "giveup": giveup})
                play_out(game, seed, check, player=player)
    assert seen["short"] >= 20 and seen["makeable"] >= 1, seen


def test_random_is_otherwise_uniform() -> None:
    """With no claim among the legal actions, every legal action comes up about equally often."""
    game = new_game("pitch", players=4, seed=5)
    seat = game.to_act[0]
    legal = game.legal_actions(seat)
    player = RandomPlayer(9)
    counts = Counter(player.choose(game.view(seat), legal) for _ in range(4000))
    assert set(counts) == set(legal)
    assert max(counts.values()) < 1.25 * min(counts.values()), counts


def test_random_ignores_an_unsound_declare_out_offered_with_plays() -> None:
    game = new_game("pinochle-2", seed=2)
    seat = game.to_act[0]
    legal = game.legal_actions(seat)
    assert any(a.kind is Kind.DECLARE_OUT for a in legal) and not declare_out_wins(game.view(seat))
    player = RandomPlayer(4)
    choices = {player.choose(game.view(seat), legal) for _ in range(300)}
    assert choices == {a for a in legal if a.kind is not Kind.DECLARE_OUT}
    assert all(isinstance(card, Card) for a in choices for card in a.cards)
