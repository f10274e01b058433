"""Cards, suits and ranks.

Cards are interned: ``Card(Suit.HEARTS, Rank.TEN)`` always returns the same object, so identity
comparison and hashing are cheap (engines and computer players compare cards millions of times).
Rank *order* and point values are not properties of a card: each variant supplies them as data.
"""

from __future__ import annotations

import re
from enum import Enum, unique
from functools import cache
from typing import Any, ClassVar

from bot.engine.errors import BadCard


@unique
class Suit(Enum):
    """The four French suits; the value is the one-letter code used in card text."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    # Members are singletons: identity hashing is correct and much faster than Enum's default.
    __hash__ = object.__hash__

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def label(self) -> str:
        return self.name.capitalize()

    @property
    def index(self) -> int:
        return _SUIT_INDEX[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse ``H``, ``hearts``, ``heart`` or ``♥`` (any case) into a suit."""
        key = text.strip().lower()
        found = _SUIT_WORDS.get(key)
        if found is None:
            raise BadCard(f"{text!r} is not a suit: use S, H, D or C (or ♠ ♥ ♦ ♣)")
        return found


_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_INDEX = {suit: i for i, suit in enumerate(Suit)}
_SUIT_WORDS: dict[str, Suit] = {}
for _suit in Suit:
    for _word in (_suit.value, _suit.name, _suit.name[:-1], _suit.symbol, "♤♡♢♧"[_suit.index]):
        _SUIT_WORDS[_word.lower()] = _suit


@unique
class Rank(Enum):
    """Card ranks; the value is the text used in card codes (``10`` for the ten)."""

    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"

    __hash__ = object.__hash__

    @property
    def index(self) -> int:
        return _RANK_INDEX[self]

    @property
    def label(self) -> str:
        return self.name.capitalize()


_RANK_INDEX = {rank: i for i, rank in enumerate(Rank)}
_RANK_WORDS: dict[str, Rank] = {rank.value.lower(): rank for rank in Rank}
_RANK_WORDS["t"] = Rank.TEN


class Card:
    """One playing card. Instances are interned per (suit, rank) and immutable.

    Jokers (``Card.joker("JK")``, ``"HJ"``, ``"LJ"``) are cards too, interned per code, with
    ``is_joker`` set. Their ``suit`` and ``rank`` are placeholders (spades, two) that carry no
    meaning: only a variant that deals jokers meets them, and it looks them up in its own tables.
    """

    __slots__ = ("code", "id", "is_joker", "pretty", "rank", "suit")
    _interned: ClassVar[dict[tuple[Suit, Rank] | str, Card]] = {}

    suit: Suit
    rank: Rank
    id: int
    code: str
    pretty: str
    is_joker: bool

    def __new__(cls, suit: Suit, rank: Rank) -> Card:
        card = cls._interned.get((suit, rank))
        if card is None:
            card = object.__new__(cls)
            object.__setattr__(card, "suit", suit)
            object.__setattr__(card, "rank", rank)
            object.__setattr__(card, "id", suit.index * 13 + rank.index)
            object.__setattr__(card, "code", f"{rank.value}{suit.value}")
            object.__setattr__(card, "pretty", f"{rank.value}{suit.symbol}")
            object.__setattr__(card, "is_joker", False)
            cls._interned[(suit, rank)] = card
        return card

    @classmethod
    def joker(cls, code: str) -> Card:
        """The (interned) joker ``JK`` (a single joker), ``HJ`` (High Joker) or ``LJ`` (Low Joker)."""
        key = code.strip().upper()
        card = cls._interned.get(key)
        if card is None:
            if key not in JOKER_NAMES:
                raise BadCard(f"{code!r} is not a joker: use JK, HJ or LJ")
            card = object.__new__(cls)
            for name, value in (
                ("suit", Suit.SPADES),
                ("rank", Rank.TWO),
                ("id", 52 + list(JOKER_NAMES).index(key)),
                ("code", key),
                ("pretty", JOKER_NAMES[key]),
                ("is_joker", True),
            ):
                object.__setattr__(card, name, value)
            cls._interned[key] = card
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        if self.is_joker:
            return (Card.joker, (self.code,))
        return (Card, (self.suit, self.rank))

    def __repr__(self) -> str:
        return f"Card({self.code})"

    def __str__(self) -> str:
        return self.code

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse card text such as ``10H``, ``th``, ``QS``, ``10♥`` or ``9c`` (any case), or a
        joker's code (``JK``, ``HJ``, ``LJ``)."""
        match = _CARD_RE.fullmatch(text.strip())
        if match is None:
            if text.strip().upper() in JOKER_NAMES:
                return cls.joker(text)
            raise BadCard(f"{text!r} is not a card: write rank then suit, e.g. 10H, QS, 9C, AD (or 10♥)")
        rank = _RANK_WORDS[match.group(1).lower()]
        suit = Suit.parse(match.group(2))
        return cls(suit, rank)


JOKER_NAMES = {"JK": "Joker", "HJ": "High Joker", "LJ": "Low Joker"}
"""Each joker's code and the name shown for it (a lone joker; the two jokers of a 54-card pack)."""

_CARD_RE = re.compile(r"(10|[2-9]|[tjqka])\s*([shdc♠♥♦♣♤♡♢♧])", re.IGNORECASE)

ALL_CARDS: tuple[Card, ...] = tuple(Card(suit, rank) for suit in Suit for rank in Rank)


def parse_cards(text: str | list[str] | tuple[str, ...]) -> list[Card]:
    """Parse several cards separated by spaces or commas (or given as a list of strings)."""
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [Card.parse(part) for part in parts]


def cards_text(cards: list[Card] | tuple[Card, ...], *, pretty: bool = False) -> str:
    """Join cards into one line of text (codes, or suit symbols when ``pretty``)."""
    return " ".join(card.pretty if pretty else card.code for card in cards)


def make_deck(ranks: tuple[Rank, ...], copies: int = 1) -> list[Card]:
    """Every card of the given ranks in every suit, each ``copies`` times, in a fixed order."""
    return list(_deck(ranks, copies))


@cache
def _deck(ranks: tuple[Rank, ...], copies: int) -> tuple[Card, ...]:
    return tuple(Card(suit, rank) for suit in Suit for rank in ranks for _ in range(copies))
