"""Cluster bench: the bot as a cluster on one machine, processes killed on purpose, then checked.

Everything real but Discord: a PostgreSQL database of the bench's own (``--postgres``, dropped at
the end), NATS (``--nats``, subjects of the bench's own), two shard processes (shards 0 and 1 of 2)
and a standby (``python -m bot`` each, with the cluster settings), two ``tricknight worker``
processes (``--processes 1`` each) — all against the sharded wire fake of Discord
(``tests/cluster/fake_cluster.py``, in this process: guild events routed by
``(guild_id >> 22) % shard_count``, IDENTIFY pacing and one global REST budget of 50 a second
across every process, answered with 429 past it). ``--tables`` tables play at once, each in a
channel of its own spread over ``--guilds`` guilds, with scripted people (``bench/load.py``'s); a
third of them (``--hard-share``) seat ``hard`` computers, whose searches go to the workers.

First, before any table: hard decisions a second served by one worker, then by two
(``bench/workers.py``), side by side. Then the tables run for ``--seconds``; a third of the way in
the process of shard 0 is killed with SIGKILL, two thirds in a worker is (while it holds
searches). Printed, each beside its goal:

- acknowledgement times of every click (p50/p99/max), and the clicks lost while shard 0 had no
  process (Discord would show those as failed);
- the takeover: the kill -> the standby holding shard 0 -> its first answer in a guild of shard 0,
  and whether every table of shard 0 played on after it;
- the action logs in the database against the clicks the bench saw accepted: none lost, none
  doubled;
- the worker kill: the longest a hard computer's move took (from the action before it, less the
  computer delay) around it and over the run, against the search budget + 2 s;
- the table message's pacing per table and the busiest channel; the REST budget: requests and
  global 429s across the processes.

Usage: python bench/cluster.py [--tables 100] [--guilds 20] [--seconds 90] [--hard-share 0.34]
       [--computer-delay 1.0] [--postgres URL] [--nats URL] [--skip-throughput]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import math
import os
import re
import secrets
import signal
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402

from bench import workers as worker_bench  # noqa: E402
from bench.load import ACTION_KINDS, Bench, arguments, busiest_window, pct, user, verdict  # noqa: E402
from bot.ai.hard.player import DEFAULT_BUDGET  # noqa: E402
from bot.store import Store  # noqa: E402
from tests.cluster.fake_cluster import FakeCluster, LostEvent, shard_of  # noqa: E402
from tests.hosting.harness import WIRE_SITE, BotProcess, fake_token  # noqa: E402

ACK_GOAL_MS = 25.0
TAKEOVER_GOAL = 15.0
WAIT_GOAL = DEFAULT_BUDGET + 2.0  # a hard computer's move: its search budget + 2 s at most
RATIO_GOAL = 1.8
HARD_VARIANTS = ("pitch:target=7", "pinochle-2:match=deal")  # tables with hard computers play these
EASY_VARIANTS = "pitch:target=7,pitch-partnership:target=7,pinochle-4:match=deal,pinochle-2:match=deal"


class Discordish(FakeCluster):
    """The sharded fake as Discord is to a click: sent at once to the shard's session, or failed
    if its shard has none (no waiting for a process to come, which would count as a slow answer)."""

    async def dispatch(self, event: str, data: dict[str, Any], timeout: float = 0.0) -> None:  # noqa: ASYNC109
        await super().dispatch(event, data, timeout=0.0)


class ClusterBench(Bench):
    """``bench/load.py``'s scripted people, at tables spread over the guilds of a sharded fake."""

    def __init__(self, args: argparse.Namespace, guilds: int) -> None:
        super().__init__(args)
        per_guild = math.ceil(args.tables / guilds)
        self.fake = Discordish(guilds=guilds, channels_per_guild=per_guild, patch_discord=False)
        self.fake.intercept = self.seen
        # The tables' channels, spread over the guilds (and so over the shards).
        spread = [self.fake.guilds[g].channel_ids for g in self.fake.guilds]
        channels = [c for row in itertools.zip_longest(*spread) for c in row if c is not None]
        self.channels = channels[: args.tables]
        self.fake.channel_ids = self.channels
        every = round(1 / args.hard_share) if args.hard_share > 0 else 0
        self.hard_channels = {c for i, c in enumerate(self.channels) if every and i % every == 0}
        self.lost_clicks: Counter[int] = Counter()  # by shard: sent while no process ran it
        self.answered_at: dict[int, list[float]] = defaultdict(list)  # shard -> answer times
        self.accepted: dict[str, list[str]] = defaultdict(list)  # table id -> actions acknowledged
        self.table_of_channel: dict[str, str] = {}
        self.table_shard: dict[str, int] = {}

    def shard_of_channel(self, channel: str) -> int:
        return shard_of(self.fake.channel_guild[channel], 2)

    def slash(self, channel: str, uid: int, name: str, sub: str, **options: Any) -> dict[str, Any]:
        opts = [{"type": 3, "name": k, "value": v} for k, v in options.items()]
        tree = [{"type": 1, "name": sub, "options": opts}]
        guild = self.fake.channel_guild[channel]
        return self.fake.slash_interaction(name, tree, user=user(uid), guild_id=guild, channel_id=channel)

    async def interact(self, kind: str, payload: dict[str, Any]) -> tuple[dict[str, Any], str] | None:
        channel = payload["channel_id"]
        shard = self.shard_of_channel(channel)
        try:
            answer = await super().interact(kind, payload)
        except LostEvent:
            self.waiting.pop(payload["id"], None)
            self.lost_clicks[shard] += 1
            await asyncio.sleep(0.5)
            return None
        if answer is None:
            return None
        self.answered_at[shard].append(time.monotonic())
        data = payload.get("data") or {}
        custom_id = str(data.get("custom_id", ""))
        content = str((answer[0].get("data") or {}).get("content") or "")
        accepted = answer[0].get("type") == 7 and content.startswith("You: ")  # not "out of date", etc.
        if kind in ACTION_KINDS and accepted and custom_id.startswith("tn:"):
            parts = custom_id.split(":", 4)
            table_id = parts[2]
            action = (data.get("values") or [None])[0] or (parts[4] if len(parts) > 4 else "")
            self.accepted[table_id].append(str(action))
            self.table_shard[table_id] = shard
        return answer

    async def before_start(self, index: int, lobby: dict[str, Any], ids: list[str], host: int) -> None:
        """A third of the tables seat hard computers in every empty seat."""
        if self.channels[index] not in self.hard_channels:
            return
        hard = next((cid for cid in ids if cid.endswith(":add-hard")), None)
        if hard is None:
            return
        for _ in range(8):  # until the lobby says it is full
            answer = await self.interact(
                "lobby click", self.fake.component_interaction(hard, lobby, user=user(host))
            )
            said = str((answer[0].get("data") or {}).get("content", "")) if answer is not None else "full"
            if "full" in said.lower() or "no empty seat" in said.lower():
                return

    def variant_for(self, index: int) -> str:
        if self.channels[index] in self.hard_channels:
            return HARD_VARIANTS[index % len(HARD_VARIANTS)]
        easy = self.args.variants.split(",")
        return easy[index % len(easy)]

    async def table_loop(self, index: int, channel: str) -> None:
        await asyncio.sleep(index * self.args.ramp / max(1, self.args.tables))
        while not self.stopping:
            try:
                await self.one_game(channel, index, self.variant_for(index))
            except (KeyError, IndexError, TypeError) as err:
                print(f"bench: channel {channel}: {err!r}", file=sys.stderr)
                await asyncio.sleep(1.0)


