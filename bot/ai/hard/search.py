"""Determinized search: each candidate is tried in the same sampled worlds, played out to the end of
the deal with the fast policy; the best mean deal margin wins. The clock (``Clock``) is asked
between rollouts and worlds, so a decision ends within its budget."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.ai.hard.inference import sample_fitting
from bot.ai.hard.rollout import DealResult, Policy, margin, play_out, trick_winner_of
from bot.engine import Action, Game

MIN_WORLDS = 4
"""Sampled worlds per candidate at least (unless the clock runs out first)."""


class Clock:
    """A decision's deadline: ``expired`` answers yes once the longest step of the search seen so far
    might not fit before the budget runs out (a loaded machine stops earlier)."""

    def __init__(self, budget: float) -> None:
        self.start = self.last = time.perf_counter()
        self.end = self.start + budget * 0.97
        self.longest = 0.0

    def expired(self) -> bool:
        now = time.perf_counter()
        lap = now - self.last
        self.last = now
        self.longest = max(self.longest, lap)
        return now + 1.5 * self.longest >= self.end

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
    pruned: bool = False
    """Dropped by the search as clearly worse than another candidate."""

    def add(self, value: float, result: DealResult, taker: int | None, game: Game, seat: int) -> None:
        """Count one rollout (``taker``: who took the trick being played)."""
        self.total += value
        self.count += 1
        self.outcomes.append(value)
        if taker is not None and game.side_of[taker] == game.side_of[seat]:
            self.tricks += 1
        made = result.summary.get("made") if result.summary is not None else None
        if made is not None:
            self.contracts += 1
            self.made += bool(made)

    @property
    def mean(self) -> float:
        return self.total / self.count if self.count else float("-inf")


class Evaluator:
    """A played-out deal's value for one seat: its side's deal margin, ± ``win_value`` if the game ends."""

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
    sample: Callable[[], Game],
    rollouts: int | None = None,
    keep: Action | None = None,
) -> list[Tally]:
    """Try every candidate in up to ``worlds`` sampled worlds (the same for each) until the clock runs
    out, dropping those clearly worse than the leader (``prune``; never ``keep``) and stopping when one
    is left; with ``rollouts``, also before a world would pass that many rollouts in all (a dropped
    candidate's share goes to the others)."""
    tallies = [Tally(action) for action in candidates]
    active = tallies[:]
    spent = 0
    for done in range(worlds):
        if clock.expired() and done:
            break
        if rollouts is not None and done >= MIN_WORLDS and spent + len(active) > rollouts:
            break
        spent += len(active)
        base = sample()
        for tally in active:
            if clock.expired() and (done or tally is not active[0]):
                break
            world = base.copy()
            events = world.apply(seat, tally.action)
            taker = trick_winner_of(events) if len(events) > 1 else None
            result = play_out(world, policy, base.deal_no, base.scores)
            tally.add(score(result), result, taker if taker is not None else result.first_trick, game, seat)
        if done + 1 >= PRUNE_AFTER:
            active = prune(active, keep)
            if len(active) == 1:
                break
    return tallies


PRUNE_AFTER = 4
"""Worlds every candidate is tried in before any is dropped. 4-player pitch: 67.2% of 200 pairs
against ``basic`` (bench/records/experiments.md#prune-after)."""
PRUNE_Z = 2.5
"""How many standard errors below the leader (paired, world by world) drops a candidate. Double-deck:
70.0% of 100 pairs against ``basic`` (bench/records/experiments.md#prune-z)."""


def prune(active: list[Tally], keep: Action | None = None) -> list[Tally]:
    """``active`` without the candidates clearly worse than the leader over the same worlds (but ``keep``)."""
    counts = min(t.count for t in active)
    leader = max(active, key=lambda t: sum(t.outcomes[:counts]))
    kept = []
    for tally in active:
        if tally is leader or tally.action == keep:
            kept.append(tally)
            continue
        diffs = [a - b for a, b in zip(tally.outcomes[:counts], leader.outcomes[:counts], strict=True)]
        mean = sum(diffs) / counts
        spread = (sum((d - mean) ** 2 for d in diffs) / max(1, counts - 1)) ** 0.5
        if mean + PRUNE_Z * spread / counts**0.5 < 0:
            tally.pruned = True
        else:
            kept.append(tally)
    return kept


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
    spread: bool = False
    """Whether dropped candidates' rollouts go to the others (up to ``samples`` worlds each)."""

    @property
    def side(self) -> int:
        return self.game.side_of[self.seat]

    def worlds_for(self, candidates: int) -> int:
        """Worlds to sample for ``candidates`` candidates within the caps (at least ``MIN_WORLDS``)."""
        return max(MIN_WORLDS, min(self.samples, self.rollouts // max(1, candidates)))

    def search(
        self,
        candidates: list[Action],
        worlds: int | None = None,
        policy: Policy | None = None,
        keep: Action | None = None,
    ) -> list[Tally]:
        """Every candidate tried in the same sampled worlds (``keep`` is never dropped)."""
        spread = worlds is None and self.spread
        return evaluate(
            self.game,
            self.seat,
            candidates,
            rollouts=self.rollouts if spread else None,
            worlds=self.samples if spread else worlds or self.worlds_for(len(candidates)),
            policy=policy or self.policy,
            score=self.score,
            clock=self.clock,
            sample=self.sample,
            keep=keep,
        )

    def sample(self) -> Game:
        """A world sampled for this seat, fitting the auction's calls (``inference``)."""
        return sample_fitting(self.game, self.seat, self.view, self.rng, self.clock.expired)


def best(tallies: list[Tally]) -> Tally:
    """The candidate with the best mean among those not dropped (the first listed of equals)."""
    return max((t for t in tallies if not t.pruned), key=lambda tally: tally.mean)
