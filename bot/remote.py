"""Searching computer players served by ``tricknight worker`` processes over NATS.

With ``TRICKNIGHT_NATS_URL`` set, the bot's ``RemoteThinker`` sends every searching decision
(``hard``) and every hint as a NATS request to ``<prefix>.decide`` or ``<prefix>.hint``; the workers
(``bot.worker``) listen there in one queue group, ``workers``, so each request goes to one of them
and a worker can be started or stopped at any time. Without the setting the bot thinks in its own
process pool (``bot.thinking.Thinker``), as before. Cheap levels (``basic``) stay in a thread of the
bot either way.

The protocol (JSON, UTF-8; ``PROTOCOL`` is its version):

- request: ``{"protocol": 1, "version": bot version, "record": Game.to_json(), "seat": n,
  "family": f, "level": l (decide only), "seed": s, "budget": seconds, "answer_within": seconds}``.
  The worker rebuilds the game from the record and decides as the local pool would
  (``bot.thinking.decide_in_worker``): the same position and seed give the same action. ``budget``
  is the search's budget (the player's own, 1 s for ``hard``); ``answer_within`` counts from the
  request's arrival: a worker that waited for a free process shortens the search to answer in time,
  or answers ``retry`` when too little time is left.
- reply: ``{"action": "play 10H", "reason": "…" (hint only), "worker": "host:pid", "seconds": t}``,
  or ``{"error": "…", "retry": true|false, "worker": …}`` (``retry``: another worker, or the same
  one later, may answer it: busy, or its pool broke; else the request itself failed, e.g. the search
  raised).

Timing: an attempt waits ``budget + ATTEMPT_MARGIN`` (1.5 s); a worker lost with the request (or
slow) costs that attempt, and the request is sent again, to whichever worker the queue group picks,
with the time that is left. No responders (no worker, or every worker full: a worker listens only
while it has room), a server out of reach or a connection being re-made are tried again after a
short pause. Once ``budget + DEADLINE_MARGIN`` (2.5 s) has
passed, ``basic`` decides in a thread and one line is logged, so a table waits at most its budget
and two seconds. A hint that gets no answer raises (the person is told to try again). An answer is
checked before it is used: an action that is not legal here (a worker of another version, say)
counts as a failure.

Security: a request carries the whole game, every hidden hand included. Workers are part of the
deployment and trusted like the bot itself; the NATS server must be reachable only by them and the
bots (a private network), or need credentials and TLS, given in the URL
(``tls://user:password@host:4222``; never printed or logged).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import os
import random
import socket
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from bot import __version__
from bot.ai import Player, decide, make_player
from bot.ai.hard import DEFAULT_BUDGET, Advice
from bot.config import DEFAULT_NATS_PREFIX, Settings, nats_servers, redacted_nats
from bot.engine import Action, Game, parse_action
from bot.thinking import FALLBACK_LEVEL, Thinker

log = logging.getLogger(__name__)

PROTOCOL = 1
QUEUE_GROUP = "workers"
ATTEMPT_MARGIN = 0.5
"""Seconds an attempt waits beyond the search's budget (a search keeps to 110% of its budget)."""
DEADLINE_MARGIN = 1.5
"""Seconds past the budget after which the workers are given up and ``basic`` decides."""
REPLY_SLACK = 0.1
"""A worker answers this long before the attempt's end (the reply's way back, the game rebuilt)."""
OVERRUN = 1.1
"""A search may take this many times its budget."""
MIN_BUDGET = 0.05
"""A search with less than this left is not started (the client tries again, or gives up)."""
RETRY_PAUSES = (0.01, 0.02, 0.05, 0.1)
"""Pauses before trying again after no responders (every worker full, or none) or a connection
error, then the last one each time (with a little jitter). A full worker holds one request beyond
its searches, so a process that frees up has work while the bots wait out these pauses."""
CONNECT_TIMEOUT = 2


