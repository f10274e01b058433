"""Rendering off the event loop: pictures are drawn in a worker process, each state once.

Drawing is CPU work of a few milliseconds, much of it Python code between Pillow's calls that holds
the GIL. Done in a thread of the bot's process it competed with the event loop for the GIL: every
socket call the loop made (it releases the GIL) could wait up to a switch interval to get it back,
and the store's threads waited alike (measured in ``bench/load.py``: socket sends on the loop took
~60 µs instead of a few, clicks at 100 tables had a p99 over 25 ms). So renders run in a separate
process (one: on a small host the other core is the event loop's), whose GIL is its own.

The pool is a ``ProcessPoolExecutor`` whose worker is forked from a clean server process
(``forkserver``: never a fork of the bot with its threads and sockets). It is started in the
background by the first render (or ``start_render_pool``), which meanwhile is drawn in a thread,
and it is shut down by ``stop_render_pool`` (the bot's close); a worker that dies is replaced.

Every finished picture is kept in a small LRU here, keyed by the pickled call (what is sent to the
worker anyway): a hand or trick already drawn is not sent again, and two requests for one picture
while it is being drawn share the one render.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import logging
import multiprocessing
import os
import pickle
import select
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, ParamSpec, TypeVar, cast

from bot.pictures.scenes import clear_render_cache as clear_scene_cache

log = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")

CACHE_SIZE = 128
"""Pictures kept here (a few KiB each); the worker keeps its own caches of states and card faces."""
PRELOAD = ["bot.pictures", "bot.pictures.charts"]
"""Imported once by the fork server, so a new worker starts drawing at once."""


def _call(blob: bytes) -> Any:
    """In the worker: run a pickled ``(render, args, kwargs)``."""
    render, args, kwargs = pickle.loads(blob)  # noqa: S301 - our own process sent it
    return render(*args, **kwargs)


def _worker_setup(bot: int) -> None:
    """In the worker, first thing: end as soon as the bot (pid ``bot``) ends, even by SIGKILL. A
    worker waits on its queue for ever otherwise, and keeps the fork server alive with it.

    The worker keeps the bot's priority: a lower one starved it on a busy machine, and its late
    pictures then held up turn pings and bunched table edits past Discord's global limit."""

    def watch() -> None:
        try:
            handle = os.pidfd_open(bot)  # readable once that process has ended
        except (AttributeError, OSError):  # not Linux, or it is gone already
            while _running(bot):
                time.sleep(1.0)
        else:
            select.select([handle], [], [])
        os._exit(0)

    threading.Thread(target=watch, name="bot-watch", daemon=True).start()


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _forget_worker_caches() -> None:
    """In the worker: drop its cached pictures (``clear_render_cache``)."""
    from bot.pictures.charts import clear_chart_cache
    from bot.pictures.scenes import clear_render_cache

    clear_render_cache()
    clear_chart_cache()


