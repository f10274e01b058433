"""Determinized search: each candidate action is tried in the same sampled worlds and played out to
the end of the deal with the fast policy; the candidate with the best mean deal margin wins.

The clock is checked before every rollout, so a decision stops within one rollout of its deadline.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from bot.ai.hard.rollout import DealResult, Policy, margin, play_out, trick_winner_of
from bot.ai.hard.worlds import sample_world
from bot.engine import Action, Game

MIN_WORLDS = 4
"""Sampled worlds per candidate at least (unless the clock runs out first)."""


class Clock:
    """A decision's deadline (``perf_counter`` seconds)."""

    def __init__(self, budget: float) -> None:
        self.start = time.perf_counter()
        # Stop starting rollouts a little before the budget: the last one still has to finish.
        self.deadline = self.start + 0.9 * budget

    def expired(self) -> bool:
        return time.perf_counter() >= self.deadline

    def elapsed(self) -> float:
        return time.perf_counter() - self.start


@dataclass
class Tally:
    """What the rollouts of one candidate gave."""

    action: Action
    total: float = 0.0
    count: int = 0
    tricks: int = 0
    """Rollouts in which the seat's side took the trick being played."""
    made: int = 0
    """Rollouts whose scored deal had its contract made (when there was one)."""
    contracts: int = 0
    outcomes: list[float] = field(default_factory=list)

    @property
    def mean(self) -> float:
        return self.total / self.count if self.count else float("-inf")


class Evaluator:
    """Scores a played-out deal for one seat: its side's deal margin, plus a bonus or penalty of
    ``win_value`` when the deal ends the game."""

    def __init__(self, game: Game, seat: int, win_value: float) -> None:
        self.side = game.side_of[seat]
        self.win_value = win_value

    def __call__(self, result: DealResult) -> float:
        value = margin(result.changes, self.side)
        if result.winners is not None:
            value += self.win_value if self.side in result.winners else -self.win_value
        return value


def evaluate(
    game: Game,
    seat: int,
    candidates: list[Action],
    *,
    worlds: int,
    policy: Policy,
    score: Evaluator,
    clock: Clock,
    rng: random.Random,
    min_worlds: int = 2,
) -> list[Tally]:
    """Try every candidate in up to ``worlds`` sampled worlds (the same worlds for each, so their
    differences are not noise of the sampling) until the clock runs out."""
    tallies = [Tally(action) for action in candidates]
    side = game.side_of[seat]
    for done in range(worlds):
        if done >= min_worlds and clock.expired():
            break
        base = sample_world(game, seat, rng)
        for tally in tallies:
            world = base.copy()
            events = world.apply(seat, tally.action)
            taker = trick_winner_of(events) if len(events) > 1 else None
            result = play_out(world, policy)
            if taker is None:
                taker = result.first_trick
            value = score(result)
            tally.total += value
            tally.count += 1
            tally.outcomes.append(value)
            if taker is not None and game.side_of[taker] == side:
                tally.tricks += 1
            made = result.summary.get("made") if result.summary is not None else None
            if made is not None:
                tally.contracts += 1
                tally.made += bool(made)
    return tallies


@dataclass
class Context:
    """One decision's search: the game, the seat, and the means and limits of its sampling."""

    game: Game
    seat: int
    view: dict[str, Any]
    policy: Policy
    score: Evaluator
    clock: Clock
    rng: random.Random
    samples: int
    """Sampled worlds per candidate at most."""
    rollouts: int
    """Rollouts per decision at most."""

    @property
    def side(self) -> int:
        return self.game.side_of[self.seat]

    def worlds_for(self, candidates: int) -> int:
        """Worlds to sample for ``candidates`` candidates within the caps (at least ``MIN_WORLDS``)."""
        return max(MIN_WORLDS, min(self.samples, self.rollouts // max(1, candidates)))

    def search(self, candidates: list[Action], worlds: int | None = None) -> list[Tally]:
        """Every candidate tried in the same sampled worlds."""
        return evaluate(
            self.game,
            self.seat,
            candidates,
            worlds=worlds or self.worlds_for(len(candidates)),
            policy=self.policy,
            score=self.score,
            clock=self.clock,
            rng=self.rng,
        )


def best(tallies: list[Tally]) -> Tally:
    """The candidate with the best mean (the first listed of equals, so ties are deterministic)."""
    return max(tallies, key=lambda tally: tally.mean)
