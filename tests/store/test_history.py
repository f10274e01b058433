"""``store.history``: a player's recent games with every seat, trends, and games kept per server."""

from __future__ import annotations

import pytest

from bot.store import GameNotFound, Store, StoreError
from tests.store.helpers import new_game, play_game


async def test_recent_games_are_newest_first_with_partners_and_opponents(store: Store) -> None:
    first = await play_game(store, 1, [10, 20, 11, 21], [1, 2, 1, 2], sides=[0, 1, 0, 1], finished_at=100.0)
    second = await play_game(store, 1, [10, None], [2, 1], finished_at=200.0)
    await play_game(store, 2, [10, 20], [1, 2], finished_at=300.0)  # another server
    assert await store.history.count(1, 10) == 2
    games = await store.history.recent(1, 10)
    assert [g.game_id for g in games] == [second, first]
    newest, oldest = games
    assert not newest.won and newest.seat == 0
    assert [s.name for s in newest.opponents()] == ["Computer (easy)"]
    assert oldest.won and [s.user_id for s in oldest.partners()] == [11]
    assert [s.user_id for s in oldest.opponents()] == [20, 21]
    assert [s.name for s in oldest.seats] == ["player10", "player20", "player11", "player21"]
    assert [g.game_id for g in await store.history.recent(1, 10, limit=1, offset=1)] == [first]
    assert await store.history.recent(1, 99) == []


async def test_recent_refuses_a_bad_page(store: Store) -> None:
    with pytest.raises(StoreError):
        await store.history.recent(1, 10, limit=0)
    with pytest.raises(StoreError):
        await store.history.recent(1, 10, offset=-1)


async def test_trends_follow_rated_games_oldest_first(store: Store) -> None:
    for n in range(3):
        await play_game(store, 1, [10, 20], [1, 2], finished_at=100.0 + n)
    await play_game(store, 1, [10, 20], [2, 1], rated=False, finished_at=200.0)
    rating = await store.history.rating_trend(1, 10)
    assert [p.finished_at for p in rating] == [100.0, 101.0, 102.0]
    assert rating[0].ordinal < rating[1].ordinal < rating[2].ordinal and all(p.won for p in rating)
    results = await store.history.results_trend(1, 10)
    assert [p.won for p in results] == [True, True, True, False]


async def test_a_game_is_found_only_in_its_own_server(store: Store) -> None:
    game_id = await new_game(store, 1, [{"kind": "human", "user_id": 10, "name": "a"}])
    assert (await store.history.game_in_guild(game_id, 1)).id == game_id
    for guild, wanted in ((2, game_id), (1, 9999), (1, 0), (1, 2**70)):
        with pytest.raises(GameNotFound, match="there is no game"):
            await store.history.game_in_guild(wanted, guild)


async def test_names_are_the_latest_ones_a_game_here_showed(store: Store) -> None:
    await play_game(store, 1, [10, 20], [1, 2], finished_at=100.0)
    assert await store.history.names(1, [10, 20, 30]) == {10: "player10", 20: "player20"}
    assert await store.history.names(2, [10]) == {}
