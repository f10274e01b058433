"""Shard leases on the real PostgreSQL server (``bot.cluster``), with shortened times: a process
takes its shards; a second one configured for the same shard waits (naming the holder) instead of
taking it away; a standby takes a dead process's shards once their leases lapse; a holder that
cannot renew stops serving before anyone may take over; a process of another shard count waits
for the old ones; IDENTIFY is paced across processes."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from bot import cluster
from bot.cluster import ClusterMember
from bot.store import Store
from tests.services.pg_proxy import PostgresProxy

LEASE, RENEW, POLL = 2.0, 0.3, 0.1
Make = Callable[..., Awaitable[ClusterMember]]  # a registered process with these shards


@pytest.fixture(autouse=True)
def quick_leases(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cluster, "LEASE_SECONDS", LEASE)
    monkeypatch.setattr(cluster, "RENEW_EVERY", RENEW)
    monkeypatch.setattr(cluster, "FENCE_AFTER", LEASE - 0.8)
    monkeypatch.setattr(cluster, "POLL_EVERY", POLL)
    monkeypatch.setattr(cluster, "STANDBY_GRACE", 60.0)
    monkeypatch.setattr(cluster, "IDENTIFY_PACE", 1.0)


@pytest.fixture
async def members(postgres_url: str) -> AsyncIterator[Make]:
    await (await Store.open(postgres_url)).close()  # the schema, as a bot's start makes it
    made: list[ClusterMember] = []

    async def member(
        shards: tuple[int, ...] | None, count: int = 2, url: str = postgres_url
    ) -> ClusterMember:
        one = ClusterMember(url, shard_count=count, shard_ids=shards)
        await asyncio.to_thread(one.acquire)  # off the loop: a test's proxy runs on it
        made.append(one)
        return one

    yield member
    for one in made:
        await asyncio.to_thread(one.release)


async def test_a_process_takes_its_shards_and_a_second_one_waits_for_them(
    members: Make,
) -> None:
    first, second = await members((0, 1)), await members((0,))
    assert await first.wait_for_shards() == (0, 1)
    keeping = asyncio.create_task(first.keep())
    try:
        waiting = asyncio.create_task(second.wait_for_shards())
        await asyncio.sleep(3 * LEASE)  # far past a lease: the holder renews, the second never gets it
        assert not waiting.done() and second.shards == frozenset()
        assert "shard(s) [0] held by pid" in second.waiting_for
        await asyncio.to_thread(first.release)  # a clean stop lets the shards go at once
        assert await asyncio.wait_for(waiting, 2.0) == (0,)
    finally:
        keeping.cancel()


async def test_a_standby_takes_a_dead_processs_shards_once_their_leases_lapse(
    members: Make,
) -> None:
    primary, standby = await members((0, 1)), await members(None)
    await primary.wait_for_shards()
    waiting = asyncio.create_task(standby.wait_for_shards())
    await asyncio.sleep(LEASE / 2)
    assert not waiting.done()  # the primary's leases are live (and no shard was never held)
    died = time.monotonic()  # the primary stops renewing, as a killed process does
    taken = await asyncio.wait_for(waiting, LEASE + 2.0)
    assert taken == (0, 1)
    assert time.monotonic() - died <= LEASE + 4 * POLL


async def test_a_holder_that_cannot_renew_stops_before_anyone_may_take_over(
    members: Make, postgres_url: str
) -> None:
    proxy = await PostgresProxy.start(postgres_url)
    try:
        holder, standby = await members((0, 1), url=proxy.url), await members(None)
        await holder.wait_for_shards()
        keeping = asyncio.create_task(holder.keep())
        await asyncio.sleep(2 * RENEW)
        cut = time.monotonic()
        proxy.refuse()
        proxy.cut()  # the holder's database is out of its reach: it cannot renew
        taking = asyncio.create_task(standby.wait_for_shards())
        await asyncio.wait_for(holder.lost.wait(), LEASE)
        fenced = time.monotonic() - cut
        assert not taking.done()  # it stopped serving while its leases still ran
        await asyncio.wait_for(taking, LEASE + 2.0)
        taken = time.monotonic() - cut
        assert fenced < taken and fenced <= LEASE - 0.8 + 2 * RENEW
        await keeping
    finally:
        await proxy.stop()


async def test_a_process_of_another_shard_count_waits_for_the_old_ones(
    members: Make,
) -> None:
    old, new = await members((0, 1), count=2), await members((0, 1, 2, 3), count=4)
    await old.wait_for_shards()
    waiting = asyncio.create_task(new.wait_for_shards())
    await asyncio.sleep(0.5)
    assert not waiting.done() and "another shard count ([2])" in new.waiting_for
    await asyncio.to_thread(old.release)
    assert await asyncio.wait_for(waiting, 2.0) == (0, 1, 2, 3)


async def test_identify_is_paced_across_processes_per_bucket(
    members: Make,
) -> None:
    three = [await members((n,), count=4) for n in range(3)]
    started = time.monotonic()
    done: list[tuple[int, float]] = []

    async def identify(member: ClusterMember, shard: int) -> None:
        await member.identify_slot(shard, max_concurrency=2)  # shards 0 and 2 share bucket 0
        done.append((shard, time.monotonic() - started))

    await asyncio.gather(identify(three[0], 0), identify(three[1], 2), identify(three[2], 1))
    at = dict(done)
    assert abs(at[0] - at[2]) >= 0.9  # one bucket: a pace apart, whichever went first
    assert min(at[0], at[2]) < 0.5 and at[1] < 0.5  # the other bucket did not wait for it
