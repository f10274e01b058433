"""``python -m tests.engine.playthroughs --regen`` rewrites the golden files; without ``--regen``
it lists the files that differ from what the engine produces now (exit status 1 if any)."""

from __future__ import annotations

import argparse
import sys
import time

from tests.engine.playthroughs import HERE, playthroughs, regenerate, render


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--regen", action="store_true", help="rewrite every golden file")
    args = parser.parse_args()
    start = time.perf_counter()
    if args.regen:
        written = regenerate()
        print(f"wrote {len(written)} playthroughs in {time.perf_counter() - start:.2f}s")
        return 0
    differ = [
        spec.file
        for spec in playthroughs()
        if not (HERE / spec.file).exists() or (HERE / spec.file).read_text(encoding="utf-8") != render(spec)
    ]
    for name in differ:
        print(f"differs: {name}")
    print(f"checked {len(playthroughs())} playthroughs in {time.perf_counter() - start:.2f}s")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
