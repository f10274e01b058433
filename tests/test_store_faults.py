"""Store faults during play: a database locked by another program, read-only or full pauses the
tables (their players are told), and they go on by themselves when it answers again; a click meets
"try again" in time and changes nothing; the end of a game is told only after its result is
stored; and what a stop left unshown is shown at the next start."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.discord_ui.replies import CLICK_PATIENCE
from bot.engine import Game, new_game
from bot.store import SeatResult, Store, StoreUnavailable, is_postgresql_url, write_patience
from bot.tables import Table, TableManager
from bot.upkeep import RESUMED_LINE
from tests.services.pg_proxy import PostgresProxy
from tests.test_tables import RecordingPublisher, computer_table, wait_until


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The database: a file, or a fresh PostgreSQL schema (reached through a fault-making proxy)."""
    if request.param == "postgresql":
        url: str = request.getfixturevalue("postgres_url")
        return url
    return str(tmp_path / "faults.db")


@pytest.fixture
async def proxy(backend: str) -> AsyncIterator[PostgresProxy | None]:
    if not is_postgresql_url(backend):
        yield None
        return
    started = await PostgresProxy.start(backend)
    try:
        yield started
    finally:
        await started.stop()


@pytest.fixture
def target(backend: str, proxy: PostgresProxy | None) -> str:
    """Where the store is opened: the file, or the server through the proxy."""
    return backend if proxy is None else proxy.url


@pytest.fixture
async def store(target: str) -> AsyncIterator[Store]:
    opened = await Store.open(target)
    await opened.settings.update(1, computer_delay_seconds=0, turn_timeout_seconds=0)
    try:
        yield opened
    finally:
        await opened.close()


class Fault:
    """Makes the database refuse writes in one way, then lets it answer again: on SQLite, a file
    locked by another program, read-only or full; on PostgreSQL, a server that drops every
    connection and refuses new ones (a restart, an outage)."""

    def __init__(self, store: Store, kind: str, proxy: PostgresProxy | None = None) -> None:
        self.store, self.kind, self.proxy = store, kind, proxy
        self.blocker: sqlite3.Connection | None = None
        self.active = False

    async def start(self) -> None:
        self.active = True
        if self.kind == "outage":
            assert self.proxy is not None
            self.proxy.refuse()
            self.proxy.cut()
        elif self.kind == "locked":  # another program holds the write lock
            # The bot's own writer may be mid-commit: wait for it (off the loop) rather than fail.
            self.blocker = sqlite3.connect(
                self.store.path, isolation_level=None, timeout=10, check_same_thread=False
            )
            await asyncio.to_thread(self.blocker.execute, "BEGIN IMMEDIATE")
        elif self.kind == "read-only":
            await self.store.db.on_writer(lambda conn: conn.execute("PRAGMA query_only = ON"))
        else:  # full: no page may be added to the file any more
            await self.store.db.on_writer(lambda conn: conn.execute("PRAGMA max_page_count = 1"))

    async def stop(self) -> None:
        if not self.active:
            return
        self.active = False
        if self.proxy is not None:
            self.proxy.accept()
        elif self.blocker is not None:
            self.blocker.rollback()
            self.blocker.close()
        elif self.kind == "read-only":
            await self.store.db.on_writer(lambda conn: conn.execute("PRAGMA query_only = OFF"))
        else:
            await self.store.db.on_writer(lambda conn: conn.execute("PRAGMA max_page_count = 1073741823"))


FAULTS = {"sqlite": ["locked", "read-only", "full"], "postgresql": ["outage"]}
SAID = {"locked": "locked", "read-only": "read-only", "full": "full", "outage": "server"}


def faults(store: Store, proxy: PostgresProxy | None) -> list[Fault]:
    """Every fault this backend can meet."""
    return [Fault(store, kind, proxy) for kind in FAULTS[store.backend]]


def lines(publisher: RecordingPublisher, table: Table, start: str) -> list[str]:
    return [text for tid, text in publisher.announcements if tid == table.id and text.startswith(start)]


async def test_tables_pause_on_a_store_fault_and_go_on_when_it_answers(
    store: Store, proxy: PostgresProxy | None
) -> None:
    for fault in faults(store, proxy):
        await tables_pause_and_go_on(store, fault)


async def tables_pause_and_go_on(store: Store, fault: Fault) -> None:
    publisher = RecordingPublisher()
    manager = TableManager(store, publisher)
    kind = fault.kind
    try:
        tables = [await computer_table(manager, channel, "pitch") for channel in (1, 2)]
        await wait_until(lambda: all(t.version >= 3 for t in tables), timeout=30)
        await fault.start()
        await wait_until(lambda: all(t.id in manager.upkeep.stalled for t in tables), timeout=30)
        frozen = [t.version for t in tables]
        await asyncio.sleep(0.5)
        if kind != "full":  # nothing moves while the store refuses (a full one may still take a
            assert [t.version for t in tables] == frozen  # write that fits in its free space)
        for table in tables:
            [paused] = lines(publisher, table, "⏸️")
            assert SAID[kind] in paused, paused
        await fault.stop()
        await wait_until(lambda: all(t.status == "ended" for t in tables), timeout=60)
    finally:
        await fault.stop()
        await manager.shutdown()
    for table in tables:
        # Told once that it paused and once that it goes on; every move it made is stored.
        assert len(lines(publisher, table, "⏸️")) == len(lines(publisher, table, "▶️")) >= 1
        assert lines(publisher, table, "▶️")[0] == RESUMED_LINE
        record = await store.games.load(table.id)
        assert record.status == "ended" and table.game is not None
        assert len(record.actions) == len(table.game.log)
    assert manager.upkeep.stalled == {}


