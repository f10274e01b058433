"""``Game.sample_world``: a world dealt again from what one seat has seen.

Privacy: two real games that look the same to the seat (the second dealt from a pack with hidden
cards swapped, then the same actions replayed) give the very same sampled world for the same rng
seed. Consistency: the sampled world looks the same to the seat, keeps every card, respects every
revealed void and shown meld, and plays legally to the end of the deal. Spread: over many samples
each unseen card lands in every place it may be.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from bot.engine import Action, Card, Game, new_game, variant_names
from bot.engine.meld import count_meld
from bot.engine.pinochle.partnership import PartnershipBase
from bot.engine.pitch import PitchBase
from bot.engine.sampling import multiset_minus

CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("pitch", 2, {}),
    ("pitch", 4, {}),
    ("pitch", 7, {}),
    ("pitch-joker", 4, {}),
    ("pitch-smudge", 4, {}),
    ("pitch", 4, {"off-jack": True, "jokers": 2}),
    ("pitch-partnership", 4, {}),
    ("pitch-10", 4, {}),
    ("pitch-10", 6, {}),
    ("pinochle-4", 4, {}),
    ("pinochle-4-auction", 4, {}),
    ("pinochle-4-auction", 4, {"pass": 4}),
    ("pinochle-6", 6, {}),
    ("pinochle-6", 6, {"rules": "auction", "pass": 4}),
    ("pinochle-8", 8, {}),
    ("pinochle-2", 2, {}),
    ("pinochle-3", 3, {}),
    ("double-deck", 4, {}),
    ("double-deck", 4, {"meld-info": True, "min-20": True, "giveup": "play"}),
    ("double-deck-npa", 4, {}),
    ("double-deck-pass", 4, {}),
    ("double-deck-toby-thomas", 4, {}),
    ("double-deck-jim-davis", 4, {"pass-order": "partner-first", "trump-marriage": "after-pass"}),
    ("pinochle-2", 2, {"deck64": True}),
]
IDS = [f"{name}-{players}" + "".join(f"-{k}={v}" for k, v in opts.items()) for name, players, opts in CASES]
NO_CLAIMS = ("declare-out", "concede")


def pick(game: Game, seat: int, rng: random.Random) -> Action:
    """A random legal action, never a claim (declaring out or conceding ends the deal at once)."""
    legal = game.legal_actions(seat)
    return rng.choice([a for a in legal if str(a) not in NO_CLAIMS] or legal)


def start(name: str, players: int, options: dict[str, Any], deck: list[Card], dealer: int) -> Game:
    return new_game(name, players=players, options=options, seed=11, decks=[deck], dealer=dealer)


def replay(game: Game, actions: list[tuple[int, str]], seat: int) -> list[dict[str, Any]] | None:
    """Apply ``actions``, returning what ``seat`` saw before and after each (None if one is
    illegal)."""
    seen = [game.view(seat)]
    for actor, text in actions:
        if str(text) not in {str(a) for a in game.legal_actions(actor)}:
            return None
        game.apply(actor, text)
        seen.append(game.view(seat))
    return seen


def first_deal_position(
    name: str, players: int, options: dict[str, Any], rng: random.Random
) -> tuple[Game, list[Card], int, list[tuple[int, str]]]:
    """A game stopped at a random point of its first deal (stacked from a random pack)."""
    probe = new_game(name, players=players, options=options, seed=11)
    deck = probe.pack()
    rng.shuffle(deck)
    dealer = rng.randrange(players)
    game = start(name, players, options, deck, dealer)
    actions: list[tuple[int, str]] = []
    budget = rng.randrange(0, 3 * len(deck))
    for _ in range(budget):
        seat = game.to_act[0]
        action = pick(game, seat, rng)
        trial = game.copy()
        trial.apply(seat, action)
        if trial.is_over or getattr(trial, "deal_no", 1) != 1:
            break
        game.apply(seat, action)
        actions.append((seat, str(action)))
    return game, deck, dealer, actions


def state(game: Game) -> dict[str, Any]:
    return {key: value for key, value in game.__dict__.items() if key not in ("log", "decks")}


def twin(
    game: Game, deck: list[Card], dealer: int, actions: list[tuple[int, str]], seat: int, rng: random.Random
) -> Game | None:
    """A second game that looked the same to ``seat`` at every step but whose hidden cards differ:
    dealt from ``deck`` with pairs of cards swapped, replaying ``actions`` (None if no swap fits)."""
    name, players, options = game.name, game.players, game.options
    seen = replay(start(name, players, options, deck, dealer), actions, seat)
    found: Game | None = None
    current = deck[:]
    for _ in range(60):
        i = rng.randrange(len(deck))
        same = [k for k, card in enumerate(current) if card.suit is current[i].suit]
        j = rng.choice(same) if rng.random() < 0.7 else rng.randrange(len(deck))  # keeps voids
        if current[i] is current[j]:
            continue
        trial = current[:]
        trial[i], trial[j] = trial[j], trial[i]
        other = start(name, players, options, trial, dealer)
        if replay(other, actions, seat) != seen:  # everything seat saw, all along, is the same
            continue
        current = trial
        if state(other) != state(game):
            found = other
    return found


@pytest.mark.parametrize(("name", "players", "options"), CASES, ids=IDS)
def test_the_sampled_world_depends_only_on_the_seats_view(
    name: str, players: int, options: dict[str, Any]
) -> None:
    rng = random.Random(f"privacy/{name}/{players}/{options}")
    checked = 0
    for _ in range(40):
        if checked == 6:
            break
        game, deck, dealer, actions = first_deal_position(name, players, options, rng)
        seat = rng.randrange(players)
        other = twin(game, deck, dealer, actions, seat, rng)
        if other is None:
            continue
        checked += 1
        for k in range(3):
            one = game.sample_world(seat, random.Random(k))
            two = other.sample_world(seat, random.Random(k))
            differ = sorted(key for key in state(one) if state(one)[key] != state(two).get(key))
            assert not differ, f"sampled worlds differ in {differ} (actions: {len(actions)})"
    assert checked >= 4


def deal_cards(game: Game) -> Counter[Card]:
    """Every card of the deal wherever it is (hands, tricks and the variant's other places)."""
    cards: Counter[Card] = Counter()
    for hand in game.hands:  # type: ignore[attr-defined]
        cards.update(hand)
    for plays, _ in game.tricks:  # type: ignore[attr-defined]
        cards.update(card for _, card in plays)
    cards.update(card for _, card in game.trick)  # type: ignore[attr-defined]
    for extra in ("undealt", "giving", "stock", "widow", "buried"):
        pile = getattr(game, extra, [])
        for item in pile:
            cards.update(item if isinstance(item, list) else [item])  # double-deck: one per seat
    for pile in getattr(game, "discards", []):
        cards.update(pile)
    if game.name == "pinochle-2":  # cards laid on the table as meld
        for laid in game.laid:  # type: ignore[attr-defined]
            cards.update(card for card, _ in laid)
    turned = getattr(game, "turned", None)
    if turned is not None and (game.name == "pinochle-2" or game.phase.value == "exchange"):  # type: ignore[attr-defined]
        cards[turned] += 1
    return cards


def effective_suit(game: Game, card: Card) -> Any:
    trumps = getattr(game, "trumps", None)
    return trumps.suit_of(card) if trumps is not None else card.suit


def assert_voids_respected(world: Game) -> None:
    """A seat that did not follow the led suit holds none of it now (in pitch, where trumping is
    always allowed, one that played neither the led suit nor a trump; effective suits)."""
    trump = getattr(world, "trump", None)
    tricks = [plays for plays, _ in world.tricks] + ([world.trick] if world.trick else [])  # type: ignore[attr-defined]
    if world.name == "pinochle-2":  # no duty to follow while the stock lasts
        tricks = tricks[(len(world.pack()) - 24) // 2 :]
    for plays in tricks:
        led = effective_suit(world, plays[0][1])
        for seat, card in plays[1:]:
            suit = effective_suit(world, card)
            if suit is not led and (world.family != "pitch" or suit is not trump):
                held = [c for c in world.hands[seat] if effective_suit(world, c) is led]  # type: ignore[attr-defined]
                assert not held, f"seat {seat} showed a void in {led} but holds {held}"


def assert_meld_kept(world: Game) -> None:
    """Every seat's hand with its played cards back melds exactly what it showed."""
    if not isinstance(world, PartnershipBase) or not world.meld_hands or world.trump is None:
        return
    shown = world.meld_results()
    assert shown is not None
    for seat in range(world.players):
        played = [card for plays, _ in world.tricks for s, card in plays if s == seat]
        played += [card for s, card in world.trick if s == seat]
        hand = multiset_minus(
            world.hands[seat] + played, [world.dix] * len(world.exchanges) if seat == world.dealer else []
        )
        assert count_meld(hand, world.trump, world.meld_table) == shown[seat]
        assert Counter(hand) == Counter(world.meld_hands[seat])


@pytest.mark.parametrize(("name", "players", "options"), CASES, ids=IDS)
def test_the_sampled_world_is_consistent_and_plays_to_the_end_of_the_deal(
    name: str, players: int, options: dict[str, Any]
) -> None:
    rng = random.Random(f"consistent/{name}/{players}/{options}")
    for _ in range(15):
        game, _, _, _ = first_deal_position(name, players, options, rng)
        seat = rng.randrange(players)
        before = game.to_json()
        for k in range(3):
            world = game.sample_world(seat, random.Random(k))
            assert game.to_json() == before, "sampling changed the real game"
            if isinstance(world, PartnershipBase):
                world.melds = None  # count the meld again from the sampled hands
            assert world.view(seat) == game.view(seat)
            assert world.hands[seat] == game.hands[seat]  # type: ignore[attr-defined]
            assert [len(h) for h in world.hands] == [len(h) for h in game.hands]  # type: ignore[attr-defined]
            assert deal_cards(world) == deal_cards(game)
            assert_voids_respected(world)
            assert_meld_kept(world)
            deal = world.deal_no  # type: ignore[attr-defined]
            while not world.is_over and world.deal_no == deal:  # type: ignore[attr-defined]
                actor = world.to_act[0]
                world.apply(actor, pick(world, actor, rng))  # apply checks legality


def spread(game: Game, seat: int, samples: int) -> dict[Card, set[int]]:
    """Which other hands each card ``seat`` cannot see landed in over ``samples`` worlds."""
    landed: dict[Card, set[int]] = {}
    for k in range(samples):
        world = game.sample_world(seat, random.Random(k))
        for other, hand in enumerate(world.hands):  # type: ignore[attr-defined]
            if other != seat:
                for card in hand:
                    landed.setdefault(card, set()).add(other)
    return landed


def test_every_unseen_card_lands_in_every_hand_that_may_hold_it_pitch() -> None:
    game = new_game("pitch", players=4, seed=3)
    seat = game.to_act[0]
    landed = spread(game, seat, 400)
    unseen = set(game.pack()) - set(game.hands[seat])  # type: ignore[attr-defined]
    assert set(landed) == unseen  # the undealt cards too: 28 of them, 18 in hands
    assert all(places == {s for s in range(4) if s != seat} for places in landed.values())


def test_a_revealed_void_keeps_the_suit_out_of_that_hand() -> None:
    rng = random.Random(5)
    for _ in range(200):
        game = new_game("pitch", players=4, seed=rng.randrange(10**6))
        while not game.is_over and game.phase.value != "play":  # type: ignore[attr-defined]
            game.apply(game.to_act[0], pick(game, game.to_act[0], rng))
        assert isinstance(game, PitchBase)
        while game.tricks == [] or not game.trick:
            game.apply(game.to_act[0], pick(game, game.to_act[0], rng))
            if game.deal_no != 1 or game.is_over:
                break
        if game.deal_no != 1 or game.is_over:
            continue
        led = game.tricks[0][0][0][1].suit
        void = [s for s, c in game.tricks[0][0][1:] if c.suit is not led and c.suit is not game.trump]
        if not void:
            continue
        seat = next(s for s in range(4) if s != void[0])
        for k in range(50):
            world = game.sample_world(seat, random.Random(k))
            assert not [c for c in world.hands[void[0]] if c.suit is led]
        return
    pytest.fail("no position with a revealed void found")


def test_every_unseen_card_lands_in_every_hand_pinochle_before_meld() -> None:
    game = new_game("pinochle-4-auction", seed=3)
    seat = game.to_act[0]
    landed = spread(game, seat, 200)
    others = {s for s in range(4) if s != seat}
    assert all(places == others for places in landed.values())


def test_shown_meld_stays_with_its_owner() -> None:
    rng = random.Random(8)
    game = new_game("pinochle-4", seed=8)
    while game.phase.value != "play":  # type: ignore[attr-defined]
        game.apply(game.to_act[0], pick(game, game.to_act[0], rng))
    assert isinstance(game, PartnershipBase)
    shown = game.meld_results()
    assert shown is not None
    seat = 0
    for k in range(30):
        world = game.sample_world(seat, random.Random(k))
        for other in range(1, 4):
            assert not Counter(shown[other].used_cards()) - Counter(world.hands[other])


@pytest.mark.parametrize("name", variant_names())
def test_every_variant_samples_worlds(name: str) -> None:
    rng = random.Random(name)
    game = new_game(name, seed=4)
    for _ in range(40):
        seat = rng.randrange(game.players)
        world = game.sample_world(seat, rng)
        assert world.view(seat) == game.view(seat)
        actor = game.to_act[0]
        game.apply(actor, pick(game, actor, rng))
        if game.is_over:
            break