def bot_env(
    home: Path, port: int, url: str, nats: str, prefix: str, *, shards: str, delay: float
) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TRICKNIGHT_", "XDG_"))}
    env.update(
        HOME=str(home), PYTHONPATH=os.pathsep.join([str(ROOT), str(WIRE_SITE)]),
        TRICKNIGHT_TEST_DISCORD=f"http://127.0.0.1:{port}", DISCORD_TOKEN=fake_token(),
        TRICKNIGHT_DATABASE=url, TRICKNIGHT_SHARD_COUNT="2", TRICKNIGHT_SHARD_IDS=shards,
        TRICKNIGHT_NATS_URL=nats, TRICKNIGHT_NATS_PREFIX=prefix, TRICKNIGHT_COMPUTER_DELAY=str(delay),
    )  # fmt: skip
    return env


async def prepare_database(admin: str, guilds: list[str], delay: float) -> tuple[str, str]:
    """The bench's own database (its name and URL), with every guild's tables in their channels."""
    name = f"tn_cluster_{os.getpid()}_{secrets.token_hex(2)}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    parts = urlsplit(admin)
    url = urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, ""))
    store = await Store.open(url)
    try:
        for guild in guilds:
            await store.settings.update(
                int(guild), table_threads="off", computer_delay_seconds=delay, turn_timeout_seconds=0
            )
    finally:
        await store.close()
    return name, url


