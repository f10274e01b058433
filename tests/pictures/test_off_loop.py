"""Renders run in the picture pool, never on the event loop's thread."""

from __future__ import annotations

import asyncio
import threading

from bot.pictures import Rendered, clear_render_cache, render_hand, render_off_loop


async def test_render_off_loop_runs_in_another_thread_and_returns_the_render() -> None:
    loop_thread = threading.get_ident()
    seen: list[int] = []

    def recording_render(cards: list[str], *, legal: list[str]) -> Rendered:
        seen.append(threading.get_ident())
        return render_hand(cards, legal=legal)

    clear_render_cache()
    rendered = await render_off_loop(recording_render, ["10S", "KH"], legal=["10S"])
    assert seen and seen[0] != loop_thread
    assert rendered == render_hand(["10S", "KH"], legal=["10S"])


async def test_the_loop_keeps_ticking_while_pictures_render() -> None:
    clear_render_cache()
    loop = asyncio.get_running_loop()
    ticks = 0
    done = asyncio.Event()

    async def ticker() -> None:
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            await asyncio.sleep(0)

    tick = asyncio.create_task(ticker())
    hands = [[f"{rank}{suit}" for rank in ("A", "10", "K", "Q", "J", "9")] for suit in "SHDC"]
    start = loop.time()
    await asyncio.gather(
        *(render_off_loop(render_hand, hand, legal=hand[:n]) for n in range(6) for hand in hands)
    )
    done.set()
    await tick
    # 24 uncached renders took some milliseconds; the ticker ran all along, not only after them.
    assert ticks > 24
    assert loop.time() - start < 10
