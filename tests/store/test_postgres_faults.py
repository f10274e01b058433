"""PostgreSQL faults against the real server: a connection killed in the middle of writes (by the
server itself, and by the network), an outage that refuses connections for a few seconds, a commit
whose answer is lost, and a server out of reach at start. After each, the action logs hold every
acknowledged action once: nothing lost, nothing doubled."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator

import psycopg
import pytest

from bot.store import Store, StoreError, StoreUnavailable, Tx, write_patience
from tests.services.pg_proxy import PostgresProxy
from tests.store.helpers import human, new_game

GAMES, ACTIONS = 8, 25


@pytest.fixture
async def proxied(postgres_proxy: PostgresProxy) -> AsyncIterator[tuple[Store, PostgresProxy]]:
    store = await Store.open(postgres_proxy.url)
    try:
        yield store, postgres_proxy
    finally:
        await store.close()


async def play(store: Store, game_id: int, acked: list[int]) -> None:
    """Append ``ACTIONS`` actions one after another, as clicks would; ``acked`` gets each index the
    store acknowledged."""
    for idx in range(ACTIONS):
        await store.games.append_action(game_id, idx, idx % 2, f"play {idx}")
        acked.append(idx)


async def logs(store: Store, ids: list[int]) -> list[list[tuple[int, str]]]:
    return [(await store.games.load(game_id)).actions for game_id in ids]


def expected() -> list[tuple[int, str]]:
    return [(idx % 2, f"play {idx}") for idx in range(ACTIONS)]


async def test_connections_killed_by_the_server_mid_writes_lose_and_double_nothing(
    proxied: tuple[Store, PostgresProxy], postgres_url: str
) -> None:
    store, _ = proxied
    ids = [await new_game(store, 1, [human(1), human(2)], channel_id=n) for n in range(GAMES)]
    acked: list[list[int]] = [[] for _ in ids]
    killed = 0

    async def killer() -> None:
        nonlocal killed
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            for _ in range(6):
                await asyncio.sleep(0.15)
                rows = admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE application_name = 'tricknight' AND datname = current_database()"
                ).fetchall()
                killed += sum(1 for row in rows if row[0])

    with write_patience(30.0):
        await asyncio.gather(killer(), *(play(store, g, a) for g, a in zip(ids, acked, strict=True)))
    assert killed >= 3  # the server really ended the store's connections under it
    assert all(len(a) == ACTIONS for a in acked)
    assert await logs(store, ids) == [expected()] * GAMES


async def test_network_cuts_mid_writes_lose_and_double_nothing(proxied: tuple[Store, PostgresProxy]) -> None:
    store, proxy = proxied
    ids = [await new_game(store, 1, [human(1), human(2)], channel_id=n) for n in range(GAMES)]
    acked: list[list[int]] = [[] for _ in ids]

    async def cutter() -> None:
        for _ in range(8):
            await asyncio.sleep(0.1)
            proxy.cut()

    with write_patience(30.0):
        await asyncio.gather(cutter(), *(play(store, g, a) for g, a in zip(ids, acked, strict=True)))
    assert proxy.cuts == 8
    assert await logs(store, ids) == [expected()] * GAMES


async def test_an_outage_holds_writes_until_the_server_answers_and_a_hurried_one_gives_up(
    proxied: tuple[Store, PostgresProxy], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="bot.store")
    store, proxy = proxied
    game = await new_game(store, 1, [human(1), human(2)])
    await store.games.append_action(game, 0, 0, "bid 2")
    proxy.refuse()
    proxy.cut()  # as a restarting server does: every connection gone, new ones refused
    started = time.monotonic()
    with pytest.raises(StoreUnavailable) as hurried, write_patience(0.5):
        await store.games.append_action(game, 1, 1, "pass")
    assert time.monotonic() - started < 2.0 and hurried.value.reason in ("connection lost", "unreachable")

    async def back_after(seconds: float) -> None:
        await asyncio.sleep(seconds)
        proxy.accept()

    with write_patience(20.0):
        await asyncio.gather(back_after(1.5), store.games.append_action(game, 1, 1, "pass"))
    assert time.monotonic() - started >= 1.5
    assert (await store.games.load(game)).actions == [(0, "bid 2"), (1, "pass")]
    said = [r.getMessage() for r in caplog.records]
    assert any("retrying" in line for line in said) and any("answers again" in line for line in said)


async def test_a_commit_whose_answer_is_lost_is_neither_lost_nor_doubled(
    proxied: tuple[Store, PostgresProxy], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="bot.store")
    store, proxy = proxied
    proxy.lose_next_commit_reply()
    game = await new_game(store, 1, [human(1), human(2)])  # an INSERT: not idempotent
    proxy.lose_next_commit_reply()
    await store.games.append_action(game, 0, 0, "bid 2")
    assert proxy.lost_commit_replies == 2
    games = await store.db.read(Tx.value, "SELECT COUNT(*) FROM games")
    assert games == 1
    assert (await store.games.load(game)).actions == [(0, "bid 2")]
    assert sum("the change was saved" in r.getMessage() for r in caplog.records) == 2


async def test_a_server_out_of_reach_at_start_is_waited_for_with_back_off(
    postgres_proxy: PostgresProxy, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="bot.store")
    postgres_proxy.refuse()
    with pytest.raises(StoreError, match="cannot be reached"):
        await Store.open(postgres_proxy.url, wait=0.3)

    async def back_after(seconds: float) -> None:
        await asyncio.sleep(seconds)
        postgres_proxy.accept()

    opened, _ = await asyncio.gather(Store.open(postgres_proxy.url, wait=30.0), back_after(1.2))
    try:
        assert opened.backend == "postgresql" and opened.schema_version >= 9
        await opened.check_writable()
    finally:
        await opened.close()
    waits = [r.getMessage() for r in caplog.records if "cannot be reached (attempt" in r.getMessage()]
    assert len(waits) >= 2
