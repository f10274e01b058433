"""Test helpers that put a game into a chosen position (rigging the deal), then use the public API."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from bot.engine import Card, Game, Suit, parse_cards
from bot.engine.pitch import STRENGTH, PitchBase
from bot.engine.tricks import sort_hand


def rig_pitch_deal(game: PitchBase, hands: dict[int, str], *, dealer: int | None = None) -> None:
    """Replace the current deal's hands (seat → card text) before any bid; turn goes left of dealer."""
    if dealer is not None:
        game.dealer = dealer
    for seat, text in hands.items():
        game.hands[seat] = sort_hand(parse_cards(text), STRENGTH)
    game.dealt = [hand[:] for hand in game.hands]
    game.turn = (game.dealer + 1) % game.players


def score_pitch_deal(
    game: PitchBase,
    *,
    trump: str,
    pitcher: int,
    bid: int,
    dealt: dict[int, str],
    taken: dict[int, str],
    scores: list[int] | None = None,
    tricks_won: list[int] | None = None,
) -> list[dict[str, Any]]:
    """Score a finished deal described directly: who was dealt what and which side took what."""
    game.trump = Suit.parse(trump)
    game.pitcher = pitcher
    game.high_bid = bid
    game.phase = "play"
    game.dealt = [parse_cards(dealt.get(seat, "")) for seat in range(game.players)]
    game.taken = [parse_cards(taken.get(side, "")) for side in range(len(game.sides))]
    game.hands = [[] for _ in range(game.players)]
    if scores is not None:
        game.scores = scores[:]
    game.tricks_won = tricks_won or [len(t) // game.players for t in game.taken]
    return game.score_deal()


def play_random(game: Game, rng: random.Random, max_actions: int = 100_000) -> None:
    """Random legal actions until the game ends (or ``max_actions``)."""
    for _ in range(max_actions):
        if game.is_over:
            return
        seat = game.to_act[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))


def pitch_card_places(game: PitchBase) -> Counter[Card]:
    """Every card in a hand, the current trick or a side's captured pile."""
    places: Counter[Card] = Counter()
    for hand in game.hands:
        places.update(hand)
    places.update(card for _, card in game.trick)
    for pile in game.taken:
        places.update(pile)
    return places
