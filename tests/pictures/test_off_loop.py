"""Renders run in the picture worker process, never on the event loop's thread (nor in a thread
that competes with it for the GIL); each picture is drawn once; the worker goes when asked, is
replaced when it dies, and never outlives the bot."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.pictures import (
    MeldGroup,
    Rendered,
    SeatMelds,
    clear_render_cache,
    offloop,
    render_hand,
    render_melds,
    render_off_loop,
    render_trick,
    stop_render_pool,
)

ROOT = Path(__file__).resolve().parents[2]
HANDS = [[f"{rank}{suit}" for rank in ("A", "10", "K", "Q", "J", "9")] for suit in "SHDC"]


def hand_and_pid(cards: list[str], *, legal: list[str]) -> tuple[int, Rendered]:
    """Module level, so the worker can be sent it: where it ran, and the picture."""
    return os.getpid(), render_hand(cards, legal=legal)


@pytest.fixture
async def worker() -> AsyncIterator[offloop.RenderPool]:
    """The render pool with its worker process up, and nothing cached."""
    await asyncio.wrap_future(offloop.pool.start())
    clear_render_cache()
    yield offloop.pool
    clear_render_cache()


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/stat").read_text() if Path(f"/proc/{pid}/stat").exists() else ""
    return " Z " not in status  # a zombie has exited (its parent has not reaped it yet)


async def test_a_render_runs_in_the_worker_process_and_matches_one_drawn_here(
    worker: offloop.RenderPool,
) -> None:
    pid, rendered = await render_off_loop(hand_and_pid, ["10S", "KH"], legal=["10S"])
    assert pid != os.getpid() and pid in worker.worker_pids
    assert rendered == render_hand(["10S", "KH"], legal=["10S"])
    melds = [SeatMelds("Alice", [MeldGroup("marriage", ["KH", "QH"], 4)])]
    assert await render_off_loop(render_melds, melds, trump="H") == render_melds(melds, trump="H")
    plays = [("Alice", "10S"), ("Bob", "KS")]
    assert await render_off_loop(render_trick, plays, waiting=["Cleo"], trump="S") == render_trick(
        plays, waiting=["Cleo"], trump="S"
    )


async def test_a_picture_already_drawn_is_not_drawn_again(worker: offloop.RenderPool) -> None:
    first = await render_off_loop(render_hand, HANDS[0], legal=HANDS[0][:2])
    drawn = worker.renders
    again = await render_off_loop(render_hand, list(HANDS[0]), legal=list(HANDS[0][:2]))
    assert again is first and worker.renders == drawn
    # Two requests for one picture while it is being drawn share the one render.
    both = await asyncio.gather(*(render_off_loop(render_hand, HANDS[1], legal=None) for _ in range(2)))
    assert both[0] is both[1] and worker.renders == drawn + 1
    # Another state is another picture.
    other = await render_off_loop(render_hand, HANDS[0], legal=HANDS[0][:3])
    assert other != first and worker.renders == drawn + 2


async def test_the_loop_keeps_ticking_while_pictures_render(worker: offloop.RenderPool) -> None:
    loop = asyncio.get_running_loop()
    ticks = 0
    done = asyncio.Event()

    async def ticker() -> None:
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            await asyncio.sleep(0)

    tick = asyncio.create_task(ticker())
    start = loop.time()
    await asyncio.gather(
        *(render_off_loop(render_hand, hand, legal=hand[:n]) for n in range(6) for hand in HANDS)
    )
    done.set()
    await tick
    # 24 uncached renders took some milliseconds; the ticker ran all along, not only after them.
    assert ticks > 24
    assert loop.time() - start < 10


async def test_stopping_ends_the_worker_and_a_later_render_starts_a_new_one(
    worker: offloop.RenderPool,
) -> None:
    await render_off_loop(render_hand, ["AS"], legal=None)
    (pid,) = worker.worker_pids
    await asyncio.to_thread(stop_render_pool)
    assert worker.worker_pids == [] and not alive(pid)
    # Drawn at once (in a thread while the new worker starts), then in the new worker.
    assert await render_off_loop(render_hand, ["KS"], legal=None) == render_hand(["KS"], legal=None)
    await asyncio.wrap_future(worker.start())
    new_pid, _ = await render_off_loop(hand_and_pid, ["QS"], legal=[])
    assert new_pid in worker.worker_pids and new_pid != pid


async def test_a_worker_that_dies_is_replaced(worker: offloop.RenderPool) -> None:
    await render_off_loop(render_hand, ["AS"], legal=None)
    (pid,) = worker.worker_pids
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while True:  # the pool notices the dead worker; renders go on (in a thread, then a new worker)
        try:
            rendered = await render_off_loop(render_hand, ["10D", "JD"], legal=["JD"])
            break
        except Exception:
            assert time.monotonic() < deadline
            await asyncio.sleep(0.05)
    assert rendered == render_hand(["10D", "JD"], legal=["JD"])
    await asyncio.wrap_future(worker.start())
    new_pid, _ = await render_off_loop(hand_and_pid, ["9C"], legal=[])
    assert new_pid != pid and new_pid in worker.worker_pids


KILLED_PARENT = """
import asyncio, sys
from bot.pictures import offloop, render_hand, render_off_loop
async def main():
    await asyncio.wrap_future(offloop.pool.start())
    await render_off_loop(render_hand, ["AS"], legal=None)
    print(*offloop.pool.worker_pids, flush=True)
    await asyncio.sleep(60)
if __name__ == "__main__":
    asyncio.run(main())
"""


def test_the_worker_does_not_outlive_a_killed_bot(tmp_path: Path) -> None:
    script = tmp_path / "bot_like.py"
    script.write_text(KILLED_PARENT)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    parent = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, env=env, text=True)
    try:
        assert parent.stdout is not None
        pid = int(parent.stdout.readline())
        assert alive(pid)
    finally:
        parent.kill()
        parent.wait()
    deadline = time.monotonic() + 10
    while alive(pid):
        assert time.monotonic() < deadline, "the picture worker outlived the killed bot"
        time.sleep(0.05)