def install_hint() -> str:
    return "pip install 'tricknight[cluster]'"


def nats_available() -> bool:
    try:
        import nats  # noqa: F401
    except ImportError:
        return False
    return True


def worker_id() -> str:
    """How a worker or a bot names itself to the others: ``host:pid``."""
    return f"{socket.gethostname()}:{os.getpid()}"


@dataclass(frozen=True)
class Subjects:
    decide: str
    hint: str
    status: str

    @classmethod
    def of(cls, prefix: str = DEFAULT_NATS_PREFIX) -> Subjects:
        return cls(f"{prefix}.decide", f"{prefix}.hint", f"{prefix}.status")


def search_budget(window: float) -> float:
    """The longest search that answers within ``window`` seconds."""
    return (window - REPLY_SLACK) / OVERRUN


def _budget_of(player: Any) -> float:
    budget = getattr(player, "budget", None)
    return float(budget) if isinstance(budget, int | float) and budget > 0 else DEFAULT_BUDGET


class NoAnswer(Exception):
    """No worker answered in time; the message says what was tried."""


class WorkerRefused(Exception):
    """A worker answered with an error that another try would not change (the search raised)."""


async def connect(url: str, *, name: str, quiet_after_first: bool = True, **options: Any) -> Any:
    """A NATS connection to ``url`` (one server or several, comma-separated) that reconnects for
    ever, its disconnections and reconnections logged without credentials. The first connection
    too is tried again and again (each failure logged once, then at DEBUG), so this waits for a
    server out of reach: run it in a task of its own."""
    import nats

    label = redacted_nats(url)
    failures = 0
    made: list[Any] = []  # the connection, once made

    async def error_cb(err: Exception) -> None:
        nonlocal failures
        failures += 1
        level = logging.WARNING if failures == 1 or not quiet_after_first else logging.DEBUG
        log.log(level, "NATS %s: %s", label, _describe(err) or type(err).__name__)

    async def disconnected_cb() -> None:
        if made and not made[0].is_closed:  # not when closed on purpose
            log.warning("NATS %s: disconnected; connecting again", label)

    async def reconnected_cb() -> None:
        nonlocal failures
        failures = 0
        log.info("NATS %s: connected again", label)

    settings: dict[str, Any] = {
        "servers": nats_servers(url),
        "name": name,
        "allow_reconnect": True,
        "max_reconnect_attempts": -1,
        "reconnect_time_wait": 1,
        "connect_timeout": CONNECT_TIMEOUT,
        "error_cb": error_cb,
        "disconnected_cb": disconnected_cb,
        "reconnected_cb": reconnected_cb,
    }
    settings.update(options)
    connection = await nats.connect(**settings)
    made.append(connection)
    if failures:
        log.info("NATS %s: connected", label)
    return connection


async def find_workers(url: str, prefix: str, *, wait: float = 0.5) -> list[dict[str, Any]]:
    """The status of every worker that answers on ``<prefix>.status`` within ``wait`` seconds (for
    ``tricknight check``); ``ConnectionError`` saying why if the server cannot be reached."""
    import nats

    async def quiet(err: Exception) -> None:
        pass

    try:
        # Each server tried twice at most (nats-py never gives up on a server with 0 attempts).
        connection = await asyncio.wait_for(nats.connect(
            servers=nats_servers(url), name=f"tricknight check {worker_id()}", allow_reconnect=False,
            connect_timeout=CONNECT_TIMEOUT, max_reconnect_attempts=1, reconnect_time_wait=0, error_cb=quiet,
        ), 2 * CONNECT_TIMEOUT + 1)  # fmt: skip
    except TimeoutError:
        raise ConnectionError(f"no answer in {2 * CONNECT_TIMEOUT + 1} s") from None
    except Exception as err:
        raise ConnectionError(_describe(err)) from None
    found: list[dict[str, Any]] = []
    try:
        inbox = connection.new_inbox()

        async def answered(message: Any) -> None:
            reply = _json(message.data)
            if "error" not in reply:
                found.append(reply)

        await connection.subscribe(inbox, cb=answered)
        await connection.publish(Subjects.of(prefix).status, b"{}", reply=inbox)
        await connection.flush()
        await asyncio.sleep(wait)
    finally:
        await connection.close()
    return found


