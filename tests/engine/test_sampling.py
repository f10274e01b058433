"""``bot.engine.sampling``: what the fast paths of the world sampler keep exact. A monotone check's
failing single cards are forbidden before dealing without changing which deals pass; deals are
drawn from the proposal conditioned on passing (uniform where the proposal is); sampling plans are
kept until the next action only, and never travel with a pickled game or a sampled world."""

from __future__ import annotations

import pickle
import random
from collections import Counter
from dataclasses import replace
from itertools import combinations

from bot.engine import Card, Rank, Suit, new_game
from bot.engine.meld import FOUR_HAND, count_meld
from bot.engine.pinochle.worlds import meld_check
from bot.engine.sampling import Dealer, Place, multiset_minus
from tests.engine.test_sample_world import pick

H, S, D, C = Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS
A, T, K, Q, J, N = Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE


def small_position() -> tuple[list[Card], list[Place]]:
    """A hand that showed a heart marriage and 80 kings with spades trump (its meld cards known,
    a 9♥ played), four more cards to deal it; a second hand of four with no test; eight unseen
    cards, among them a dix, the Q♠ (a royal marriage with the K♠ held) and a second heart
    marriage."""
    known = [Card(H, K), Card(H, Q), Card(S, K), Card(D, K), Card(C, K)]
    played = [Card(H, N)]
    shown = count_meld(known + played, S, FOUR_HAND)
    assert shown.total == 100
    check = meld_check(shown, played, [], S, FOUR_HAND)
    pool = [Card(S, N), Card(S, Q), Card(D, J), Card(C, A), Card(H, K), Card(H, Q), Card(D, T), Card(C, J)]
    places = [Place(9, known, check=check, monotone=True), Place(4)]
    return pool, places


def passing_deals(pool: list[Card], places: list[Place]) -> set[tuple[Card, ...]]:
    """Every set of cards the first place may be dealt (the rest to the second) passing every test."""
    first = places[0]
    out = set()
    for index in combinations(range(len(pool)), first.size - len(first.known)):
        got = [pool[i] for i in index]
        if any(card in first.forbidden for card in got):
            continue
        if first.check is None or first.check(first.known + got):
            out.add(tuple(sorted(got, key=lambda card: card.id)))
    return out


def test_forbidding_a_monotone_checks_failing_cards_keeps_the_passing_deals() -> None:
    pool, places = small_position()
    dealer = Dealer(pool, places)
    forbidden = set(dealer.search_places[0].forbidden)
    # The dix and the spade queen (a royal marriage) add meld alone; the other cards do only in
    # pairs (pinochle, a second heart marriage), so they stay dealable.
    assert forbidden == {Card(S, N), Card(S, Q)}
    assert passing_deals(pool, dealer.search_places) == passing_deals(pool, places)
    assert passing_deals(pool, places)  # the test is not empty


def test_a_check_every_deal_passes_is_not_run_and_one_that_can_fail_is() -> None:
    pool, places = small_position()
    assert [i for i, _ in Dealer(pool, places).checks] == [0]  # a second heart marriage can come
    # Without the heart marriage and pinochle cards in the pool, nothing can add meld: every deal
    # passes, and the check is not run (the deals are the same without it).
    quiet = [Card(D, T), Card(C, A), Card(D, T), Card(C, A), Card(H, T), Card(H, T), Card(C, T), Card(C, T)]
    dealer = Dealer(quiet, places)
    assert dealer.checks == []
    assert all(places[0].check(dealer.deal(random.Random(seed))[0]) for seed in range(20))  # type: ignore[misc]
    # Not monotone: no such proof, the check is run.
    assert Dealer(quiet, [replace(places[0], monotone=False), places[1]]).checks


def test_dealt_deals_are_uniform_among_the_passing_deals() -> None:
    """Uniform as in a real shuffle, where the two copies of a card are two cards: a hand known to
    hold a K♥ holds both copies in 1 of the ways, one of them in 2 (either copy)."""
    pool, places = small_position()
    dealer = Dealer(pool, places)
    rng = random.Random(3)
    seen: Counter[tuple[Card, ...]] = Counter()
    rounds = 6000
    for _ in range(rounds):
        first, second = dealer.deal(rng)
        assert not Counter(places[0].known) - Counter(first)
        assert Counter(first + second) == Counter(pool + places[0].known)
        dealt = multiset_minus(first, places[0].known)
        seen[tuple(sorted(dealt, key=lambda card: card.id))] += 1
    passing = passing_deals(pool, places)
    assert set(seen) == passing
    known = Counter(places[0].known)
    # Physical deals behind each: a known card dealt again is one of its copies held twice.
    weight = {deal: 1 / (2 ** sum(1 for card in deal if card in known)) for deal in passing}
    total = sum(weight.values())
    for deal, count in seen.items():
        mean = rounds * weight[deal] / total
        assert abs(count - mean) < 5 * mean**0.5, (deal, count, mean)  # a binomial count


def test_a_monotone_check_failing_on_the_known_cards_forbids_nothing() -> None:
    pool, places = small_position()
    places[0].known = multiset_minus(places[0].known, [Card(C, K)])  # 80 kings not made by these
    pool.append(Card(C, K))
    assert not Dealer(pool, places).places[0].forbidden


def test_a_sampling_plan_is_kept_until_the_next_action() -> None:
    game = new_game("pinochle-4", seed=8)
    rng = random.Random(8)
    while game.phase.value != "play" or not game.trick_plays():  # type: ignore[attr-defined]
        game.apply(game.to_act[0], pick(game, game.to_act[0], rng))
    seat = (game.to_act[0] + 1) % 4
    world = game.sample_world(seat, rng)
    plan = game.sampling_plan(seat)
    assert game.sampling_plan(seat) is plan
    assert world._plans is None  # a world starts with none of its own
    restored = pickle.loads(pickle.dumps(game))  # the plan (it holds functions) is not pickled
    assert restored._plans is None and restored.view(seat) == game.view(seat)
    actor = game.to_act[0]
    game.apply(actor, pick(game, actor, rng))
    assert game._plans is None
    assert game.sampling_plan(seat) is not plan
    game.invalidate()
    assert game._plans is None


def test_a_world_sampled_after_an_action_knows_what_the_action_showed() -> None:
    """The plan is made again after each action: a void shown by the last card is respected."""
    rng = random.Random(2)
    for seed in range(40):
        game = new_game("pinochle-4", seed=seed)
        while game.phase.value != "play":  # type: ignore[attr-defined]
            game.apply(game.to_act[0], pick(game, game.to_act[0], rng))
        seat = game.to_act[0]
        while not game.is_over and game.phase.value == "play":  # type: ignore[attr-defined]
            game.sample_world(seat, rng)  # a plan for the position before the card
            plays = game.trick_plays()
            actor = game.to_act[0]
            game.apply(actor, pick(game, actor, rng))
            if plays and actor != seat and game.trick_plays():
                led = plays[0][1].suit
                if game.trick_plays()[-1][1].suit is not led:  # actor showed a void in the led suit
                    for k in range(5):
                        world = game.sample_world(seat, random.Random(k))
                        assert not [c for c in world.hand(actor) if c.suit is led]
                    return
    raise AssertionError("no void shown in 40 deals")
