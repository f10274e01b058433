"""Event-loop lag while four computer seats think at once: worker processes against threads.

Four all-computer tables run in the real table manager (a real SQLite store, a publisher that
only records, no computer delay), so one seat at each table is always thinking: four searches at
once. A probe sleeps 10 ms at a time and records how late it wakes: that lateness is what every
click and every other table would wait. Printed per way of running the computers, beside the goal
(lag p99 < 50 ms): lag p50/p99/max, decisions made and their time p50/p99.

- ``pool``: the bot's way (``bot.thinking``): searching levels in spawned worker processes.
- ``thread``: the old way, ``asyncio.to_thread(decide, ...)``: searches share the interpreter lock
  with the event loop.
- ``idle`` (always printed first): the probe with no table at all, the lag the machine itself
  causes (other processes on a shared machine); read the two others against it.

Usage: python bench/ai_loop.py [--level hard] [--variant pinochle-4] [--tables 4] [--seconds 20]
       [--warmup 3] [--mode both|pool|thread] [--workers N] [--niceness 5]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.ai import Player, levels  # noqa: E402
from bot.app import SWITCH_INTERVAL  # noqa: E402
from bot.engine import Action, Game, find_variant  # noqa: E402
from bot.store import Store  # noqa: E402
from bot.tables import Seat, Table, TableManager  # noqa: E402
from bot.thinking import WORKER_NICENESS, Thinker  # noqa: E402

LAG_GOAL_MS = 50.0
PROBE_INTERVAL = 0.010


class QuietPublisher:
    """The Discord side, reduced to nothing: the bench measures the manager and the computers."""

    def table_changed(self, table: Table) -> None: ...
    def announce(self, table: Table, text: str) -> None: ...
    def turn_ping(self, table: Table, user_ids: list[int], text: str) -> None: ...
    def events(self, table: Table, events: list[dict[str, Any]]) -> None: ...
    async def repost(self, table: Table) -> None: ...


class TimedThinker(Thinker):
    """The bot's thinker, timing each decision; ``in_thread`` gives the old way (no pool at all)."""

    def __init__(self, *, in_thread: bool, level: str, workers: int | None, niceness: int) -> None:
        super().__init__(workers=workers, pooled=() if in_thread else {level}, niceness=niceness)
        self.in_thread = in_thread
        self.times: list[tuple[float, float]] = []  # (when it was asked, how long it took)

    def uses_pool(self, level: str, player: Player) -> bool:
        return not self.in_thread and super().uses_pool(level, player)

    async def decide(self, player: Player, game: Game, seat: int, **kw: Any) -> Action:
        start = time.perf_counter()
        action = await super().decide(player, game, seat, **kw)
        self.times.append((start, time.perf_counter() - start))
        return action


async def computer_table(manager: TableManager, channel: int, variant: str, level: str) -> Table:
    """A table with every seat a computer of ``level`` (opened by a host who gives up the seat)."""
    table = await manager.open_table(guild_id=1, channel_id=channel, host_id=1000 + channel,
                                     host_name="host", variant=variant)  # fmt: skip
    for _ in range(table.players - 1):
        await manager.add_computer(table, 1000 + channel, level)
    table.seats[0] = Seat("computer", "Computer 1", level=level)
    await manager.start(table, None)
    return table


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def run(mode: str, args: argparse.Namespace) -> dict[str, Any]:
    sys.setswitchinterval(SWITCH_INTERVAL)  # as the bot runs
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.db")
        await store.settings.update(1, computer_delay_seconds=0)
        thinker = TimedThinker(
            in_thread=mode == "thread", level=args.level, workers=args.workers, niceness=args.niceness
        )
        manager = TableManager(store, QuietPublisher(), thinker=thinker)
        lags: list[float] = []
        started = time.perf_counter()
        measuring_from = started + args.warmup
        count = 0 if mode == "idle" else args.tables
        tables = [await computer_table(manager, n, args.variant, args.level) for n in range(1, count + 1)]
        games = len(tables)
        while (now := time.perf_counter()) < started + args.warmup + args.seconds:
            expected = now + PROBE_INTERVAL
            await asyncio.sleep(PROBE_INTERVAL)
            late = time.perf_counter() - expected
            if expected >= measuring_from:
                lags.append(late)
            for index, table in enumerate(tables):
                if table.status == "ended":  # a finished game: the next one at the same table
                    tables[index] = await computer_table(manager, table.channel_id, args.variant, args.level)
                    games += 1
        # Decisions asked after the warm-up (the first ones also wait for the workers to start).
        measured = [took for asked, took in thinker.times if asked >= measuring_from]
        await manager.shutdown()
        await store.close()
    return {
        "mode": mode,
        "lag_p50": pct(lags, 0.50) * 1000,
        "lag_p99": pct(lags, 0.99) * 1000,
        "lag_max": max(lags) * 1000 if lags else float("nan"),
        "probes": len(lags),
        "decisions": len(measured),
        "decide_p50": pct(measured, 0.50) * 1000,
        "decide_p99": pct(measured, 0.99) * 1000,
        "mean_decide": statistics.fmean(measured) * 1000 if measured else float("nan"),
        "games": games,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--level", default="hard")
    parser.add_argument("--variant", default="pinochle-4")
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds left out (workers starting)")
    parser.add_argument("--mode", choices=("both", "pool", "thread"), default="both")
    parser.add_argument("--workers", type=int, default=None, help="pool size (default: cores, at most 4)")
    parser.add_argument("--niceness", type=int, default=WORKER_NICENESS, help="workers' nice increment")
    args = parser.parse_args()
    family = find_variant(args.variant).family
    if args.level not in levels(family):
        parser.error(f"no level {args.level!r} for {args.variant}; known: {', '.join(levels(family))}")
    # "idle": the probe alone, no tables: the lag the machine itself causes (other processes).
    modes = ("idle", "pool", "thread") if args.mode == "both" else ("idle", args.mode)
    print(f"{args.tables} {args.variant} tables, every seat {args.level}, {args.seconds:.0f} s measured "
          f"after {args.warmup:.0f} s warm-up; probe every {PROBE_INTERVAL * 1000:.0f} ms")  # fmt: skip
    for mode in modes:
        r = asyncio.run(run(mode, args))
        verdict = "meets" if r["lag_p99"] < LAG_GOAL_MS else "MISSES"
        print(
            f"{r['mode']:>6}: loop lag p50 {r['lag_p50']:6.1f} ms  p99 {r['lag_p99']:7.1f} ms  "
            f"max {r['lag_max']:7.1f} ms  (goal p99 < {LAG_GOAL_MS:.0f} ms: {verdict}; "
            f"{r['probes']} probes)\n        {r['decisions']} decisions, each p50 {r['decide_p50']:.0f} ms"
            f"  p99 {r['decide_p99']:.0f} ms  (mean {r['mean_decide']:.0f} ms; {r['games']} games)"
        )


if __name__ == "__main__":
    main()
