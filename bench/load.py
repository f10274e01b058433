"""Load: N busy tables played over the wire fake of Discord by the real bot, in its own process.

Each table sits in its own channel: a scripted person opens it (``/table new``), starts it (the
empty seats get computer players), and then plays like a person: when pinged (or every few seconds
anyway) they wait a moment, click **Show my hand**, and click one of the legal actions on the
private hand that comes back; now and then they look at their hand out of turn. A game that ends
is followed by a new one in the same channel, so the load stays up for the whole run. The fake
applies Discord's rate limits (5 per 5 s per route and channel, 50 per second in all).

Printed, each beside its goal: acknowledgement time (the interaction sent on the gateway → the bot's
callback arriving) p50/p99/max per kind of click, and where a click's time goes inside the bot; the
bot's event-loop lag; the store's waits; REST calls per channel per minute, how often each table
message is edited beside what the bot's share of the global limit allows, and 429s met; memory per
table; database growth per game; and the machine's load, since other processes on the machine slow
everything down. The bot's CPU by thread and per click, and where its pictures are drawn, are
printed too: CPU per click is not inflated by other processes as times are. Tables play in their
channels (the wire fake has no threads). ``--render-in thread`` draws pictures in a thread of the
bot as before the worker process, for comparison.

Usage: python bench/load.py [--tables 100] [--seconds 60] [--computer-delay 0.5] [--humans 1]
       [--variants pitch,pinochle-4,...] [--cards pictures|text] [--render-in process|thread]
       [--tracemalloc] [--profile FILE] [--keep DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import random
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.discord_ui.budget import GLOBAL_RATE  # noqa: E402
from bot.store import Store  # noqa: E402
from tests.discord_ui.fake_discord import FakeDiscord, RecordedRequest  # noqa: E402

ACK_GOAL_MS = 25.0
LAG_GOAL_MS = 50.0
MEMORY_GOAL_KB = 256.0  # per table
DISCORD_DEADLINE = 3.0
# Every family, each with options that keep a game within a minute or two of play, so games end
# during a run and the database growth per game is measured (longer games grow it per action alike).
DEFAULT_VARIANTS = (
    "pitch:target=7,pitch-partnership:target=7,pinochle-4:match=deal,pinochle-2:match=deal,"
    "pinochle-3:deals=1,double-deck:match=deal"
)
USERS = 1_400_000_000_000_000_000
DANGER = ("declare-out", "concede", "throw-in")
ACTION_KINDS = ("card play", "bid", "other action")
HANDOFF_GOAL_MS = {1: 150.0, 50: 300.0}  # p99 at one table, and at 50 busy tables (and more)


# A process that only sleeps 10 ms at a time: how late it wakes is what the machine itself (other
# processes on the same cores) does to any event loop, the bot's included.
IDLE_PROBE = """
import json, sys, time
lags, end = [], time.monotonic() + float(sys.argv[1])
while time.monotonic() < end:
    start = time.monotonic(); time.sleep(0.01); lags.append(time.monotonic() - start - 0.01)
