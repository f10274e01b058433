"""Engine speed of two checkouts compared in one run: each checkout's own ``bench/engine.py``
random-legal deal rate per variant, timed in CPU time (which other processes on a shared machine
inflate far less than wall time), in alternating rounds so that both see the same machine; the best
round of each counts.

Usage:
    python bench/engine_ab.py OLD_CHECKOUT [NEW_CHECKOUT] [--rounds N] [--seconds S]

``NEW_CHECKOUT`` defaults to this one. A ratio of 1.00 or more means the new checkout deals at least
as fast; issue 10 asked for every variant to stay within 5% (>= 0.95). CPU time still swings by up
to ~10% between runs on a busy 2-core machine: repeat a variant that lands near the line.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
VARIANTS = [
    ("pinochle-2", 2),
    ("pinochle-3", 3),
    ("pinochle-4", 4),
    ("pinochle-4-auction", 4),
    ("pinochle-6", 6),
    ("pinochle-8", 8),
    ("double-deck", 4),
    ("double-deck-npa", 4),
    ("double-deck-pass", 4),
    ("double-deck-toby-thomas", 4),
    ("pitch", 2),
    ("pitch", 4),
    ("pitch", 7),
    ("pitch-partnership", 4),
]

# Run inside the checkout's own interpreter state: its bot package and its bench, with the bench's
# clock swapped for CPU time.
MEASURE = """
import importlib.util, json, sys, time
checkout, seconds, variants = sys.argv[1], float(sys.argv[2]), json.loads(sys.argv[3])
sys.path.insert(0, checkout)
spec = importlib.util.spec_from_file_location("engine_bench", checkout + "/bench/engine.py")
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)
bench.time = type("CpuClock", (), {"perf_counter": staticmethod(time.process_time)})
print(json.dumps({f"{name}/{players}": bench.deals_per_second(name, players, seconds)
                  for name, players in variants}))
"""


def measure(checkout: Path, seconds: float) -> dict[str, float]:
    """Deals per CPU second for every variant, by ``checkout``'s own bench, in a fresh process."""
    out = subprocess.run(
        [sys.executable, "-c", MEASURE, str(checkout), str(seconds), json.dumps(VARIANTS)],
        capture_output=True,
        text=True,
        check=True,
        cwd=checkout,
    ).stdout
    rates: dict[str, float] = json.loads(out)
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("old", type=Path, help="the checkout to compare against (e.g. a git worktree)")
    parser.add_argument("new", type=Path, nargs="?", default=HERE, help="default: this checkout")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per variant and round")
    args = parser.parse_args()
    for checkout in (args.old, args.new):
        if not (checkout / "bench" / "engine.py").is_file():
            parser.error(f"{checkout} has no bench/engine.py: give the root of a Trick Night checkout")
    if args.rounds < 1 or args.seconds <= 0:
        parser.error("--rounds must be at least 1 and --seconds positive")
    old: list[dict[str, float]] = []
    new: list[dict[str, float]] = []
    for _ in range(args.rounds):
        old.append(measure(args.old, args.seconds))
        new.append(measure(args.new, args.seconds))
    ratios = []
    print(f"deals per CPU second, best of {args.rounds} alternating rounds: old {args.old}, new {args.new}")
    for key in old[0]:
        best_old, best_new = max(r[key] for r in old), max(r[key] for r in new)
        ratios.append(best_new / best_old)
        flag = "" if ratios[-1] >= 0.95 else "  (below 0.95)"
        print(f"  {key:28s} old {best_old:7.0f}  new {best_new:7.0f}  new/old {ratios[-1]:.3f}{flag}")
    mean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    print(f"geometric mean {mean:.3f}; lowest {min(ratios):.3f}")


if __name__ == "__main__":
    main()
