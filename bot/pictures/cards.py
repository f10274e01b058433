"""Card text as the picture layer sees it: plain strings in, a small hashable description out.

The renderers take card *text* (``"10♠"``, ``"10S"``, ``"th"`` or ``str(card)`` of an engine card),
never engine objects, so they stay decoupled from the engine's classes. Known cards are parsed by the
engine's own parser; a joker (``"JK"``, ``"HJ"``, ``"LJ"``) and anything the parser rejects (a rank
some future variant adds) become *unknown* cards drawn with their own label instead of failing the
whole picture.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from bot.engine.cards import Card, Suit
from bot.engine.errors import BadCard

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_JOKER_WORDS = frozenset({"jk", "joker", "jkr", "🃏", "🂿", "🃟"})
# An unknown rank followed by a suit *symbol* keeps the suit ("11♠"); letters are left to the engine
# so that a word such as "joker" is not read as a rank "joke" of some suit.
_UNKNOWN_WITH_SUIT = re.compile(r"(.+?)\s*([♠♥♦♣♤♡♢♧])")
_SUIT_OF_SYMBOL = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
LABEL_MAX = 3


@dataclass(frozen=True, slots=True)
class CardSpec:
    """One card face to draw: its rank label, its suit letter (``None`` if unknown) and its text."""

    rank: str
    suit: str | None
    text: str
    known: bool

    @property
    def code(self) -> str:
        """The canonical key: the engine's code for known cards, the text as given otherwise."""
        return f"{self.rank}{self.suit}" if self.known else self.text


@lru_cache(maxsize=512)
def parse_card(value: str) -> CardSpec:
    """Read card text leniently: engine notation, suit symbols, or an unknown card with a label."""
    text = value.strip()
    try:
        card = Card.parse(text)
    except BadCard:
        return _unknown(text)
    if card.is_joker:  # no suit to draw: the face carries its code as a label
        return CardSpec(card.code, None, card.pretty, known=False)
    return CardSpec(card.rank.value, card.suit.value, card.pretty, known=True)


def _unknown(text: str) -> CardSpec:
    if not text:
        return CardSpec("?", None, "?", known=False)
    if text.lower() in _JOKER_WORDS:
        return CardSpec("JK", None, text, known=False)
    match = _UNKNOWN_WITH_SUIT.fullmatch(text)
    if match is not None:
        suit = _SUIT_OF_SYMBOL[match.group(2)]
        rank = match.group(1).upper()[:LABEL_MAX]
        return CardSpec(rank, suit, f"{match.group(1)}{SUIT_SYMBOLS[suit]}", known=False)
    return CardSpec(text.upper()[:LABEL_MAX], None, text, known=False)


def card_key(card: object) -> str:
    """The cache key of one card as given (``str()`` of it, parsed), so ``10♠`` and ``10S`` agree."""
    return parse_card(str(card)).code


def parse_suit(value: object) -> str | None:
    """A suit letter from ``H``, ``hearts``, ``♥`` (via the engine), or ``None`` for no suit.

    Raises ``ValueError`` naming the value when it is not a suit (a caller's bug, not a player's).
    """
    if value is None or str(value).strip() == "":
        return None
    try:
        return Suit.parse(str(value)).value
    except BadCard as err:
        raise ValueError(f"trump must be a suit (S, H, D, C or ♠ ♥ ♦ ♣), not {value!r}") from err


def notation(codes: Iterable[str]) -> str:
    """Cards in the usual notation, space separated: ``10♠ K♥ JK``."""
    return " ".join(parse_card(code).text for code in codes)
