"""Hard decisions served per second by ``tricknight worker`` over NATS: one worker, then two.

Each worker is a ``python -m bot worker --processes 1`` process (about one core each), started for
its run on subjects of the bench's own and stopped (SIGTERM) after it. A bot-side client
(``bot.remote.RemoteThinker``, as the bot uses it) keeps ``--in-flight`` decisions per worker
process going until ``--decisions`` hard decisions are answered, each from a real position of
mid-game (``--variant``, positions of games played by ``basic``, each with a choice to make),
every run the same positions in the same order. Both runs are printed side by side: decisions a
second, the answers' latency, how many each worker answered, how many fell back to ``basic``, the
cores the workers kept busy (their CPU seconds, pool processes included, from /proc, per second of
the run), how often a worker sat idle while another held two or more requests (sampled from
``<prefix>.status`` every 50 ms), and the machine's load average before and after: on a machine
shared with others the second worker gets a core only when one is free, so the ratio is bounded by
the cores it got. Before each timed run every worker answers a few decisions untimed (its
process's first search pays for imports and tables).

Usage: python bench/workers.py [--decisions 120] [--in-flight 2] [--variant pinochle-4]
       [--nats nats://127.0.0.1:4222]  (default: TRICKNIGHT_NATS_URL, else that)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import secrets
import signal
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot import __version__  # noqa: E402
from bot.ai import decide, make_player  # noqa: E402
from bot.engine import Game, new_game  # noqa: E402
from bot.remote import RemoteThinker, find_workers  # noqa: E402

WARM_UP = 3  # untimed decisions per worker before a run


def positions(variant: str, count: int, seed: int) -> list[Game]:
    """``count`` positions of mid-game with a choice to make, from games played by ``basic``."""
    found: list[Game] = []
    game_seed = seed
    while len(found) < count:
        game = new_game(variant, seed=game_seed)
        while not game.is_over and len(found) < count:
            seat = game.to_act[0]
            if len(game.legal_actions(seat)) > 1 and len(game.log) % 3 == 0:
                found.append(game.copy())
            game.apply(seat, decide(make_player(game.family, "basic", seat), game, seat))
        game_seed += 1
    return found


async def start_workers(url: str, prefix: str, count: int) -> list[asyncio.subprocess.Process]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TRICKNIGHT_")}
    env.update(TRICKNIGHT_NATS_URL=url, TRICKNIGHT_NATS_PREFIX=prefix, TRICKNIGHT_LOG_LEVEL="WARNING",
               PYTHONPATH=str(ROOT))  # fmt: skip
    made = []
    for _ in range(count):
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "worker", "--processes", "1", env=env, cwd=ROOT,
            stdin=asyncio.subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
        made.append(process)
    deadline = time.monotonic() + 120
    while len(await find_workers(url, prefix, wait=0.3)) < count:
        if time.monotonic() > deadline or any(p.returncode is not None for p in made):
            raise SystemExit("the workers did not start")
    return made


def group_cpu(groups: list[int]) -> float | None:
    """CPU seconds used so far by every process of these process groups (each worker with its pool
    processes), from /proc; None where there is no /proc."""
    total = 0
    try:
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            with contextlib.suppress(OSError):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(fields[2]) in groups:  # pgrp
                    total += int(fields[11]) + int(fields[12])  # utime + stime, in clock ticks
    except OSError:
        return None
    return total / os.sysconf("SC_CLK_TCK")


async def idle_sampler(url: str, prefix: str, samples: list[tuple[int, int]]) -> None:
    """Every 50 ms: how many workers hold no request while another holds two or more (a request
    waiting behind another although a worker is free: the queue group picks at random)."""
    import nats

    connection = await nats.connect(url)
    try:
        while True:
            found = await find_workers_on(connection, prefix)
            idle = sum(1 for held in found if held == 0)
            queued = sum(1 for held in found if held >= 2)
            samples.append((idle if queued else 0, len(found)))
            await asyncio.sleep(0.05)
    finally:
        await connection.close()


async def find_workers_on(connection: Any, prefix: str) -> list[int]:
    inbox = connection.new_inbox()
    held: list[int] = []

    async def answered(message: Any) -> None:
        held.append(int(json.loads(message.data)["in_hand"]))

    subscription = await connection.subscribe(inbox, cb=answered)
    await connection.publish(f"{prefix}.status", b"{}", reply=inbox)
    await asyncio.sleep(0.02)
    await subscription.unsubscribe()
    return held


async def stop_workers(made: list[asyncio.subprocess.Process]) -> None:
    for process in made:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
    for process in made:
        await asyncio.wait_for(process.wait(), 30)


async def run(url: str, workers: int, games: list[Game], in_flight: int) -> dict[str, object]:
    prefix = f"tn.bench.{secrets.token_hex(4)}"
    made = await start_workers(url, prefix, workers)
    thinker = RemoteThinker(url, prefix)
    fallbacks = 0

    class Count(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            nonlocal fallbacks
            fallbacks += "decides instead" in record.getMessage()

    counter = Count()
    logging.getLogger("bot.remote").addHandler(counter)
    latencies: list[float] = []

    async def one(game: Game, seed: int) -> None:
        seat = game.to_act[0]
        began = time.perf_counter()
        await thinker.decide(make_player(game.family, "hard", seed), game, seat, family=game.family,
                             level="hard", seed=seed)  # fmt: skip
        latencies.append(time.perf_counter() - began)

    try:
        await asyncio.gather(*(one(games[i % len(games)], i) for i in range(WARM_UP * workers)))
        latencies.clear()
        thinker.answered_by.clear()
        fallbacks = 0
        load_before = os.getloadavg()[0]
        queue = iter(enumerate(games))

        async def client() -> None:
            for index, game in queue:
                await one(game, 1000 + index)

        samples: list[tuple[int, int]] = []
        sampler = asyncio.create_task(idle_sampler(url, prefix, samples))
        cpu_before = group_cpu([p.pid for p in made])
        began = time.perf_counter()
        await asyncio.gather(*(client() for _ in range(in_flight * workers)))
        elapsed = time.perf_counter() - began
        cpu_after = group_cpu([p.pid for p in made])
        load_after = os.getloadavg()[0]
        sampler.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sampler
    finally:
        logging.getLogger("bot.remote").removeHandler(counter)
        await thinker.shutdown()
        await stop_workers(made)
    ordered = sorted(latencies)
    return {
        "workers": workers,
        "in flight": in_flight * workers,
        "decisions": len(latencies),
        "seconds": elapsed,
        "per second": len(latencies) / elapsed,
        "p50 ms": 1000 * statistics.median(ordered),
        "p95 ms": 1000 * ordered[int(0.95 * (len(ordered) - 1))],
        "by worker": sorted(thinker.answered_by.values(), reverse=True),
        "basic": fallbacks,
        "load": (load_before, load_after),
        "cores busy": None if cpu_before is None or cpu_after is None else (cpu_after - cpu_before) / elapsed,
        "idle queued": sum(idle for idle, _ in samples) / max(1, sum(n for _, n in samples)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=120, help="timed hard decisions per run")
    parser.add_argument("--in-flight", type=int, default=2, help="decisions in flight per worker process")
    parser.add_argument("--variant", default="pinochle-4")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed (positions)")
    parser.add_argument("--nats", default=os.environ.get("TRICKNIGHT_NATS_URL") or "nats://127.0.0.1:4222")
    args = parser.parse_args()
    games = positions(args.variant, args.decisions, args.seed)
    rows = [asyncio.run(run(args.nats, workers, games, args.in_flight)) for workers in (1, 2)]
    print(f"hard decisions over NATS, {args.variant}, {args.decisions} positions of mid-game "
          f"(seed {args.seed}), each worker --processes 1; Trick Night {__version__}, "
          f"{os.cpu_count()} cores")  # fmt: skip
    print(f"{'workers':>7} {'in flight':>9} {'decisions':>9} {'seconds':>8} {'per s':>6} {'p50 ms':>7} "
          f"{'p95 ms':>7} {'by worker':>10} {'basic':>5} {'cores busy':>10} {'idle+queued':>11}  "
          "load (1 min) before/after")  # fmt: skip
    for row in rows:
        before, after = row["load"]  # type: ignore[misc]
        by = "/".join(str(n) for n in row["by worker"])  # type: ignore[attr-defined]
        busy = "?" if row["cores busy"] is None else f"{row['cores busy']:.2f}"
        print(f"{row['workers']:>7} {row['in flight']:>9} {row['decisions']:>9} {row['seconds']:>8.1f} "
              f"{row['per second']:>6.2f} {row['p50 ms']:>7.0f} {row['p95 ms']:>7.0f} {by:>10} "
              f"{row['basic']:>5} {busy:>10} {row['idle queued']:>10.0%}  "
              f"{before:.2f} / {after:.2f}")  # fmt: skip
    print(
        "cores busy: the workers' CPU seconds (with their pool processes) per second of the run; "
        "idle+queued: share of worker samples (every 50 ms) idle while another worker held 2 or more"
    )
    ratio = float(rows[1]["per second"]) / float(rows[0]["per second"])  # type: ignore[arg-type]
    print(f"2 workers / 1 worker: {ratio:.2f}x")


if __name__ == "__main__":
    main()
