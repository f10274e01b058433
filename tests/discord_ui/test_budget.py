"""The share of Discord's global limit: never more than the rate (plus the burst), prompts first,
tidying last."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.discord_ui.budget import Priority, RestBudget, count_requests


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


class Route:
    def __init__(self, path: str) -> None:
        self.path = path


class CountingHttp:
    """discord.py's HTTP client as far as the budget sees it: a ``request(route)`` coroutine."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    async def request(self, route: Route, **kwargs: object) -> None:
        self.sent.append(route.path)


async def test_every_request_of_the_bots_own_counts_once_and_answers_to_interactions_not_at_all() -> None:
    budget = RestBudget(rate=0.01, burst=5.0)  # next to no refill while the test runs
    http = CountingHttp()
    count_requests(http, budget)
    for path in ("/channels/1/threads", "/channels/2/thread-members/3", "/interactions/4/tok/callback"):
        await http.request(Route(path))
    await http.request(Route("/webhooks/5/tok/messages/6"))
    assert budget._tokens == pytest.approx(3.0, abs=0.1)  # two of the four took a token
    async with budget.paid(Priority.EDIT):  # paid ahead: its one request takes nothing more
        await http.request(Route("/channels/1/messages/7"))
        await http.request(Route("/channels/1/messages/8"))  # a second request pays its own
    assert budget._tokens == pytest.approx(1.0, abs=0.1)
    assert http.sent[-2:] == ["/channels/1/messages/7", "/channels/1/messages/8"]


async def test_a_processs_share_keeps_the_bots_processes_together_under_the_rate() -> None:
    shares = [RestBudget(rate=40.0, burst=5.0) for _ in range(2)]
    for budget in shares:
        budget.share(0.5)
    started = time.monotonic()
    await asyncio.gather(*(budget.take(Priority.EDIT) for budget in shares for _ in range(23)))
    elapsed = time.monotonic() - started
    # 46 requests at 20 + 20 a second after a burst of 2.5 each: about 1 s, never faster.
    assert elapsed >= (46 - 5) / 40.0, elapsed
