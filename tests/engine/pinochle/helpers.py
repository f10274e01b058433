"""Helpers for pinochle tests: stack the pack of the first deal, find every card, play scripted actions,
check that views keep hidden cards hidden."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any, TypeVar

from bot.engine import Card, Game, make_deck, new_game, parse_cards
from bot.engine.pinochle.common import PinochleGame
from bot.engine.pinochle.partnership import PartnershipBase
from bot.engine.pinochle.three import ThreeHand
from bot.engine.pinochle.two import TwoHand
from tests.engine.helpers import strings_in


def full_pack(game: PinochleGame) -> list[Card]:
    ranks, copies = game.pack_for(game.options)
    return make_deck(ranks, copies)


def fill(game: PinochleGame, parts: list[tuple[str | list[Card] | None, int]]) -> list[Card]:
    """A whole pack: each part is (cards or None, size); None parts get the cards left over."""
    rest = Counter(full_pack(game))
    chosen: list[list[Card] | None] = []
    for spec, size in parts:
        if spec is None:
            chosen.append(None)
            continue
        found = parse_cards(spec) if isinstance(spec, str) else list(spec)
        assert len(found) == size, (spec, size)
        rest.subtract(found)
        assert all(n >= 0 for n in rest.values()), f"too many copies in {spec}"
        chosen.append(found)
    spare = sorted(rest.elements(), key=lambda c: c.id)
    random.Random(7).shuffle(spare)
    deck: list[Card] = []
    for (_spec, size), found in zip(parts, chosen, strict=True):
        if found is None:
            found, spare = spare[:size], spare[size:]
        deck.extend(found)
    assert not spare
    return deck


G = TypeVar("G", bound=Game)


def stacked(game: G, deck: list[Card], dealer: int) -> G:
    """A new game like ``game`` (variant, players, options, seed) whose first deal is dealt by
    ``dealer`` from ``deck`` (the engine's position-setup hook, ``new_game(decks=..., dealer=...)``)."""
    new = new_game(
        game.name, players=game.players, options=game.options, seed=game.seed, decks=[deck], dealer=dealer
    )
    assert isinstance(new, type(game))
    return new


def rig_two(
    game: TwoHand,
    *,
    dealer: int = 1,
    elder: str | None = None,
    dealer_hand: str | None = None,
    turned: str | None = None,
    draws: str | None = None,
) -> TwoHand:
    """``game`` dealt again: the elder's (non-dealer's) and dealer's 12 cards, the turned card, and
    the first cards drawn from the stock in order (the rest of the stock is filled in)."""
    drawn = parse_cards(draws) if draws else []
    size = len(full_pack(game)) - 25
    parts: list[tuple[str | list[Card] | None, int]] = [
        (elder, 12),
        (dealer_hand, 12),
        (turned, 1),
        (None, size - len(drawn)),
        (list(reversed(drawn)), len(drawn)),
    ]
    return stacked(game, fill(game, parts), dealer)


P = TypeVar("P", bound=PinochleGame)


def rig_hands(game: P, hands: dict[int, str], *, dealer: int, extra: str | None = None) -> P:
    """``game`` dealt again, partnership / three-hand: seat → cards; ``extra`` is the widow
    (three-hand)."""
    players = game.players
    size = 15 if isinstance(game, ThreeHand) else len(full_pack(game)) // players
    parts: list[tuple[str | list[Card] | None, int]] = []
    for k in range(players):
        seat = (dealer + 1 + k) % players
        parts.append((hands.get(seat), size))
    if isinstance(game, ThreeHand):
        parts.append((extra, 3))
    return stacked(game, fill(game, parts), dealer)


def card_places(game: PinochleGame) -> Counter[Card]:
    """Every card of the deal: hands, table, stock, turned card, widow, buried, passing, tricks."""
    places: Counter[Card] = Counter()
    for hand in game.hands:
        places.update(hand)
    places.update(card for _, card in game.trick)
    for trick, _ in game.tricks:
        places.update(card for _, card in trick)
    if isinstance(game, TwoHand):
        for laid in game.laid:
            places.update(card for card, _ in laid)
        places.update(game.stock)
        if game.turned is not None:
            places.update([game.turned])
    if isinstance(game, PartnershipBase):
        if game.turned is not None and game.phase == "exchange":
            places.update([game.turned])
        places.update(game.giving)
    if isinstance(game, ThreeHand):
        if not game.widow_shown:
            places.update(game.widow)
        places.update(game.buried)
    return places


def check_cards(game: PinochleGame) -> None:
    assert card_places(game) == Counter(full_pack(game)), "cards are not conserved"


def play(game: Game, *actions: tuple[int, str]) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for seat, text in actions:
        events.extend(game.apply(seat, text))
    return events


def new(variant: str, seed: int = 1, **options: Any) -> Any:
    return new_game(variant, seed=seed, options=options)


# ----- privacy ------------------------------------------------------------------------------------
def check_view_private(
    game: PinochleGame,
    seat: int,
    rng: random.Random,
    shuffle: bool,
    known: Callable[[], list[Card]],
    hidden_places: Callable[[Any, int], list[list[Card]]],
) -> None:
    """``seat``'s view is JSON and names no card in ``hidden_places`` but those it may know
    (``known()``); with ``shuffle``, it stays the same when the hidden cards are dealt around."""
    view = game.view(seat)
    assert json.loads(json.dumps(view)) == view  # JSON-able
    codes = {card.code for card in known()}
    hidden = {card.code for place in hidden_places(game, seat) for card in place} - codes
    leaked = set(strings_in(view)) & hidden
    assert not leaked, (game.name, seat, game.phase, leaked)
    if not shuffle:
        return
    # The view must not change when the cards hidden from the seat are dealt around differently.
    other = game.copy()
    places = hidden_places(other, seat)
    pool = [card for place in places for card in place]
    rng.shuffle(pool)
    for place in places:
        size = len(place)
        place[:] = pool[:size]
        pool = pool[size:]
    other.invalidate()
    assert other.view(seat) == view, (game.name, seat, game.phase)
