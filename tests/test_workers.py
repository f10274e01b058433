"""``tricknight worker`` over a real NATS server (``TRICKNIGHT_TEST_NATS``, each test with subjects
of its own; skipped without it): the workers' decisions are the local pool's, hints go through the
workers too, requests spread over the workers and a full worker takes no more, a worker killed
mid-decision costs one attempt, no worker at all (or no server) lets ``basic`` decide past the
budget without stalling a table, an answer the bot cannot use is not waited on, the command stops
cleanly on SIGTERM, finishing the request in hand, and ``check`` lists the workers."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import os
import signal
import socket
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.ai import decide, make_player
from bot.engine import Game
from bot.remote import ATTEMPT_MARGIN, DEADLINE_MARGIN, RemoteThinker, Subjects, find_workers
from bot.store import Store
from bot.tables import TableManager
from bot.thinking import Thinker
from tests.hosting.harness import ROOT, clean_environ, fake_token
from tests.test_tables import RecordingPublisher, wait_until
from tests.test_thinking import midgame

BUDGET = 1.0  # hard's own
# Positions whose hard search ends on its caps in a few hundredths of a second: the same decision
# at a thirtieth of its budget, so the same seed gives the same decision in any process, however
# loaded the machine (a search the budget cuts short depends on the machine's speed).
QUICK_HARD = (("pitch", 4), ("pinochle-4", 7), ("pinochle-4", 11), ("pinochle-2", 26))
# A position like those whose decision depends on the seed (JD with seeds 3 and 6, QD with 4 and
# 7): the worker must use the bot's seed.
SEEDED_HARD, SEEDS = ("pinochle-4", 56), (3, 4, 6, 7)
# Hints like those (the same reason and figures at a thirtieth of the budget; each differs with
# the seed).
QUICK_HINTS = (("pinochle-4", 1), ("pinochle-4", 17), ("pinochle-4", 26), ("pitch", 5))
SLOW_HARD = ("pinochle-4", 20)  # a search of most of its budget
BASIC = (("pinochle-2", 7), ("pitch", 5), ("pinochle-4", 9), ("double-deck", 6))
READY = "ready: serving"
GIVE_UP_EARLY = 0.25  # the last attempt is not made when too little is left for a search


class WorkerProcess:
    """``python -m bot worker`` in a session of its own (so its pool processes end with it)."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.lines: list[str] = []
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def start(cls, url: str, prefix: str, folder: Path, *, processes: int = 1) -> WorkerProcess:
        """A worker started in ``folder`` (no .env there) with only the test's settings."""
        env = clean_environ(
            folder / "home", TRICKNIGHT_NATS_URL=url, TRICKNIGHT_NATS_PREFIX=prefix, PYTHONPATH=str(ROOT)
        )
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "worker", "--processes", str(processes),
            cwd=folder, env=env, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE, start_new_session=True,
        )  # fmt: skip
        worker = cls(process)
        await wait_until(lambda: worker.said(READY) or worker.process.returncode is not None, timeout=90)
        assert worker.said(READY), worker.text
        return worker

    async def _read(self) -> None:
        assert self.process.stderr is not None
        async for line in self.process.stderr:
            self.lines.append(line.decode(errors="replace").rstrip())

    @property
    def id(self) -> str:
        return f"{socket.gethostname()}:{self.process.pid}"

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def said(self, words: str) -> bool:
        return any(words in line for line in self.lines)

    def signal_all(self, sig: int) -> None:
        """``sig`` to the worker and its pool processes."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, sig)

    async def wait(self, timeout: float = 30) -> int:
        code = await asyncio.wait_for(self.process.wait(), timeout)
        await asyncio.wait_for(self._reader, 5)
        return code

    async def end(self) -> None:
        if self.process.returncode is None:
            self.signal_all(signal.SIGKILL)
        self.signal_all(signal.SIGKILL)  # a pool process left behind by a killed worker
        with contextlib.suppress(Exception):
            await self.wait(10)


@pytest.fixture
async def workers(nats_url: str, nats_prefix: str, tmp_path: Path) -> AsyncIterator[Callable[..., Any]]:
    """Starts ``tricknight worker`` processes on this test's subjects; all ended afterwards."""
    started: list[WorkerProcess] = []

    async def start(count: int = 1, processes: int = 1) -> list[WorkerProcess]:
        made = await asyncio.gather(*(
            WorkerProcess.start(nats_url, nats_prefix, tmp_path, processes=processes) for _ in range(count)
        ))  # fmt: skip
        started.extend(made)
        return list(made)

    try:
        yield start
    finally:
        for worker in started:
            await worker.end()


