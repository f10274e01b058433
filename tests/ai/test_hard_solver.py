"""The double-dummy solver (``bot.ai.hard.solver``) plays by the engine's rules and finds the values
that minimax through the engine itself finds."""

from __future__ import annotations

import random
import time

import pytest

from bot.ai.hard import HardPlayer
from bot.ai.hard.policy import RolloutPolicy
from bot.ai.hard.solver import SOLVE_CARDS, SolveCache, Solver, known_world, solve_known, solver_for
from bot.engine import Game, Kind, new_game
from bot.engine.cards import Card
from bot.engine.events import Phase
from bot.engine.pinochle.common import SUIT_INDEX

POINTS = new_game("pinochle-2", seed=1).points  # type: ignore[attr-defined]


def playoff_position(seed: int, cards_left: int, name: str = "pinochle-2", **options: object) -> Game:
    """A two-hand deal played at random into its playoff until the seat to play holds
    ``cards_left`` cards (a trick may be under way)."""
    game = new_game(name, seed=seed, options={"match": "deal", **options})
    rng = random.Random(seed)
    while True:
        seat = game.to_act[0]
        if game.phase is Phase.PLAYOFF and len(game.hand(seat)) <= cards_left:
            return game
        actions = [a for a in game.legal_actions(seat) if a.kind is not Kind.DECLARE_OUT]
        game.apply(seat, rng.choice(actions))


def engine_minimax(game: Game, side: int) -> int:
    """``side``'s counters minus the other side's from here to the deal's end, by minimax over
    ``game.copy()``/``apply`` (``deal_points`` counts the counters taken so far)."""
    seat = game.to_act[0]
    if game.phase is not Phase.PLAYOFF:
        raise AssertionError("left the playoff")
    values = []
    for action in game.legal_actions(seat):
        if action.kind is Kind.DECLARE_OUT:
            continue
        world = game.copy()
        world.rolling_out = True
        world.apply(seat, action)
        if world.phase is Phase.PLAYOFF and world.hand(world.to_act[0]):
            values.append(engine_minimax(world, side))
        else:
            summary = world.last_deal
            assert summary is not None
            taken = summary["counters"]
            values.append(taken[side] - taken[1 - side])
    return max(values) if game.side_of[seat] == side else min(values)


@pytest.mark.parametrize("seed", range(300))
def test_the_solvers_legal_cards_are_the_engines(seed: int) -> None:
    game = playoff_position(seed, 1 + seed % 12, deck64=seed % 5 == 0)
    seat = game.to_act[0]
    solver = solver_for(game, game, seat)
    hands = solver.hands
    trick = solver.trick
    legal = solver.legal(hands[seat], trick, solver.best_of(trick))
    engine = {a.cards[0] for a in game.legal_actions(seat) if a.kind is Kind.PLAY}
    assert {card_of(code) for code in legal} == engine
    assert len(legal) == len(engine)


def card_of(code: int) -> Card:
    from bot.ai.hard.solver import _CARD_OF

    return _CARD_OF[code]


@pytest.mark.parametrize("seed", range(60))
def test_the_solvers_value_is_minimax_through_the_engine(seed: int) -> None:
    game = playoff_position(seed, 2 + seed % 2, deck64=seed % 4 == 0)
    seat = game.to_act[0]
    side = game.side_of[seat]
    taken = game.deal_points()
    solution = solver_for(game, game, seat).solve()
    before = taken[side] - taken[1 - side]
    assert solution.value == engine_minimax(game, side) - before
    # The card it names reaches that value.
    world = game.copy()
    world.rolling_out = True
    world.apply(seat, next(a for a in game.legal_actions(seat) if a.cards and a.cards[0] is solution.card))
    if world.phase is Phase.PLAYOFF and world.hand(world.to_act[0]):
        assert engine_minimax(world, side) - before == solution.value


