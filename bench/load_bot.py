"""The bot process of ``bench/load.py``: the real ``TrickNightBot`` pointed at the wire fake, with
an event-loop lag probe and a report of its own figures (memory, tasks, views, store) on request.

Driven over stdin, one word a line: ``mark`` starts the measured window (resets the lag samples
and the store's counters, records memory and CPU), ``report`` prints one JSON line with the
figures since the mark, ``stop`` closes the bot. Not meant to be run by hand.

Usage: python bench/load_bot.py PORT DATABASE COMPUTER_DELAY [--tracemalloc] [--profile FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import itertools
import json
import logging
import os
import re
import sys
import threading
import time
import tracemalloc
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import discord  # noqa: E402
import discord.gateway  # noqa: E402
import discord.http  # noqa: E402
import discord.state  # noqa: E402
import discord.webhook.async_  # noqa: E402
import yarl  # noqa: E402

from bot.app import TrickNightBot  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.pictures import offloop  # noqa: E402

PROBE_INTERVAL = 0.01


def rss_bytes() -> int:
    return rss_of("self")


def rss_of(pid: int | str) -> int:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


class Handling:
    """Inside the bot: from discord.py parsing an INTERACTION_CREATE to its answer going out."""

    def __init__(self) -> None:
        self.started: dict[int, float] = {}
        self.times: list[float] = []
        state_cls = discord.state.ConnectionState
        adapter_cls = discord.webhook.async_.AsyncWebhookAdapter
        parse, respond = state_cls.parse_interaction_create, adapter_cls.create_interaction_response

        def parse_and_time(state: Any, data: Any) -> None:
            self.started[int(data["id"])] = time.perf_counter()
            parse(state, data)

        def respond_and_time(adapter: Any, interaction_id: int, *args: Any, **kwargs: Any) -> Any:
            began = self.started.pop(int(interaction_id), None)
            if began is not None:
                self.times.append(time.perf_counter() - began)
                PHASES.end()
            return respond(adapter, interaction_id, *args, **kwargs)

        state_cls.parse_interaction_create = parse_and_time  # type: ignore[method-assign]
        adapter_cls.create_interaction_response = respond_and_time  # type: ignore[method-assign]


class Probe:
    """Event-loop lag: how late a 10 ms sleep wakes up."""

    def __init__(self) -> None:
        self.lags: list[float] = []

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            start = loop.time()
            await asyncio.sleep(PROBE_INTERVAL)
            self.lags.append(max(0.0, loop.time() - start - PROBE_INTERVAL))


def summary(values: list[float]) -> dict[str, float]:
    """p50, p99 and max in milliseconds, and how many samples."""
    ordered = sorted(values) or [0.0]
    at = lambda q: 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return {"p50": at(0.5), "p99": at(0.99), "max": 1000 * ordered[-1], "n": len(values)}


def store_stats(bot: TrickNightBot) -> dict[str, Any] | None:
    stats = getattr(getattr(bot, "store", None), "db", None)
    stats = getattr(stats, "stats", None)
    return stats.snapshot() if stats is not None else None


def reset_store_stats(bot: TrickNightBot) -> None:
    stats = getattr(getattr(getattr(bot, "store", None), "db", None), "stats", None)
    if stats is not None:
        stats.reset()


def rest_waits(bot: TrickNightBot) -> dict[str, float] | None:
    """How long the bot's own REST requests waited for their share of the global limit."""
    budget = getattr(getattr(bot, "publisher", None), "budget", None)
    if budget is None:
        return None
    return {"urgent": summary(list(budget.urgent_waits)), "edits": summary(list(budget.waits)),
            "waited": budget.waited}  # fmt: skip


def census() -> list[tuple[str, int]]:
    """The kinds of objects the collector tracks (outside the frozen start-up ones), most first."""
    counts: dict[str, int] = {}
    for obj in gc.get_objects():
        name = type(obj).__qualname__
        counts[name] = counts.get(name, 0) + 1
    return [*sorted(counts.items(), key=lambda kv: -kv[1])[:8], ("(all)", sum(counts.values()))]


