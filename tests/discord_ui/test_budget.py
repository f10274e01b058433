"""The share of Discord's global limit: never more than the rate (plus the burst), prompts first,
tidying last."""

from __future__ import annotations

import asyncio
import time

from bot.discord_ui.budget import Priority, RestBudget


async def test_requests_keep_to_the_rate_prompts_go_first_and_tidying_last() -> None:
    budget = RestBudget(rate=100.0, burst=5.0)
    order: list[str] = []

    async def request(name: str, priority: Priority) -> None:
        await budget.take(priority)
        order.append(name)

    started = time.monotonic()
    await asyncio.gather(
        *(request(f"edit {n}", Priority.EDIT) for n in range(30)),  # the first 5 take the burst
        request("delete", Priority.TIDY),
        request("ping", Priority.PROMPT),
    )
    elapsed = time.monotonic() - started
    # 32 requests, 5 at once and then 100 a second: at least 0.27 s, and not much more.
    assert 0.26 <= elapsed < 1.0, elapsed
    assert order.index("ping") <= 6  # it overtook the edits still waiting
    assert order[-1] == "delete"  # every edit waiting went before the deletion
    assert budget.waited >= 25