@pytest.fixture
async def remote(nats_url: str, nats_prefix: str) -> AsyncIterator[RemoteThinker]:
    thinker = RemoteThinker(nats_url, nats_prefix, pooled={"basic"})
    try:
        yield thinker
    finally:
        await thinker.shutdown()


@pytest.fixture
async def local() -> AsyncIterator[Thinker]:
    thinker = Thinker(workers=1, pooled={"basic"})
    try:
        yield thinker
    finally:
        await thinker.shutdown()


def slow_position() -> Game:
    variant, moves = SLOW_HARD
    return midgame(variant, moves=moves)


def quick_position() -> Game:
    variant, moves = QUICK_HARD[0]
    return midgame(variant, moves=moves)


async def decision(thinker: Thinker, game: Game, level: str, seed: int = 11) -> str:
    seat = game.to_act[0]
    player = make_player(game.family, level, 0)
    return str(await thinker.decide(player, game, seat, family=game.family, level=level, seed=seed))


async def statuses(connection: Any, prefix: str, expect: int = 1) -> dict[int, dict[str, Any]]:
    """Every worker's status, by pid: the answers of ``expect`` workers (up to 2 s for them: a
    loaded machine is slow to answer), or whatever came in 0.3 s when none is expected."""
    inbox = connection.new_inbox()
    found: dict[int, dict[str, Any]] = {}

    async def answered(message: Any) -> None:
        status = json.loads(message.data)
        found[status["pid"]] = status

    subscription = await connection.subscribe(inbox, cb=answered)
    await connection.publish(Subjects.of(prefix).status, b"{}", reply=inbox)
    if expect == 0:
        await asyncio.sleep(0.3)
    else:
        deadline = time.monotonic() + 2
        while len(found) < expect and time.monotonic() < deadline:
            await asyncio.sleep(0.005)
    await subscription.unsubscribe()
    return found


async def in_hand(connection: Any, prefix: str, expect: int = 1) -> dict[int, int]:
    """Requests in hand by worker pid."""
    found = await statuses(connection, prefix, expect)
    return {pid: status["in_hand"] for pid, status in found.items()}


@pytest.fixture
async def connection(nats_url: str) -> AsyncIterator[Any]:
    import nats

    made = await nats.connect(nats_url)
    try:
        yield made
    finally:
        await made.close()