def drop_database(admin: str, name: str) -> None:
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def read_logs(url: str) -> dict[str, dict[str, Any]]:
    """Every game: its seats and its actions (seat, action, at)."""
    games: dict[str, dict[str, Any]] = {}
    with psycopg.connect(url) as conn:
        for gid, seats, variant in conn.execute("SELECT id, seats, variant FROM games").fetchall():
            games[str(gid)] = {"seats": json.loads(seats), "variant": variant, "actions": []}
        for gid, seat, action, at in conn.execute(
            "SELECT game_id, seat, action, at FROM actions ORDER BY game_id, idx"
        ).fetchall():
            games[str(gid)]["actions"].append((seat, action, at))
    return games


def check_logs(bench: ClusterBench, games: dict[str, dict[str, Any]]) -> dict[str, int]:
    """The actions people had acknowledged against the logs: each acknowledged action of seat 1
    must be in its game's log, in order, once; the log may hold one more (a click stored just as
    its process was killed, before its answer went out)."""
    lost = doubled = extra = checked = 0
    for table_id, acked in bench.accepted.items():
        game = games.get(table_id)
        if game is None:
            lost += len(acked)
            continue
        # (buttons name cards in lower case: "play 5d" is the log's "play 5D")
        logged = [action.lower() for seat, action, _ in game["actions"] if seat == 0]
        checked += len(acked)
        position = 0
        for action in (a.lower() for a in acked):
            while position < len(logged) and logged[position] != action:
                position += 1
            if position == len(logged):
                lost += 1
            else:
                position += 1
        surplus = len(logged) - len(acked)
        if surplus > 1:
            doubled += surplus - 1
        extra += max(0, min(1, surplus))
    return {"checked": checked, "lost": lost, "doubled": doubled, "unacknowledged": extra}


def hard_waits(
    games: dict[str, dict[str, Any]], delay: float, window: tuple[float, float], *, skip_across: float
) -> tuple[float, float, int]:
    """The longest a hard computer's move took (from the action before it, less the delay): over
    the run, and within ``window`` (wall-clock seconds: around the worker's kill). A move whose
    action before it came before ``skip_across`` (the shard process's kill) and which came after
    it waited for the takeover, not for its search: left out."""
    worst = worst_in = 0.0
    moves = 0
    for game in games.values():
        hard = {i for i, seat in enumerate(game["seats"]) if seat and seat.get("level") == "hard"}
        for (_, _, before), (seat, _, at) in itertools.pairwise(game["actions"]):
            if seat not in hard or before < skip_across < at:
                continue
            moves += 1
            took = at - before - delay
            worst = max(worst, took)
            if window[0] <= at <= window[1]:
                worst_in = max(worst_in, took)
    return worst, worst_in, moves


def start_bot(env: dict[str, str], cwd: Path) -> BotProcess:
    cwd.mkdir(parents=True, exist_ok=True)
    return BotProcess([sys.executable, "-m", "bot"], cwd=cwd, env=env)


async def throughput(nats: str, decisions: int) -> list[dict[str, object]]:
    games = worker_bench.positions("pinochle-4", decisions, 1)
    return [await worker_bench.run(nats, n, games, 2) for n in (1, 2)]


