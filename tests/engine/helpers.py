"""Test helpers that put a game into a chosen position (rigging the deal), then use the public API."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, TypeVar

from bot.engine import Card, Game, Phase, Suit, new_game, parse_cards
from bot.engine.pitch import PitchBase

P = TypeVar("P", bound=PitchBase)


def rig_pitch_deal(game: P, hands: dict[int, str], *, dealer: int) -> P:
    """A new game like ``game`` (variant, players, options, seed) whose first deal is dealt by
    ``dealer`` with ``hands`` (seat → six cards; the other seats get cards from the rest of the
    pack), through the engine's position-setup hook (``new_game(decks=..., dealer=...)``)."""
    chosen = {seat: parse_cards(text) for seat, text in hands.items()}
    rest = Counter(game.pack())
    for cards in chosen.values():
        assert len(cards) == 6, cards
        rest.subtract(cards)
    assert all(n >= 0 for n in rest.values()), "a card is in two hands"
    spare = sorted(rest.elements(), key=lambda card: card.id)
    random.Random(7).shuffle(spare)
    for seat in range(game.players):
        if seat not in chosen:
            chosen[seat], spare = spare[:6], spare[6:]
    # The deal pops cards off the end of the pack, three at a time from the dealer's left, twice.
    order = [(dealer + 1 + k) % game.players for k in range(game.players)]
    popped = [card for half in (0, 3) for seat in order for card in chosen[seat][half : half + 3]]
    deck = spare + popped[::-1]
    new = new_game(
        game.name, players=game.players, options=game.options, seed=game.seed, decks=[deck], dealer=dealer
    )
    assert isinstance(new, type(game))
    return new


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
    game.set_trump(Suit.parse(trump))
    game.pitcher = pitcher
    game.high_bid = bid
    game.phase = Phase.PLAY
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


def stacked_pitch_game(
    variant: str,
    hands: dict[int, str],
    *,
    dealer: int,
    players: int,
    options: dict[str, Any] | None = None,
    widow: str = "",
) -> PitchBase:
    """A pitch game (any variant, any hand size) whose first deal gives ``hands`` (seat → cards)
    and leaves ``widow`` undealt, dealt by ``dealer``; seats not named get cards from the rest of
    the pack. Built through the position-setup hook (``new_game(decks=..., dealer=...)``)."""
    game = new_game(variant, players=players, options=options, seed=1)
    assert isinstance(game, PitchBase)
    chosen = {seat: parse_cards(text) for seat, text in hands.items()}
    left = parse_cards(widow)
    rest = Counter(game.pack())
    for cards in [*chosen.values(), left]:
        rest.subtract(cards)
    assert all(n >= 0 for n in rest.values()), "a card is given twice"
    spare = sorted(rest.elements(), key=lambda card: card.id)
    random.Random(7).shuffle(spare)
    size = sum(game.packets())
    for seat in range(players):
        if seat not in chosen:
            chosen[seat], spare = spare[:size], spare[size:]
        assert len(chosen[seat]) == size, (seat, chosen[seat])
    order = [(dealer + 1 + k) % players for k in range(players)]
    popped: list[Card] = []
    start = 0
    for packet in game.packets():
        popped += [card for seat in order for card in chosen[seat][start : start + packet]]
        start += packet
    deck = left + spare + popped[::-1]
    new = new_game(variant, players=players, options=options, seed=1, decks=[deck], dealer=dealer)
    assert isinstance(new, PitchBase)
    return new


def run_script(game: Game, script: str) -> list[dict[str, Any]]:
    """Apply ``script`` (``s1 bid 2, s2 pass, s1 play 8S``: each step names the seat that must be
    the one to act) and return every event."""
    events: list[dict[str, Any]] = []
    for step in script.replace("\n", ",").split(","):
        if not step.strip():
            continue
        seat_text, action = step.split(maxsplit=1)
        seat = int(seat_text.removeprefix("s"))
        assert game.to_act == (seat,), f"{step.strip()}: waiting for {game.to_act}"
        events += game.apply(seat, action)
    return events


def strings_in(value: Any) -> set[str]:
    """Every string in a JSON-like value (dict keys included): for checking what a view shows."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return {s for k, v in value.items() for s in (*strings_in(k), *strings_in(v))}
    if isinstance(value, list | tuple):
        return {s for item in value for s in strings_in(item)}
    return set()