async def until_in_hand(connection: Any, prefix: str, timeout: float = 10) -> int:
    """The pid of the first worker seen holding a request."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        busy = [pid for pid, count in (await in_hand(connection, prefix)).items() if count]
        if busy:
            return busy[0]
    raise AssertionError("no worker took the request")


# ----- the same decisions -----------------------------------------------------------------------------


async def test_a_worker_decides_as_the_local_pool_does(
    workers: Any, remote: RemoteThinker, local: Thinker
) -> None:
    [worker] = await workers()
    positions = [(v, m, "hard", 11) for v, m in QUICK_HARD] + [(v, m, "basic", 11) for v, m in BASIC]
    positions += [(*SEEDED_HARD, "hard", seed) for seed in SEEDS]
    families, actions = set(), collections.defaultdict(set)
    for variant, moves, level, seed in positions:
        game = midgame(variant, moves=moves)
        before = game.to_json()
        served = await decision(remote, game, level, seed)
        assert served == await decision(local, game, level, seed), (variant, moves, level, seed)
        assert game.to_json() == before
        families.add(game.family)
        actions[variant, moves].add(served)
    assert families == {"pinochle", "pitch", "double-deck"}
    assert len(actions[SEEDED_HARD]) == 2  # the seed told them apart
    assert remote.answered_by == {worker.id: len(positions)}  # none fell back to basic


async def test_hints_go_through_the_workers(workers: Any, remote: RemoteThinker, local: Thinker) -> None:
    [worker] = await workers()
    for variant, moves in QUICK_HINTS:
        game = midgame(variant, moves=moves)
        seat = game.to_act[0]
        served = await remote.advise(game, seat, family=game.family, seed=5)
        assert served == await local.advise(game, seat, family=game.family, seed=5), (variant, moves)
        assert served.action in game.legal_actions(seat) and served.reason
    assert remote.answered_by == {worker.id: len(QUICK_HINTS)}


async def test_a_hint_at_a_table_comes_from_a_worker(
    workers: Any, nats_url: str, nats_prefix: str, tmp_path: Path
) -> None:
    [worker] = await workers()
    store = await Store.open(tmp_path / "hints.db")
    await store.settings.update(1, computer_delay_seconds=0, turn_timeout_seconds=0)
    thinker = RemoteThinker(nats_url, nats_prefix)
    manager = TableManager(store, RecordingPublisher(), thinker=thinker)
    try:
        table = await manager.open_table(guild_id=1, channel_id=9, host_id=1, host_name="Ann",
                                         variant="pinochle-2")  # fmt: skip
        await manager.join(table, 2, "Bob")
        await manager.start(table, 1)
        assert table.game is not None
        seat = table.game.to_act[0]
        hint = await manager.hints.hint(table, table.seats[seat].user_id)
        assert hint.action in table.game.legal_actions(seat) and hint.reason
        assert thinker.answered_by == {worker.id: 1}
    finally:
        await manager.shutdown()
        await store.close()


# ----- spreading, losing a worker, no worker ----------------------------------------------------------


async def test_requests_spread_over_two_workers(workers: Any, remote: RemoteThinker, nats_url: str,
                                                nats_prefix: str) -> None:  # fmt: skip
    pair = await workers(2)
    assert {s["worker"] for s in await find_workers(nats_url, nats_prefix)} == {w.id for w in pair}
    games = [midgame(variant, moves=moves) for variant, moves in BASIC] * 4
    got = await asyncio.gather(*(decision(remote, game, "basic") for game in games))
    assert got == [str(decide(make_player(g.family, "basic", 11), g, g.to_act[0])) for g in games]
    assert set(remote.answered_by) == {w.id for w in pair}, remote.answered_by  # each answered some
    assert sum(remote.answered_by.values()) == len(games)


async def test_a_full_worker_stops_listening_until_it_has_room(
    workers: Any, remote: RemoteThinker, connection: Any, nats_prefix: str, caplog: pytest.LogCaptureFixture
) -> None:
    """One process: one request searching and one waiting; a third waits in the bot (no responders)
    instead of behind them in the worker, and is served once there is room."""
    [worker] = await workers()
    caplog.set_level(logging.INFO, logger="bot.remote")

    async def held(count: int, *, listening: bool) -> None:
        """Until the worker holds ``count`` requests and listens or not (it stops listening a
        moment after it takes the request that fills it)."""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            found = list((await statuses(connection, nats_prefix)).values())
            if [(status["in_hand"], status["listening"]) for status in found] == [(count, listening)]:
                return
        raise AssertionError(f"never held {count} with listening={listening}")

    searching = asyncio.create_task(decision(remote, slow_position(), "hard", seed=1))
    await held(1, listening=True)
    waiting = asyncio.create_task(decision(remote, quick_position(), "hard", seed=2))
    await held(2, listening=False)  # full
    third = asyncio.create_task(decision(remote, quick_position(), "hard", seed=3))
    seen = []
    while not third.done():
        seen += (await statuses(connection, nats_prefix)).values()
    await asyncio.gather(searching, waiting, third)
    assert remote.answered_by == {worker.id: 3}  # none fell back to basic
    assert max(status["in_hand"] for status in seen) == 2, seen  # never more than it has room for
    assert "(no responders" in caplog.text and "decides instead" not in caplog.text


async def test_a_worker_killed_mid_decision_costs_one_attempt_and_the_other_answers(
    workers: Any, remote: RemoteThinker, connection: Any, nats_prefix: str, caplog: pytest.LogCaptureFixture
) -> None:
    pair = await workers(2)
    caplog.set_level(logging.INFO, logger="bot.remote")
    game = slow_position()
    began = time.monotonic()
    deciding = asyncio.create_task(decision(remote, game, "hard"))
    busy = await until_in_hand(connection, nats_prefix)
    [killed] = [w for w in pair if w.process.pid == busy]
    [other] = [w for w in pair if w is not killed]
    killed.signal_all(signal.SIGSTOP)  # held mid-search, then killed: it never answers
    killed.signal_all(signal.SIGKILL)
    action = await deciding
    took = time.monotonic() - began
    assert action in {str(a) for a in game.legal_actions(game.to_act[0])}
    assert remote.answered_by == {other.id: 1}  # sent again, to the other worker
    assert BUDGET + ATTEMPT_MARGIN <= took <= BUDGET + 2, took  # one attempt lost, no table waits longer
    assert f"answered by worker {other.id} after" in caplog.text and "timed out" in caplog.text
    assert "decides instead" not in caplog.text


async def test_without_workers_basic_decides_past_the_budget(
    nats_url: str, nats_prefix: str, remote: RemoteThinker, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.remote")
    game = quick_position()
    seat = game.to_act[0]
    began = time.monotonic()
    got = await decision(remote, game, "hard", seed=7)
    took = time.monotonic() - began
    assert got == str(decide(make_player(game.family, "basic", 7), game, seat))
    assert BUDGET + DEADLINE_MARGIN - GIVE_UP_EARLY <= took <= BUDGET + 2, took
    [line] = [r.getMessage() for r in caplog.records if "decides instead" in r.getMessage()]
    assert line.startswith(f"hard computer for seat {seat}: NoAnswer: no worker answered in 2.")
    assert "no responders" in line and line.endswith("basic decides instead")


async def test_without_a_nats_server_basic_decides_past_the_budget(caplog: pytest.LogCaptureFixture) -> None:
    pytest.importorskip("nats")
    with socket.socket() as unused:  # a port where nothing listens
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    thinker = RemoteThinker(f"nats://user:s3cret@127.0.0.1:{port}", "tn.test.nowhere")
    caplog.set_level(logging.INFO)
    game = quick_position()
    try:
        began = time.monotonic()
        got = await decision(thinker, game, "hard", seed=7)
        took = time.monotonic() - began
    finally:
        await thinker.shutdown()
    assert got == str(decide(make_player(game.family, "basic", 7), game, game.to_act[0]))
    assert BUDGET + DEADLINE_MARGIN - GIVE_UP_EARLY <= took <= BUDGET + 2, took
    assert "not connected to NATS" in caplog.text and "basic decides instead" in caplog.text
    assert f"nats://user:***@127.0.0.1:{port}" in caplog.text and "s3cret" not in caplog.text


async def test_a_table_with_hard_computers_goes_on_without_workers(
    nats_url: str, nats_prefix: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    took: list[tuple[str, float]] = []

    class Timed(RemoteThinker):
        async def decide(self, player: Any, game: Game, seat: int, **how: Any) -> Any:
            began = time.monotonic()
            try:
                return await super().decide(player, game, seat, **how)
            finally:
                took.append((how["level"], time.monotonic() - began))

    store = await Store.open(tmp_path / "tables.db")
    await store.settings.update(1, computer_delay_seconds=0, turn_timeout_seconds=0)
    manager = TableManager(store, RecordingPublisher(), thinker=Timed(nats_url, nats_prefix))
    caplog.set_level(logging.WARNING, logger="bot.remote")
    try:
        table = await manager.open_table(guild_id=1, channel_id=9, host_id=1, host_name="Ann",
                                         variant="pitch", players=2)  # fmt: skip
        await manager.add_computer(table, 1, "hard")
        await manager.start(table, 1)
        await manager.leave(table, 1)  # every seat plays itself; no worker serves the hard one
        assert table.game is not None
        await wait_until(lambda: sum(level == "hard" for level, _ in took) >= 3, timeout=6 * (BUDGET + 2))
        moved = len(table.game.log)
        await wait_until(lambda: len(table.game.log) > moved, timeout=2 * (BUDGET + 2))  # and it goes on
        assert table.status == "playing"
        hard = [seconds for level, seconds in took if level == "hard"]
        assert max(hard) <= BUDGET + 2, hard  # no decision waited longer
        assert caplog.text.count("hard computer for seat 1: NoAnswer") >= 3
        assert "basic decides instead" in caplog.text
    finally:
        await manager.shutdown()
        await store.close()


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        (
            {"action": "play AS", "worker": "odd"},
            "WorkerRefused: worker odd answered play AS, not legal here",
        ),
        ({"error": "ValueError: no variant", "retry": False, "worker": "odd"}, "worker odd: ValueError"),
    ],
)
async def test_an_illegal_or_failed_answer_is_not_waited_on_and_basic_decides(
    remote: RemoteThinker, connection: Any, nats_prefix: str, caplog: pytest.LogCaptureFixture,
    answer: dict[str, Any], said: str,
) -> None:  # fmt: skip
    """A worker of another version (or a broken one) answers something the bot cannot use."""

    async def odd_worker(message: Any) -> None:
        await message.respond(json.dumps(answer).encode())

    await connection.subscribe(Subjects.of(nats_prefix).decide, queue="workers", cb=odd_worker)
    await connection.flush()
    game = midgame("pitch", moves=5)
    assert "play AS" not in {str(a) for a in game.legal_actions(game.to_act[0])}
    caplog.set_level(logging.WARNING, logger="bot.remote")
    began = time.monotonic()
    got = await decision(remote, game, "hard", seed=3)
    assert time.monotonic() - began < 1  # no waiting for the budget: nothing better will come
    assert got == str(decide(make_player(game.family, "basic", 3), game, game.to_act[0]))
    assert said in caplog.text and "basic decides instead" in caplog.text


# ----- the command ------------------------------------------------------------------------------------


async def worker_check(nats_url: str, nats_prefix: str, folder: Path) -> tuple[int, str]:
    """``tricknight worker --check`` (compose.cluster.yaml's health check of a worker)."""
    env = clean_environ(folder / "home", TRICKNIGHT_NATS_URL=nats_url, TRICKNIGHT_NATS_PREFIX=nats_prefix,
                        PYTHONPATH=str(ROOT))  # fmt: skip
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "worker", "--check", cwd=folder, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    out, _ = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, out.decode()


async def test_the_worker_finishes_the_request_in_hand_on_sigterm_and_exits_0(
    workers: Any, remote: RemoteThinker, connection: Any, nats_url: str, nats_prefix: str, tmp_path: Path
) -> None:
    [worker] = await workers()
    assert "1 process" in worker.text and f"{nats_prefix}.decide" in worker.text
    code, said = await worker_check(nats_url, nats_prefix, tmp_path)
    assert code == 0 and said.startswith(f"healthy: worker {worker.id}, 1 process(es), 0 request(s) in hand")
    game = slow_position()
    deciding = asyncio.create_task(decision(remote, game, "hard"))
    await until_in_hand(connection, nats_prefix)
    worker.signal_all(signal.SIGTERM)  # as systemd or docker stop would: every process of the group
    action = await deciding
    assert remote.answered_by == {worker.id: 1}  # answered by the stopping worker, not by basic
    assert action in {str(a) for a in game.legal_actions(game.to_act[0])}
    assert await worker.wait() == 0, worker.text
    assert worker.said("stopping: finishing 1 request(s) in hand") and worker.said("stopped: served 1 decide")
    assert not worker.said("pool broke")  # its pool process ignored the SIGTERM: the search went on
    assert "Traceback" not in worker.text
    assert await in_hand(connection, nats_prefix, expect=0) == {}  # nothing listens any more
    code, said = await worker_check(nats_url, nats_prefix, tmp_path)
    assert code == 1 and said.startswith(f"unhealthy: no worker on {socket.gethostname()} answers"), said


def test_the_worker_command_needs_a_nats_url_and_documents_itself(tmp_path: Path) -> None:
    import subprocess

    def worker(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "bot", "worker", *args], cwd=tmp_path, capture_output=True, text=True,
            env=clean_environ(tmp_path, PYTHONPATH=str(ROOT), **env), timeout=60, check=False,
        )  # fmt: skip

    missing = worker()
    assert missing.returncode == 2 and "TRICKNIGHT_NATS_URL is not set" in missing.stderr
    bad = worker("--processes", "0", TRICKNIGHT_NATS_URL="nats://127.0.0.1:4222")
    assert bad.returncode == 2 and "--processes must be at least 1" in bad.stderr
    shown = worker("--help")
    assert shown.returncode == 0
    text = " ".join(shown.stdout.split())
    for words in ("queue group 'workers'", "SIGTERM", "--processes N", "every hand included", "--check"):
        assert words in text, words


async def test_check_reports_the_workers_answering(
    workers: Any, nats_url: str, nats_prefix: str, tmp_path: Path
) -> None:
    env = clean_environ(tmp_path, DISCORD_TOKEN=fake_token(), TRICKNIGHT_NATS_URL=nats_url,
                        TRICKNIGHT_NATS_PREFIX=nats_prefix, PYTHONPATH=str(ROOT))  # fmt: skip

    async def check() -> tuple[int, str, str]:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "check", cwd=tmp_path, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        out, err = await asyncio.wait_for(process.communicate(), 60)
        assert process.returncode is not None
        return process.returncode, out.decode(), err.decode()

    code, out, err = await check()
    assert code == 0, err  # a bot without workers still runs: a warning, not a problem
    assert f"searches:   tricknight worker over NATS {nats_url} ({nats_prefix}.decide" in out
    assert f"warning: no tricknight worker answers on {nats_prefix}.status" in err
    await workers(2)
    code, out, err = await check()
    assert code == 0 and "2 workers answering, 2 processes" in out and "worker" not in err, err
