"""Sampled worlds for search in pitch (``Game.sample_world``): what a seat has seen of a deal, as
places for ``bot.engine.sampling.deal_unseen``."""

from __future__ import annotations

import random
from functools import cache
from typing import TYPE_CHECKING

from bot.engine.cards import Card, Rank, Suit, make_deck
from bot.engine.events import Phase
from bot.engine.pitch.trumps import TrumpRules, Trumps
from bot.engine.sampling import Dealer, Place

if TYPE_CHECKING:
    from bot.engine.pitch.base import PitchBase


def plays_of_deal(game: PitchBase) -> list[list[tuple[int, Card]]]:
    """The deal's tricks so far, the one under way last (if begun)."""
    out = [plays for plays, _ in game.tricks]
    if game.trick:
        out.append(game.trick)
    return out


@cache
def effective_suits(rules: TrumpRules, trumps: Trumps) -> dict[Suit, tuple[Card, ...]]:
    """Every card of the pack by effective suit (trumps under the trump suit; jokers only there)."""
    pack = make_deck(tuple(Rank)) + list(rules.joker_cards)
    by_suit: dict[Suit, list[Card]] = {suit: [] for suit in Suit}
    for card in pack:
        if card in trumps.power:
            by_suit[trumps.suit].append(card)
        elif not card.is_joker:
            by_suit[card.suit].append(card)
    return {suit: tuple(cards) for suit, cards in by_suit.items()}


def revealed(game: PitchBase) -> tuple[list[list[Card]], list[set[Card]]]:
    """Per seat: the cards it played this deal, and the cards it cannot hold now (a void shown by
    playing neither the led suit nor a trump, no trump on a trump lead, a first lead that had to be
    a trump while it held one)."""
    players = game.players
    played: list[list[Card]] = [[] for _ in range(players)]
    forbidden: list[set[Card]] = [set() for _ in range(players)]
    trumps = game.trumps
    if trumps is None:
        for trick in plays_of_deal(game):
            for seat, card in trick:
                played[seat].append(card)
        return played, forbidden
    by_suit = effective_suits(game.trump_rules, trumps)
    suit_of = trumps.suit_of
    trump = trumps.suit
    for number, trick in enumerate(plays_of_deal(game)):
        led = suit_of(trick[0][1])
        for index, (seat, card) in enumerate(trick):
            played[seat].append(card)
            suit = suit_of(card)
            if index == 0:
                if number == 0 and game.first_lead_trump and suit is not trump:
                    forbidden[seat].update(by_suit[trump])
            elif led is trump:
                if suit is not trump:
                    forbidden[seat].update(by_suit[trump])
            elif suit is not led and suit is not trump:
                forbidden[seat].update(by_suit[led])
    return played, forbidden


class PitchPlan:
    """What ``seat`` has seen of a pitch deal, ready to deal many worlds from (kept by
    ``Game.sampling_plan`` until the next action): the cards played, the places it cannot see
    (other hands, the keep-list of a seat choosing, discards, the undealt cards) and their
    ``Dealer``."""

    def __init__(self, game: PitchBase, seat: int) -> None:
        played, forbidden = revealed(game)
        discards: list[list[Card]] = getattr(game, "discards", [[] for _ in range(game.players)])
        kept: list[Card] = getattr(game, "kept", [])
        scoring = discards and game.trumps is not None and hasattr(game, "point_cards")
        points: set[Card] = game.point_cards() if scoring else set()  # type: ignore[attr-defined]
        keeper = game.turn if kept and game.phase is Phase.DISCARD else -1
        places: list[Place] = []
        pool: list[Card] = []
        slots: list[tuple[str, int]] = []  # what each place is: ("hand"|"kept"|"discards"|"undealt", seat)
        for other in range(game.players):
            if other == seat:
                continue
            hand = game.hands[other]
            if other == keeper:
                # Cards chosen to keep are still in the hand: a place of their own (no point cards).
                places.append(Place(len(kept), forbidden=points | forbidden[other]))
                slots.append(("kept", other))
                places.append(Place(len(hand) - len(kept), forbidden=forbidden[other]))
            else:
                places.append(Place(len(hand), forbidden=forbidden[other]))
            slots.append(("hand", other))
            pool.extend(hand)
            if discards[other]:
                places.append(Place(len(discards[other]), forbidden=points))
                slots.append(("discards", other))
                pool.extend(discards[other])
        if game.undealt:
            places.append(Place(len(game.undealt)))
            slots.append(("undealt", -1))
            pool.extend(game.undealt)
        self.dealer = Dealer(pool, places)
        self.slots = slots
        self.played = played


def redeal_pitch(game: PitchBase, seat: int, rng: random.Random) -> None:
    """``Game.redeal_unseen`` for every pitch variant."""
    plan = game.sampling_plan(seat)
    assert isinstance(plan, PitchPlan)
    played = plan.played
    dealt = plan.dealer.deal(rng)
    hands: dict[int, list[Card]] = {}
    for (what, other), cards in zip(plan.slots, dealt, strict=True):
        if what == "undealt":
            game.undealt = cards
        elif what == "discards":
            game.discards[other] = cards  # type: ignore[attr-defined]
        elif what == "kept":
            game.kept = cards  # type: ignore[attr-defined]
            hands[other] = cards[:]
        else:
            hands[other] = hands.get(other, []) + cards
    for other, cards in hands.items():
        game.hands[other] = game.sort_cards(cards)
    # What each seat was dealt (Low's owner under old-high-low): the hand with its played cards and
    # discards back (the widow's cards are not told apart from the pitcher's own: never needed).
    discards: list[list[Card]] = getattr(game, "discards", [[] for _ in range(game.players)])
    for other in range(game.players):
        game.dealt[other] = game.sort_cards(game.hands[other] + played[other] + discards[other])
