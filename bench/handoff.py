"""Handover: how long the next person waits for their turn after someone else's click.

Two people a table play two-hand pinochle by clicking (``bench/load.py``'s scripted people, over
the wire fake of Discord against the real bot in its own process, computer delay 0), first at one
table, then at 50 busy tables. The clock starts when the bot answers a person's accepted action
(it answers only once the action is stored) and stops when the bot edits the *other* person's
hand panel to say it is their turn. Printed for both runs side by side, each beside its goal:
p50/p99/max, and the table message's pacing meanwhile (edits a second per table, the shortest gap
between two edits of one table message, the busiest channel's edits in any 5 s), which must stay
within Discord's per-channel limit.

Usage: python bench/handoff.py [--seconds 40] [--busy 50] [--think 0.3 1.5]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.load import HANDOFF_GOAL_MS, Bench, arguments, handoff_figures, verdict  # noqa: E402

VARIANT = "pinochle-2:match=deal"


def run(tables: int, seconds: float, think: tuple[float, float], seed: int) -> dict[str, float]:
    args = arguments().parse_args(
        ["--tables", str(tables), "--seconds", str(seconds), "--humans", "2", "--computer-delay", "0",
         "--variants", VARIANT, "--think", str(think[0]), str(think[1]), "--peek", "0",
         "--ramp", str(min(5.0, seconds / 4)), "--seed", str(seed)]
    )  # fmt: skip
    bench = Bench(args)
    result = asyncio.run(bench.run())
    figures = handoff_figures(bench, result["elapsed"])
    limiter = bench.fake.rate_limiter
    assert limiter is not None
    figures["429s"] = limiter.given_429
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=40.0, help="measured seconds of each run")
    parser.add_argument("--busy", type=int, default=50, help="tables in the busy run")
    parser.add_argument("--think", type=float, nargs=2, default=(0.3, 1.5), help="a person's pause, s")
    parser.add_argument("--seed", type=int, default=14)
    args = parser.parse_args()
    rows = [(n, run(n, args.seconds, tuple(args.think), args.seed)) for n in (1, args.busy)]
    print(f"turn handover, {VARIANT}, two people a table, computer delay 0, {args.seconds:g} s a run")
    print(f"{'tables':>6} {'n':>6} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}  {'goal p99':>9}     "
          f"{'edits/s/table':>13} {'min gap s':>9} {'busiest 5 s':>11} {'429s':>5}")  # fmt: skip
    for tables, f in rows:
        goal = HANDOFF_GOAL_MS[1] if tables == 1 else HANDOFF_GOAL_MS[50]
        print(
            f"{tables:>6} {f['n']:>6.0f} {f['p50']:>8.1f} {f['p99']:>8.1f} {f['max']:>8.1f}  "
            f"{goal:>6.0f} {verdict(f['p99'] <= goal):>6} {f['edits_per_table_s']:>13.2f} "
            f"{f['min_edit_gap_s']:>9.2f} {f['busiest_5s']:>11.0f} {f['429s']:>5.0f}"
        )


if __name__ == "__main__":
    main()
