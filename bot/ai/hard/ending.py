"""Exact endings for rollouts: once few cards are left in a sampled world, every seat plays the
double-dummy solver's card (``solver.Solver``) instead of the fast policy.

A sampled world is a deal with every hand known, so its last tricks can be played perfectly: the
rollout's value then no longer carries the fast policy's end-play mistakes, and a decision made
with that few cards left is a plain comparison of exact values over the sampled worlds.

The solver maximises a side's counters. That is what the deal's score is made of from here on when
both sides have taken a trick (each side's meld then counts whatever happens), and the score, a made
or set contract and a game won all rise with a side's counters, so the best card for the counters is
the best for the deal too. While a side has taken no trick yet, a trick without counters can save its
meld, which the solver does not see: the fast policy plays on then.
"""

from __future__ import annotations

from bot.ai.hard.rollout import Policy
from bot.ai.hard.solver import Solver, trick_rules
from bot.engine import Action, Card, Game, Kind
from bot.engine.events import Phase
from bot.engine.pinochle.common import SUIT_INDEX, PinochleGame

ENDING_CARDS: dict[str, tuple[int, int]] = {"pinochle-4": (8, 12), "pinochle-4-auction": (8, 12)}
"""Per variant: cards left in all hands together at most for the solver to play the rest of a
rollout, and at most at the decision itself for the solver to play every rollout of it from there.
Two tricks of four seats solve in about 0.2 ms, about what a whole fast rollout costs; three tricks
in about 0.6 ms (median; 1.4 ms at most over 40 deals), too dear for every rollout of an early
decision (it took a decision's CPU p99 from 0.25 to 0.9 s) but cheap once the decision itself has
three tricks left; four tricks take 2.7 ms (18 ms at most). In pinochle-4 (100 pairs, seed 8) hard
won 88.0% of pairs and +29.1 a deal against ``basic`` where it won 85.5% and +24.6 without, at a CPU
p99 of 0.36 s instead of 0.25 s. The auction's card play has them too, with pinochle-4's 240 worlds
(``CAPS``): over the same 60 pairs (seed 1) hard won 77.5% and +54.7 a deal against ``basic``
instead of 75.8% and +32.0 (CPU p99 0.49 s instead of 0.40 s); over 500 pairs (seed 1) 81.1% and
+55.9 a deal (CPU p99 0.54 s), where 160 worlds without them had won 79.5% of the first 200 pairs at
+54.1: a gain within the noise. With 160 worlds the endings alone showed none (-7.5 +- 13.2 a deal
over 100 pairs). Double-deck (the solver plays its crawl rules) measured no better with (8, 12),
same deals, 3 s budget so that the caps bind: seed 1, 68.0% -> 66.0% of 100 pairs, -0.37 a deal
[-2.34, +1.60]; seed 2, 64.0% -> 64.5%, +0.61 [-3.78, +5.00]; its deals are twenty tricks, and the
last two or three are seldom where they are won or lost. Three-hand, its bidder against the other
two as one side (checked against minimax through the engine on 40 endings), with (6, 9): same 500
pairs (seed 1), 64.6% -> 64.3% of pairs, +0.09 chips a deal [-0.16, +0.33] (24 pairs changed, 11
its way; 883 of 959 contracts made instead of 870 of 961), CPU p99 0.15 s a decision instead of
0.14 s; not enabled. Pitch was measured with a search of its own written for it (every seat
playing for its own margin, each finished deal scored by the engine's ``deal_changes``; checked
against trying every line through the engine) and not kept, same 200 pairs (seed 1): the last two
tricks of every rollout and every rollout of a decision with three tricks left, 4-player 67.2% ->
64.2% of pairs, -0.03 a deal [-0.10, +0.04], partnership 66.5% -> 65.8%, -0.07 [-0.21, +0.06];
the decisions with three tricks left alone, 66.2% (-0.03 [-0.06, +0.00]) and 67.0% (+0.01 [-0.05,
+0.07]); CPU p99 0.37 -> 0.7-0.8 s a decision either way."""
TABLE_LIMIT = 200_000
"""Positions kept in a transposition table at most before it is emptied (memory)."""

_PLAY = Kind.PLAY
_PLAYING = Phase.PLAY


class ExactEnding:
    """``policy`` until at most ``cards`` cards are left in the hands, then the solver's line for
    every seat. One instance serves one decision: the solver's table is shared by all its rollouts
    (a position's key holds every hand, so positions of different worlds never collide)."""

    def __init__(self, policy: Policy, game: Game, cards: int) -> None:
        self.policy = policy
        self.cards = cards
        self.points = game.points  # type: ignore[attr-defined]
        self.side_of = [game.side_of[s] for s in range(game.players)]
        self.last_trick, self.crawl = trick_rules(game)
        self.solvers: dict[int, Solver] = {}
        """One solver per trump suit (its table's values depend on trump; bidding rollouts try
        more than one)."""
        self.world: Game | None = None
        """The world whose ending is being played (``line`` from ``step`` on)."""
        self.line: list[Card] = []
        self.step = 0

    def __call__(self, world: Game, seat: int, legal: list[Action]) -> Action:
        if legal[0].kind is _PLAY:
            card = self.next_card(world, seat)
            if card is not None:
                for action in legal:
                    if action.cards and action.cards[0] is card:
                        return action
        return self.policy(world, seat, legal)

    def next_card(self, world: Game, seat: int) -> Card | None:
        """The solver's card for ``seat`` in ``world`` (the next of the line being played, or the
        first of a new one), or None while the fast policy plays."""
        if world is self.world and self.step < len(self.line):
            self.step += 1
            return self.line[self.step - 1]
        if getattr(world, "phase", None) is not _PLAYING:
            return None
        trick = world.trick_plays()
        # Seats that played to the trick hold one card less than the seat to play.
        left = len(world.hand(seat)) * world.players - len(trick)
        if left > self.cards or not all(world.tricks_won):  # type: ignore[attr-defined]
            return None
        self.world = world
        self.line = self.solver(world).best_line(world.hands, trick, seat)
        self.step = 1
        return self.line[0]

    def solver(self, world: Game) -> Solver:
        trump = world.trump_suit()
        assert trump is not None
        index = SUIT_INDEX[trump]
        solver = self.solvers.get(index)
        if solver is None or len(solver.table) > TABLE_LIMIT:
            solver = self.solvers[index] = Solver(
                [],
                [],
                0,
                trump_index=index,
                points=self.points,
                side_of=self.side_of,
                last_trick=self.last_trick,
                crawl=self.crawl,
            )
        return solver


def exact_ending(policy: Policy, game: Game) -> Policy:
    """``policy`` with exact endings where the variant has them (``ENDING_CARDS``), else itself."""
    limits = ENDING_CARDS.get(game.name)
    if limits is None or not isinstance(game, PinochleGame):
        return policy
    leaf, root = limits
    left = sum(len(game.hand(seat)) for seat in range(game.players))  # hand sizes are public
    cards = left if left <= root else leaf
    return ExactEnding(policy, game, cards) if cards else policy
