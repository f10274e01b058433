"""Computer decisions in worker processes: same choices as in a thread, a broken pool made again,
failures answered by ``basic``, a clean shutdown, and an event loop that keeps ticking."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot import thinking
from bot.ai import decide, make_player
from bot.engine import Action, Game, new_game
from bot.store import Store
from bot.tables import TableManager
from bot.thinking import Thinker, searches
from tests.test_tables import RecordingPublisher, computer_table, wait_until


def midgame(variant: str = "pinochle-2", seed: int = 3, moves: int = 7) -> Game:
    """A game some moves in, played by basic players (a real position with choices to make)."""
    game = new_game(variant, seed=seed)
    for _ in range(moves):
        seat = game.to_act[0]
        game.apply(seat, decide(make_player(game.family, "basic", seat), game, seat))
    return game


def processes(thinker: Thinker) -> list[Any]:
    pool = thinker._pool
    return list((getattr(pool, "_processes", None) or {}).values()) if pool else []


# Worker functions the tests swap in (imported by name in the spawned workers).
def die_in_worker(*args: Any) -> str:
    os._exit(3)


def raise_in_worker(*args: Any) -> str:
    raise RuntimeError("search blew up")


def hang_in_worker(*args: Any) -> str:
    time.sleep(60)
    return "pass"


def spin_in_worker(record: dict[str, Any], seat: int, family: str, level: str, seed: int) -> str:
    end = time.process_time() + 0.4  # the CPU a search spends, here while holding its own GIL only
    while time.process_time() < end:
        pass
    return thinking.decide_in_worker(record, seat, family, level, seed)


@pytest.fixture
async def thinker() -> AsyncIterator[Thinker]:
    made = Thinker(workers=2, pooled={"basic"})
    try:
        yield made
    finally:
        await made.shutdown()


class Searcher:
    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        return legal[0]

    def choose_for(self, game: Game, seat: int, legal: list[Action]) -> Action:
        return legal[0]


def test_only_searching_players_and_named_levels_go_to_the_pool() -> None:
    basic = make_player("pitch", "basic", 1)
    assert searches(Searcher()) and not searches(basic)
    assert Thinker().uses_pool("hard", Searcher()) and not Thinker().uses_pool("basic", basic)
    assert Thinker(pooled={"basic"}).uses_pool("basic", basic)
    assert not Thinker().started


async def test_a_pooled_decision_is_the_one_a_fresh_player_makes_in_process(thinker: Thinker) -> None:
    for variant, moves in (("pinochle-2", 7), ("pitch", 5), ("pinochle-4", 9)):
        game = midgame(variant, moves=moves)
        seat = game.to_act[0]
        before = game.to_json()
        got = await thinker.decide(make_player(game.family, "basic", 0), game, seat, family=game.family,
                                   level="basic", seed=11)  # fmt: skip
        assert got == decide(make_player(game.family, "basic", 11), game, seat)
        assert game.to_json() == before  # the bot's game is not touched
    assert thinker.started and 1 <= len(processes(thinker)) <= 2


async def test_a_killed_worker_is_replaced_and_the_decision_retried(
    thinker: Thinker, caplog: pytest.LogCaptureFixture
) -> None:
    game = midgame()
    seat = game.to_act[0]
    player = make_player(game.family, "basic", 0)
    await thinker.decide(player, game, seat, family=game.family, level="basic", seed=1)
    first_pool = thinker._pool
    for process in processes(thinker):
        os.kill(process.pid, signal.SIGKILL)
    caplog.set_level(logging.WARNING, logger="bot.thinking")
    got = await thinker.decide(player, game, seat, family=game.family, level="basic", seed=1)
    assert got == decide(make_player(game.family, "basic", 1), game, seat)
    assert thinker._pool is not None and thinker._pool is not first_pool
    assert "starting it again" in caplog.text and "decides instead" not in caplog.text


@pytest.mark.parametrize(
    ("worker", "said"), [(die_in_worker, "BrokenProcessPool"), (raise_in_worker, "search blew up")]
)
async def test_a_pool_that_breaks_twice_or_a_failing_search_falls_back_to_basic(
    thinker: Thinker,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    worker: Any,
    said: str,
) -> None:
    monkeypatch.setattr(thinking, "decide_in_worker", worker)
    game = midgame()
    seat = game.to_act[0]
    caplog.set_level(logging.WARNING, logger="bot.thinking")
    got = await thinker.decide(make_player(game.family, "basic", 0), game, seat, family=game.family,
                               level="basic", seed=5)  # fmt: skip
    assert got == decide(make_player(game.family, "basic", 5), game, seat)
    assert said in caplog.text and "basic decides instead" in caplog.text


async def test_a_runaway_search_is_given_up_and_its_worker_ended(
    thinker: Thinker, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(thinking, "decide_in_worker", hang_in_worker)
    monkeypatch.setattr(thinking, "GIVE_UP_SECONDS", 3.0)  # spawning the worker takes about a second
    game = midgame()
    seat = game.to_act[0]
    caplog.set_level(logging.WARNING, logger="bot.thinking")
    got = await thinker.decide(make_player(game.family, "basic", 0), game, seat, family=game.family,
                               level="basic", seed=5)  # fmt: skip
    assert got in game.legal_actions(seat)
    assert "no answer in 3 s" in caplog.text
    assert not thinker.started  # the stuck pool is gone; the next decision starts a new one


async def test_shutdown_stops_the_workers_and_refuses_more_work(thinker: Thinker) -> None:
    game = midgame()
    seat = game.to_act[0]
    await thinker.decide(make_player(game.family, "basic", 0), game, seat, family=game.family,
                         level="basic", seed=1)  # fmt: skip
    workers = processes(thinker)
    assert workers and all(p.is_alive() for p in workers)
    await thinker.shutdown()
    assert not any(p.is_alive() for p in workers) and not thinker.started
    # A decision asked after shutdown (a table stopping) is still answered, by basic in a thread.
    got = await thinker.decide(make_player(game.family, "basic", 0), game, seat, family=game.family,
                               level="basic", seed=1)  # fmt: skip
    assert got in game.legal_actions(seat) and not thinker.started


async def test_searches_in_the_pool_leave_the_event_loop_free(
    thinker: Thinker, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = midgame()
    seat = game.to_act[0]
    player = make_player(game.family, "basic", 0)
    await thinker.decide(player, game, seat, family=game.family, level="basic", seed=1)  # warm the pool
    monkeypatch.setattr(thinking, "decide_in_worker", spin_in_worker)
    late: list[float] = []
    searching = asyncio.gather(*(
        thinker.decide(player, game, seat, family=game.family, level="basic", seed=s) for s in range(4)
    ))  # fmt: skip
    while not searching.done():
        expected = time.perf_counter() + 0.01
        await asyncio.sleep(0.01)
        late.append(time.perf_counter() - expected)
    await searching
    assert len(late) >= 40  # four 0.4 s searches on two workers: the loop ticked all along
    assert max(late) < 0.25, f"the event loop stalled for {max(late) * 1000:.0f} ms"


async def test_the_table_manager_plays_computer_turns_through_the_pool(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "tables.db")
    await store.settings.update(1, computer_delay_seconds=0)
    thinker = Thinker(workers=1, pooled={"basic"})
    manager = TableManager(store, RecordingPublisher(), thinker=thinker)
    try:
        table = await computer_table(manager, 1, "pitch")
        await wait_until(lambda: table.status == "ended", timeout=120)
        assert thinker.started
        record = await store.games.load(table.id)
        assert record.status == "ended" and len(record.actions) == len(table.game.log)
    finally:
        await manager.shutdown()
        await store.close()
    assert not thinker.started
