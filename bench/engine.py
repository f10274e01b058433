"""Engine speed: random-legal complete deals per second for each variant, through the public API,
next to the reference bitmask playout measured in the same run (compare ratios, not absolutes).

Usage: python bench/engine.py [--seconds S]
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.engine import find_variant, new_game, variant_names  # noqa: E402

REFERENCE = ROOT.parent / "shared" / "bench" / "reference_playout.py"


def deals_per_second(variant: str, players: int, seconds: float) -> float:
    """Complete deals (shuffle to scored deal, random legal choice at every decision)."""
    rng = random.Random(1)
    deals = 0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        seed += 1
        game = new_game(variant, players=players, seed=seed)
        while not game.is_over:
            seat = game.to_act[0]
            events = game.apply(seat, rng.choice(game.legal_actions(seat)))
            if any(event["type"] == "deal_scored" for event in events):
                deals += 1
                break
    return deals / (time.perf_counter() - start)


def reference(deck: int, seconds: float) -> float | None:
    if not REFERENCE.exists():
        return None
    out = subprocess.run(
        [sys.executable, str(REFERENCE), "--deck", str(deck), "--seconds", str(seconds)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return float(out.split(":")[1].split()[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    ref48 = reference(48, args.seconds)
    print(f"reference 48-card playout: {ref48:.0f} deals/s" if ref48 else "reference playout not found")
    for name in variant_names():
        cls = find_variant(name)
        for players in sorted({cls.default_players, min(cls.player_counts), max(cls.player_counts)}):
            rate = deals_per_second(name, players, args.seconds)
            ratio = f" ({rate / ref48:.2f}x the 48-card reference)" if ref48 else ""
            print(f"{name}, {players} players: {rate:.0f} random-legal deals/s{ratio}")


if __name__ == "__main__":
    main()