def test_equivalent_cards_are_played_once() -> None:
    # Spades trump; seat 0 leads holding 9♥ 8♥ 7♥ (worth nothing, nothing between them elsewhere).
    hands = [
        [Card.parse("9H"), Card.parse("8H"), Card.parse("7H"), Card.parse("AS")],
        [Card.parse("KH"), Card.parse("QS"), Card.parse("JS"), Card.parse("9S")],
    ]
    solver = Solver(
        hands, [], 0, trump_index=SUIT_INDEX[Card.parse("AS").suit], points=POINTS, side_of=[0, 1]
    )
    cards = solver.collapse(solver.legal(solver.hands[0], [], -1), 0, solver.hands, [])
    assert sorted(card_of(c).code for c in cards) == sorted(["AS", "9H"])
    # With the 8♥ held by the other seat, 9♥ and 7♥ are different cards.
    hands[0][1], hands[1][0] = hands[1][0], hands[0][1]
    solver = Solver(
        hands, [], 0, trump_index=SUIT_INDEX[Card.parse("AS").suit], points=POINTS, side_of=[0, 1]
    )
    cards = solver.collapse(solver.legal(solver.hands[0], [], -1), 0, solver.hands, [])
    assert sorted(card_of(c).code for c in cards) == sorted(["AS", "KH", "9H", "7H"])


def outcome_of(game: Game, seat: int, card: Card) -> int:
    """``seat``'s side's counters minus the other's at the deal's end after ``card`` and best play on."""
    side = game.side_of[seat]
    world = game.copy()
    world.rolling_out = True
    world.apply(seat, next(a for a in game.legal_actions(seat) if a.cards and a.cards[0] is card))
    if world.phase is Phase.PLAYOFF and world.hand(world.to_act[0]):
        return engine_minimax(world, side)
    taken = world.last_deal["counters"]  # type: ignore[index]
    return int(taken[side] - taken[1 - side])


@pytest.mark.parametrize("seed", [16, 47, 58])
def test_hard_plays_the_exact_best_card_in_the_playoff(seed: int) -> None:
    # Three tricks left; in these deals the sampled search (the old way) played a card worth 18-20
    # counters less than the best, which minimax through the engine proves.
    game = playoff_position(seed, 3)
    seat = game.to_act[0]
    cards = {a.cards[0] for a in game.legal_actions(seat) if a.kind is Kind.PLAY}
    best = max(outcome_of(game, seat, card) for card in cards)
    advice = HardPlayer(7).advise(game, seat)
    assert outcome_of(game, seat, advice.action.cards[0]) == best
    assert "every card known" in advice.reason
    assert any(outcome_of(game, seat, card) < best for card in cards)


@pytest.mark.parametrize("seed", range(20))
def test_every_world_of_the_playoff_is_the_true_deal(seed: int) -> None:
    game = playoff_position(seed, 1 + seed % 12)
    seat = game.to_act[0]
    world = known_world(game, seat, random.Random(seed), tries=4)
    assert world is not None
    for other in range(2):
        assert sorted(c.code for c in world.hand(other)) == sorted(c.code for c in game.hand(other))


def test_no_known_world_while_the_stock_lasts() -> None:
    game = new_game("pinochle-2", seed=3, options={"match": "deal"})
    assert known_world(game, game.to_act[0], random.Random(1)) is None
    four = new_game("pinochle-4", seed=3, options={"match": "deal"})
    assert known_world(four, four.to_act[0], random.Random(1)) is None


def test_a_solve_past_its_deadline_gives_way_to_the_search() -> None:
    game = playoff_position(5, 10)
    seat = game.to_act[0]
    assert solve_known(game, seat, random.Random(1), deadline=0.0) is None
    assert solve_known(game, seat, random.Random(1), deadline=time.perf_counter() + 60) is not None
    # hard still answers (by sampled search) when the solve cannot finish in its share.
    advice = HardPlayer(3, budget=0.002).advise(game, seat)
    assert "every card known" not in advice.reason


def test_the_first_trick_of_the_playoff_is_left_to_the_search() -> None:
    # Twelve tricks take seconds to solve in Python: the sampled search plays until the second trick.
    game = playoff_position(5, 12)
    seat = game.to_act[0]
    assert sum(len(game.hand(s)) for s in range(2)) > SOLVE_CARDS
    assert solve_known(game, seat, random.Random(1), deadline=time.perf_counter() + 60) is None