async def test_a_click_on_a_store_that_does_not_answer_is_refused_in_time_and_changes_nothing(
    store: Store, proxy: PostgresProxy | None
) -> None:
    manager = TableManager(store, RecordingPublisher())
    fault = faults(store, proxy)[0]  # locked, or a PostgreSQL outage
    try:
        table = await manager.open_table(guild_id=1, channel_id=4, host_id=1, host_name="Ann",
                                         variant="pitch", players=2)  # fmt: skip
        await manager.start(table, 1)
        await wait_until(lambda: table.game is not None and 0 in table.game.to_act, timeout=30)
        assert table.game is not None
        before, action = table.version, table.game.legal_actions(0)[0]
        await fault.start()
        started = time.monotonic()
        with pytest.raises(StoreUnavailable) as refused, write_patience(CLICK_PATIENCE):
            await manager.act(table, 1, action)
        assert refused.value.reason in ("locked", "connection lost", "unreachable")
        assert time.monotonic() - started < 2.0  # well inside Discord's 3 s
        await fault.stop()  # (a server that does not answer cannot be read either: look after)
        assert table.version == before and len((await store.games.load(table.id)).actions) == before
        await manager.act(table, 1, action)  # the same click, once the store answers
        assert table.version == before + 1
    finally:
        await fault.stop()
        await manager.shutdown()


class CheckingPublisher(RecordingPublisher):
    """Checks, when a game's end reaches the players, that its result is already in the database
    (read beside the store, on a connection of its own)."""

    def __init__(self, target: str) -> None:
        super().__init__()
        self.target = target
        self.ends_seen: list[int] = []

    def stored(self, game_id: int) -> tuple[str, int]:
        if is_postgresql_url(self.target):
            import psycopg

            with psycopg.connect(self.target) as pg:
                status = pg.execute("SELECT status FROM games WHERE id = %s", (game_id,)).fetchone()
                results = pg.execute("SELECT COUNT(*) FROM results WHERE game_id = %s", (game_id,)).fetchone()
                assert status is not None and results is not None
                return str(status[0]), int(results[0])
        with sqlite3.connect(self.target) as conn:
            status = conn.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()[0]
            results = conn.execute("SELECT COUNT(*) FROM results WHERE game_id = ?", (game_id,))
            return status, results.fetchone()[0]

    def events(self, table: Table, events: list[dict[str, Any]]) -> None:
        super().events(table, events)
        if any(event["type"] == "game_over" for event in events):
            assert self.stored(table.id) == ("ended", len(table.seats)), (
                "the end was told before it was stored"
            )
            self.ends_seen.append(table.id)


async def test_the_end_is_told_only_after_the_result_is_stored_also_when_storing_it_waits(
    store: Store, backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    publisher = CheckingPublisher(backend)  # straight to the database, not through the test's proxy
    manager = TableManager(store, publisher)
    real_finish = store.results.finish
    refusals = 0

    async def finish_after_two_refusals(game_id: int, **kwargs: Any) -> bool:
        nonlocal refusals
        if refusals < 2:
            refusals += 1
            raise StoreUnavailable("the database is locked by another program", "locked")
        return await real_finish(game_id, **kwargs)

    monkeypatch.setattr(store.results, "finish", finish_after_two_refusals)
    try:
        table = await computer_table(manager, 1, "pinochle-4")
        await wait_until(lambda: table.status == "ended", timeout=60)
    finally:
        await manager.shutdown()
    assert refusals == 2 and publisher.ends_seen == [table.id]
    assert lines(publisher, table, "⏸️")  # the players were told why the end took a moment


async def play_to_the_end(store: Store, *, with_result: bool) -> int:
    """A stored two-hand pinochle game played to its end, as if the bot stopped right after its
    last action (no result) or right after its result (end not shown)."""
    game: Game = new_game("pinochle-2", players=2, options={"match": "deal"}, seed=11)
    seats = [{"kind": "human", "user_id": 5, "name": "Ann"}, {"kind": "computer", "level": "basic"}]
    game_id = await store.games.create(guild_id=1, channel_id=77, host_id=5, variant="pinochle-2",
                                       family="pinochle", options=game.options, seed=game.seed, players=2,
                                       seats=seats, status="playing")  # fmt: skip
    while not game.is_over:
        seat = game.to_act[0]
        action = game.legal_actions(seat)[0]
        game.apply(seat, action)
        await store.games.append_action(game_id, len(game.log) - 1, seat, str(action))
    if with_result:
        outcome = game.outcome
        assert outcome is not None
        results = [
            SeatResult(s, 5 if s == 0 else None, s, outcome.scores[s], 1 if s in outcome.winning_sides else 2)
            for s in range(2)
        ]
        await store.results.finish(game_id, guild_id=1, family="pinochle", results=results, rated=False)
    return game_id


async def test_a_restart_shows_every_end_a_stop_left_unshown(store: Store) -> None:
    unrecorded = await play_to_the_end(store, with_result=False)
    unshown = await play_to_the_end(store, with_result=True)
    publisher = RecordingPublisher()
    manager = TableManager(store, publisher)
    try:
        await manager.resume_all()
        assert (await store.games.load(unrecorded)).status == "ended"  # its result, recorded now
        ends = [tid for tid, kind in publisher.events_seen if kind == "game_over"]
        assert sorted(ends) == [unrecorded, unshown]
        assert {unrecorded, unshown} <= set(publisher.changed)  # final messages, without buttons
        assert manager.by_id == {}  # nothing of them is live
        for game_id in (unrecorded, unshown):
            await manager.final_shown(manager.rebuild(await store.games.load(game_id)))
    finally:
        await manager.shutdown()
    again = RecordingPublisher()
    second = TableManager(store, again)
    await second.resume_all()
    await second.shutdown()
    assert again.events_seen == [] and again.changed == []  # shown once, never again
