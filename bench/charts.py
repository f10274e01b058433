"""Charts: render time and bytes of the ``/stats`` trend and the standings card (leaderboards, league
standings, duplicate rankings), and replay time.

Trends are drawn for 1 to 500 games (the most a chart shows) with one to four lines, from seeded
random walks; standings cards for 1 to 25 rows with long and short names. Each is rendered with
the chart cache cleared, on one core, ``--repeats`` times, the best counting; the time judged is
the rendering thread's CPU time (wall-clock beside it). Goal: p99 <= 30 ms per image. Replays of
whole computer-played games of every variant are timed too (they run off the event loop; the bot
keeps the last few).

Usage: python bench/charts.py [--repeats 3] [--samples DIR]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from render import percentile, pin_to_one_core  # noqa: E402  (bench/render.py)

from bot.ai import decide, make_player  # noqa: E402
from bot.engine import new_game, variant_names  # noqa: E402
from bot.history import replay  # noqa: E402
from bot.pictures import Rendered  # noqa: E402
from bot.pictures.charts import (  # noqa: E402
    Series,
    StandingLine,
    clear_chart_cache,
    render_standings,
    render_trend,
)
from bot.pictures.draw import use_builtin_font  # noqa: E402

GOAL_MS = 30.0
NAMES = ("Alice", "Bob", "Dmitri", "Élodie", "Farah", "Gus", "Hiroko", "Computer (basic)", "A" * 40)


def trend_calls() -> list[Callable[[], Rendered]]:
    rng = random.Random(16)
    calls = []
    for games in (1, 2, 5, 10, 25, 50, 100, 200, 350, 500):
        for lines in (1, 2, 4):
            series = []
            for index in range(lines):
                value, values = 0.0, []
                start = rng.randrange(games)  # later families start later
                for n in range(games):
                    value += rng.uniform(-1.2, 1.5)
                    values.append(None if n < start * index // lines else round(value, 2))
                series.append(Series(["pitch", "pinochle", "double-deck", "wins"][index], tuple(values)))

            def call(series: list[Series] = series) -> Rendered:
                return render_trend(series, title="Rating — Élodie", start="3 Jan 2025", end="5 Feb 2025")

            calls.append(call)
    return calls


def standings_calls() -> list[Callable[[], Rendered]]:
    calls = []
    for rows in (1, 3, 5, 10, 15, 20, 25):
        lines = [
            StandingLine(n, NAMES[n % len(NAMES)], f"{1000 - n * 37:.1f} · {30 - n}/{40} won · {75 - n}%")
            for n in range(1, rows + 1)
        ]

        def call(lines: list[StandingLine] = lines) -> Rendered:
            return render_standings(lines, title="Leaderboard — All games")

        calls.append(call)
    for sides in (2, 8, 25):  # a duplicate event's ranking card: a side of a table per line
        ranking = [
            StandingLine(n, f"T{n % 9 + 1} · {NAMES[n % len(NAMES)]} & {NAMES[(n + 3) % len(NAMES)]}",
                         f"{40 - n}/48 MP · {100 * (40 - n) / 48:.1f}%")
            for n in range(1, sides + 1)
        ]  # fmt: skip

        def duplicate(lines: list[StandingLine] = ranking) -> Rendered:
            return render_standings(lines, title="Duplicate #12 — Partnership Pinochle")

        calls.append(duplicate)
    return calls


def timed(calls: list[Callable[[], Rendered]], repeats: int) -> tuple[list[float], list[float], list[int]]:
    for call in calls:
        call()  # fonts and labels: the bot keeps them cached too
    cpu, wall, sizes = [], [], []
    for call in calls:
        cpus, walls = [], []
        for _ in range(repeats):
            clear_chart_cache()
            cpu_start, wall_start = time.thread_time(), time.perf_counter()
            rendered = call()
            walls.append((time.perf_counter() - wall_start) * 1000)
            cpus.append((time.thread_time() - cpu_start) * 1000)
        cpu.append(min(cpus))
        wall.append(min(walls))
        sizes.append(len(rendered.png))
    return cpu, wall, sizes


def report(kind: str, calls: list[Callable[[], Rendered]], repeats: int) -> bool:
    cpu, wall, sizes = timed(calls, repeats)
    p99 = percentile(cpu, 0.99)
    ok = p99 <= GOAL_MS
    print(
        f"{kind:9} n={len(calls):3}  p50 {percentile(cpu, 0.5):5.2f} ms  p99 {p99:5.2f} ms"
        f"  max {max(cpu):5.2f} ms (goal p99 <= {GOAL_MS:.0f})"
        f"  [wall p50 {percentile(wall, 0.5):5.2f} p99 {percentile(wall, 0.99):5.2f}]"
        f"  bytes mean {statistics.mean(sizes) / 1024:4.1f} KiB max {max(sizes) / 1024:4.1f} KiB"
        f"  {'ok' if ok else 'MISSED'}"
    )
    return ok


def replay_times() -> None:
    for variant in variant_names():
        game = new_game(variant, seed=7)
        bots = [make_player(type(game).family, "basic", 7 + s) for s in range(game.players)]
        while not game.is_over:
            seat = game.to_act[0]
            game.apply(seat, decide(bots[seat], game, seat))
        record = game.to_json()
        start = time.perf_counter()
        shown = replay(record)
        took = (time.perf_counter() - start) * 1000
        actions, deals = len(record["log"]), len(shown.deals)
        print(f"replay   {variant:23} {actions:5} actions, {deals:3} deals: {took:6.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--samples", type=Path, help="write a sample of each picture here instead")
    args = parser.parse_args()
    use_builtin_font()  # the same pictures on every machine
    if args.samples is not None:
        args.samples.mkdir(parents=True, exist_ok=True)
        (args.samples / "trend.png").write_bytes(trend_calls()[-2]().png)
        (args.samples / "standings.png").write_bytes(standings_calls()[3]().png)
        print(f"samples written to {args.samples}")
        return
    print(f"Charts, best of {args.repeats} uncached renders each, {pin_to_one_core()}")
    ok = report("trend", trend_calls(), args.repeats)
    ok = report("standings", standings_calls(), args.repeats) and ok
    replay_times()
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
