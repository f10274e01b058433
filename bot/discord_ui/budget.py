"""A share of Discord's global rate limit for the messages the bot sends on its own.

Discord lets a bot make 50 requests a second in all (answers to interactions are exempt). Going
over it is costly twice: the request waits, and discord.py then holds back *every* request, the
answers to clicks included, until the limit resets. So table messages, announcements and pings
each take a token from one bucket that refills below the limit; urgent ones (announcements,
pings) go before table-message edits, which the publisher coalesces while they wait.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import enum
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextvars import ContextVar
from typing import Any

GLOBAL_RATE = 35.0  # requests a second: Discord's 50, less room for bursts, retries and the rest
BURST = 5.0


class Priority(enum.IntEnum):
    """Who goes first when requests wait for the limit (lower first)."""

    PROMPT = 0  # what people wait for: announcements and turn pings
    EDIT = 1  # the table message (edits coalesce while they wait)
    TIDY = 2  # deleting old pings: nobody waits for it


# Tokens taken ahead for the requests about to be made in this task (``RestBudget.paid``).
_prepaid: ContextVar[int] = ContextVar("rest_prepaid", default=0)
EXEMPT = ("/interactions/", "/webhooks/")  # answers to interactions: outside the global limit


class RestBudget:
    """``await budget.take(priority)`` before each REST request the bot makes by itself."""

    def __init__(self, rate: float = GLOBAL_RATE, burst: float = BURST) -> None:
        self.full_rate = rate  # this bot's whole share of Discord's limit
        self.rate = rate  # this process's part of it (``share``)
        self.burst = burst
        self._tokens = burst
        self._stamp: float | None = None
        self._queues: tuple[collections.deque[asyncio.Future[None]], ...] = tuple(
            collections.deque() for _ in Priority
        )
        self._pump: asyncio.Task[None] | None = None
        self.waited = 0  # requests that had to wait for a token (for benches)
        # How long requests waited, in seconds (for benches): prompts, and the others.
        self.urgent_waits: collections.deque[float] = collections.deque(maxlen=10_000)
        self.waits: collections.deque[float] = collections.deque(maxlen=10_000)

    def share(self, part: float) -> None:
        """Keep to ``part`` (0 to 1) of the bot's rate: this process's part when several share it."""
        self._refill()
        self.rate = max(0.5, self.full_rate * min(1.0, max(0.0, part)))
        self.burst = max(1.0, BURST * min(1.0, max(0.0, part)))
        self._tokens = min(self._tokens, self.burst)

    @contextlib.asynccontextmanager
    async def paid(self, priority: Priority) -> AsyncIterator[None]:
        """Take one token now, for the next request made inside the block (and only that one)."""
        await self.take(priority)
        token = _prepaid.set(_prepaid.get() + 1)
        try:
            yield
        finally:
            _prepaid.reset(token)

    async def before_request(self, path: str) -> None:
        """What every REST request waits for: nothing for an interaction's answer or a request
        already paid for, else a token (as a prompt: a request made outside the publisher is
        what someone is waiting for, e.g. a thread for a new table)."""
        if path.startswith(EXEMPT):
            return
        if (left := _prepaid.get()) > 0:
            _prepaid.set(left - 1)
            return
        await self.take(Priority.PROMPT)

    def _refill(self) -> None:
        now = time.monotonic()
        if self._stamp is not None:
            self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now

    async def take(self, priority: Priority = Priority.EDIT) -> None:
        self._refill()
        if self._tokens >= 1 and not any(self._queues):
            self._tokens -= 1
            return
        self.waited += 1
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queues[priority].append(future)
        if self._pump is None or self._pump.done():
            self._pump = asyncio.create_task(self._hand_out(), name="rest-budget")
        asked = time.monotonic()
        await future
        (self.urgent_waits if priority is Priority.PROMPT else self.waits).append(time.monotonic() - asked)

    async def _hand_out(self) -> None:
        while any(self._queues):
            self._refill()
            if self._tokens < 1:
                await asyncio.sleep((1 - self._tokens) / self.rate)
                continue
            queue = next(q for q in self._queues if q)
            future = queue.popleft()
            if not future.done():  # a cancelled waiter gives its turn away
                self._tokens -= 1
                future.set_result(None)


def count_requests(http: Any, budget: RestBudget) -> None:
    """Make every request of discord.py's HTTP client (``bot.http``) wait for ``budget`` first."""
    send: Callable[..., Awaitable[Any]] = http.request

    async def request(route: Any, **kwargs: Any) -> Any:
        await budget.before_request(str(route.path))
        return await send(route, **kwargs)

    # An attribute of this client only: discord.py has no hook before its requests.
    setattr(http, "request", request)  # noqa: B010