print(json.dumps(lags))
"""


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def user(uid: int) -> dict[str, Any]:
    return {"id": str(uid), "username": f"p{uid % 100000}", "discriminator": "0",
            "global_name": f"Player {uid % 100000}", "avatar": None, "public_flags": 0}  # fmt: skip


def kind_of(action: str) -> str:
    if action.startswith("play "):
        return "card play"
    if action.startswith("bid ") or action == "pass":
        return "bid"
    return "other action"


def choices(components: list[dict[str, Any]]) -> list[tuple[str, int, list[str] | None, str]]:
    """(custom id, component type, values, action) for every enabled action control."""
    out: list[tuple[str, int, list[str] | None, str]] = []
    for row in components or []:
        for item in row.get("components", []):
            cid = item.get("custom_id", "")
            if item.get("type") == 2 and cid.startswith("tn:act:") and not item.get("disabled"):
                out.append((cid, 2, None, cid.split(":", 4)[4]))
            elif item.get("type") == 3 and cid.startswith("tn:sel:"):
                out.extend((cid, 3, [o["value"]], o["value"]) for o in item.get("options", []))
    return out


def database_figures(path: Path) -> tuple[int, int, tuple[int, float]]:
    """The database's size as SQLite sees it (pages in use, through the WAL), its actions, and
    how many games ended and their mean number of actions."""
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        free = conn.execute("PRAGMA freelist_count").fetchone()[0]
        size = conn.execute("PRAGMA page_size").fetchone()[0]
        actions = conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
        ended = conn.execute(
            "SELECT COUNT(*), AVG(n) FROM (SELECT COUNT(*) AS n FROM actions a"
            " JOIN games g ON g.id = a.game_id WHERE g.status = 'ended' GROUP BY a.game_id)"
        ).fetchone()
    return int((pages - free) * size), int(actions), (int(ended[0]), float(ended[1] or 0))


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.rng = random.Random(args.seed)
        self.fake = FakeDiscord(channels=args.tables, rate_limits=True, patch_discord=False)
        self.fake.intercept = self.seen
        self.waiting: dict[str, asyncio.Future[tuple[float, Any]]] = {}
        self.followups: dict[str, asyncio.Future[Any]] = {}
        self.acks: dict[str, list[float]] = defaultdict(list)
        self.unanswered: Counter[str] = Counter()
        self.deferred = 0
        self.turn: dict[int, asyncio.Event] = {}
        self.over: dict[str, tuple[str, asyncio.Event]] = {}  # channel -> (table message id, game over)
        self.channel_calls: Counter[str] = Counter()
        self.interaction_calls = 0
        self.call_kinds: Counter[str] = Counter()
        self.games_finished = 0
        self.games_started = 0
        self.stopping = False
        self.in_flight = 0
        self.rss_curve: list[float] = []  # MiB
        self.lost_tables = 0  # games the bench took for over while they went on (ended by hand)
        self.child: asyncio.subprocess.Process | None = None
        self.own_lags: list[float] = []
        # The turn handing over from one person to the next: who clicked what where (interaction id
        # -> kind, channel, user), whose token is whose, the last action click per channel (user,
        # its answer's time or None while unanswered, whether the next person's panel came since).
        self.clicks: dict[str, tuple[str, str, int]] = {}
        self.token_owner: dict[str, int] = {}
        self.acting: dict[str, list[Any]] = {}
        self.handoffs: list[float] = []  # seconds: an action's answer -> the next person's panel edit
        self.table_edits: dict[str, list[float]] = defaultdict(list)  # channel -> table-message edits

    # ----- what the bot sends -------------------------------------------------------------------
    def seen(self, rec: RecordedRequest) -> None:
        now = time.perf_counter()
        mt = re.fullmatch(r"/interactions/(\d+)/([^/]+)/callback", rec.path)
        if mt:
            self.interaction_calls += not self.stopping
            self.answered(mt.group(1), rec.json, now)
            future = self.waiting.pop(mt.group(1), None)
            if future is not None and not future.done():
                future.set_result((now, rec.json))
            return
        mt = re.fullmatch(r"/webhooks/\d+/([^/]+)/messages/\d+", rec.path)
        if mt and rec.method == "PATCH":
            self.panel_edited(mt.group(1), rec.json, now)
        mt = re.fullmatch(r"/webhooks/\d+/([^/]+)(/messages/@original)?", rec.path)
        if mt:
            self.interaction_calls += not self.stopping
            pending = self.followups.pop(mt.group(1), None)
            if pending is not None and not pending.done():
                pending.set_result(rec.json)
            return
        mt = re.match(r"/channels/(\d+)/", rec.path)
        if mt is None or self.stopping:
            return
        channel = mt.group(1)
        self.channel_calls[channel] += 1
        self.call_kinds[rec.method] += 1
        if rec.method == "PATCH" and re.fullmatch(r"/channels/\d+/messages/\d+", rec.path):
            self.table_edits[channel].append(now)
        body = rec.json if isinstance(rec.json, dict) else {}
        ended = self.over.get(channel)
        gone_buttons = rec.method == "PATCH" and body.get("components") == []
        if gone_buttons and ended is not None and rec.path.endswith(f"/{ended[0]}"):
            ended[1].set()  # the table message lost its buttons: that game is over
        content = body.get("content")
        if not content:
            return
        if "turn" in content:
            for uid in re.findall(r"<@(\d+)>", content):
                event = self.turn.get(int(uid))
                if event is not None:
                    event.set()

    def answered(self, interaction_id: str, body: Any, now: float) -> None:
        """An action click answered by updating the panel is an accepted action (the bot answers
        once it is stored): the clock of the turn's handover starts."""
        kind, channel, uid = self.clicks.pop(interaction_id, ("", "", 0))
        acting = self.acting.get(channel)
        if kind in ACTION_KINDS and acting is not None and acting[0] == uid and acting[1] is None:
            acting[1] = now if isinstance(body, dict) and body.get("type") == 7 else None

    def panel_edited(self, token: str, body: Any, now: float) -> None:
        """A panel edited by the bot itself: if it tells its owner it is their turn, right after
        someone else at the table acted, that is a handover."""
        uid = self.token_owner.get(token)
        content = body.get("content") if isinstance(body, dict) else None
        if uid is None or not content or "**Your turn:**" not in content or self.stopping:
            return
        for acting in self.acting.values():
            if acting[3] == uid // 10 and acting[0] != uid and not acting[2]:
                acting[2] = True
                # Edited before the click's own answer went out: no wait at all.
                self.handoffs.append(0.0 if acting[1] is None else now - acting[1])

    # ----- acting like a person -----------------------------------------------------------------
    async def interact(self, kind: str, payload: dict[str, Any]) -> tuple[dict[str, Any], str] | None:
        if self.stopping:
            raise asyncio.CancelledError  # the measured window is over: no new clicks
        self.in_flight += 1
        try:
            return await self._interact(kind, payload)
        finally:
            self.in_flight -= 1

    async def _interact(self, kind: str, payload: dict[str, Any]) -> tuple[dict[str, Any], str] | None:
        future: asyncio.Future[tuple[float, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[payload["id"]] = future
        token = payload["token"]
        uid = int(payload["member"]["user"]["id"]) if "member" in payload else int(payload["user"]["id"])
        channel = payload["channel_id"]
        self.token_owner[token] = uid
        self.clicks[payload["id"]] = (kind, channel, uid)
        if kind in ACTION_KINDS:
            # user, answered at, next person's panel seen, table (people of a table share uid // 10)
            self.acting[channel] = [uid, None, False, uid // 10]
        elif kind in ("/table new", "lobby click"):
            self.acting.pop(channel, None)  # a new game: its first turn follows no one's action
        start = time.perf_counter()
        await self.fake.dispatch("INTERACTION_CREATE", payload)
        try:
            at, body = await asyncio.wait_for(future, 10.0)
        except TimeoutError:
            self.waiting.pop(payload["id"], None)
            self.unanswered[kind] += 1
            if os.environ.get("LOAD_DEBUG") and self.child is not None and self.child.stdin is not None:
                print(f"unanswered {kind} {payload['data']} in {payload['channel_id']}", file=sys.stderr)
                self.child.stdin.write(b"stacks\n")
            return None
        self.acks[kind].append(at - start)
        if at - start > DISCORD_DEADLINE:
            self.unanswered[kind] += 1
        if body.get("type") in (5, 6):  # deferred: the answer comes as a follow-up or an edit
            self.deferred += 1
            later: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
            self.followups[token] = later
            try:
                data = await asyncio.wait_for(later, 10.0)
            except TimeoutError:
                return None
            return {"type": 4, "data": data or {}}, token
        return body, token

    def slash(self, channel: str, uid: int, name: str, sub: str, **options: Any) -> dict[str, Any]:
        opts = [{"type": 3, "name": k, "value": v} for k, v in options.items()]
        tree = [{"type": 1, "name": sub, "options": opts}]
        return self.fake.slash_interaction(name, tree, user=user(uid), channel_id=channel)

    async def table_loop(self, index: int, channel: str) -> None:
        variants = self.args.variants.split(",")
        await asyncio.sleep(index * self.args.ramp / max(1, self.args.tables))
        if self.args.cards == "text":  # the people choose text hand panels (/table cards style:text)
            for h in range(self.args.humans):
                uid = USERS + index * 10 + h
                await self.interact("/table cards", self.slash(channel, uid, "table", "cards", style="text"))
        game = 0
        while not self.stopping:
            variant = variants[(index + game) % len(variants)]
            game += 1
            try:
                await self.one_game(channel, index, variant)
            except (KeyError, IndexError, TypeError) as err:
                print(f"bench: channel {channel}: {err!r}", file=sys.stderr)
                await asyncio.sleep(1.0)

    async def one_game(self, channel: str, index: int, variant: str) -> None:
        humans = [USERS + index * 10 + h for h in range(self.args.humans)]
        name, _, options = variant.partition(":")
        extra = {"options": options} if options else {}
        answer = await self.interact(
            "/table new", self.slash(channel, humans[0], "table", "new", game=name, **extra)
        )
        if answer is None or not answer[0].get("data", {}).get("components"):
            said = (answer[0].get("data", {}).get("content") or "") if answer is not None else ""
            if os.environ.get("LOAD_DEBUG"):
                print(f"/table new refused in {channel}: {said}", file=sys.stderr)
            if "already has" in said:  # the bench took a game for over that was not: end it
                self.lost_tables += 1
                await self.interact("/table end", self.slash(channel, humans[0], "table", "end"))
            await asyncio.sleep(2.0)
            return
        body, token = answer
        lobby = self.fake.original_responses[token]
        ids = [c["custom_id"] for row in body["data"]["components"] for c in row["components"]]
        table_id = ids[0].split(":")[2]
        join = next(cid for cid in ids if cid.endswith(":join"))
        start = next(cid for cid in ids if cid.endswith(":start"))
        for uid in humans[1:]:
            await self.interact("lobby click", self.fake.component_interaction(join, lobby, user=user(uid)))
        over = asyncio.Event()
        self.over[channel] = (lobby["id"], over)  # this game's table message and its end
        for uid in humans:
            self.turn[uid] = asyncio.Event()
        await self.before_start(index, lobby, ids, humans[0])
        await self.interact(
            "lobby click", self.fake.component_interaction(start, lobby, user=user(humans[0]))
        )
        self.games_started += 1
        players = [asyncio.create_task(self.play(lobby, table_id, uid, over)) for uid in humans]
        try:
            await over.wait()
            self.games_finished += 1
        finally:
            for task in players:
                task.cancel()

    async def before_start(self, index: int, lobby: dict[str, Any], ids: list[str], host: int) -> None:
        """What the host does in the lobby before Start (nothing here: the empty seats get the
        default computers; bench/cluster.py seats hard ones at some tables)."""

    async def play(self, table_message: dict[str, Any], table_id: str, uid: int, over: asyncio.Event) -> None:
        """A person at one table: on their turn, a pause, then one click on their hand panel (the
        bot keeps it up to date in place); Show my hand only when they have no panel that works."""
        hand_id = f"tn:hand:{table_id}"
        turn = self.turn[uid]
        panel: dict[str, Any] | None = None  # their hand panel (the fake edits it in place)
        for _ in range(100):  # a person clicks Show my hand once the table message shows it
            if hand_id in str(table_message.get("components")):
                break
            await asyncio.sleep(0.1)
        while not over.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(turn.wait(), self.args.recheck)
            turn.clear()
            await asyncio.sleep(self.rng.uniform(*self.args.think))
            if over.is_set():
                return
            if panel is None or "**Your turn:**" not in (panel.get("content") or ""):
                panel = await self.show_hand(table_message, hand_id, uid, over)
            if panel is None or "**Your turn:**" not in (panel.get("content") or ""):
                continue
            options = [c for c in choices(panel.get("components") or []) if c[3] not in DANGER]
            if not options:
                panel = None
                continue
            custom_id, ctype, values, action = self.rng.choice(options)
            click = self.fake.component_interaction(
                custom_id, panel, component_type=ctype, values=values, user=user(uid)
            )
            answer = await self.interact(kind_of(action), click)
            if answer is not None and answer[0].get("type") != 7:  # a new message: out of date etc.
                panel = self.fake.original_responses.get(answer[1])
            if self.rng.random() < self.args.peek:  # now and then someone looks again anyway
                await asyncio.sleep(self.rng.uniform(*self.args.think))
                panel = await self.show_hand(table_message, hand_id, uid, over) or panel

    async def show_hand(
        self, table_message: dict[str, Any], hand_id: str, uid: int, over: asyncio.Event
    ) -> dict[str, Any] | None:
        """Click Show my hand; the panel that comes back (as the fake keeps it)."""
        shown = await self.interact(
            "show hand", self.fake.component_interaction(hand_id, table_message, user=user(uid))
        )
        if shown is None:
            return None
        body, token = shown
        if "has ended" in ((body.get("data") or {}).get("content") or ""):
            over.set()
            return None
        return self.fake.original_responses.get(token)

    async def watch_memory(self, pid: int) -> None:
        """The bot's RSS every tenth of the run: bounded memory levels off, a leak keeps climbing."""
        while True:
            await asyncio.sleep(self.args.seconds / 10)
            with contextlib.suppress(OSError):  # /proc is memory: reading it does not block
                status = Path(f"/proc/{pid}/status").read_text()  # noqa: ASYNC240
                kib = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:"))
                self.rss_curve.append(kib / 1024)

    async def probe(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            start = loop.time()
            await asyncio.sleep(0.01)
            self.own_lags.append(loop.time() - start - 0.01)

    # ----- the run ----------------------------------------------------------------------------------
    async def run(self) -> dict[str, Any]:
        await self.fake.start()
        folder = Path(self.args.keep) if self.args.keep else Path(tempfile.mkdtemp(prefix="tn-load-"))
        folder.mkdir(parents=True, exist_ok=True)
        db = folder / "load.db"
        for leftover in folder.glob("load.db*"):
            leftover.unlink()
        async with await Store.open(db) as store:  # tables play in their channels: the fake has no threads
            await store.settings.update(int(self.fake.guild_id), table_threads="off")
        cmd = [sys.executable, str(ROOT / "bench" / "load_bot.py"), str(self.fake.port), str(db),
               str(self.args.computer_delay)]  # fmt: skip
        if self.args.tracemalloc:
            cmd.append("--tracemalloc")
        if self.args.profile:
            cmd += ["--profile", self.args.profile]
        cmd += ["--render-in", self.args.render_in]
        child = await asyncio.create_subprocess_exec(
            *cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )  # fmt: skip
        assert child.stdin is not None and child.stdout is not None
        self.child = child
        await self.fake.wait_for_request("PUT", r"^/applications/\d+/commands$", timeout=60.0)
        await asyncio.wait_for(self.fake.identified.wait(), 30.0)
        load_before = os.getloadavg()
        child.stdin.write(b"mark\n")
        await child.stdin.drain()
        await asyncio.sleep(0.2)
        size_before, actions_before, _ = database_figures(db)
        own_cpu = sum(os.times()[:2])
        started = time.monotonic()
        probing = asyncio.create_task(self.probe())
        watching = asyncio.create_task(self.watch_memory(child.pid))
        idle = await asyncio.create_subprocess_exec(
            sys.executable, "-c", IDLE_PROBE, str(self.args.seconds), stdout=subprocess.PIPE
        )
        tables = [asyncio.create_task(self.table_loop(i, ch)) for i, ch in enumerate(self.fake.channel_ids)]
        await asyncio.sleep(self.args.seconds)
        self.stopping = True
        elapsed = time.monotonic() - started
        for _ in range(int(2 * DISCORD_DEADLINE / 0.05)):  # let the clicks under way be answered
            if not self.in_flight:
                break
            await asyncio.sleep(0.05)
        own_cpu = (sum(os.times()[:2]) - own_cpu) / elapsed
        load_after = os.getloadavg()
        child.stdin.write(b"report\n")
        await child.stdin.drain()
        line = await asyncio.wait_for(child.stdout.readline(), 120.0)
        bot = json.loads(line)
        size_after, actions_after, finished = database_figures(db)
        idle_lags = json.loads((await idle.communicate())[0])
        for task in [*tables, probing, watching]:
            task.cancel()
        await asyncio.gather(*tables, probing, watching, return_exceptions=True)
        child.stdin.write(b"stop\n")
        await child.stdin.drain()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(child.wait(), 30.0)
        if child.returncode is None:
            child.kill()
            await child.wait()
        await self.fake.stop()
        return {
            "bot": bot, "elapsed": elapsed, "load": (load_before, load_after), "own_cpu": own_cpu,
            "db_growth": size_after - size_before, "actions": actions_after - actions_before,
            "finished": finished, "idle_lags": idle_lags,
        }  # fmt: skip


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def busiest_window(times: list[float], window: float = 5.0) -> int:
    """The most of ``times`` (sorted) that fall in any ``window`` seconds."""
    most, first = 0, 0
    for last, at in enumerate(times):
        while at - times[first] >= window:
            first += 1
        most = max(most, last - first + 1)
    return most


def handoff_figures(bench: Bench, elapsed: float) -> dict[str, float]:
    """The turn's handover (an action's answer -> the next person's panel edited) and the table
    message's pacing beside it."""
    waits = [1000 * v for v in bench.handoffs]
    edits = {ch: sorted(times) for ch, times in bench.table_edits.items() if times}
    gaps = [b - a for times in edits.values() for a, b in itertools.pairwise(times)]
    per_table = [len(times) / elapsed for times in edits.values()]
    return {
        "n": len(waits), "p50": pct(waits, 0.5), "p99": pct(waits, 0.99), "max": max(waits, default=0.0),
        "edits_per_table_s": sum(per_table) / max(1, len(per_table)),
        "min_edit_gap_s": min(gaps, default=float("nan")),
        "busiest_5s": max((busiest_window(t) for t in edits.values()), default=0),
    }  # fmt: skip


def handoff_lines(bench: Bench, elapsed: float) -> list[str]:
    if bench.args.humans < 2:
        return []
    f = handoff_figures(bench, elapsed)
    goal = HANDOFF_GOAL_MS[1] if bench.args.tables == 1 else HANDOFF_GOAL_MS[50]
    return [
        f"turn handover (an action's answer -> the next person's panel shows their turn), ms: n {f['n']}, "
        f"p50 {f['p50']:.1f}, p99 {f['p99']:.1f}, max {f['max']:.1f}   goal p99 <= {goal:g}  "
        f"{verdict(f['p99'] <= goal)}",
        f"  table message meanwhile: {f['edits_per_table_s']:.2f} edits a second per table (goal <= 1), "
        f"shortest gap between two edits of one {f['min_edit_gap_s']:.2f} s, busiest channel "
        f"{f['busiest_5s']} edits in 5 s (goal <= 5)",
    ]


def report(bench: Bench, result: dict[str, Any]) -> None:
    args, bot, out = bench.args, result["bot"], []
    minutes = result["elapsed"] / 60
    before, after = result["load"]
    out.append(
        f"Trick Night load: {args.tables} tables, {result['elapsed']:.0f} s, computer delay "
        f"{args.computer_delay:g} s, {args.humans} person(s) a table (hand panels: {args.cards}), "
        f"pause {args.think[0]:g}-{args.think[1]:g} s"
    )
    out.append(
        f"machine: {os.cpu_count()} cores, load average {before[0]:.2f} at start, {after[0]:.2f} at end; "
        f"bot process {100 * bot['cpu_share']:.0f}% of a core, this driver {100 * result['own_cpu']:.0f}%"
    )
    shares = bot.get("thread_shares") or {}
    out.append(
        "  the bot's CPU by thread (% of a core): "
        + ", ".join(f"{kind} {100 * n:.0f}" for kind, n in sorted(shares.items(), key=lambda kv: -kv[1]))
    )
    drawn = bot.get("pictures")
    if drawn:
        out.append(
            f"  pictures: {drawn['drawn']} drawn in {drawn['where']} (the worker used "
            f"{100 * drawn['worker_share']:.0f}% of a core, RSS {drawn['worker_rss'] / 2**20:.0f} MiB), "
            f"{drawn['cached']} answered from the cache"
        )
    clicks = max(1, bot.get("clicks", 0))
    loop_cpu = shares.get("MainThread", 0.0) * result["elapsed"]
    out.append(
        f"  CPU per click (the load's every other cost included; unlike times, other processes on the "
        f"machine do not inflate it): event loop {1000 * loop_cpu / clicks:.1f} ms, the bot's process "
        f"{1000 * bot['cpu_share'] * result['elapsed'] / clicks:.1f} ms"
    )
    out.append("")
    out.append(f"{'acknowledgement (ms)':<24}{'n':>7}{'p50':>8}{'p99':>8}{'max':>9}   goal")
    everything: list[float] = []
    for kind in [*sorted(bench.acks), "all clicks"]:
        values = everything if kind == "all clicks" else [1000 * v for v in bench.acks[kind]]
        if kind != "all clicks":
            everything += values
        p99 = pct(values, 0.99)
        out.append(
            f"  {kind:<22}{len(values):>7}{pct(values, 0.5):>8.1f}{p99:>8.1f}{max(values, default=0):>9.1f}"
            f"   p99 <= {ACK_GOAL_MS:g}  {verdict(p99 <= ACK_GOAL_MS)}"
        )
    inside = bot["handling"]
    out.append(
        f"  of which inside the bot (event parsed -> answer sent): p50 {inside['p50']:.1f}, "
        f"p99 {inside['p99']:.1f}, max {inside['max']:.1f} ms"
    )
    for label, step in (bot.get("phases") or {}).items():
        out.append(
            f"    {label:<28} p50 {step['p50']:.2f}, p99 {step['p99']:.2f}, max {step['max']:.1f} ms"
            f" (n {step['n']})"
        )
    late = sum(bench.unanswered.values())
    detail = ", ".join(f"{kind} {n}" for kind, n in sorted(bench.unanswered.items()))
    out.append(
        f"  unanswered within Discord's 3 s: {late}{f' ({detail})' if detail else ''} (goal 0); "
        f"deferred answers: {bench.deferred}"
    )
    lags, idle, own = bot["lags"], [1000 * v for v in result["idle_lags"]], [1000 * v for v in bench.own_lags]
    out.append("")
    out.append(
        f"event-loop lag of the bot (ms): p50 {lags['p50']:.1f}, p99 {lags['p99']:.1f}, max {lags['max']:.1f}"
        f"   goal p99 <= {LAG_GOAL_MS:g}  {verdict(lags['p99'] <= LAG_GOAL_MS)}"
    )
    gc_pauses = bot["gc"]
    out.append(
        "  garbage-collector pauses in the bot (ms): "
        + "; ".join(
            f"generation {gen}: {pause['n']}, p99 {pause['p99']:.1f}, max {pause['max']:.1f}"
            for gen, pause in gc_pauses.items()
        )
    )
    out.append("  objects the collector tracks: " + ", ".join(f"{name} {n}" for name, n in bot["census"]))
    out.append(
        f"  the machine meanwhile (a process that only sleeps 10 ms): p99 {pct(idle, 0.99):.1f}, "
        f"max {max(idle, default=0):.1f}; this driver's own loop: p99 {pct(own, 0.99):.1f}, "
        f"max {max(own, default=0):.1f} (both included in the times above)"
    )
    store = bot.get("store")
    figures = ", ".join(f"{k} {v}" for k, v in store.items()) if store else "(no figures kept)"
    out.append(f"store (waiting for its threads; there is no store lock): {figures}")
    out.append("")
    calls = [bench.channel_calls.get(ch, 0) / minutes for ch in bench.fake.channel_ids]
    limiter = bench.fake.rate_limiter
    assert limiter is not None
    out.append(
        f"REST to channels (messages posted, edited, deleted) per channel per minute: mean "
        f"{sum(calls) / len(calls):.1f}, max {max(calls):.1f}; in all {sum(calls) / 60:.1f}/s "
        f"(Discord: 50/s; 5 per 5 s per route and channel); interaction answers "
        f"{bench.interaction_calls / minutes:.0f}/min (exempt); by method: "
        + ", ".join(f"{method} {n / minutes / 60:.1f}/s" for method, n in sorted(bench.call_kinds.items()))
    )
    waits = bot.get("rest_waits")
    if waits:
        urgent, edits = waits["urgent"], waits["edits"]
        out.append(
            f"  waits for a share of the limit: {waits['waited']} requests waited; pings and announcements "
            f"p50 {urgent['p50']:.0f} ms, p99 {urgent['p99']:.0f} ms (n {urgent['n']}); table edits and ping "
            f"deletions p50 {edits['p50']:.0f} ms, p99 {edits['p99']:.0f} ms (n {edits['n']}; edits coalesce)"
        )
        seconds = minutes * 60
        edit_rate = bench.call_kinds.get("PATCH", 0) / seconds
        other_rate = (sum(bench.call_kinds.values()) - bench.call_kinds.get("PATCH", 0)) / seconds
        left = max(1e-9, GLOBAL_RATE - other_rate)
        out.append(
            f"  each table message was edited every {args.tables / max(edit_rate, 1e-9):.1f} s on average; "
            f"the bot's share of the global limit ({GLOBAL_RATE:g}/s of Discord's 50) less its posts and "
            f"deletions ({other_rate:.1f}/s) leaves {left:.1f} edits/s: one every "
            f"{args.tables / left:.1f} s a table (Discord's per-channel limit alone: one a second)"
        )
    out.extend(handoff_lines(bench, result["elapsed"]))
    out.append(
        f"429s met: {limiter.given_429} ({limiter.given_global_429} of the global limit)   goal 0  "
        f"{verdict(limiter.given_429 == 0)}"
    )
    per_table = (bot["rss_end"] - bot["rss_mark"]) / args.tables / 1024
    out.append(
        f"memory: RSS {bot['rss_mark'] / 2**20:.0f} -> {bot['rss_end'] / 2**20:.0f} MiB over the run, "
        f"{per_table:.0f} KiB per table   goal <= {MEMORY_GOAL_KB:g}  {verdict(per_table <= MEMORY_GOAL_KB)}"
    )
    curve = " ".join(f"{mib:.0f}" for mib in bench.rss_curve)
    out.append(f"  RSS every tenth of the run (MiB): {curve} (the picture caches are bounded LRUs)")
    out.append(
        f"  discord.py views alive {bot['views']} (goal: none kept per message), asyncio tasks "
        f"{bot['tasks']} ({bot['tasks'] / args.tables:.1f} a table)"
    )
    if "top" in bot:
        out.append(f"  tracemalloc: {bot['traced'] / 2**20:.1f} MiB traced since the start; top sites:")
        out.extend(f"    {line}" for line in bot["top"])
    grown, actions = result["db_growth"], max(1, result["actions"])
    finished = result["finished"]
    per_game = (grown / actions) * finished[1] if finished[0] else float("nan")
    out.append(
        f"database: grew {grown / 1024:.0f} KiB for {result['actions']} actions ({grown / actions:.0f} bytes "
        f"an action); {bench.games_started} games started, {finished[0]} finished here with "
        f"{finished[1]:.0f} actions on average: about {per_game / 1024:.1f} KiB a game"
    )
    if bench.lost_tables:
        out.append(f"(the bench lost track of {bench.lost_tables} game(s) and ended them with /table end)")
    print("\n".join(out))


def arguments() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--computer-delay", type=float, default=0.5)
    parser.add_argument("--humans", type=int, default=1, help="people per table (the rest are computers)")
    parser.add_argument("--think", type=float, nargs=2, default=(0.3, 1.5), help="a person's pause, s")
    parser.add_argument("--peek", type=float, default=0.15, help="chance of looking at the hand again")
    parser.add_argument("--recheck", type=float, default=6.0, help="look at the hand unpinged after, s")
    parser.add_argument("--ramp", type=float, default=5.0, help="seconds over which the tables open")
    parser.add_argument("--variants", default=DEFAULT_VARIANTS)
    parser.add_argument(
        "--cards",
        choices=("pictures", "text"),
        default="pictures",
        help="how the people's hand panels show cards",
    )
    parser.add_argument(
        "--render-in",
        choices=("process", "thread"),
        default="process",
        help="where the bot draws pictures (thread: the old way, for comparison)",
    )
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--tracemalloc", action="store_true", help="trace the bot's allocations (slower)")
    parser.add_argument("--profile", help="write a cProfile of the bot process here")
    parser.add_argument("--keep", help="folder for the database (default: a temporary one)")
    return parser


def main() -> None:
    args = arguments().parse_args()
    bench = Bench(args)
    result = asyncio.run(bench.run())
    report(bench, result)


if __name__ == "__main__":
    main()
