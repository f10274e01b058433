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
import time

GLOBAL_RATE = 35.0  # requests a second: Discord's 50, less room for bursts, retries and the rest
BURST = 5.0


class RestBudget:
    """``await budget.take(urgent=...)`` before each REST request the bot makes by itself."""

    def __init__(self, rate: float = GLOBAL_RATE, burst: float = BURST) -> None:
        self.rate = rate
        self.burst = burst
        self._tokens = burst
        self._stamp: float | None = None
        self._urgent: collections.deque[asyncio.Future[None]] = collections.deque()
        self._later: collections.deque[asyncio.Future[None]] = collections.deque()
        self._pump: asyncio.Task[None] | None = None
        self.waited = 0  # requests that had to wait for a token (for benches)
        # How long requests waited, in seconds (for benches): urgent ones, and the others.
        self.urgent_waits: collections.deque[float] = collections.deque(maxlen=10_000)
        self.waits: collections.deque[float] = collections.deque(maxlen=10_000)

    def _refill(self) -> None:
        now = time.monotonic()
        if self._stamp is not None:
            self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now

    async def take(self, *, urgent: bool = False) -> None:
        self._refill()
        if self._tokens >= 1 and not self._urgent and not self._later:
            self._tokens -= 1
            return
        self.waited += 1
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        (self._urgent if urgent else self._later).append(future)
        if self._pump is None or self._pump.done():
            self._pump = asyncio.create_task(self._hand_out(), name="rest-budget")
        asked = time.monotonic()
        await future
        (self.urgent_waits if urgent else self.waits).append(time.monotonic() - asked)

    async def _hand_out(self) -> None:
        while self._urgent or self._later:
            self._refill()
            if self._tokens < 1:
                await asyncio.sleep((1 - self._tokens) / self.rate)
                continue
            queue = self._urgent or self._later
            future = queue.popleft()
            if not future.done():  # a cancelled waiter gives its turn away
                self._tokens -= 1
                future.set_result(None)
