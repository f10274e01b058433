"""``tricknight worker``: serves the bots' searching decisions (``hard``) and hints over NATS.

A worker connects to ``TRICKNIGHT_NATS_URL`` and listens on ``<prefix>.decide`` and ``<prefix>.hint``
in the queue group ``workers``: each request goes to one worker of the group, so workers can be
added or stopped at any time and the requests spread over them. It runs each search in a local
process pool of its own (``bot.thinking.Thinker``: one process per core by default,
``--processes N``), exactly as the bot's own pool would (the same position and seed give the same
action), and answers with the action's text (and the reason, for a hint). The protocol and the bot's
side are in ``bot.remote``.

A worker holds at most ``processes + QUEUED`` requests: one searching in each process and one
waiting, so a process never waits for the network. With that many in hand it stops listening on
``<prefix>.decide`` and ``<prefix>.hint`` (its subscriptions drained: what the server already sent
it is still served) and listens again once one is answered, so the queue group sends new requests
to workers with room for them instead of queueing them, at random, behind a busy worker's search
(with two workers of one process each and four requests in flight, one worker was idle while the
other held two or more in 20% of the samples before; ``bench/workers.py``). With every worker full
the bot gets no responders and asks again a moment later. A request that still waits for a process
has its search shortened so that the answer comes within its ``answer_within``, or is answered
``retry`` when too little time is left. ``<prefix>.status`` (no queue group: every worker answers)
tells who is serving, with how many processes and how busy.

``tricknight worker --check`` exits 0 if a worker on this host answers there (a container's
health check), 1 if not.

SIGTERM or SIGINT stops it cleanly: it takes no new requests (its subscriptions are drained, so
requests the server already sent it are still served), finishes the ones in hand, answers them,
closes the connection and exits 0.

Workers are trusted parts of the deployment: a request carries the whole game, every hidden hand
included. Keep the NATS server private to the bots and workers, or use credentials and TLS in the URL.
"""

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
from collections.abc import Sequence
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot import __version__
from bot.config import redacted_nats
from bot.remote import (
    MIN_BUDGET,
    OVERRUN,
    PROTOCOL,
    QUEUE_GROUP,
    Subjects,
    connect,
    find_workers,
    worker_id,
)
from bot.thinking import WORKER_NICENESS, Thinker, advise_in_worker, decide_in_worker

log = logging.getLogger("bot.worker")

STOP_WAIT = 20.0
"""Seconds the requests in hand may take to finish at a stop (a search keeps to about a second)."""
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
QUEUED = 1
"""Requests a worker holds beyond one per process (waiting for the first process free)."""


def default_processes() -> int:
    """One process per core."""
    return max(1, os.cpu_count() or 1)


def _ready() -> bool:
    return True


class BadRequest(Exception):
    """A request this worker cannot read."""


