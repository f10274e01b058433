"""Duplicate matches between two computer levels: every deal is played by both levels from the same
seats, so the luck of the cards cancels and what is left is how well each level plays.

Usage:
    python bench/duel.py VARIANT --a LEVEL --b LEVEL --pairs N [--jobs J] [--seed S]
                         [--players P] [--options k=v ...]
    python bench/duel.py --suite acceptance|basic --pairs N [--jobs J] [--seed S]
    python bench/duel.py VARIANT ... --record FILE     (also write every pair's plays to FILE)
    python bench/duel.py --compare FILE FILE           (two records of the same deals, pair by pair)

The unit is one deal (the issue reports "+23 points a deal"): each play is the first deal of a new
game, with ``match=deal`` where the variant has it (two-hand and partnership pinochle, double-deck:
no declaring out; the deal is scored on its own) and otherwise the first deal of a normal game, whose
scoring ``deal_scored`` report ends the play. The deal is seeded per pair (``--seed`` and the pair's
number), so the same run gives the same deals and, with seeded players, the same play; ``--jobs``
does not change the results.

A *pair* plays that one deal under every seating of its scheme, each with the same cards at the same
seats (same game seed):
- two sides of partners (pinochle-4, -4-auction, double-deck, pitch-partnership): A is one side,
  then the other;
- individual games with an even number of seats (pinochle-2, 4-player pitch): A in the even seats
  and B in the odd ones (2 vs 2 in 4-player pitch), then swapped;
- three seats (pinochle-3): the full rotation, all six seatings that mix the levels (A alone in each
  seat against two B's, and B alone in each seat against two A's), so every seat is played by each
  level equally often and swapping ``--a`` and ``--b`` exactly negates the result.
The pair's *margin* is the mean deal score change of A's seats minus that of B's seats, over all its
plays (partnerships: A's side minus B's side, per deal; pinochle-3 in chips). A wins the pair when
the margin is positive, half of it when it is zero. Printed: pairs won by A with a 95% Wilson
interval and how A fared in the pairs not tied (ties bound the share: a suite's goal not met says
what share of the pairs not tied it would need; and in how many tied pairs every seat scored the
same in every play: the levels came to the same result, not to gains and losses that cancel), the
mean margin per deal with a 95% normal interval, contracts taken and made per level (the bidder's or
pitcher's level; a deal conceded or given up unplayed is counted apart), the decision time of each
``decide`` call per level, wall and CPU (calls with one legal action are not timed; CPU time is the
figure for "on one core" when other processes share the machine), deals played and wall time.

``--record`` writes one JSON line per pair: its number, A's share and margin, and for every play
the roles, each seat's score change, the bidder or pitcher, the bid, trump and whether the contract
was made. Two runs with the same variant, seed and pair numbers play the same deals, so a change to
a level can be measured pair by pair against the run before it (``--compare``: the pairs whose
result changed, which run won more of them, and the mean change of the margin with its 95%
interval) — far less noisy than two separate shares when the change alters few decisions. Pairs are
written as they are played (a chunk at a time), so a run stopped early leaves the pairs it
finished, and ``--compare`` takes the pairs two records have in common.

Levels come from ``bot.ai``'s registry; ``bench.frozen`` (the frozen ``basic-2026-11``) is imported
when it exists. A level missing for a variant stops the run before anything is played.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import importlib.util
import json
import math
import multiprocessing
import sys
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.ai import decide, levels, make_player  # noqa: E402
from bot.engine import Game, find_variant, new_game, parse_option_pairs  # noqa: E402

Z95 = 1.959963984540054
ROLES = ("A", "B")


def load_frozen_levels() -> bool:
    """Import ``bench.frozen`` (it registers frozen levels such as ``basic-2026-11``) and register
    ``bench.oracle``'s levels (``hard-sees-all``) when present; whether the frozen levels were."""
    frozen = bench_module("bench.frozen") is not None
    oracle = bench_module("bench.oracle")
    if oracle is not None:
        oracle.register()
    return frozen


