"""Seats and people through the table manager: choosing seats (and so partners), the host's swaps,
removing computers, kicking players (a computer takes a game seat), hosting and invitations."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.seating import partners_of
from bot.store import Store
from bot.tables import Table, TableError, TableManager
from tests.test_tables import RecordingPublisher, wait_until

ALICE, BOB, CAROL, DAVE = 1, 2, 3, 4


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(tmp_path / "seats.db")
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
async def manager(store: Store) -> AsyncIterator[TableManager]:
    await store.settings.update(1, computer_delay_seconds=0, turn_timeout_seconds=0)
    made = TableManager(store, RecordingPublisher())
    try:
        yield made
    finally:
        await made.shutdown()


async def lobby(manager: TableManager, variant: str = "pinochle-4") -> Table:
    return await manager.open_table(guild_id=1, channel_id=10, host_id=ALICE, host_name="alice",
                                    variant=variant)  # fmt: skip


def who(table: Table) -> list[str | None]:
    return [seat.name if seat else None for seat in table.seats]


async def stored_seats(manager: TableManager, table: Table) -> list[str | None]:
    record = await manager.store.games.load(table.id)
    return [seat["name"] if seat else None for seat in record.seats]


async def test_choosing_a_seat_decides_partners_and_is_stored(manager: TableManager) -> None:
    table = await lobby(manager)
    seating = manager.seating
    change = await seating.choose(table, BOB, "bob", 2)  # opposite alice: her partner
    assert (change.seat, change.came_from) == (2, None)
    assert who(table) == ["alice", None, "bob", None]
    assert partners_of(table, 0) == [2]
    change = await seating.choose(table, ALICE, "alice", 1)  # alice moves to a free seat
    assert (change.seat, change.came_from) == (1, 0)
    assert who(table) == [None, "alice", "bob", None]
    assert await stored_seats(manager, table) == who(table)
    await manager.start(table, ALICE)
    assert table.game is not None and table.game.side_of[1] != table.game.side_of[2]


async def test_a_seat_a_computer_holds_can_be_taken_and_the_computer_moves(manager: TableManager) -> None:
    table = await lobby(manager)
    await manager.add_computer(table, ALICE, "basic")  # seat 2
    await manager.seating.choose(table, ALICE, "alice", 1)  # swaps with the computer
    assert who(table) == ["Computer 1 (basic)", "alice", None, None]
    await manager.seating.choose(table, BOB, "bob", 0)  # the computer moves to a free seat
    assert who(table) == ["bob", "alice", "Computer 3 (basic)", None]


async def test_seat_choices_that_cannot_be_done_are_refused_and_change_nothing(manager: TableManager) -> None:
    table = await lobby(manager)
    await manager.join(table, BOB, "bob")
    before = who(table)
    for user, seat, words in [
        (CAROL, 0, "Seat 1 is alice's. Choose a free seat"),
        (BOB, 1, "already sit in that seat"),
        (BOB, 4, "no seat 5: this table has seats 1 to 4"),
        (BOB, -1, "no seat 0"),
    ]:
        with pytest.raises(TableError, match=words):
            await manager.seating.choose(table, user, "someone", seat)
    assert who(table) == before
    await manager.start(table, ALICE)
    with pytest.raises(TableError, match="already started"):
        await manager.seating.choose(table, BOB, "bob", 3)


async def test_the_host_swaps_seats_and_only_the_host(manager: TableManager) -> None:
    table = await lobby(manager)
    await manager.join(table, BOB, "bob")
    await manager.add_computer(table, ALICE, "basic")
    with pytest.raises(TableError, match="Only the host"):
        await manager.seating.swap(table, BOB, 0, 1, is_admin=False)
    await manager.seating.swap(table, ALICE, 1, 2, is_admin=False)
    assert who(table) == ["alice", "Computer 2 (basic)", "bob", None]
    await manager.seating.swap(table, BOB, 0, 3, is_admin=True)  # Manage Server may too
    assert who(table) == [None, "Computer 2 (basic)", "bob", "alice"]
    with pytest.raises(TableError, match="two different seats"):
        await manager.seating.swap(table, ALICE, 1, 1, is_admin=False)
    await manager.seating.swap(table, ALICE, 0, 3, is_admin=False)
    assert await stored_seats(manager, table) == who(table) == ["alice", "Computer 2 (basic)", "bob", None]
    await manager.seating.remove_computer(table, ALICE, 1, is_admin=False)
    with pytest.raises(TableError, match="both empty"):
        await manager.seating.swap(table, ALICE, 1, 3, is_admin=False)


async def test_the_host_removes_a_computer_before_the_start(manager: TableManager) -> None:
    table = await lobby(manager)
    await manager.add_computer(table, ALICE, "basic")
    await manager.join(table, BOB, "bob")
    with pytest.raises(TableError, match="Only the host"):
        await manager.seating.remove_computer(table, BOB, 1, is_admin=False)
    with pytest.raises(TableError, match="Seat 3 has no computer"):
        await manager.seating.remove_computer(table, ALICE, 2, is_admin=False)
    assert await manager.seating.remove_computer(table, ALICE, 1, is_admin=False) == "Computer 2 (basic)"
    assert who(table) == ["alice", None, "bob", None]
    await manager.start(table, ALICE)
    with pytest.raises(TableError, match="already started"):
        await manager.seating.remove_computer(table, ALICE, 1, is_admin=False)


async def test_kicking_in_the_lobby_frees_the_seat(manager: TableManager) -> None:
    table = await lobby(manager)
    await manager.join(table, BOB, "bob")
    publisher = manager.publisher
    assert isinstance(publisher, RecordingPublisher)
    with pytest.raises(TableError, match="Only the host"):
        await manager.seating.kick(table, BOB, ALICE, is_admin=False)
    with pytest.raises(TableError, match="/table leave"):
        await manager.seating.kick(table, ALICE, ALICE, is_admin=False)
    with pytest.raises(TableError, match="no seat at this table"):
        await manager.seating.kick(table, ALICE, CAROL, is_admin=False)
    assert await manager.seating.kick(table, ALICE, BOB, is_admin=False) == "bob"
    assert who(table) == ["alice", None, None, None]
    assert publisher.announcements[-1] == (table.id, f"bob was removed from the table by <@{ALICE}>.")
    assert await stored_seats(manager, table) == who(table)


async def test_kicking_mid_game_hands_the_seat_to_a_computer_and_the_game_goes_on(
    manager: TableManager,
) -> None:
    table = await lobby(manager, "pitch")
    await manager.join(table, BOB, "bob")
    await manager.start(table, ALICE)
    assert table.game is not None
    await manager.seating.kick(table, ALICE, BOB, is_admin=False)
    bob_seat = table.seats[1]
    assert bob_seat is not None and not bob_seat.is_human
    assert table.seat_of(BOB) is None
    publisher = manager.publisher
    assert isinstance(publisher, RecordingPublisher)
    assert (table.id, f"bob was removed from the table by <@{ALICE}>: a computer plays their seat.") in (
        publisher.announcements
    )
    with pytest.raises(TableError, match="not seated"):
        await manager.act(table, BOB, "pass")
    assert table.host_id == ALICE
    # Alice leaves too: the computers play the whole game out.
    await manager.leave(table, ALICE)
    await wait_until(lambda: table.status == "ended")
    record = await manager.store.games.load(table.id)
    assert record.status == "ended" and record.seats[1]["kind"] == "computer"


async def test_hosting_passes_to_a_seated_person(manager: TableManager) -> None:
    table = await lobby(manager)
    await manager.join(table, BOB, "bob")
    with pytest.raises(TableError, match="Only the host"):
        await manager.seating.hand_over(table, BOB, BOB, is_admin=False)
    with pytest.raises(TableError, match="seated at this table"):
        await manager.seating.hand_over(table, ALICE, CAROL, is_admin=False)
    with pytest.raises(TableError, match="already the host"):
        await manager.seating.hand_over(table, ALICE, ALICE, is_admin=False)
    assert await manager.seating.hand_over(table, ALICE, BOB, is_admin=False) == "bob"
    assert table.host_id == BOB
    assert (await manager.store.games.load(table.id)).host_id == BOB
    with pytest.raises(TableError, match="Only the host"):
        await manager.start(table, ALICE)
    await manager.start(table, BOB)
    await manager.seating.hand_over(table, BOB, ALICE, is_admin=False)  # also during the game
    assert table.host_id == ALICE


async def test_invitations(manager: TableManager) -> None:
    table = await lobby(manager, "pinochle-2")
    check = manager.seating.check_invite
    with pytest.raises(TableError, match="Only a seated player"):
        check(table, CAROL, DAVE, member_is_bot=False)
    with pytest.raises(TableError, match="Bots cannot be invited"):
        check(table, ALICE, DAVE, member_is_bot=True)
    with pytest.raises(TableError, match="already has a seat"):
        check(table, ALICE, ALICE, member_is_bot=False)
    check(table, ALICE, BOB, member_is_bot=False)
    with pytest.raises(TableError, match="for someone else"):
        await manager.seating.accept_invite(table, CAROL, "carol", BOB)
    assert await manager.seating.accept_invite(table, BOB, "bob", BOB) == 1
    with pytest.raises(TableError, match="table is full"):
        check(table, ALICE, CAROL, member_is_bot=False)


async def test_seats_and_host_survive_a_restart(store: Store) -> None:
    first = TableManager(store, RecordingPublisher())
    table = await lobby(first)
    await first.seating.choose(table, BOB, "bob", 2)
    await first.add_computer(table, ALICE, "basic")
    await first.seating.hand_over(table, ALICE, BOB, is_admin=False)
    await first.shutdown()
    second = TableManager(store, RecordingPublisher())
    try:
        (resumed,) = await second.resume_all()
        assert who(resumed) == who(table) == ["alice", "Computer 2 (basic)", "bob", None]
        assert resumed.host_id == BOB
    finally:
        await second.shutdown()


async def test_hosting_passes_on_when_the_host_leaves_or_is_removed(manager: TableManager) -> None:
    table = await lobby(manager, "pitch")
    await manager.join(table, BOB, "bob")
    await manager.join(table, CAROL, "carol")
    await manager.start(table, ALICE)
    await manager.seating.kick(table, BOB, ALICE, is_admin=True)  # someone with Manage Server
    assert table.host_id == BOB and (await manager.store.games.load(table.id)).host_id == BOB
    await manager.leave(table, BOB)
    assert table.host_id == CAROL


async def test_a_seated_person_asks_for_another_persons_seat_and_they_accept(manager: TableManager) -> None:
    table = await lobby(manager)
    await manager.join(table, BOB, "bob")
    await manager.join(table, CAROL, "carol")
    change = await manager.seating.choose(table, BOB, "bob", 2)  # carol's seat: she is asked
    assert (change.seat, change.came_from, change.asks) == (2, 1, CAROL)
    assert who(table) == ["alice", "bob", "carol", None]  # nothing changes before she accepts
    with pytest.raises(TableError, match="asked of someone else"):
        await manager.seating.accept_swap(table, ALICE, BOB, 1, 2)
    await manager.seating.accept_swap(table, CAROL, BOB, 1, 2)
    assert who(table) == await stored_seats(manager, table) == ["alice", "carol", "bob", None]
    with pytest.raises(TableError, match="out of date"):  # accepted twice: bob is in seat 3 now
        await manager.seating.accept_swap(table, BOB, BOB, 1, 2)
    change = await manager.seating.choose(table, CAROL, "carol", 0)
    await manager.seating.choose(table, ALICE, "alice", 3)  # alice moves away meanwhile
    with pytest.raises(TableError, match="asked of someone else"):
        await manager.seating.accept_swap(table, ALICE, CAROL, 1, 0)