class Worker:
    """Serves decisions and hints from ``url`` under ``prefix`` with ``processes`` searches at once."""

    def __init__(
        self, url: str, prefix: str, processes: int | None = None, *, niceness: int = WORKER_NICENESS
    ) -> None:
        self.url = url
        self.label = redacted_nats(url)
        self.subjects = Subjects.of(prefix)
        self.processes = processes or default_processes()
        self.limit = self.processes + QUEUED
        self.thinker = Thinker(workers=self.processes, niceness=niceness)
        self.id = worker_id()
        self.served: collections.Counter[str] = collections.Counter()
        self.in_hand = 0
        self.started_at = time.time()
        self._slots: asyncio.Semaphore | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._connection: Any = None
        self._listening: list[Any] = []  # the queue group's subscriptions, while there is room
        self._status_subscription: Any = None
        self._listen_lock: asyncio.Lock | None = None
        self._stopping = False
        self._chores: set[asyncio.Task[None]] = set()
        self._versions_seen: set[str] = set()

    def describe(self) -> str:
        return (
            f"NATS {self.label}, subjects {self.subjects.decide} and {self.subjects.hint} "
            f"(queue group {QUEUE_GROUP}), {self.processes} process{'es' if self.processes != 1 else ''}"
        )

    async def start(self) -> None:
        """Start the processes, connect (waiting for a server out of reach) and subscribe."""
        self._slots = asyncio.Semaphore(self.processes)
        self._listen_lock = asyncio.Lock()
        self.thinker.warm()
        await self.thinker.in_pool(_ready)  # the pool answers before requests are taken
        self._connection = await connect(self.url, name=f"tricknight worker {self.id}")
        self._status_subscription = await self._connection.subscribe(self.subjects.status, cb=self._status)
        await self._listen()
        await self._connection.flush()

    @property
    def listening(self) -> bool:
        return bool(self._listening)

    async def _listen(self) -> None:
        """Listen in the queue group while there is room for another request, else not."""
        assert self._listen_lock is not None
        async with self._listen_lock:
            room = not self._stopping and self.in_hand < self.limit
            if room and not self._listening:
                made = []
                try:
                    for subject in (self.subjects.decide, self.subjects.hint):
                        made.append(
                            await self._connection.subscribe(subject, queue=QUEUE_GROUP, cb=self._take)
                        )
                except Exception:
                    for subscription in made:
                        with contextlib.suppress(Exception):
                            await subscription.unsubscribe()
                    raise
                self._listening = made
            elif not room and self._listening:
                listening, self._listening = self._listening, []
                for subscription in listening:
                    with contextlib.suppress(Exception):  # the connection is down: nothing more comes
                        await subscription.drain()  # what the server sent already is still taken

    def _listen_soon(self) -> None:
        chore = asyncio.create_task(self._listen())
        self._chores.add(chore)
        chore.add_done_callback(self._chore_done)

    def _chore_done(self, chore: asyncio.Task[None]) -> None:
        self._chores.discard(chore)
        failed = None if chore.cancelled() else chore.exception()
        if failed is not None and not self._stopping:
            log.warning(
                "could not change the subscriptions (%s): trying again in a second", _describe(failed)
            )
            asyncio.get_running_loop().call_later(1.0, self._listen_soon)

    async def stop(self) -> None:
        """Take no new requests, finish and answer those in hand, disconnect, end the processes."""
        self._stopping = True
        if self._listen_lock is not None:
            with contextlib.suppress(Exception):
                await self._listen()
        if self._tasks:
            _, late = await asyncio.wait(set(self._tasks), timeout=STOP_WAIT)
            if late:
                log.warning("%d request(s) still unanswered after %.0f s: leaving them", len(late), STOP_WAIT)
                for task in late:
                    task.cancel()
        if self._connection is not None:
            with contextlib.suppress(Exception):
                await self._connection.drain()  # the last answers are sent before it closes
        await self.thinker.shutdown()

    async def _take(self, message: Any) -> None:
        """A request: served in a task of its own (the subscription goes on to the next one)."""
        received = asyncio.get_running_loop().time()
        self.in_hand += 1
        task = asyncio.create_task(self._serve(message, received))
        self._tasks.add(task)
        task.add_done_callback(self._done)
        if self.in_hand == self.limit:
            self._listen_soon()  # full: let the queue group send the next ones elsewhere

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        self.in_hand -= 1
        if self.in_hand == self.limit - 1 and not self._stopping:
            self._listen_soon()  # room again

    async def _serve(self, message: Any, received: float) -> None:
        kind = "hint" if message.subject == self.subjects.hint else "decide"
        loop = asyncio.get_running_loop()
        try:
            request = self._read(message.data, kind)
            assert self._slots is not None
            async with self._slots:
                waited = loop.time() - received
                left = request["answer_within"] - waited
                budget = min(request["budget"], left / OVERRUN)
                if budget < MIN_BUDGET:
                    reply: dict[str, Any] = {
                        "error": "busy: too little time left after waiting for a free process",
                        "retry": True,
                        "waited": round(waited, 3),
                    }
                else:
                    began = loop.time()
                    reply = await self._search(kind, request, budget)
                    reply["seconds"] = round(loop.time() - began, 3)
                    self.served[kind] += 1
                    log.debug("%s seat %s (%s %s): %s in %.2f s after %.2f s waiting", kind, request["seat"],
                              request["family"], request.get("level", "hint"), reply["action"],
                              reply["seconds"], waited)  # fmt: skip
        except BadRequest as err:
            reply = {"error": str(err), "retry": False}
        except Exception as err:  # the search raised, or the pool broke twice: say so at once
            broken = isinstance(err, BrokenProcessPool | TimeoutError)  # another worker may do it
            log.warning("%s request failed: %s", kind, _describe(err))
            reply = {"error": _describe(err), "retry": broken}
        reply["worker"] = self.id
        await self._answer(message, reply)

    def _read(self, data: bytes, kind: str) -> dict[str, Any]:
        try:
            request = json.loads(data)
        except (ValueError, UnicodeDecodeError):
            raise BadRequest("the request is not JSON") from None
        if not isinstance(request, dict) or request.get("protocol") != PROTOCOL:
            got = request.get("protocol") if isinstance(request, dict) else None
            raise BadRequest(f"protocol {got!r}; this worker speaks protocol {PROTOCOL}")
        needed = {"record": dict, "seat": int, "family": str, "seed": int, "budget": float | int,
                  "answer_within": float | int}  # fmt: skip
        if kind == "decide":
            needed["level"] = str
        wrong = [name for name, kind_of in needed.items() if not isinstance(request.get(name), kind_of)]
        if wrong:
            raise BadRequest(f"the request lacks {', '.join(wrong)}")
        version = str(request.get("version"))
        if version != __version__ and version not in self._versions_seen:
            self._versions_seen.add(version)
            log.warning("a bot of version %s asks this worker (version %s): the bot checks each answer "
                        "is legal, but run the same version on both", version, __version__)  # fmt: skip
        return request

    async def _search(self, kind: str, request: dict[str, Any], budget: float) -> dict[str, Any]:
        record, seat, family, seed = request["record"], request["seat"], request["family"], request["seed"]
        if kind == "decide":
            text = await self.thinker.in_pool(
                decide_in_worker, record, seat, family, request["level"], seed, budget=budget
            )
            return {"action": text}
        action, reason = await self.thinker.in_pool(
            advise_in_worker, record, seat, family, seed, budget=budget
        )
        return {"action": action, "reason": reason}

    async def _status(self, message: Any) -> None:
        await self._answer(message, self.status())

    def status(self) -> dict[str, Any]:
        return {
            "worker": self.id,
            "pid": os.getpid(),
            "version": __version__,
            "processes": self.processes,
            "in_hand": self.in_hand,
            "listening": self.listening,
            "served": dict(self.served),
            "up_seconds": round(time.time() - self.started_at, 1),
        }

    async def _answer(self, message: Any, reply: dict[str, Any]) -> None:
        if not message.reply:
            return
        try:
            await message.respond(json.dumps(reply).encode())
        except Exception as err:  # the connection is down: the bot tries again elsewhere
            log.warning("could not answer a request: %s", _describe(err))


