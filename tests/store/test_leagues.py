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
