"""The table manager with a real SQLite store: computer tables, the event loop, timers, refusals."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.engine import IllegalAction
from bot.store import Store
from bot.tables import Table, TableError, TableManager


class RecordingPublisher:
    """Collects what would be shown in Discord."""

    def __init__(self) -> None:
        self.changed: list[int] = []
        self.announcements: list[tuple[int, str]] = []
        self.pings: list[tuple[int, list[int], str]] = []
        self.events_seen: list[tuple[int, str]] = []
        self.reposts: list[int] = []

    def table_changed(self, table: Table) -> None:
        self.changed.append(table.id)

    def announce(self, table: Table, text: str) -> None:
        self.announcements.append((table.id, text))

    def turn_ping(self, table: Table, user_ids: list[int], text: str) -> None:
        self.pings.append((table.id, user_ids, text))

    def events(self, table: Table, events: list[dict[str, Any]]) -> None:
        self.events_seen.extend((table.id, event["type"]) for event in events)

    async def repost(self, table: Table) -> None:
        assert table.lock.locked(), "the manager reposts under the table's lock"
        self.reposts.append(table.id)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(tmp_path / "tables.db")
    try:
        yield opened
    finally:
        await opened.close()


async def computer_table(manager: TableManager, channel: int, variant: str = "pitch") -> Table:
    """A table whose host starts it and leaves: every seat is then a computer."""
    table = await manager.open_table(guild_id=1, channel_id=channel, host_id=100 + channel, host_name="host",
                                     variant=variant)  # fmt: skip
    await manager.start(table, 100 + channel)
    await manager.leave(table, 100 + channel)
    return table


async def wait_until(condition: Any, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


async def test_several_computer_tables_keep_the_event_loop_responsive(store: Store) -> None:
    await store.settings.update(1, computer_delay_seconds=0)
    manager = TableManager(store, RecordingPublisher())
    worst = 0.0
    running = True

    async def ticker() -> None:
        nonlocal worst
        interval = 0.01
        while running:
            expected = time.perf_counter() + interval
            await asyncio.sleep(interval)
            worst = max(worst, time.perf_counter() - expected)

    tick = asyncio.create_task(ticker())
    try:
        tables = [
            await computer_table(manager, channel, variant)
            for channel, variant in enumerate(
                ["pitch", "pitch", "pitch-partnership", "pitch", "pitch-partnership", "pitch"], 1
            )
        ]
        await wait_until(lambda: all(t.status == "ended" for t in tables), timeout=300)
    finally:
        running = False
        await tick
        await manager.shutdown()
    print(f"6 computer tables: the ticker was at worst {worst * 1000:.1f} ms late")
    assert worst < 0.100, f"the event loop was blocked for {worst * 1000:.0f} ms"
    for table in tables:
        record = await store.games.load(table.id)
        assert record.status == "ended"
        assert table.game is not None and table.game.is_over
        assert len(record.actions) == len(table.game.log)


async def test_refusals_change_nothing(store: Store) -> None:
    publisher = RecordingPublisher()
    manager = TableManager(store, publisher)
    table = await manager.open_table(guild_id=1, channel_id=5, host_id=1, host_name="Ann", variant="pitch",
                                     players=2)  # fmt: skip
    with pytest.raises(TableError, match="already have a seat"):
        await manager.join(table, 1, "Ann")
    with pytest.raises(TableError, match="not started"):
        await manager.act(table, 1, "pass")
    await manager.join(table, 2, "Bob")
    with pytest.raises(TableError, match="full"):
        await manager.join(table, 3, "Cy")
    with pytest.raises(TableError, match="Only the host"):
        await manager.start(table, 2)
    await manager.start(table, 1)
    assert table.game is not None
    before = table.game.to_json()
    to_act = table.game.to_act[0]
    waiting_user = 2 if to_act == 0 else 1
    with pytest.raises(IllegalAction, match="not your turn"):
        await manager.act(table, waiting_user, "pass")
    with pytest.raises(TableError, match="not seated"):
        await manager.act(table, 3, "pass")
    acting_user = 1 if to_act == 0 else 2
    with pytest.raises(TableError, match="out of date"):
        await manager.act(table, acting_user, "pass", version=table.version + 5)
    with pytest.raises(IllegalAction, match="Bidding is under way"):
        await manager.act(table, acting_user, f"play {table.game.hands[to_act][0].code}")
    assert table.game.to_json() == before
    record = await store.games.load(table.id)
    assert record.actions == []


async def test_a_table_is_found_only_from_its_own_guild_and_channel(store: Store) -> None:
    """Looked up by an id from outside (a custom id) or by the asking channel, a table of another
    guild or channel gets the very answer of a table that never was, so none is told apart."""
    manager = TableManager(store, RecordingPublisher())
    table = await manager.open_table(guild_id=1, channel_id=5, host_id=1, host_name="Ann", variant="pitch")
    assert manager.get(table.id, guild_id=1, channel_id=5) is table
    assert manager.get(table.id, guild_id=1, channel_id=6, any_channel=True) is table
    assert manager.require(5, guild_id=1) is table and manager.table_here(5, guild_id=1) is table
    refusals = set()
    for table_id, guild_id, channel_id in [(table.id + 1, 1, 5), (table.id, 2, 5), (table.id, None, 5),
                                           (table.id, 1, 6), (table.id, 1, None)]:  # fmt: skip
        with pytest.raises(TableError) as refused:
            manager.get(table_id, guild_id=guild_id, channel_id=channel_id)
        refusals.add(str(refused.value))
    with pytest.raises(TableError) as refused:
        manager.get(table.id, guild_id=2, channel_id=5, any_channel=True)
    refusals.add(str(refused.value))
    assert len(refusals) == 1 and "has ended or is not here" in refusals.pop()
    assert manager.table_here(5, guild_id=2) is None and manager.table_here(5, guild_id=None) is None
    with pytest.raises(TableError, match="no table in this channel"):
        manager.require(5, guild_id=2)


async def test_turn_timer_reminds_then_a_computer_plays_until_the_player_returns(store: Store) -> None:
    publisher = RecordingPublisher()
    await store.settings.update(7, turn_timeout_seconds=1, computer_delay_seconds=0)
    manager = TableManager(store, publisher)
    try:
        table = await manager.open_table(
            guild_id=7, channel_id=9, host_id=1, host_name="Ann", variant="pitch", players=2
        )
        await manager.start(table, 1)
        assert table.game is not None
        await wait_until(lambda: table.game is not None and 0 in table.game.to_act, timeout=30)
        await wait_until(lambda: any("reminder" in text for _, _, text in publisher.pings), timeout=30)
        await wait_until(lambda: table.seats[0] is not None and table.seats[0].away, timeout=30)
        # The seat is marked away (and saved) before the announcement is queued: wait for it.
        await wait_until(
            lambda: any("did not play in time" in text for _, text in publisher.announcements), timeout=30
        )
        await wait_until(lambda: table.status == "ended" or 0 not in table.game.to_act, timeout=30)
        if table.status == "playing":
            await manager.take_back(table, 1)
            assert table.seats[0] is not None and not table.seats[0].away
            with pytest.raises(TableError, match="already playing"):
                await manager.take_back(table, 1)
    finally:
        await manager.shutdown()


async def test_act_returns_the_seats_new_view_and_hands_every_event_to_the_publisher(store: Store) -> None:
    publisher = RecordingPublisher()
    await store.settings.update(1, turn_timeout_seconds=0)
    manager = TableManager(store, publisher)
    try:
        table = await manager.open_table(
            guild_id=1, channel_id=5, host_id=1, host_name="Ann", variant="pitch", players=2
        )
        await manager.join(table, 2, "Bob")
        # A fixed deal: random legal bids can walk both scores down for tens of thousands of
        # actions (about one shuffle in a hundred), so an unseeded game could run for hours.
        table.seed = 1
        await manager.start(table, 1)
        assert table.game is not None and table.game.seed == 1
        chooser = random.Random(3)
        results = []
        while table.status == "playing":
            assert table.game is not None and len(results) < 2_000
            seat = table.game.to_act[0]
            action = chooser.choice(table.game.legal_actions(seat))
            result = await manager.act(table, seat + 1, action)
            results.append(result)
            if table.status == "playing":
                assert result.view == table.game.view(seat)  # the view after the action, for the reply
        assert results[-1].view is None  # the action ended the game
        assert all(r.view is not None for r in results[:-1])
        handed = [(table.id, event["type"]) for r in results for event in r.events]
        assert publisher.events_seen == handed
        assert "game_over" in {kind for _, kind in handed}
        assert publisher.announcements == []  # which events deserve a message is the publisher's call
    finally:
        await manager.shutdown()


async def test_repost_goes_to_the_publisher_under_the_tables_lock(store: Store) -> None:
    publisher = RecordingPublisher()
    manager = TableManager(store, publisher)
    table = await manager.open_table(guild_id=1, channel_id=5, host_id=1, host_name="Ann", variant="pitch")
    await manager.repost(table)
    assert publisher.reposts == [table.id]
    assert not table.lock.locked()


async def test_house_rule_defaults_are_checked_against_the_variant(store: Store) -> None:
    manager = TableManager(store, RecordingPublisher())
    updated = await manager.update_settings(
        9,
        computer_delay_seconds=0,
        default_options={"PITCH": {"smudge": "on", "target": 21}, "pinochle-4": {}},
    )
    # Normalised: the variant's own name, typed values, only what was set, no empty entries.
    assert updated.default_options == {"pitch": {"smudge": True, "target": 21}}
    assert (await store.settings.get(9)).default_options == updated.default_options
    refused = [
        {"poker": {}},
        {"pitch": {"target": 8}},
        {"pitch": {"wild": True}},
        ["pitch"],
        {"pitch": ["target"]},
    ]
    for value in refused:
        with pytest.raises(TableError, match="default_options|House rules for"):
            await manager.update_settings(9, turn_timeout_seconds=60, default_options=value)
    settings = await store.settings.get(9)  # a refused change changes nothing
    assert (settings.turn_timeout_seconds, settings.default_options) == (300, updated.default_options)
    table = await manager.open_table(guild_id=9, channel_id=1, host_id=1, host_name="Ann", variant="pitch")
    assert (table.options["smudge"], table.options["target"]) == (True, 21)
