"""``/hint`` and ``hard`` computer seats with the real ``hard`` player in the worker pool."""

from __future__ import annotations

from pathlib import Path

from bot.hints import hidden_cards
from bot.store import Store
from bot.tables import TableManager
from tests.test_tables import RecordingPublisher, wait_until


async def test_a_hint_is_the_hard_players_legal_move_with_a_one_line_reason(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "hints.db")
    await store.settings.update(1, computer_delay_seconds=0, turn_timeout_seconds=0)
    manager = TableManager(store, RecordingPublisher())
    try:
        table = await manager.open_table(guild_id=1, channel_id=9, host_id=1, host_name="Ann",
                                         variant="pinochle-2")  # fmt: skip
        await manager.join(table, 2, "Bob")
        await manager.start(table, 1)
        assert table.game is not None
        seat = table.game.to_act[0]
        person = table.seats[seat].user_id
        before = table.game.to_json()
        hint = await manager.hints.hint(table, person)
        assert hint.action in table.game.legal_actions(seat)
        assert hint.reason and "\n" not in hint.reason and len(hint.reason) <= 300
        assert not {c for c in hidden_cards(table.game, seat) if c in hint.reason}
        assert table.game.to_json() == before
        # Asked again in the same position: the same hint, at once (the search is not run again;
        # under a time budget a fresh search may sample a different number of deals).
        assert await manager.hints.hint(table, person) is hint
    finally:
        await manager.shutdown()
        await store.close()


async def test_a_hard_computer_seat_plays_through_the_pool(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "hard.db")
    await store.settings.update(1, computer_delay_seconds=0, turn_timeout_seconds=0)
    manager = TableManager(store, RecordingPublisher())
    try:
        table = await manager.open_table(guild_id=1, channel_id=9, host_id=1, host_name="Ann",
                                         variant="pitch", players=2)  # fmt: skip
        seat = await manager.add_computer(table, 1, "hard")
        assert table.names()[seat] == "Computer 2 (hard)"
        await manager.start(table, 1)
        assert manager.thinker.started  # a table with a hard seat starts the workers at once
        assert table.game is not None
        while seat not in table.game.to_act:  # Ann passes or plays her first legal action
            await manager.act(table, 1, table.game.legal_actions(0)[0])
        moved = len(table.game.log)
        await wait_until(lambda: len(table.game.log) > moved, timeout=60)
        assert (await store.games.load(table.id)).actions[moved][0] == seat
    finally:
        await manager.shutdown()
        await store.close()
    assert not manager.thinker.started
