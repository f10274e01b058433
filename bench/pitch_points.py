"""Where a pitch duel's margin comes from: duplicate deals as in ``bench/duel.py``, with each
level's points split by High, Low, Jack, Game (and the other point cards), and what sets cost.

Usage:
    python bench/pitch_points.py VARIANT --a LEVEL --b LEVEL --pairs N [--seed S]

Besides the registered levels, ``rollout`` is the hard level's rollout policy playing the real game
(its card play; the auction, the pitch and the other rare choices are ``basic``'s), so
``--a rollout --b basic`` shows how far the policy's card play is from ``basic``'s.

Printed per point: the mean per deal of A's seats' share minus B's (a side's point counts for each
of its seats, as the duel's margin does), with a 95% interval; "set" is what the pitcher's side
lost beyond its points when set (the score change less the points taken, summed the same way).
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.duel import Match, Tally, load_frozen_levels, match_seatings, mean_interval, play_deal  # noqa: E402
from bot.ai.base import register_level  # noqa: E402
from bot.ai.hard.policy import RolloutPolicy  # noqa: E402
from bot.engine import Action, Game  # noqa: E402
from bot.engine.pitch import POINT_VALUE  # noqa: E402


class RolloutLevel:
    """The rollout policy as a level: it reads the game as it reads a sampled world (its own hand,
    the cards played, the cards out of its sight together)."""

    def __init__(self, seed: int | None = None) -> None:
        self.policy = RolloutPolicy("pitch")

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        return self.policy.basic.choose(view, legal)

    def choose_for(self, game: Game, seat: int, legal: list[Action]) -> Action:
        return self.policy(game, seat, legal)


def pair_points(match: Match, pair: int) -> dict[str, float]:
    """Pair ``pair``'s points by name: A's per seat per play minus B's."""
    totals: dict[str, float] = defaultdict(float)
    seatings = match_seatings(match)
    for play_no, roles in enumerate(seatings):
        _, game = play_deal(match, pair, play_no, roles, Tally())
        summary = game.last_deal
        assert summary is not None
        seats_of = {role: roles.count(role) for role in ("A", "B")}
        shares = [
            (award["point"], award["side"], POINT_VALUE.get(award["point"], 1)) for award in summary["awards"]
        ]
        for side, change in enumerate(summary["changes"]):
            shares.append(("set", side, change - summary["points"][side]))
            shares.append(("total", side, change))
        for name, side, value in shares:
            for seat in game.sides[side]:
                sign = 1 if roles[seat] == "A" else -1
                totals[name] += sign * value / seats_of[roles[seat]]
    return {name: value / len(seatings) for name, value in totals.items()}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("variant")
    parser.add_argument("--a", default="hard")
    parser.add_argument("--b", default="basic")
    parser.add_argument("--pairs", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    load_frozen_levels()
    register_level("pitch", "rollout", RolloutLevel)
    match = Match(args.variant, args.a, args.b, seed=args.seed)
    rows: dict[str, list[float]] = defaultdict(list)
    for pair in range(args.pairs):
        points = pair_points(match, pair)
        for name in {*rows, *points}:
            values = rows[name]
            values.extend([0.0] * (pair - len(values)))  # a point first seen in this pair
            values.append(points.get(name, 0.0))
    print(f"{args.variant}: {args.a} (A) vs {args.b} (B), {args.pairs} pairs, seed {args.seed}")
    print("point        A-B per deal   95% interval")
    for name in sorted(rows, key=lambda n: (n == "total", n)):
        mean, low, high = mean_interval(rows[name])
        print(f"{name:<12} {mean:+8.3f}     [{low:+.3f}, {high:+.3f}]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