class RemoteThinker(Thinker):
    """Sends searching decisions and hints to ``tricknight worker`` over NATS (see the module's
    docstring); cheap levels run in a thread as ``Thinker`` runs them. ``pooled`` names levels to
    send whatever their player is (tests and the bench use it to send ``basic``).

    ``answered_by`` counts the answers by worker (``host:pid``), for tests, the bench and the logs.
    """

    def __init__(self, url: str, prefix: str = DEFAULT_NATS_PREFIX, *, pooled: Collection[str] = ()) -> None:
        super().__init__(workers=1, pooled=pooled)
        self.url = url
        self.label = redacted_nats(url)
        self.subjects = Subjects.of(prefix)
        self.answered_by: collections.Counter[str] = collections.Counter()
        self._connection: Any = None
        self._connecting: asyncio.Task[Any] | None = None

    @property
    def started(self) -> bool:
        """Whether the NATS connection is up."""
        return self._connection is not None and bool(self._connection.is_connected)

    def warm(self) -> None:
        """Connect now (a table with a searching seat has started)."""
        with contextlib.suppress(RuntimeError):  # no running loop: the first decision connects
            self._connect_soon()

    async def decide(
        self, player: Player, game: Game, seat: int, *, family: str, level: str, seed: int
    ) -> Action:
        if self._closed or not self.uses_pool(level, player):
            return await super().decide(player, game, seat, family=family, level=level, seed=seed)
        fields = {"record": game.to_json(), "seat": seat, "family": family, "level": level, "seed": seed}
        try:
            reply = await self.ask(self.subjects.decide, fields, _budget_of(player))
            action = parse_action(str(reply.get("action")))
            if action not in game.legal_actions(seat):
                raise WorkerRefused(f"worker {reply.get('worker')} answered {action}, not legal here")
            return action
        except Exception as err:  # no worker, a search that raised, a strange answer: never stall
            log.warning("%s computer for seat %s: %s: %s decides instead", level, seat, _describe(err),
                        FALLBACK_LEVEL)  # fmt: skip
            fallback = make_player(family, FALLBACK_LEVEL, seed)
            return await asyncio.to_thread(decide, fallback, game, seat)

    async def advise(self, game: Game, seat: int, *, family: str, seed: int) -> Advice:
        """The hint, from a worker; ``NoAnswer`` or ``WorkerRefused`` if none can give it."""
        if self._closed:
            raise RuntimeError("the computer players are shut down")
        fields = {"record": game.to_json(), "seat": seat, "family": family, "seed": seed}
        reply = await self.ask(self.subjects.hint, fields, DEFAULT_BUDGET)
        action = parse_action(str(reply.get("action")))
        if action not in game.legal_actions(seat):
            raise WorkerRefused(f"worker {reply.get('worker')} advised {action}, not legal here")
        return Advice(action, str(reply.get("reason", "")))

    async def ask(self, subject: str, fields: dict[str, Any], budget: float) -> dict[str, Any]:
        """Send ``fields`` to ``subject`` until a worker answers, within ``budget +
        DEADLINE_MARGIN`` seconds: the worker's reply, or ``NoAnswer`` saying what was tried."""
        loop = asyncio.get_running_loop()
        start = loop.time()
        deadline = start + budget + DEADLINE_MARGIN
        tried: collections.Counter[str] = collections.Counter()
        pauses = iter(RETRY_PAUSES)

        def gave_up() -> NoAnswer:
            return NoAnswer(f"no worker answered in {loop.time() - start:.1f} s ({_summary(tried)})")

        while True:
            window = min(budget + ATTEMPT_MARGIN, deadline - loop.time())
            search = min(budget, search_budget(window))
            if search < MIN_BUDGET:
                raise gave_up()
            connection = await self._connected(window)
            if connection is None:
                tried["not connected to NATS"] += 1
                continue
            request = {"protocol": PROTOCOL, "version": __version__, **fields, "budget": round(search, 3),
                       "answer_within": round(window - REPLY_SLACK, 3)}  # fmt: skip
            try:
                message = await connection.request(subject, json.dumps(request).encode(), timeout=window)
            except Exception as err:
                why = _nats_trouble(err)
                tried[why] += 1
                if why != "timed out":  # nothing to wait for: pause a moment, then again
                    pause = next(pauses, RETRY_PAUSES[-1]) * random.uniform(0.8, 1.2)
                    await asyncio.sleep(min(pause, max(0.0, deadline - loop.time())))
                continue
            reply = _json(message.data)
            worker = str(reply.get("worker", "?"))
            if "error" in reply:
                if reply.get("retry"):  # busy, or its pool broke: another worker may do it
                    tried[str(reply["error"])] += 1
                    continue
                raise WorkerRefused(f"worker {worker}: {reply['error']}")
            self.answered_by[worker] += 1
            if tried:
                log.info("%s: answered by worker %s after %.1f s (%s)", subject, worker, loop.time() - start,
                         _summary(tried))  # fmt: skip
            return reply

    async def _connected(self, wait: float) -> Any:
        """The connection, waiting up to ``wait`` seconds for the first one; None if not yet."""
        if self._connection is not None:
            return self._connection
        task = self._connect_soon()
        try:
            return await asyncio.wait_for(asyncio.shield(task), max(wait, 0.0))
        except TimeoutError:
            return None
        except Exception:
            self._connecting = None  # the next decision tries again
            raise

    def _connect_soon(self) -> asyncio.Task[Any]:
        if self._connecting is None:
            self._connecting = asyncio.get_running_loop().create_task(self._connect())
        return self._connecting

    async def _connect(self) -> Any:
        self._connection = await connect(self.url, name=f"tricknight bot {worker_id()}")
        log.info("computer searches and hints: tricknight worker over NATS %s (%s, %s)", self.label,
                 self.subjects.decide, self.subjects.hint)  # fmt: skip
        return self._connection

    async def shutdown(self) -> None:
        """Close the connection; later decisions are taken by ``basic`` in a thread."""
        self._closed = True
        if self._connecting is not None and not self._connecting.done():
            self._connecting.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._connecting
        if self._connection is not None:
            with contextlib.suppress(Exception):
                await self._connection.close()
        await super().shutdown()


