"""League nights: start, standings, planned ends, one running league per guild."""

from __future__ import annotations

import time

import pytest

from bot.errors import Refusal
from bot.store import StoreError, StoreRefusal
from tests.store.helpers import play_game


async def test_league_lifecycle(store):
    now = time.time()
    await play_game(store, 1, [1, 2], [1, 2], finished_at=now - 100)  # before the league
    assert await store.leagues.active(1) is None
    league = await store.leagues.start(1, "  Friday night  ", started_at=now - 50)
    assert league.name == "Friday night" and league.running
    assert (await store.leagues.active(1)) == league
    with pytest.raises(StoreError, match="'Friday night' is still running"):
        await store.leagues.start(1, "Another")
    await store.leagues.start(2, "Other guild's league")  # guilds are independent
    await play_game(store, 1, [2, 3], [1, 2], finished_at=now - 10)
    await play_game(store, 1, [2, 1], [1, 2], scores=[11, 9], finished_at=now - 5)
    await play_game(store, 1, [1, 3], [1, 2], scores=[7, 1], finished_at=now - 4)
    await play_game(store, 1, [None, 3], [1, 2], rated=False, finished_at=now - 3)
    await play_game(store, 2, [1, 2], [1, 2], finished_at=now - 2)  # other guild
    standings = await store.leagues.standings(league.id)
    assert [(r.user_id, r.wins, r.games, r.points) for r in standings] == [
        (2, 2, 2, 21),
        (1, 1, 2, 16),
        (3, 0, 3, 11),
    ]
    board = await store.boards.page(1, league_id=league.id, order="wins")
    assert [(r.user_id, r.wins, r.games) for r in board] == [(2, 2, 2), (1, 1, 2), (3, 0, 3)]
    assert await store.boards.count(1, league_id=league.id) == 3
    with pytest.raises(StoreError, match="no league"):
        await store.boards.page(2, league_id=league.id)  # another guild's league
    ended, final = await store.leagues.end(1)
    assert not ended.running and ended.ended_at is not None and final == standings
    await play_game(store, 1, [3, 1], [1, 2])  # after the league: not counted
    assert await store.leagues.standings(league.id) == standings
    assert await store.leagues.active(1) is None
    with pytest.raises(StoreError, match="no league is running"):
        await store.leagues.end(1)
    second = await store.leagues.start(1, "Next week")
    assert [lg.id for lg in await store.leagues.list(1)] == [second.id, league.id]
    assert (await store.leagues.get(league.id)).ended_at == ended.ended_at
    assert await store.leagues.standings(second.id) == []
    with pytest.raises(StoreError, match="no league 999"):
        await store.leagues.standings(999)


async def test_league_for_one_family_and_planned_end(store):
    now = time.time()
    league = await store.leagues.start(1, "Pinochle only", family="pinochle", ends_at=now + 3600)
    await play_game(store, 1, [1, 2], [1, 2], family="pitch")
    await play_game(store, 1, [1, 2], [2, 1], variant="pinochle", family="pinochle")
    await play_game(store, 1, [1, 2], [2, 1], variant="pinochle", family="pinochle", finished_at=now + 7200)
    assert [(r.user_id, r.wins, r.games) for r in await store.leagues.standings(league.id)] == [
        (2, 1, 1),
        (1, 0, 1),
    ]
    assert await store.leagues.due(now) == []
    assert [lg.id for lg in await store.leagues.due(now + 3600)] == [league.id]
    with pytest.raises(StoreError, match="end after it starts"):
        await store.leagues.start(3, "Backwards", ends_at=now - 1)
    with pytest.raises(StoreError, match="name"):
        await store.leagues.start(3, "   ")


async def test_overdue_league_closes_at_its_planned_end(store):
    start = time.time() - 100
    await store.leagues.start(1, "Short", started_at=start, ends_at=start + 10)
    ended, _ = await store.leagues.end(1)
    assert ended.ended_at == start + 10


