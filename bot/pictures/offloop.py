"""Rendering off the event loop: pictures are drawn in a small dedicated thread pool.

Drawing and PNG encoding are CPU work of a few milliseconds; done on the event loop they would
delay every other table's clicks. The pool is the bot's own (not the loop's default executor), so
renders never queue behind, or starve, other blocking work, and it is small because Pillow releases
the GIL while it composes and compresses: two threads keep both cores of a small host busy.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

RENDER_THREADS = 2
_executor = ThreadPoolExecutor(max_workers=RENDER_THREADS, thread_name_prefix="pictures")


async def render_off_loop(render: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """Run ``render(*args, **kwargs)`` (e.g. ``render_hand``) in the render pool and await it.

    >>> # rendered = await render_off_loop(render_hand, ["10S", "KH"], legal=["10S"])
    """
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_executor, functools.partial(render, *args, **kwargs))