def test_a_kept_table_gives_the_same_answers() -> None:
    cache = SolveCache()
    game = playoff_position(11, 10)
    while game.phase is Phase.PLAYOFF:
        seat = game.to_act[0]
        kept = solve_known(game, seat, random.Random(1), time.perf_counter() + 60, cache)
        fresh = solve_known(game, seat, random.Random(1), time.perf_counter() + 60)
        assert kept is not None and fresh is not None
        assert kept.value == fresh.value
        assert kept.nodes <= fresh.nodes
        game.apply(seat, next(a for a in game.legal_actions(seat) if a.cards and a.cards[0] is kept.card))


# ----- double-deck: the crawl rules, its last trick and four copies of every card ------------------
def double_deck_position(seed: int, cards_left: int) -> Game:
    """A double-deck deal played by the fast policy until ``cards_left`` cards are left in the hands
    (a trick may be under way)."""
    policy = RolloutPolicy("double-deck")
    game = new_game("double-deck", seed=seed, options={"match": "deal"})
    while sum(len(game.hand(s)) for s in range(4)) > cards_left or game.phase is not Phase.PLAY:
        assert game.outcome is None and game.deal_no == 1, "the deal ended early"
        seat = game.to_act[0]
        legal = [a for a in game.legal_actions(seat) if a.kind is not Kind.THROW_IN]
        game.apply(seat, policy(game, seat, legal))
    return game


def double_deck_minimax(game: Game, side: int) -> int:
    """``side``'s counters (the last trick's included) minus the other side's, from here to the
    deal's end, by minimax through the engine."""
    if game.phase is not Phase.PLAY:
        taken = game.deal_points()
        return taken[side] - taken[1 - side]
    seat = game.to_act[0]
    values = []
    for action in game.legal_actions(seat):
        world = game.copy()
        world.apply(seat, action)
        values.append(double_deck_minimax(world, side))
    return max(values) if game.side_of[seat] == side else min(values)


@pytest.mark.parametrize("seed", range(40))
def test_the_solvers_legal_cards_are_double_decks_crawl_rules(seed: int) -> None:
    game = double_deck_position(seed, 4 + seed % 37)
    seat = game.to_act[0]
    solver = solver_for(game, game, seat)
    legal = solver.legal(solver.hands[seat], solver.trick, solver.best_of(solver.trick))
    assert {card_of(code) for code in legal} == {a.cards[0] for a in game.legal_actions(seat)}


@pytest.mark.parametrize("seed", range(30))
def test_the_solvers_double_deck_value_is_minimax_through_the_engine(seed: int) -> None:
    game = double_deck_position(seed, 6 + seed % 5)
    seat = game.to_act[0]
    side = game.side_of[seat]
    taken = game.deal_points()
    value = solver_for(game, game, seat).solve().value
    assert value == double_deck_minimax(game, side) - (taken[side] - taken[1 - side])


def test_a_copy_held_by_another_seat_tells_touching_cards_apart() -> None:
    # Double-deck, spades trump: seat 0 leads holding Q♥ J♥ (no counters, nothing between them). Led,
    # the queen holds against the other seat's copy of it (a tie goes to the card played first) and
    # the jack does not: they are two different plays, not one.
    points = new_game("double-deck", seed=1, options={"match": "deal"}).points  # type: ignore[attr-defined]
    hands = [[Card.parse("QH"), Card.parse("JH")], [Card.parse("QH"), Card.parse("KS")]]
    spades = SUIT_INDEX[Card.parse("AS").suit]
    solver = Solver(hands, [], 0, trump_index=spades, points=points, side_of=[0, 1], crawl=True)
    cards = solver.collapse(solver.legal(solver.hands[0], [], -1), 0, solver.hands, [])
    assert sorted(card_of(c).code for c in cards) == ["JH", "QH"]