async def check_here(url: str, prefix: str) -> tuple[bool, str]:
    """``tricknight worker --check`` (a container's health check): whether a worker on this host
    answers on ``<prefix>.status``, and a line saying so (its pid, processes, requests in hand and
    answered). A worker still waiting for the server, or whose event loop is stuck, does not."""
    try:
        found = await find_workers(url, prefix)
    except ConnectionError as err:
        return False, f"unhealthy: the NATS server {redacted_nats(url)} cannot be reached ({err})"
    host = socket.gethostname()
    here = [status for status in found if str(status.get("worker", "")).rsplit(":", 1)[0] == host]
    if not here:
        return False, (f"unhealthy: no worker on {host} answers on {prefix}.status ({len(found)} elsewhere)")
    lines = []
    for status in here:
        served = status.get("served") or {}
        answered = sum(int(count) for count in served.values())
        lines.append(
            f"healthy: worker {status['worker']}, {status.get('processes')} process(es), "
            f"{status.get('in_hand')} request(s) in hand, {answered} answered"
        )
    return True, "\n".join(lines)


def setup_logging(level: str) -> None:
    """Log to stderr, as the bot does in plain text."""
    logging.basicConfig(
        level=getattr(logging, level),
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
        datefmt="%Y-%m-%d %H:%M:%S",
        stream=sys.stderr,
    )


def run(url: str, prefix: str, processes: int | None = None, *, log_level: str = "INFO") -> int:
    """``tricknight worker``: serve until SIGTERM or SIGINT; the exit status (0 after a clean stop)."""
    setup_logging(log_level)
    return asyncio.run(serve(Worker(url, prefix, processes)))


async def serve(worker: Worker, signals: Sequence[signal.Signals] = STOP_SIGNALS) -> int:
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in signals:
        loop.add_signal_handler(sig, stop.set)
    log.info("Trick Night %s worker %s: %s", __version__, worker.id, worker.describe())
    starting = asyncio.create_task(worker.start())
    stopping = asyncio.create_task(stop.wait())
    await asyncio.wait({starting, stopping}, return_when=asyncio.FIRST_COMPLETED)
    if not starting.done():  # stopped while waiting for the server
        starting.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await starting
        await worker.stop()
        log.info("stopped before it served anything")
        return 0
    stopping.cancel()
    failed = starting.exception()
    if failed is not None:
        log.error("could not start: %s", _describe(failed))
        await worker.stop()
        return 1
    log.info("ready: serving %s and %s", worker.subjects.decide, worker.subjects.hint)
    await stop.wait()
    log.info("stopping: finishing %d request(s) in hand, taking no new ones", worker.in_hand)
    await worker.stop()
    served = ", ".join(f"{count} {kind}" for kind, count in sorted(worker.served.items())) or "nothing"
    log.info("stopped: served %s", served)
    return 0


def _describe(err: BaseException) -> str:
    text = str(err).strip()
    return f"{type(err).__name__}: {text}" if text else type(err).__name__