class RenderPool:
    """Where ``render_off_loop`` draws: a worker process (``processes=1``) or, with ``processes=0``,
    a thread of this process (the old way, for comparison in benches)."""

    def __init__(self, processes: int = 1) -> None:
        self.processes = processes
        self._lock = threading.Lock()
        self._process_pool: ProcessPoolExecutor | None = None
        self._starting: concurrent.futures.Future[None] | None = None
        self._threads: ThreadPoolExecutor | None = None
        self._cache: collections.OrderedDict[bytes, Any] = collections.OrderedDict()
        self._in_flight: dict[bytes, concurrent.futures.Future[Any]] = {}
        self.renders = 0  # sent to the worker (or a thread), for benches and tests
        self.hits = 0  # answered from the cache or by a render already under way

    # ----- starting and stopping ---------------------------------------------------------------
    def start(self) -> concurrent.futures.Future[None]:
        """Start the worker in the background (a thread waits for the fork server); the future is
        done once it draws. Safe to call again: the same start is returned."""
        with self._lock:
            if self._starting is None:
                self._starting = concurrent.futures.Future()
                threading.Thread(
                    target=self._start_worker, args=(self._starting,), name="pictures-start", daemon=True
                ).start()
            return self._starting

    def _start_worker(self, starting: concurrent.futures.Future[None]) -> None:
        try:
            methods = multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
            if context.get_start_method() == "forkserver":
                context.set_forkserver_preload(PRELOAD)
            pool = ProcessPoolExecutor(
                max_workers=self.processes,
                mp_context=context,
                initializer=_worker_setup,
                initargs=(os.getpid(),),
            )
            pool.submit(int).result()  # the worker is up (the fork server imported the pictures)
        except Exception as err:  # no processes here (a sandbox…): pictures are drawn in a thread
            log.warning("pictures: no worker process (%s); drawing in a thread instead", err)
            starting.set_result(None)
            return
        with self._lock:
            adopted = self._starting is starting
            if adopted:
                self._process_pool = pool
        if not adopted:  # stopped while starting
            pool.shutdown(wait=False)
        starting.set_result(None)

    def _executor(self) -> Executor:
        """The worker process once it runs; a thread until then (or where it cannot)."""
        if self.processes > 0:
            if self._process_pool is not None:
                return self._process_pool
            self.start()
        with self._lock:
            if self._threads is None:
                self._threads = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pictures")
            return self._threads

    def _replace_broken(self, pool: Executor) -> None:
        with self._lock:
            if self._process_pool is not pool:
                return
            self._process_pool, self._starting = None, None
        log.warning("pictures: the worker process died; starting a new one")
        pool.shutdown(wait=False)

    def stop(self) -> None:
        """Shut the worker down (waiting for it to exit) and forget every cached picture."""
        with self._lock:
            pools: list[Executor | None] = [self._process_pool, self._threads]
            self._process_pool, self._threads, self._starting = None, None, None
            self._cache.clear()
            self._in_flight.clear()
        for pool in pools:
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)

    @property
    def worker_pids(self) -> list[int]:
        pool = self._process_pool
        return [] if pool is None else [p.pid for p in (pool._processes or {}).values() if p.pid]

    # ----- drawing -------------------------------------------------------------------------------
    async def render(self, render: Callable[..., T], args: tuple[Any, ...], kwargs: dict[str, Any]) -> T:
        key = pickle.dumps((render, args, kwargs), protocol=pickle.HIGHEST_PROTOCOL)
        if key in self._cache:
            self.hits += 1
            self._cache.move_to_end(key)
            return cast(T, self._cache[key])
        running = self._in_flight.get(key)
        executor: Executor | None = None
        if running is not None:
            self.hits += 1
        else:
            self.renders += 1
            executor = self._executor()
            try:
                running = executor.submit(_call, key)
            except BrokenProcessPool:
                self._replace_broken(executor)
                running = self._executor().submit(_call, key)
            self._in_flight[key] = running
        try:
            rendered = await asyncio.wrap_future(running)
        except BrokenProcessPool:
            if executor is not None:
                self._replace_broken(executor)
            raise
        finally:
            if self._in_flight.get(key) is running:
                del self._in_flight[key]
        self._cache[key] = rendered
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)
        return cast(T, rendered)

    def forget(self) -> None:
        """Drop every cached picture, here and in the worker (benches time uncached renders)."""
        self._cache.clear()
        pool = self._process_pool
        if pool is not None:
            pool.submit(_forget_worker_caches).result()


pool = RenderPool()


async def render_off_loop(render: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """Run ``render(*args, **kwargs)`` (e.g. ``render_hand``) in the render pool and await it.
    ``render`` and its arguments are pickled: a module-level function and plain data.

    >>> # rendered = await render_off_loop(render_hand, ["10S", "KH"], legal=["10S"])
    """
    return await pool.render(render, args, kwargs)


def start_render_pool() -> None:
    """Start the worker process in the background (else the first render starts it)."""
    if pool.processes > 0:
        pool.start()


def stop_render_pool() -> None:
    """Shut the worker process down (blocking: from async code, in a thread); a later render
    starts a new one."""
    pool.stop()


def clear_render_cache() -> None:
    """Forget every cached picture: in this process, here in the pool and in its worker (card faces
    stay cached: they depend on nothing but the card)."""
    clear_scene_cache()
    pool.forget()
