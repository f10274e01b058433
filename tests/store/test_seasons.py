"""Seasons: ratings from zero each season beside the all-time ones, which (with every result) stay."""

from __future__ import annotations

import time

import pytest

from bot.store import StoreRefusal
from tests.store.helpers import play_game, query


async def test_a_new_season_starts_from_zero_and_keeps_all_time_history(store):
    await play_game(store, 1, [1, 2], [1, 2])  # before any season: all time only
    await play_game(store, 1, [1, 2], [1, 2])
    assert await store.seasons.current(1) is None
    spring, previous = await store.seasons.start(1, "Spring")
    assert previous is None and spring.ended_at is None
    assert await store.seasons.count(spring.id) == 0  # the season board starts empty
    await play_game(store, 1, [2, 1], [1, 2])
    await play_game(store, 1, [3, 2], [1, 2], rated=False)
    await play_game(store, 2, [2, 1], [1, 2])  # another guild has no season
    board = await store.seasons.page(spring.id, order="wins")
    assert [(r.user_id, r.wins, r.games) for r in board] == [(2, 1, 2), (3, 1, 1), (1, 0, 1)]
    # A player's season rating equals what one rated game from scratch gives; all time has more.
    all_time = {r.user_id: r for r in await store.boards.page(1, family="pitch")}
    season = {r.user_id: r for r in await store.seasons.page(spring.id, family="pitch")}
    assert all_time[1].games == 3 and season[1].games == 1
    assert season[2].rating > season[1].rating and all_time[1].rating > all_time[2].rating
    fresh_winner = await play_one_rated_game_elsewhere(store)
    assert season[2].rating == pytest.approx(fresh_winner)
    assert await store.seasons.any_rated(spring.id) and not await store.seasons.any_rated(
        spring.id, family="pinochle"
    )
    [pitch] = await store.seasons.player_ratings(spring.id, 2)
    assert (pitch.family, pitch.games, pitch.wins) == ("pitch", 2, 1)

    summer, ended = await store.seasons.start(1, "Summer")
    assert ended is not None and ended.id == spring.id and ended.ended_at is not None
    assert (await store.seasons.current(1)).id == summer.id
    await play_game(store, 1, [1, 3], [1, 2])
    assert [r.user_id for r in await store.seasons.page(summer.id)] == [1, 3]
    assert len(await store.seasons.page(spring.id)) == 3  # a past season's board stays
    assert (
        await store.boards.count(1) == 3
        and len(await query(store, "SELECT * FROM results WHERE guild_id = 1")) == 10
    )
    assert [s.name for s in await store.seasons.list(1)] == ["Summer", "Spring"]
    assert [s.name for s in await store.seasons.list(1, matching="SPR")] == ["Spring"]
    assert (await store.seasons.named(1, "spring")).id == spring.id
    with pytest.raises(StoreRefusal, match="already called"):
        await store.seasons.start(1, "summer")
    with pytest.raises(StoreRefusal, match="name of 1 to 100"):
        await store.seasons.start(1, "  ")
    # A leaderboard reset clears season ratings too (they count the results it deletes).
    await store.boards.reset(1)
    assert await store.seasons.count(summer.id) == 0 and await store.seasons.count(spring.id) == 0


async def play_one_rated_game_elsewhere(store) -> float:
    """The winner's rating after one rated game from the new player's rating (guild 99)."""
    await play_game(store, 99, [50, 51], [1, 2])
    [row] = await query(store, "SELECT ordinal FROM ratings WHERE guild_id = 99 AND user_id = 50")
    return row["ordinal"]


async def test_only_games_finished_after_the_season_started_count(store):
    season, _ = await store.seasons.start(1, "Now")
    await play_game(store, 1, [1, 2], [1, 2], finished_at=time.time() - 3600)  # finished earlier
    assert await store.seasons.count(season.id) == 0