def make_thinker(settings: Settings) -> Thinker:
    """The bot's thinker: over NATS when ``TRICKNIGHT_NATS_URL`` is set, else a local pool."""
    if settings.nats_url is None:
        return Thinker()
    return RemoteThinker(settings.nats_url, settings.nats_prefix)


def _json(data: bytes) -> dict[str, Any]:
    try:
        reply = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        return {"error": f"not JSON: {data[:80]!r}", "retry": False}
    return reply if isinstance(reply, dict) else {"error": "not a JSON object", "retry": False}


def _summary(tried: collections.Counter[str]) -> str:
    """What was tried, e.g. ``timed out, no responders x3``."""
    return ", ".join(f"{why} x{count}" if count > 1 else why for why, count in tried.items()) or "nothing"


def _nats_trouble(err: Exception) -> str:
    """A few words for a failed request."""
    from nats import errors

    if isinstance(err, errors.NoRespondersError):
        return "no responders"
    if isinstance(err, TimeoutError):
        return "timed out"
    if isinstance(err, errors.ConnectionClosedError | errors.ConnectionDrainingError):
        return "connection closed"
    return _describe(err)


def _describe(err: BaseException) -> str:
    text = str(err).strip()
    return f"{type(err).__name__}: {text}" if text else type(err).__name__
