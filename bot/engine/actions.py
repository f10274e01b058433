"""Actions a seat can take, with one canonical text form used by logs, the terminal and Discord.

Text forms: ``pass``, ``bid 3``, ``play 10H``, ``trump H``, ``meld QS JD``, ``bury 9H 9C JD``,
``give 9H 9C JD``, ``declare-out``, ``concede``, ``throw-in``, ``exchange 9H``, ``ask H``,
``discard 9H``, ``keep AH``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, unique

from bot.engine.cards import Card, Suit, parse_cards
from bot.engine.errors import BadAction, BadCard


@unique
class Kind(Enum):
    """What an action does. Variants use the subset they need."""

    PASS = "pass"
    BID = "bid"
    PLAY = "play"
    TRUMP = "trump"
    MELD = "meld"
    BURY = "bury"
    GIVE = "give"
    DECLARE_OUT = "declare-out"
    CONCEDE = "concede"
    THROW_IN = "throw-in"
    EXCHANGE = "exchange"
    ASK = "ask"
    DISCARD = "discard"
    KEEP = "keep"
    TELL_MELD = "tell-meld"


_NEEDS_AMOUNT = {Kind.BID}
_NEEDS_SUIT = {Kind.TRUMP, Kind.ASK}
_NEEDS_CARDS = {Kind.PLAY, Kind.MELD, Kind.BURY, Kind.GIVE, Kind.EXCHANGE, Kind.DISCARD, Kind.KEEP}


@dataclass(frozen=True, slots=True)
class Action:
    """One decision: its kind plus the amount, suit or cards it names."""

    kind: Kind
    amount: int | None = None
    suit: Suit | None = None
    cards: tuple[Card, ...] = ()

    @property
    def card(self) -> Card:
        """The single card of a ``play`` or ``exchange``."""
        return self.cards[0]

    def __str__(self) -> str:
        if self.kind in _NEEDS_AMOUNT:
            return f"{self.kind.value} {self.amount}"
        if self.kind in _NEEDS_SUIT:
            assert self.suit is not None
            return f"{self.kind.value} {self.suit.value}"
        if self.kind in _NEEDS_CARDS:
            return f"{self.kind.value} " + " ".join(card.code for card in self.cards)
        return self.kind.value


# ----- the one interning point ----------------------------------------------------------------------
# Every action the engine lists is one shared object, so ``apply`` can recognise the very object
# ``legal_actions`` handed out by identity (the fast path) and equal actions hash once.
PASS = Action(Kind.PASS)
DECLARE_OUT = Action(Kind.DECLARE_OUT)
CONCEDE = Action(Kind.CONCEDE)
THROW_IN = Action(Kind.THROW_IN)
TELL_MELD = Action(Kind.TELL_MELD)
_BARE: dict[Kind, Action] = {
    action.kind: action for action in (PASS, DECLARE_OUT, CONCEDE, THROW_IN, TELL_MELD)
}
TRUMP_OF: dict[Suit, Action] = {suit: Action(Kind.TRUMP, suit=suit) for suit in Suit}
"""``trump S`` … by suit."""
ASK_OF: dict[Suit, Action] = {suit: Action(Kind.ASK, suit=suit) for suit in Suit}
"""``ask S`` … by suit."""
_PLAYS: dict[Card, Action] = {}
_SINGLE: dict[tuple[str, Card], Action] = {}
"""Interned one-card actions by (kind's value, card): an Enum member hashes in Python, its value in C."""
_BIDS: dict[int, Action] = {}
_MELDS: dict[tuple[Card, ...], Action] = {}
_INTERNED_BIDS = range(10_001)
"""Bids kept once made (every ladder of every variant); others, typed by a player, are not kept."""


def play(card: Card) -> Action:
    """The (interned) action of playing ``card``."""
    action = _PLAYS.get(card)
    if action is None:
        action = _PLAYS[card] = Action(Kind.PLAY, cards=(card,))
    return action


def bid_action(amount: int) -> Action:
    """The (interned) bid of ``amount``."""
    action = _BIDS.get(amount)
    if action is None:
        action = Action(Kind.BID, amount=amount)
        if amount in _INTERNED_BIDS:
            _BIDS[amount] = action
    return action


bid = bid_action
"""A bid of ``amount`` (the public name of ``bid_action``)."""


def trump_action(suit: Suit) -> Action:
    """The (interned) action naming ``suit`` trump."""
    return TRUMP_OF[suit]


def card_action(kind: Kind, card: Card) -> Action:
    """The (interned) one-card action ``kind card`` (``play 9H``, ``bury 9H``, ``give AS``, …)."""
    if kind is Kind.PLAY:
        return play(card)
    if kind is Kind.MELD:
        return meld_action((card,))
    key = (kind._value_, card)
    action = _SINGLE.get(key)
    if action is None:
        action = _SINGLE[key] = Action(kind, cards=(card,))
    return action


def card_actions(kind: Kind, cards: list[Card]) -> list[Action]:
    """``card_action(kind, card)`` for ``cards`` (sorted, so identical copies are neighbours)
    without repeats."""
    out: list[Action] = []
    prev: Card | None = None
    for card in cards:
        if card is not prev:
            out.append(card_action(kind, card))
            prev = card
    return out


def meld_action(cards: tuple[Card, ...]) -> Action:
    """The (interned) ``meld`` action laying exactly ``cards``, given in the variant's canonical
    order (two-hand: ``bot.engine.meld.canonical_cards``)."""
    action = _MELDS.get(cards)
    if action is None:
        action = _MELDS[cards] = Action(Kind.MELD, cards=cards)
    return action


def parse_action(text: str) -> Action:
    """Parse the canonical text form of an action (case-insensitive) into the interned action
    (a new one only for several cards, e.g. ``bury 9H 9C JD``, or an outlandish bid).

    >>> parse_action("Pass") is PASS and parse_action("play 10h") is play(Card.parse("10H"))
    True
    """
    words = text.strip().split()
    if not words:
        raise BadAction("empty action: try 'pass', 'bid 2' or 'play 10H'")
    head, rest = words[0].lower(), words[1:]
    try:
        kind = Kind(head)
    except ValueError:
        valid = ", ".join(k.value for k in Kind)
        raise BadAction(f"unknown action {words[0]!r}: valid actions are {valid}") from None
    if kind in _NEEDS_AMOUNT:
        if len(rest) != 1 or not rest[0].lstrip("-").isdigit():
            raise BadAction(f"'{kind.value}' needs one number, e.g. '{kind.value} 3'")
        return bid_action(int(rest[0]))
    if kind in _NEEDS_SUIT:
        if len(rest) != 1:
            raise BadAction(f"'{kind.value}' needs one suit, e.g. '{kind.value} H'")
        suit = Suit.parse(rest[0])
        return TRUMP_OF[suit] if kind is Kind.TRUMP else ASK_OF[suit]
    if kind in _NEEDS_CARDS:
        try:
            cards = parse_cards(rest)
        except BadCard as err:
            raise BadAction(str(err)) from None
        if not cards:
            raise BadAction(f"'{kind.value}' needs cards, e.g. '{kind.value} 10H'")
        if kind is Kind.PLAY and len(cards) != 1:
            raise BadAction("'play' takes exactly one card, e.g. 'play 10H'")
        return card_action(kind, cards[0]) if len(cards) == 1 else Action(kind, cards=tuple(cards))
    if rest:
        raise BadAction(f"'{kind.value}' takes nothing after it")
    return _BARE[kind]