def bench_module(name: str) -> Any:
    """The bench module ``name`` imported, None when it is not there."""
    try:
        found = importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        found = False
    return importlib.import_module(name) if found else None


@dataclass(frozen=True)
class Match:
    """One duplicate match: ``a`` against ``b`` in ``variant``."""

    variant: str
    a: str
    b: str
    players: int | None = None
    options: tuple[tuple[str, str], ...] = ()
    seed: int = 1

    def level(self, role: str) -> str:
        return self.a if role == "A" else self.b


def deal_options(variant: str, options: dict[str, Any]) -> dict[str, Any]:
    """``options`` plus ``match=deal`` where the variant can be a single deal (and it was not set)."""
    out = dict(options)
    for spec in find_variant(variant).option_specs:
        if spec.name == "match" and "deal" in spec.choices and "match" not in {k.lower() for k in out}:
            out["match"] = "deal"
    return out


def seatings(game: Game) -> list[tuple[str, ...]]:
    """The seatings of one pair: for each play, the role ("A" or "B") of every seat."""
    sides, players = game.sides, game.players
    if len(sides) == 2 and len(sides[0]) > 1:
        first = tuple("A" if game.side_of[seat] == 0 else "B" for seat in range(players))
    elif all(len(side) == 1 for side in sides) and players % 2 == 0:
        first = tuple("A" if seat % 2 == 0 else "B" for seat in range(players))
    elif all(len(side) == 1 for side in sides) and players == 3:
        alone = [tuple("A" if seat == k else "B" for seat in range(3)) for k in range(3)]
        return alone + [swap(roles) for roles in alone]
    else:
        raise ValueError(
            f"{game.name} with {players} players has no duplicate scheme here "
            "(two sides of partners, an even number of single seats, or three seats)"
        )
    return [first, swap(first)]


def swap(roles: tuple[str, ...]) -> tuple[str, ...]:
    return tuple("B" if role == "A" else "A" for role in roles)


@dataclass
class Tally:
    """Statistics of some pairs; tallies of disjoint pairs merge into the match's."""

    pairs: dict[int, tuple[float, float]] = field(default_factory=dict)
    """Pair number -> (A's share of the pair: 1, 0.5 or 0; margin per deal, A minus B)."""
    deals: int = 0
    taken: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ROLES, 0))
    made: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ROLES, 0))
    unplayed: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ROLES, 0))
    times: dict[str, list[float]] = field(default_factory=lambda: {role: [] for role in ROLES})
    """Wall time of each timed ``decide`` call, per role."""
    cpu_times: dict[str, list[float]] = field(default_factory=lambda: {role: [] for role in ROLES})
    """The same calls' CPU time (not inflated when other processes share the cores)."""
    plays: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    """Pair number -> what each of its plays came to (``--record``)."""
    seconds: float = 0.0
    unit: str = "points"
    """What a deal's score is counted in (three-hand settles in chips)."""

    def merge(self, other: Tally) -> None:
        self.pairs.update(other.pairs)
        self.plays.update(other.plays)
        self.unit = other.unit
        self.deals += other.deals
        for role in ROLES:
            self.taken[role] += other.taken[role]
            self.made[role] += other.made[role]
            self.unplayed[role] += other.unplayed[role]
            self.times[role].extend(other.times[role])
            self.cpu_times[role].extend(other.cpu_times[role])


def deal_seed(seed: int, pair: int) -> int:
    return seed * 1_000_003 + pair