def thread_cpu() -> dict[str, float]:
    """CPU seconds so far per kind of thread (the loop's, the picture pool's, the store's, the
    default executor's where computer players think), from /proc: who competes for the GIL."""
    ticks = os.sysconf("SC_CLK_TCK")
    out: dict[str, float] = {}
    for thread in threading.enumerate():
        try:
            fields = Path(f"/proc/self/task/{thread.native_id}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        kind = re.sub(r"[-_]?\d+(_\d+)?$", "", thread.name) or thread.name
        out[kind] = out.get(kind, 0.0) + (int(fields[11]) + int(fields[12])) / ticks
    return out


def process_cpu(pids: list[int]) -> float:
    """CPU seconds so far of the given processes (the picture worker)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def live_views() -> int:
    return sum(1 for obj in gc.get_objects() if isinstance(obj, discord.ui.View))


HANDLING = Handling()


class Phases:
    """Where a click's time goes inside the bot, marked on the task that handles it: discord.py
    parsing it, the callback starting, the table manager acting (taking the table's lock, storing
    the action), the store answering, the player's picture choice, the answer going out."""

    def __init__(self) -> None:
        self.marks: dict[int, list[tuple[str, float]]] = {}
        self.steps: dict[str, list[float]] = {}

    def mark(self, label: str) -> None:
        task = asyncio.current_task()
        if task is not None and id(task) in self.marks:
            self.marks[id(task)].append((label, time.perf_counter()))

    def begin(self, parsed: float | None) -> None:
        task = asyncio.current_task()
        if task is not None and parsed is not None:
            self.marks[id(task)] = [("parsed", parsed), ("callback", time.perf_counter())]

    def end(self) -> None:
        task = asyncio.current_task()
        marks = self.marks.pop(id(task), None) if task is not None else None
        if not marks:
            return
        marks.append(("answered", time.perf_counter()))
        for (_, before), (label, at) in itertools.pairwise(marks):
            self.steps.setdefault(label, []).append(at - before)

    def install(self) -> None:
        from bot.discord_ui import bidding, components, confirm, lobby, reach
        from bot.discord_ui.publisher import DiscordPublisher
        from bot.store.database import Database
        from bot.tables import TableManager

        phases = self
        on_table, act, submit = reach.on_table, TableManager.act, Database._submit
        prefs = DiscordPublisher.picture_prefs

        async def traced_on_table(interaction: Any, table_id: int, work: Any, **kwargs: Any) -> None:
            phases.begin(HANDLING.started.get(int(interaction.id)))
            try:
                await on_table(interaction, table_id, work, **kwargs)
            finally:
                phases.marks.pop(id(asyncio.current_task()), None)

        async def traced_act(manager: Any, *args: Any, **kwargs: Any) -> Any:
            phases.mark("before act")
            try:
                return await act(manager, *args, **kwargs)
            finally:
                phases.mark("act (after store)")

        async def traced_submit(db: Any, kind: str, *args: Any) -> Any:
            phases.mark(f"before {kind}")
            try:
                return await submit(db, kind, *args)
            finally:
                phases.mark(f"store {kind}")

        async def traced_prefs(publisher: Any, *args: Any) -> Any:
            phases.mark("before prefs")
            try:
                return await prefs(publisher, *args)
            finally:
                phases.mark("prefs")

        for module in (components, lobby, bidding, confirm):  # each calls the name it imported
            module.on_table = traced_on_table  # type: ignore[attr-defined]
        TableManager.act = traced_act  # type: ignore[method-assign]
        Database._submit = traced_submit  # type: ignore[method-assign]
        DiscordPublisher.picture_prefs = traced_prefs  # type: ignore[method-assign]

    def summary(self) -> dict[str, dict[str, float]]:
        return {label: summary(times) for label, times in self.steps.items()}


PHASES = Phases()


class GcPauses:
    """How long the cyclic garbage collector stops everything, per generation."""

    def __init__(self) -> None:
        self.pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
        self._began = 0.0
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        else:
            self.pauses[info["generation"]].append(time.perf_counter() - self._began)


GC = GcPauses()


async def commands(bot: TrickNightBot, probe: Probe, args: argparse.Namespace) -> None:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    mark: dict[str, Any] = {}
    profiler = cProfile.Profile() if args.profile else None
    while True:
        line = (await reader.readline()).decode().strip()
        if line in ("", "stop"):
            return
        if line == "mark":
            gc.collect()
            probe.lags.clear()
            HANDLING.times.clear()
            PHASES.steps.clear()
            for pauses in GC.pauses.values():
                pauses.clear()
            reset_store_stats(bot)
            budget = getattr(getattr(bot, "publisher", None), "budget", None)
            if budget is not None:
                budget.waits.clear()
                budget.urgent_waits.clear()
                budget.waited = 0
            if args.tracemalloc:
                tracemalloc.start(5)
            if profiler is not None:
                profiler.enable()
            mark = {"rss": rss_bytes(), "cpu": sum(os.times()[:2]), "wall": time.monotonic(),
                    "threads": thread_cpu(), "worker": process_cpu(offloop.pool.worker_pids),
                    "renders": offloop.pool.renders, "hits": offloop.pool.hits}  # fmt: skip
        elif line == "stacks":  # what every task is waiting for (to debug a click left unanswered)
            for task in asyncio.all_tasks():
                task.print_stack(limit=6, file=sys.stderr)
        elif line == "report":
            if profiler is not None:
                profiler.disable()
                profiler.dump_stats(args.profile)
            cpu = sum(os.times()[:2]) - mark.get("cpu", 0.0)
            wall = time.monotonic() - mark.get("wall", time.monotonic())
            out: dict[str, Any] = {
                "lags": summary(probe.lags),
                "handling": summary(HANDLING.times),
                "phases": PHASES.summary(),
                "gc": {str(gen): summary(pauses) for gen, pauses in GC.pauses.items()},
                "census": census(),
                "rss_mark": mark.get("rss", 0),
                "rss_end": rss_bytes(),
                "cpu_share": cpu / wall if wall else 0.0,
                "clicks": len(HANDLING.times),
                "pictures": {
                    "worker_rss": sum(rss_of(pid) for pid in offloop.pool.worker_pids),
                    "where": "a worker process" if offloop.pool.worker_pids else "a thread",
                    "drawn": offloop.pool.renders - mark.get("renders", 0),
                    "cached": offloop.pool.hits - mark.get("hits", 0),
                    "worker_share": (process_cpu(offloop.pool.worker_pids) - mark.get("worker", 0.0)) / wall
                    if wall
                    else 0.0,
                },
                "thread_shares": {
                    kind: (seconds - mark.get("threads", {}).get(kind, 0.0)) / wall if wall else 0.0
                    for kind, seconds in thread_cpu().items()
                },
                "tasks": len(asyncio.all_tasks()),
                "views": live_views(),
                "store": store_stats(bot),
                "rest_waits": rest_waits(bot),
            }
            if args.tracemalloc and tracemalloc.is_tracing():
                snapshot = tracemalloc.take_snapshot()
                out["traced"] = tracemalloc.get_traced_memory()[0]
                out["top"] = [str(stat) for stat in snapshot.statistics("lineno")[:8]]
            print(json.dumps(out), flush=True)


async def main(args: argparse.Namespace) -> None:
    discord.http.Route.BASE = f"http://127.0.0.1:{args.port}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{args.port}/")
    settings = Settings(token="fake-token", database=Path(args.database), computer_delay=args.delay)
    bot = TrickNightBot(settings, guild_ready_timeout=0.05)
    PHASES.install()
    if args.render_in == "thread":
        offloop.pool.processes = 0
    probe = Probe()
    probing = asyncio.create_task(probe.run())
    running = asyncio.create_task(bot.start("fake-token"))
    try:
        await commands(bot, probe, args)
    finally:
        probing.cancel()
        await bot.close()
        running.cancel()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("port", type=int)
    parser.add_argument("database")
    parser.add_argument("delay", type=float)
    parser.add_argument("--tracemalloc", action="store_true")
    parser.add_argument("--profile")
    parser.add_argument("--render-in", choices=("process", "thread"), default="process")
    logging.basicConfig(level=logging.WARNING, format="bot %(levelname)s %(name)s: %(message)s")
    asyncio.run(main(parser.parse_args()))
