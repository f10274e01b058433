"""The share of Discord's global limit: never more than the rate (plus the burst), urgent first."""

from __future__ import annotations

import asyncio
import time

from bot.discord_ui.budget import RestBudget


async def test_requests_keep_to_the_rate_and_urgent_ones_go_first() -> None:
    budget = RestBudget(rate=100.0, burst=5.0)
    order: list[str] = []

    async def request(name: str, urgent: bool) -> None:
        await budget.take(urgent=urgent)
        order.append(name)

    started = time.monotonic()
    await asyncio.gather(*(request(f"edit {n}", False) for n in range(30)), request("ping", True))
    elapsed = time.monotonic() - started
    # 31 requests, 5 at once and then 100 a second: at least 0.26 s, and not much more.
    assert 0.25 <= elapsed < 1.0, elapsed
    assert order.index("ping") <= 6  # it overtook the edits still waiting
    assert budget.waited >= 25