async def test_refusals_carry_a_sentence_for_the_person(store):
    await store.leagues.start(1, "Running")
    attempts = [
        store.leagues.start(1, "Second"),
        store.leagues.start(2, ""),
        store.leagues.end(3),
        store.leagues.standings(999),
        store.boards.page(2, league_id=1),
    ]
    for attempt in attempts:
        with pytest.raises(StoreRefusal) as err:
            await attempt
        assert isinstance(err.value, Refusal) and isinstance(err.value, StoreError)
        assert str(err.value)


async def test_scheduled_leagues_start_on_time_and_never_overlap(store):
    now = time.time()
    friday = await store.leagues.start(1, "Friday", started_at=now + 3600, ends_at=now + 7200, channel_id=5)
    assert friday.scheduled and not friday.running and friday.start_announced_at is None
    assert await store.leagues.active(1) is None  # not started: nothing runs, nothing is credited
    await play_game(store, 1, [1, 2], [1, 2], finished_at=now + 10)
    await play_game(store, 1, [1, 2], [1, 2], finished_at=now + 3700)  # inside Friday's hours
    await play_game(store, 1, [2, 1], [1, 2], finished_at=now + 7300)  # after it
    assert [(r.user_id, r.wins, r.games) for r in await store.leagues.standings(friday.id)] == [
        (1, 1, 1),
        (2, 0, 1),
    ]
    with pytest.raises(
        StoreRefusal, match="'Friday' is scheduled from .* UTC to .* UTC: leagues in one server"
    ):
        await store.leagues.start(1, "Clash", started_at=now + 5000, ends_at=now + 9000)
    with pytest.raises(StoreRefusal, match="'Friday' is scheduled"):  # open-ended from now reaches it
        await store.leagues.start(1, "Tonight")
    tonight = await store.leagues.start(1, "Tonight", ends_at=now + 3600)  # ends as Friday starts
    saturday = await store.leagues.start(1, "Saturday", started_at=now + 7200, channel_id=5)
    assert [lg.name for lg in await store.leagues.upcoming(1)] == ["Friday", "Saturday"]
    assert [lg.name for lg in await store.leagues.list(1)] == ["Saturday", "Friday", "Tonight"]
    assert [lg.name for lg in await store.leagues.list(1, matching="DAY")] == ["Saturday", "Friday"]
    assert [lg.name for lg in await store.leagues.list(1, matching="%")] == []  # LIKE wildcards are text
    assert (await store.leagues.named(1, "friday")).id == friday.id
    assert await store.leagues.starting(now) == []  # Tonight was started (and so announced) by its starter
    assert [lg.id for lg in await store.leagues.starting(now + 3601)] == [friday.id]
    await store.leagues.mark_start_announced(friday.id)
    assert await store.leagues.starting(now + 3601) == []
    assert (await store.leagues.active(1)).id == tonight.id
    # Cancelling: only a league that has not started; another guild cannot name it.
    with pytest.raises(StoreRefusal, match="no league"):
        await store.leagues.cancel(2, saturday.id)
    with pytest.raises(StoreRefusal, match="already started"):
        await store.leagues.cancel(1, tonight.id)
    assert (await store.leagues.cancel(1, saturday.id)).name == "Saturday"
    assert await store.leagues.get(saturday.id) is None


async def test_the_clock_closes_the_league_it_names_even_beside_a_later_one(store):
    now = time.time()
    early = await store.leagues.start(1, "Early", started_at=now - 7200, ends_at=now - 3600)
    late = await store.leagues.start(1, "Late", started_at=now - 3600)
    assert (await store.leagues.active(1)).id == late.id  # the latest started one is "running"
    assert [lg.id for lg in await store.leagues.due()] == [early.id]
    ended, _ = await store.leagues.end(1, league_id=early.id)
    assert ended.ended_at == early.ends_at
    assert (await store.leagues.active(1)).id == late.id


async def test_guild_timezone(store):
    assert await store.leagues.timezone(1) is None
    await store.leagues.set_timezone(1, "Europe/Berlin")
    await store.leagues.set_timezone(1, "UTC+2")
    assert await store.leagues.timezone(1) == "UTC+2" and await store.leagues.timezone(2) is None
    with pytest.raises(StoreRefusal):
        await store.leagues.set_timezone(1, "x" * 65)