async def run(args: argparse.Namespace) -> None:
    out: list[str] = []
    if not args.skip_throughput:
        rows = await throughput(args.nats, args.decisions)
        out.append(
            "hard decisions over NATS, pinochle-4 positions, each worker --processes 1 (bench/workers.py):"
        )
        for row in rows:
            out.append(
                f"  {row['workers']} worker(s): {row['per second']:.2f} decisions/s, p50 {row['p50 ms']:.0f}"
                f" ms, by worker {row['by worker']}, basic {row['basic']}, cores busy {row['cores busy']:.2f}"
            )
        ratio = float(rows[1]["per second"]) / float(rows[0]["per second"])  # type: ignore[arg-type]
        out.append(
            f"  2 workers / 1 worker: {ratio:.2f}x   goal >= {RATIO_GOAL}  {verdict(ratio >= RATIO_GOAL)}"
        )
        print("\n".join(out), flush=True)
    bench_args = arguments().parse_args(
        ["--tables", str(args.tables), "--seconds", str(args.seconds), "--humans", "1",
         "--computer-delay", str(args.computer_delay), "--variants", args.variants, "--ramp", "10"]
    )  # fmt: skip
    bench_args.hard_share = args.hard_share
    bench = ClusterBench(bench_args, args.guilds)
    await bench.fake.start()
    folder = Path(tempfile.mkdtemp(prefix="tn-cluster-"))
    name, url = await prepare_database(args.postgres, list(bench.fake.guilds), args.computer_delay)
    prefix = f"tn.cluster.{secrets.token_hex(4)}"
    workers = await worker_bench.start_workers(args.nats, prefix, 2)
    port = bench.fake.port
    assert port is not None
    bots: dict[str, BotProcess] = {}
    try:
        for role, shards in (("shard0", "0"), ("shard1", "1"), ("standby", "standby")):
            home = folder / f"home-{role}"
            env = bot_env(home, port, url, args.nats, prefix, shards=shards, delay=args.computer_delay)
            bots[role] = start_bot(env, folder / role)
            if role != "standby":
                await bots[role].wait_for_line(rf"connected as .* on shard\(s\) {shards} of 2", 90)
        await bots["standby"].wait_for_line("waiting for shards: every shard has a live process", 60)
        started = time.monotonic()
        run_wall = [time.time()]
        tables = [asyncio.create_task(bench.table_loop(i, ch)) for i, ch in enumerate(bench.channels)]
        await asyncio.sleep(args.seconds / 3)
        bots["shard0"].proc.send_signal(signal.SIGKILL)
        killed, killed_wall = time.monotonic(), time.time()
        print(
            f"killed the process of shard 0 (pid {bots['shard0'].pid}) at {killed - started:.0f} s",
            flush=True,
        )
        await asyncio.sleep(args.seconds / 3)
        workers[0].send_signal(signal.SIGKILL)
        worker_killed = time.time()
        print(f"killed worker 1 (pid {workers[0].pid}) at {time.monotonic() - started:.0f} s", flush=True)
        await asyncio.sleep(args.seconds / 3)
        bench.stopping = True
        elapsed = time.monotonic() - started
        for _ in range(100):
            if not bench.in_flight:
                break
            await asyncio.sleep(0.1)
        for task in tables:
            task.cancel()
        await asyncio.gather(*tables, return_exceptions=True)
        standby = bots["standby"].output()
        held = re.search(r"(\d\d:\d\d:\d\d) INFO +bot\.cluster: holding shard\(s\) 0 of 2", standby)
        # The standby's IDENTIFY for shard 0, then its first answer in a guild of shard 0 (an answer
        # the killed process had sent before it died can arrive just after the kill: not counted).
        again = [i for i in bench.fake.identifies if i.shard_id == 0 and i.at > killed and i.session_id]
        identified = again[0].at - killed if again else float("nan")
        after = [t for t in bench.answered_at[0] if again and t > again[0].at]
        first_answer = (after[0] - killed) if after else float("nan")
        games = read_logs(url)
    finally:
        for process in bots.values():
            if process.proc.poll() is None:
                with contextlib.suppress(Exception):
                    await process.stop(timeout=30)
            process.kill()
        await worker_bench.stop_workers(workers)
        await bench.fake.stop()
        drop_database(args.postgres, name)

    # ----- what happened --------------------------------------------------------------------------------
    out = []
    values = [1000 * v for kind in bench.acks for v in bench.acks[kind]]
    p99 = pct(values, 0.99)
    out.append(
        f"cluster: {args.tables} tables in {args.guilds} guilds on 2 shards + a standby, 2 workers, "
        f"{elapsed:.0f} s; {len(bench.hard_channels)} tables with hard computers; computer delay "
        f"{args.computer_delay:g} s"
    )
    out.append(
        f"acknowledgement, every click answered: n {len(values)}, p50 {pct(values, 0.5):.1f}, p99 {p99:.1f}, "
        f"max {max(values, default=0):.1f} ms   goal p99 <= {ACK_GOAL_MS:g}  {verdict(p99 <= ACK_GOAL_MS)}"
    )
    out.append(
        f"  clicks lost while a shard had no process (Discord shows them failed): "
        f"{sum(bench.lost_clicks.values())} (by shard {dict(bench.lost_clicks)}); unanswered within 3 s: "
        f"{sum(bench.unanswered.values())}"
    )
    shard0_tables = {t for t, s in bench.table_shard.items() if s == 0}
    went_on = {
        t
        for t in shard0_tables
        if any(at > killed_wall for seat, _, at in games.get(t, {}).get("actions", []))
    }
    out.append(
        f"takeover: shard 0's process killed; the standby held shard 0 at {held.group(1) if held else '?'} "
        f"(log clock), identified {identified:.1f} s and answered its first click in a guild of shard 0 "
        f"{first_answer:.1f} s after the kill   goal <= {TAKEOVER_GOAL:g} s  "
        f"{verdict(first_answer <= TAKEOVER_GOAL)}"
    )
    out.append(f"  shard 0's tables that played on after the kill: {len(went_on)} of {len(shard0_tables)}")
    logs = check_logs(bench, games)
    out.append(
        f"action logs against acknowledged clicks: {logs['checked']} checked, lost {logs['lost']}, doubled "
        f"{logs['doubled']} (goal 0, 0)  {verdict(logs['lost'] == 0 and logs['doubled'] == 0)}; stored but "
        f"never acknowledged (a click in flight at the kill): {logs['unacknowledged']}"
    )
    worst, worst_near, moves = hard_waits(
        games, args.computer_delay, (worker_killed - 1, worker_killed + 10), skip_across=killed_wall
    )
    out.append(
        f"hard computers' moves: {moves}; the longest {worst:.2f} s over the run, {worst_near:.2f} s in the "
        f"10 s after a worker was killed   goal <= {WAIT_GOAL:g} s  "
        f"{verdict(max(worst, worst_near) <= WAIT_GOAL)}"
    )
    edits = {ch: sorted(times) for ch, times in bench.table_edits.items() if times}
    gaps = [b - a for times in edits.values() for a, b in itertools.pairwise(times)]
    per_table = [len(times) / elapsed for times in edits.values()]
    out.append(
        f"table message: {sum(per_table) / max(1, len(per_table)):.2f} edits a second per table, every "
        f"{1 / max(1e-9, sum(per_table) / max(1, len(per_table))):.1f} s on average; shortest gap "
        f"{min(gaps, default=float('nan')):.2f} s; busiest channel "
        f"{max((busiest_window(t) for t in edits.values()), default=0)} edits in 5 s"
    )
    stored = sum(1 for game in games.values() for _, _, at in game["actions"] if at >= run_wall[0])
    calls = sum(bench.channel_calls.values())
    out.append(
        f"per table and second (for docs/scaling.md): {stored / elapsed / args.tables:.2f} actions stored, "
        f"{calls / elapsed / args.tables:.2f} REST requests to channels"
    )
    budget = bench.fake.budget
    assert budget is not None
    out.append(
        f"REST across the processes: {calls} channel requests; global 429s "
        f"{budget.given_global_429}   goal 0  {verdict(budget.given_global_429 == 0)}"
    )
    print("\n".join(out))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--guilds", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=90.0)
    parser.add_argument("--hard-share", type=float, default=0.34, help="share of tables with hard computers")
    parser.add_argument("--computer-delay", type=float, default=1.0)
    parser.add_argument("--variants", default=EASY_VARIANTS, help="what the other tables play")
    parser.add_argument(
        "--decisions", type=int, default=80, help="hard decisions a run in the throughput phase"
    )
    parser.add_argument("--skip-throughput", action="store_true")
    parser.add_argument(
        "--postgres",
        default=os.environ.get("TRICKNIGHT_BENCH_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres"),
    )
    parser.add_argument("--nats", default=os.environ.get("TRICKNIGHT_NATS_URL", "nats://127.0.0.1:4222"))
    args = parser.parse_args()
    try:
        with psycopg.connect(args.postgres, connect_timeout=5):
            pass
    except psycopg.OperationalError as err:
        print(f"bench/cluster.py: PostgreSQL at {args.postgres} cannot be reached: {err}", file=sys.stderr)
        sys.exit(2)
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