def play_deal(
    match: Match, pair: int, play_no: int, roles: Sequence[str], tally: Tally
) -> tuple[list[int], Game]:
    """Play pair ``pair``'s deal once with ``roles`` seated; returns each seat's score change (its
    side's) and the finished game, and counts the contract and decision times in ``tally``."""
    seed = deal_seed(match.seed, pair)
    game = new_game(
        match.variant,
        players=match.players,
        options=deal_options(match.variant, dict(match.options)),
        seed=seed,
    )
    family = type(game).family
    bots = [
        make_player(family, match.level(role), seed * 97 + play_no * 13 + seat)
        for seat, role in enumerate(roles)
    ]
    clock, cpu_clock = time.perf_counter, time.process_time
    while not game.is_over:
        seat = game.to_act[0]
        choices = len(game.legal_actions(seat))
        start, cpu_start = clock(), cpu_clock()
        action = decide(bots[seat], game, seat)
        if choices > 1:
            tally.cpu_times[roles[seat]].append(cpu_clock() - cpu_start)
            tally.times[roles[seat]].append(clock() - start)
        for event in game.apply(seat, action):
            if event["type"] == "deal_scored":
                tally.deals += 1
                tally.unit = "chips" if "chips" in event else "points"
                count_contract(event, roles, tally)
                changes = event["changes"]
                seat_changes = [changes[game.side_of[s]] for s in range(game.players)]
                tally.plays.setdefault(pair, []).append(play_record(event, roles, seat_changes))
                return seat_changes, game
    raise RuntimeError(f"{match.variant} game {seed} ended without a scored deal")


def play_record(summary: dict[str, Any], roles: Sequence[str], changes: list[int]) -> dict[str, Any]:
    """One play of a pair as ``--record`` writes it."""
    return {
        "roles": "".join(roles),
        "changes": changes,
        "bidder": contract_holder(summary),
        "bid": summary.get("bid"),
        "trump": summary.get("trump"),
        "made": summary.get("made"),
    }


def contract_holder(summary: dict[str, Any]) -> Any:
    """The seat that took the deal's contract: the bidder (pinochle) or pitcher (pitch), else None."""
    return summary.get("bidder", summary.get("pitcher"))


def count_contract(summary: dict[str, Any], roles: Sequence[str], tally: Tally) -> None:
    """The bidder (pinochle) or pitcher (pitch) took a contract; made is None when not played."""
    seat = contract_holder(summary)
    if seat is None:
        return
    role = roles[seat]
    tally.taken[role] += 1
    made = summary.get("made")
    if made is None:
        tally.unplayed[role] += 1
    elif made:
        tally.made[role] += 1


@functools.cache
def match_seatings(match: Match) -> list[tuple[str, ...]]:
    """``seatings`` of ``match``'s table (the same for every pair)."""
    return seatings(new_game(match.variant, players=match.players, options=dict(match.options), seed=1))


def play_pair(match: Match, pair: int, tally: Tally) -> None:
    """Play pair ``pair`` under every seating of its scheme and record its result in ``tally``."""
    totals = {"A": 0, "B": 0}
    counts = {"A": 0, "B": 0}
    for play_no, roles in enumerate(match_seatings(match)):
        changes, _ = play_deal(match, pair, play_no, roles, tally)
        for seat, role in enumerate(roles):
            totals[role] += changes[seat]
            counts[role] += 1
    # Compared in whole numbers so that an exact tie is a tie.
    lead = totals["A"] * counts["B"] - totals["B"] * counts["A"]
    share = 1.0 if lead > 0 else 0.5 if lead == 0 else 0.0
    # Mean change per A seat minus per B seat (partnerships: A's side minus B's side per deal).
    tally.pairs[pair] = (share, lead / (counts["A"] * counts["B"]))


def run_pairs(match: Match, pairs: Iterable[int]) -> Tally:
    """Play ``pairs`` (pair numbers) of ``match`` in this process (also the worker of ``--jobs``)."""
    load_frozen_levels()
    tally = Tally()
    start = time.perf_counter()
    for pair in pairs:
        play_pair(match, pair, tally)
    tally.seconds = time.perf_counter() - start
    return tally


