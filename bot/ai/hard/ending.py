"""Exact endings for rollouts: once few cards are left in a sampled world, every seat plays the
double-dummy solver's card (``solver.Solver``) instead of the fast policy. The solver maximises a
side's counters, which is what the deal's score is made of once both sides have taken a trick
(each side's meld then counts whatever happens), and the score, a made contract and a won game all
rise with them. Until both sides have taken a trick, the fast policy plays on (a trick without
counters can save a side's meld)."""

from __future__ import annotations

from bot.ai.hard.rollout import Policy
from bot.ai.hard.solver import Solver, trick_rules
from bot.engine import Action, Card, Game, Kind
from bot.engine.events import Phase
from bot.engine.pinochle.common import SUIT_INDEX, PinochleGame

ENDING_CARDS: dict[str, tuple[int, int]] = {"pinochle-4": (8, 12), "pinochle-4-auction": (8, 12)}
"""Per variant: cards left in all hands at most for the solver to play the rest of a rollout, and at
most at the decision for it to play every rollout from there. Pinochle-4: 88.0% of 100 pairs against
``basic`` (bench/records/experiments.md#ending-cards)."""
TABLE_LIMIT = 200_000
"""Positions kept in a transposition table at most before it is emptied (memory)."""

_PLAY = Kind.PLAY
_PLAYING = Phase.PLAY


class ExactEnding:
    """``policy`` until at most ``cards`` cards are left in the hands, then the solver's line for every
    seat; one instance serves one decision (its solvers' tables are shared by all its rollouts)."""

    def __init__(self, policy: Policy, game: Game, cards: int) -> None:
        self.policy = policy
        self.cards = cards
        self.points = game.points  # type: ignore[attr-defined]
        self.side_of = [game.side_of[s] for s in range(game.players)]
        self.last_trick, self.crawl = trick_rules(game)
        self.solvers: dict[int, Solver] = {}
        """One solver per trump suit (its table's values depend on trump)."""
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
        """The solver's card for ``seat`` in ``world`` (the line being played, or a new one), or None."""
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
