"""Computer decisions off the event loop, without starving it.

A level that searches (its player has ``choose_for``, e.g. ``hard``) spends up to a second of CPU
per decision. Python threads share one interpreter lock, so a search in a thread would stall every
other table; such decisions run in a small pool of worker processes instead (spawned, so nothing of
the bot's threads or sockets is copied; created at the first search, shut down with the table
manager). A worker gets the game as ``to_json`` with the seat, level and a seed, rebuilds it and
answers with the action's text: the same position and seed give the same decision.
Cheap levels (``basic`` decides in well under a millisecond) stay in a thread as before.

If the pool breaks (a worker killed) it is made again and the decision tried once more; if that
fails too, or a search raises or runs far past its budget, ``basic`` decides instead and a line is
logged, so a table never stalls on its computer.

With ``TRICKNIGHT_NATS_URL`` set the bot uses ``bot.remote.RemoteThinker`` instead, which sends the
searches to ``tricknight worker`` processes (``bot.worker``, each running this pool) over NATS.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import signal
import threading
from collections.abc import Collection
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot.ai import Player, decide, make_player
from bot.ai.hard import Advice
from bot.engine import Action, Game, parse_action

log = logging.getLogger(__name__)

FALLBACK_LEVEL = "basic"
HINT_LEVEL = "hard"
# A search keeps to about a second; one still running after this is given up (its worker killed).
GIVE_UP_SECONDS = 15.0
SHUTDOWN_WAIT = 3.0
WORKER_NICENESS = 5  # workers yield the CPU to the bot's own process (the event loop) when both want it


def default_workers() -> int:
    """One worker per core, at most four (four searches at once is the design load)."""
    return max(1, min(4, os.cpu_count() or 1))


def searches(player: Player) -> bool:
    """Whether a player searches (CPU-heavy): it decides from the game through ``choose_for``."""
    return callable(getattr(player, "choose_for", None))


# ----- in the worker process -----------------------------------------------------------------------
def _worker_start(niceness: int) -> None:
    if niceness:
        with contextlib.suppress(OSError, AttributeError):  # not on every platform; only a preference
            os.nice(niceness)
    # A stop signal sent to every process (systemd's whole control group, Ctrl-C's process group) is
    # the parent's to handle: it finishes the search in hand, then ends its workers itself. A worker
    # that died of it would break the pool under that search.
    for stop in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(OSError, ValueError):
            signal.signal(stop, signal.SIG_IGN)
    import bot.ai  # noqa: F401  (registers every level before the first decision)


def _ready() -> bool:
    return True


def decide_in_worker(
    record: dict[str, Any], seat: int, family: str, level: str, seed: int, *, budget: float | None = None
) -> str:
    """``seat``'s decision in the game ``record`` (``Game.to_json``) by a fresh ``level`` player;
    ``budget`` seconds for a search instead of the level's own (``tricknight worker`` shortens a
    search that waited for a free process)."""
    game = Game.from_json(record)
    return str(decide(with_budget(make_player(family, level, seed), budget), game, seat))


def advise_in_worker(
    record: dict[str, Any], seat: int, family: str, seed: int, *, budget: float | None = None
) -> tuple[str, str]:
    """What the hint level would do for ``seat`` and why: ``(action text, reason)``."""
    game = Game.from_json(record)
    player: Any = with_budget(make_player(family, HINT_LEVEL, seed), budget)
    advice = player.advise(game, seat)
    return str(advice.action), str(advice.reason)


def with_budget(player: Player, budget: float | None) -> Player:
    """``player`` with a search budget of ``budget`` seconds (a player that does not search has none)."""
    if budget is not None and hasattr(player, "budget"):
        searching: Any = player
        searching.budget = budget
    return player


# ----- in the bot ------------------------------------------------------------------------------------
class Thinker:
    """Runs computer decisions: searching levels in a process pool, the others in a thread.

    ``pooled`` names levels to run in the pool whatever their player is (tests and the bench use
    it to send ``basic`` there); by default a level goes there when its player searches.
    """

    def __init__(
        self, *, workers: int | None = None, pooled: Collection[str] = (), niceness: int = WORKER_NICENESS
    ) -> None:
        self.workers = workers or default_workers()
        self.pooled = frozenset(pooled)
        self.niceness = niceness
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._retired: list[concurrent.futures.ProcessPoolExecutor] = []  # broken ones, still stopping
        self._workers: set[Any] = set()  # every worker process started (multiprocessing.Process)
        self._exit_hook = False
        self._closed = False

    @property
    def started(self) -> bool:
        """Whether the worker processes exist (they start with the first search)."""
        return self._pool is not None

    def uses_pool(self, level: str, player: Player) -> bool:
        return level in self.pooled or searches(player)

    def warm(self) -> None:
        """Start every worker now (a table with a searching seat has started), so the first
        search does not also wait for the workers to start."""
        if self._closed or self._pool is not None:
            return
        pool = self._ensure_pool()
        for _ in range(self.workers):  # each task that finds no idle worker starts one
            pool.submit(_ready)
        self._remember_workers(pool)

    async def decide(
        self, player: Player, game: Game, seat: int, *, family: str, level: str, seed: int
    ) -> Action:
        """``seat``'s decision by ``player`` (of ``level``), off the event loop."""
        try:
            if not self.uses_pool(level, player):
                return await asyncio.to_thread(decide, player, game, seat)
            text = await self.in_pool(decide_in_worker, game.to_json(), seat, family, level, seed)
            return parse_action(text)
        except Exception as err:  # a broken pool twice, a crash or a runaway search: never stall
            if level == FALLBACK_LEVEL and not self.uses_pool(level, player):
                raise  # basic itself failed in a thread: nothing simpler to fall back on
            log.warning("%s computer for seat %s failed (%s): %s decides instead", level, seat,
                        _describe(err), FALLBACK_LEVEL)  # fmt: skip
            fallback = make_player(family, FALLBACK_LEVEL, seed)
            return await asyncio.to_thread(decide, fallback, game, seat)

    async def advise(self, game: Game, seat: int, *, family: str, seed: int) -> Advice:
        """What the hint level would do for ``seat`` now and why, from the pool. Raises what the
        search raised (the caller answers the person); a broken pool is made again once."""
        action, reason = await self.in_pool(advise_in_worker, game.to_json(), seat, family, seed)
        return Advice(parse_action(action), reason)

    async def in_pool(self, work: Any, *args: Any, **kwargs: Any) -> Any:
        """``work(*args, **kwargs)`` in a worker process (a module-level function; its answer must pickle).
        A broken pool is made again and the work tried once more; one still running after
        ``GIVE_UP_SECONDS`` raises ``TimeoutError`` (its pool is ended)."""
        for attempt in (1, 2):
            pool = self._ensure_pool()
            try:
                future = pool.submit(work, *args, **kwargs)
                self._remember_workers(pool)
                return await asyncio.wait_for(asyncio.wrap_future(future), GIVE_UP_SECONDS)
            except BrokenProcessPool:
                self._discard(pool)
                if attempt == 2:
                    raise
                log.warning("the computer players' worker pool broke (a worker died): starting it again")
            except TimeoutError:
                self._discard(pool)
                raise
        raise AssertionError("unreachable")

    def _ensure_pool(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._closed:
            raise RuntimeError("the computer players are shut down")
        if self._pool is None:
            if not self._exit_hook:
                # Python's exit joins the executor's threads and workers (LIFO: this runs first).
                register = getattr(threading, "_register_atexit", None)
                if register is not None:
                    with contextlib.suppress(RuntimeError):  # Python is already exiting
                        register(self._kill_all)
                self._exit_hook = True
            self._pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_worker_start,
                initargs=(self.niceness,),
            )
        return self._pool

    def _discard(self, pool: concurrent.futures.ProcessPoolExecutor) -> None:
        """Forget a broken (or stuck) pool and end its workers; the next decision starts a new one."""
        if self._pool is pool:
            self._pool = None
        if pool not in self._retired:  # several decisions in flight may each find it broken
            self._retired.append(pool)
        _kill_workers(pool)  # a broken pool's workers are of no use, and a stuck one never ends
        pool.shutdown(wait=False, cancel_futures=True)

    async def shutdown(self) -> None:
        """Stop the workers (a search still running after ``SHUTDOWN_WAIT`` is abandoned); later
        decisions are taken by ``basic`` in a thread."""
        self._closed = True
        pools = [self._pool] if self._pool is not None else []
        pools += self._retired
        self._pool, self._retired = None, []
        for pool in pools:
            if not await _stopped(pool):
                self._kill_all()
                if not await _stopped(pool):
                    log.warning("a computer players' worker pool did not stop; leaving it")
        self._kill_all()  # nothing of ours outlives the bot, whatever state a pool was left in

    def _remember_workers(self, pool: concurrent.futures.ProcessPoolExecutor) -> None:
        self._workers = {p for p in self._workers if p.is_alive()}
        self._workers.update((getattr(pool, "_processes", None) or {}).values())

    def _kill_all(self) -> None:
        """End every worker process this thinker started that is still alive. Also run as Python
        exits: the executor joins its workers then, and one left stuck would hold the exit."""
        for process in list(self._workers):
            if process.is_alive():
                with contextlib.suppress(Exception):
                    process.kill()


async def _stopped(pool: concurrent.futures.ProcessPoolExecutor) -> bool:
    """Shut ``pool`` down and wait for it, up to ``SHUTDOWN_WAIT``: in a daemon thread, so a stop
    that never finishes holds neither the event loop's own threads nor Python's exit."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()

    def finished() -> None:
        if not done.done():
            done.set_result(None)

    def stop() -> None:
        pool.shutdown(wait=True, cancel_futures=True)
        with contextlib.suppress(RuntimeError):  # the loop may be closed by then
            loop.call_soon_threadsafe(finished)

    threading.Thread(target=stop, name="tricknight-pool-stop", daemon=True).start()
    try:
        await asyncio.wait_for(asyncio.shield(done), SHUTDOWN_WAIT)
    except TimeoutError:
        return False
    return True


def _kill_workers(pool: concurrent.futures.ProcessPoolExecutor) -> None:
    # The executor has no public way to end its processes before Python 3.14.
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        with contextlib.suppress(Exception):
            process.kill()


def _describe(err: BaseException) -> str:
    if isinstance(err, TimeoutError):
        return f"no answer in {GIVE_UP_SECONDS:.0f} s"
    return f"{type(err).__name__}: {err}" if str(err) else type(err).__name__
