"""Whether a claim a seat may make is sound, judged from that seat's view only.

Claims end a deal or a game on the claimant's word: declaring out (two-hand and partnership
pinochle), conceding (three-hand), throwing in (double-deck). A claim is *sound* when declaring out
wins the game now, or when conceding or throwing in gives up a deal that is already lost (the
bidder cannot reach the bid even by taking every counter). The fair ``random`` level makes a claim
only when it is sound; the rule-based levels may use these too.
"""

from __future__ import annotations

from typing import Any

from bot.engine import Action, Card, Kind, Suit
from bot.engine.game import find_variant
from bot.engine.meld import meld_total
from bot.engine.pinochle.common import LAST_TRICK, POINTS, PinochleGame, counted_counters

CLAIMS = frozenset({Kind.DECLARE_OUT, Kind.CONCEDE, Kind.THROW_IN})
"""Actions that end a deal or a game on the claimant's word."""


def side_index(view: dict[str, Any]) -> int:
    """The side (index into ``view["sides"]``) of the seat whose view this is."""
    seat = view["seat"]
    return next(index for index, seats in enumerate(view["sides"]) if seat in seats)


def declare_out_wins(view: dict[str, Any]) -> bool:
    """Whether declaring out now wins: the side's score plus its counters so far (rounded as the
    ``count`` option says) and, in partnership games, its meld once it has won a trick, reach the
    target."""
    target = view.get("target")
    if target is None:
        return False
    side = side_index(view)
    count = str(view.get("options", {}).get("count", "standard"))
    total = view["scores"][side] + counted_counters(view["counters"][side], count)
    side_meld = view.get("side_meld")
    if side_meld is not None and view["tricks_won"][side]:
        total += side_meld[side]
    return bool(total >= target)


def deal_is_lost(view: dict[str, Any]) -> bool:
    """Whether the bidding side cannot make its bid whatever happens in play (so conceding or
    throwing in loses nothing that playing on could save)."""
    if view.get("family") == "double-deck":  # the offer says whether meld plus every trick point falls short
        offer = view.get("throw_in_offer")
        return bool(offer and offer["short"])
    if view.get("widow") is None or view.get("high_bid") is None:
        return False  # three-hand before the widow is seen: it could still hold anything
    return _most_three_hand_points(view) < int(view["high_bid"])


def _most_three_hand_points(view: dict[str, Any]) -> int:
    """The most a three-hand bidder can score: its best meld (with the trump named, or with any
    trump before naming) plus every counter in the pack and the last trick."""
    variant = find_variant(view["variant"])
    assert issubclass(variant, PinochleGame)
    options = view.get("options", {})
    table = variant.meld_table_for(options)
    ranks, copies = variant.pack_for(options)
    values = POINTS[str(options.get("count", "standard"))]
    counters = copies * sum(values.get(Card(suit, rank), 0) for suit in Suit for rank in ranks) + LAST_TRICK
    cards = [Card.parse(code) for code in [*view["hand"], *view.get("buried", [])]]
    suits = [Suit.parse(view["trump"])] if view.get("trump") else list(Suit)
    return max(meld_total(cards, suit, table) for suit in suits) + counters


def claim_is_sound(view: dict[str, Any], action: Action) -> bool:
    """Whether ``action`` (a claim) is sound now; any other action is simply not a claim."""
    if action.kind is Kind.DECLARE_OUT:
        return declare_out_wins(view)
    if action.kind in (Kind.CONCEDE, Kind.THROW_IN):
        return deal_is_lost(view)
    return False
