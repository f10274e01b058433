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
import enum
import time

GLOBAL_RATE = 35.0  # requests a second: Discord's 50, less room for bursts, retries and the rest
BURST = 5.0


class Priority(enum.IntEnum):
    """Who goes first when requests wait for the limit (lower first)."""

    PROMPT = 0  # what people wait for: announcements and turn pings
    EDIT = 1  # the table message (edits coalesce while they wait)
    TIDY = 2  # deleting old pings: nobody waits for it


class RestBudget:
    """``await budget.take(priority)`` before each REST request the bot makes by itself."""

    def __init__(self, rate: float = GLOBAL_RATE, burst: float = BURST) -> None:
        self.rate = rate
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