def run_match(
    match: Match, pairs: int, jobs: int, *, progress: bool = True, record: Path | None = None
) -> Tally:
    """Play pairs 0..pairs-1 in ``jobs`` processes and merge their statistics (a line of progress
    on stderr at most every 30 s). With ``record``, each chunk's pairs are added to that file as
    the chunk ends (``write_record``), so a long run stopped early keeps the pairs it played."""
    start = time.perf_counter()
    tally = Tally()
    size = max(1, min(25, pairs // (jobs * 4)))
    chunks = [range(first, min(pairs, first + size)) for first in range(0, pairs, size)]
    shown = start

    def add(part: Tally) -> None:
        nonlocal shown
        tally.merge(part)
        if record is not None:
            write_record(part, record, append=True)
        if progress and time.perf_counter() - shown > 30:
            shown = time.perf_counter()
            print(f"  ... {match.variant}: {len(tally.pairs)}/{pairs} pairs", file=sys.stderr, flush=True)

    if jobs <= 1:
        for chunk in chunks:
            add(run_pairs(match, chunk))
    else:
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
            for future in as_completed([pool.submit(run_pairs, match, chunk) for chunk in chunks]):
                add(future.result())
    tally.seconds = time.perf_counter() - start
    return tally


# ----- statistics -----------------------------------------------------------------------------


def wilson(share: float, n: int) -> tuple[float, float]:
    """95% Wilson score interval of a proportion ``share`` over ``n`` trials."""
    if n == 0:
        return 0.0, 1.0
    denominator = 1 + Z95**2 / n
    centre = (share + Z95**2 / (2 * n)) / denominator
    half = Z95 * math.sqrt(share * (1 - share) / n + Z95**2 / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean of ``values`` with its 95% normal interval."""
    n = len(values)
    mean = sum(values) / n if n else 0.0
    if n < 2:
        return mean, -math.inf, math.inf
    variance = sum((value - mean) ** 2 for value in values) / (n - 1)
    half = Z95 * math.sqrt(variance / n)
    return mean, mean - half, mean + half


def percentile(ordered: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile of already sorted values."""
    if not ordered:
        return math.nan
    return ordered[min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))]


@dataclass(frozen=True)
class Summary:
    """A match's headline figures."""

    pairs: int
    won: float
    won_low: float
    won_high: float
    ties: int
    wins: int
    """Pairs won outright (not tied)."""
    margin: float
    margin_low: float
    margin_high: float
    p99: dict[str, float]
    """Wall time p99 of a decision per role."""
    cpu_p99: dict[str, float]
    """CPU time p99 of a decision per role (the budget is per decision on one core)."""
    alike: int = 0
    """Tied pairs in which every seat scored the same in every play: the levels came to the same
    result seat by seat, not to gains and losses that cancel."""

    @property
    def decided(self) -> int:
        """Pairs not tied."""
        return self.pairs - self.ties


def summarize(tally: Tally) -> Summary:
    shares = [share for share, _ in tally.pairs.values()]
    n = len(shares)
    won = sum(shares) / n if n else 0.0
    low, high = wilson(won, n)
    margin, m_low, m_high = mean_interval([margin for _, margin in tally.pairs.values()])
    p99 = {role: percentile(sorted(tally.times[role]), 0.99) for role in ROLES}
    cpu_p99 = {role: percentile(sorted(tally.cpu_times[role]), 0.99) for role in ROLES}
    wins = shares.count(1.0)
    alike = sum(1 for pair, (share, _) in tally.pairs.items() if share == 0.5 and scored_alike(tally, pair))
    return Summary(n, won, low, high, shares.count(0.5), wins, margin, m_low, m_high, p99, cpu_p99, alike)


def scored_alike(tally: Tally, pair: int) -> bool:
    """Whether every play of ``pair`` gave every seat the same score change."""
    plays = tally.plays.get(pair) or []
    return bool(plays) and all(play["changes"] == plays[0]["changes"] for play in plays)


def tied(figures: Summary) -> str:
    """The tied pairs, and in how many of them every seat scored the same in every play
    (``Summary.alike``)."""
    alike = f", {figures.alike} of them scored alike at every seat in every play" if figures.alike else ""
    return f"{figures.ties} tied pairs counted half{alike}"


def untied(figures: Summary) -> str:
    """How A fared in the pairs not tied (a tied pair counts half, so ties bound the share)."""
    if not figures.decided:
        return "every pair tied"
    share = 100 * figures.wins / figures.decided
    return f"A won {figures.wins} of the {figures.decided} pairs not tied ({share:.1f}%)"


def milliseconds(seconds: float) -> str:
    return "n/a" if math.isnan(seconds) else f"{seconds * 1000:.2f} ms"


def report(match: Match, tally: Tally, jobs: int) -> str:
    """The match's figures as printed."""
    figures = summarize(tally)
    a, b = match.a, match.b
    probe = new_game(match.variant, players=match.players, options=dict(match.options), seed=1)
    plays = len(match_seatings(match))
    scheme = "all six mixed seatings" if plays == 6 else "seats swapped"
    options = " ".join(f"{k}={v}" for k, v in match.options)
    lines = [
        f"{match.variant} ({probe.players} players{', ' + options if options else ''}): "
        f"A = {a} vs B = {b}, {figures.pairs} pairs (each deal played {plays} times, {scheme}), "
        f"seed {match.seed}",
        f"  pairs won by A ({a}): {100 * figures.won:.1f}% "
        f"[{100 * figures.won_low:.1f}, {100 * figures.won_high:.1f}] "
        f"(95% Wilson; {tied(figures)}); {untied(figures)}",
        f"  margin per deal, A minus B: {figures.margin:+.1f} {tally.unit} "
        f"[{figures.margin_low:+.1f}, {figures.margin_high:+.1f}] (95%)",
    ]
    if sum(tally.taken.values()) == 0:
        lines.append("  contracts: none (no bidding in this variant)")
    else:
        parts = []
        for role in ROLES:
            taken, made, unplayed = tally.taken[role], tally.made[role], tally.unplayed[role]
            played = taken - unplayed
            rate = f"{100 * made / played:.1f}%" if played else "n/a"
            apart = f", {unplayed} conceded or given up unplayed" if unplayed else ""
            parts.append(
                f"{role} ({match.level(role)}) took {taken} of {tally.deals} deals, "
                f"made {made} of {played} played ({rate}){apart}"
            )
        lines.append("  contracts: " + "; ".join(parts))
    for role in ROLES:
        wall, cpu = sorted(tally.times[role]), sorted(tally.cpu_times[role])
        lines.append(
            f"  decision time {role} ({match.level(role)}): p50 {milliseconds(percentile(wall, 0.5))}, "
            f"p99 {milliseconds(percentile(wall, 0.99))}, max {milliseconds(percentile(wall, 1.0))}; "
            f"CPU p99 {milliseconds(percentile(cpu, 0.99))}, max {milliseconds(percentile(cpu, 1.0))} "
            f"({len(wall)} decisions with a choice)"
        )
    seconds = tally.seconds or math.nan
    lines.append(
        f"  {tally.deals} deals, wall {tally.seconds:.1f} s, {figures.pairs / seconds:.2f} pairs/s, "
        f"{tally.deals / seconds:.1f} deals/s (jobs {jobs})"
    )
    return "\n".join(lines)


# ----- suites ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Goal:
    """A match of a suite and the share of pairs A must win (``None``: more than half, interval
    above 50%)."""

    variant: str
    a: str
    b: str
    share: float | None = None
    players: int | None = None


ACCEPTANCE_VARIANTS: tuple[tuple[str, int | None, float], ...] = (
    ("pinochle-4", None, 0.85),
    ("pinochle-4-auction", None, 0.85),
    ("double-deck", None, 0.85),
    ("pinochle-2", None, 0.75),
    ("pinochle-3", None, 0.75),
    ("pitch", 4, 0.70),
    ("pitch-partnership", None, 0.70),
)
HARD_P99_GOAL = 1.0  # seconds per decision on one core

SUITES: dict[str, list[Goal]] = {
    "acceptance": [Goal(v, "hard", "basic", share, players) for v, players, share in ACCEPTANCE_VARIANTS],
    "basic": [
        Goal(v, "basic", b, None, players)
        for v, players, _ in ACCEPTANCE_VARIANTS
        for b in ("random", "basic-2026-11")
    ],
}


def write_record(tally: Tally, path: Path, *, append: bool = False) -> None:
    """``--record``: one JSON line per pair, in pair order (``append``: after what is there)."""
    with path.open("a" if append else "w", encoding="utf-8") as out:
        for pair in sorted(tally.pairs):
            share, lead = tally.pairs[pair]
            line = {"pair": pair, "share": share, "margin": lead, "plays": tally.plays.get(pair, [])}
            out.write(json.dumps(line) + "\n")


def read_record(path: Path) -> dict[int, tuple[float, float]]:
    """A ``--record`` file: pair number -> (A's share, margin per deal)."""
    pairs: dict[int, tuple[float, float]] = {}
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            try:
                entry = json.loads(line)
                pairs[int(entry["pair"])] = (float(entry["share"]), float(entry["margin"]))
            except (ValueError, KeyError, TypeError) as error:
                raise ValueError(f"{path}:{number}: not a --record line ({error})") from error
    return pairs


def compare_records(first: dict[int, tuple[float, float]], second: dict[int, tuple[float, float]]) -> str:
    """Two records of the same deals compared pair by pair (``--compare``)."""
    common = sorted(set(first) & set(second))
    if not common:
        raise ValueError("the two records have no pair numbers in common (same --seed and --pairs?)")
    n = len(common)
    changed = [p for p in common if first[p][0] != second[p][0]]
    better = sum(1 for p in changed if second[p][0] > first[p][0])
    mean, low, high = mean_interval([second[p][1] - first[p][1] for p in common])
    return "\n".join(
        [
            f"{n} pairs in both records",
            f"  first:  A won {sum(first[p][0] for p in common) / n:.1%} of pairs,"
            f" {sum(first[p][1] for p in common) / n:+.1f} a deal",
            f"  second: A won {sum(second[p][0] for p in common) / n:.1%} of pairs,"
            f" {sum(second[p][1] for p in common) / n:+.1f} a deal",
            f"  pairs whose result changed: {len(changed)}"
            f" (second better in {better}, worse in {len(changed) - better})",
            f"  margin, second minus first: {mean:+.2f} a deal [{low:+.2f}, {high:+.2f}] (95%)",
        ]
    )


def missing_levels(matches: Iterable[tuple[str, str, str]]) -> list[str]:
    """Why any of the (variant, a, b) matches cannot be played: one line per missing level."""
    problems = []
    for variant, a, b in matches:
        family = find_variant(variant).family
        for level in dict.fromkeys((a, b)):
            if level not in levels(family):
                hint = " (bench/frozen, from branch basicpitch, adds it)" if level == "basic-2026-11" else ""
                problems.append(
                    f"level {level!r} is not available for {variant} ({family}: "
                    f"{', '.join(levels(family))}){hint}"
                )
    return list(dict.fromkeys(problems))


def verdict(goal: Goal, figures: Summary) -> str:
    if goal.share is None:
        if figures.won_low > 0.5:
            return "goal > 50%: met (whole interval above 50%)"
        if figures.won > 0.5:
            return "goal > 50%: point estimate above, interval reaches 50% (not yet clear)"
        return "goal > 50%: NOT met"
    target = f"goal >= {100 * goal.share:.0f}%"
    if figures.won_low >= goal.share:
        return f"{target}: met (whole interval)"
    if figures.won >= goal.share:
        return f"{target}: met by the point estimate (interval reaches below)"
    if not figures.decided:
        return f"{target}: NOT met"
    # Tied pairs count half: with as many ties, the goal asks this much of the rest.
    needed = (goal.share * figures.pairs - figures.ties / 2) / figures.decided
    asked = f"{100 * needed:.1f}% of the pairs not tied" if needed <= 1 else "more than every pair not tied"
    return f"{target}: NOT met (with {figures.ties} tied pairs it needs {asked})"


def run_suite(name: str, pairs: int, jobs: int, seed: int) -> int:
    goals = SUITES[name]
    problems = missing_levels((goal.variant, goal.a, goal.b) for goal in goals)
    if problems:
        print(f"suite {name!r} cannot run:\n  " + "\n  ".join(problems), file=sys.stderr)
        return 2
    lines = []
    for goal in goals:
        match = Match(goal.variant, goal.a, goal.b, goal.players, (), seed)
        tally = run_match(match, pairs, jobs)
        figures = summarize(tally)
        print(report(match, tally, jobs), flush=True)
        print(f"  => {verdict(goal, figures)}", flush=True)
        line = (
            f"{goal.variant:<19} {goal.a} vs {goal.b:<14} {100 * figures.won:5.1f}% "
            f"[{100 * figures.won_low:.1f}, {100 * figures.won_high:.1f}]  "
            f"margin {figures.margin:+.1f}/deal  {verdict(goal, figures)}"
        )
        if goal.a == "hard":
            p99, cpu_p99 = figures.p99["A"], figures.cpu_p99["A"]
            ok = "met" if cpu_p99 <= HARD_P99_GOAL else "NOT met"
            line += (
                f"; hard decision p99 CPU {milliseconds(cpu_p99)}, wall {milliseconds(p99)} "
                f"(goal <= 1 s on one core: {ok})"
            )
        lines.append(line)
    print(f"\nsuite {name}, {pairs} pairs each, seed {seed}:")
    print("\n".join(lines))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("variant", nargs="?", help="the variant (not with --suite)")
    parser.add_argument("--a", default="basic", help="level A (default basic)")
    parser.add_argument("--b", default="random", help="level B (default random)")
    parser.add_argument("--pairs", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=None, help="players (default: the variant's)")
    parser.add_argument("--options", nargs="*", default=[], metavar="K=V", help="house rules")
    parser.add_argument("--suite", choices=sorted(SUITES), help="run a named set of matches")
    parser.add_argument("--record", type=Path, metavar="FILE", help="write every pair's plays to FILE")
    parser.add_argument(
        "--compare", type=Path, nargs=2, metavar="FILE", help="compare two --record files pair by pair"
    )
    args = parser.parse_args(argv)
    if args.compare:
        if args.variant or args.suite:
            parser.error("--compare reads two records; it plays nothing")
        try:
            print(compare_records(read_record(args.compare[0]), read_record(args.compare[1])))
        except (OSError, ValueError) as error:
            parser.error(str(error))
        return 0
    if args.pairs < 1 or args.jobs < 1:
        parser.error("--pairs and --jobs must be at least 1")
    load_frozen_levels()
    if args.suite:
        if args.variant:
            parser.error("give a variant or --suite, not both")
        if args.record:
            parser.error("--record writes one match: give a variant instead of --suite")
        return run_suite(args.suite, args.pairs, args.jobs, args.seed)
    if not args.variant:
        parser.error("name a variant or a --suite")
    try:
        options = tuple(parse_option_pairs(args.options).items())
        match = Match(args.variant, args.a, args.b, args.players, options, args.seed)
        problems = missing_levels([(match.variant, match.a, match.b)])
        if problems:
            parser.error("; ".join(problems))
        match_seatings(match)
    except (ValueError, LookupError) as error:  # the engine's errors are ValueErrors
        parser.error(str(error))
    if args.record:
        try:  # before the match: a long run is not lost to a path it cannot write
            args.record.write_text("", encoding="utf-8")
        except OSError as error:
            parser.error(f"--record: {error}")
    tally = run_match(match, args.pairs, args.jobs, record=args.record)
    print(report(match, tally, args.jobs))
    if args.record:
        write_record(tally, args.record)  # all of it again, in pair order
    return 0


if __name__ == "__main__":
    sys.exit(main())
