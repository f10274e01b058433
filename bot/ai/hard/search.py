"""Determinized search: each candidate action is tried in the same sampled worlds and played out to
the end of the deal with the fast policy; the candidate with the best mean deal margin wins.

The clock is asked between rollouts and sampled worlds (``Clock``), so a decision ends within its
budget; caps on worlds and rollouts keep typical decisions far quicker.
"""

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
    """A decision's deadline. ``expired`` is asked between steps of the search (a rollout, a
    sampled world); it answers yes once the longest step seen so far might not fit before the
    budget runs out, so a loaded machine (slower steps) stops the search earlier."""

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
    sample: Callable[[], Game],
    rollouts: int | None = None,
    keep: Action | None = None,
) -> list[Tally]:
    """Try every candidate in up to ``worlds`` sampled worlds (the same worlds for each, so their
    differences are not noise of the sampling) until the clock runs out; a candidate clearly worse
    than the leader in the worlds so far is dropped (``prune``), and the search stops when one is
    left. With ``rollouts``, the search also stops before a world would take it past that many
    rollouts in all: the rollouts a dropped candidate no longer takes go to the others. ``keep`` is
    never dropped (a move the caller will weigh against the best over all the worlds)."""
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
"""Worlds every candidate is tried in before any is dropped. Pitch's calls (where one candidate often
stood alone after 4 to 10 worlds) did no better after 32, same 200 pairs (seed 1): 4-player pitch
67.2% -> 66.2% of pairs, partnership pitch 66.5% -> 66.5%. Nor did the partnership auction after 16
(every decision), same 160 pairs (seed 1): 85.0% -> 85.6% of pairs, +2.1 a deal [-4.5, +8.7] (10
pairs changed, 6 its way), CPU p99 0.68 -> 0.69 s; seed 2, 87.2% -> 85.6%, +6.5 a deal [-1.0, +14.1]
(16 changed, 7 its way), CPU p99 0.70 s either way: fewer pairs for more points, within the noise,
so not taken."""
PRUNE_Z = 2.5
"""How many standard errors below the leader (paired, world by world) drops a candidate. Double-deck
(its rollouts playing ``basic``'s card play, the clock ending the early searches), same 100 pairs:
2.0, seed 1, 70.0% -> 68.0% of pairs, -2.0 a deal [-4.4, +0.3]; 3.0, seed 1, 70.0% -> 73.0%, +1.1
[-0.4, +2.7], and seed 2, 67.5% -> 63.5%, -1.7 [-4.0, +0.5]: within the noise either way."""


def prune(active: list[Tally], keep: Action | None = None) -> list[Tally]:
    """``active`` without the candidates clearly worse than the leader over the same worlds (but
    ``keep``)."""
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
    """Whether the rollouts of candidates dropped early go to the others (up to ``samples`` worlds
    each) instead of every candidate's share being fixed at the start (``worlds_for``)."""

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
        """Every candidate tried in the same sampled worlds (played out by ``policy``, by default
        the fast policy); ``keep`` is never dropped."""
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
    """The candidate with the best mean among those not dropped (the first listed of equals, so
    ties are deterministic)."""
    return max((t for t in tallies if not t.pruned), key=lambda tally: tally.mean)
