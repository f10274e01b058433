"""Trick-taking helpers shared by every variant: who wins a trick, and suit bookkeeping."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from bot.engine.cards import Card, Rank, Suit


def trick_winner(plays: Sequence[tuple[int, Card]], trump: Suit | None, strength: Mapping[Rank, int]) -> int:
    """Index into ``plays`` of the winning play: highest trump, else highest card of the led suit.

    Of two identical cards the one played first wins (a later card must be strictly higher).
    """
    best = 0
    best_card = plays[0][1]
    for index in range(1, len(plays)):
        card = plays[index][1]
        if card.suit is best_card.suit:
            if strength[card.rank] > strength[best_card.rank]:
                best, best_card = index, card
        elif card.suit is trump:
            best, best_card = index, card
    return best


def has_suit(hand: Iterable[Card], suit: Suit | None) -> bool:
    """Whether ``hand`` holds any card of ``suit``."""
    return any(card.suit is suit for card in hand)


def of_suit(hand: Iterable[Card], suit: Suit | None) -> list[Card]:
    """The cards of ``suit`` in ``hand``."""
    return [card for card in hand if card.suit is suit]


def sort_hand(hand: Iterable[Card], strength: Mapping[Rank, int]) -> list[Card]:
    """Cards grouped by suit (♠ ♥ ♦ ♣... in suit order), highest first within a suit."""
    return sorted(hand, key=lambda card: (card.suit.index, -strength[card.rank]))


def distinct(cards: Iterable[Card]) -> list[Card]:
    """The cards without repeats, first occurrence order (identical copies play the same)."""
    return list(dict.fromkeys(cards))
