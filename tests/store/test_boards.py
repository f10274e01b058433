"""Leaderboards, player stats, reset and CSV export."""

from __future__ import annotations

import csv
import io
import random

import pytest

from bot.store import SeatResult, StoreError
from tests.store.helpers import human, play_game, query
from tests.store.helpers import new_game as store_game


async def test_boards_are_per_guild(store):
    await play_game(store, 1, [1, 2], [1, 2])
    await play_game(store, 2, [1, 3], [2, 1])
    await play_game(store, 2, [3, 4], [1, 2])
    one = await store.boards.page(1)
    two = await store.boards.page(2)
    assert [(r.user_id, r.games, r.wins) for r in one] == [(1, 1, 1), (2, 1, 0)]
    assert two[0].user_id == 3 and {r.user_id for r in two} == {1, 3, 4}
    assert next(r for r in two if r.user_id == 1).wins == 0  # guild 1's win does not leak in
    assert await store.boards.count(1) == 2 and await store.boards.count(2) == 3
    assert await store.boards.page(3) == [] and await store.boards.count(3) == 0
    assert (await store.boards.player_stats(2, 1)).games == 1


async def test_paging(store):
    rng = random.Random(5)
    for _ in range(40):
        players = rng.sample(range(100, 125), 4)
        await play_game(store, 1, players, [1, 2, 3, 4])
    total = await store.boards.count(1)
    assert total == len({row.user_id for row in await store.boards.page(1, limit=100)})
    for order in ("rating", "wins", "games", "winpct"):
        whole = await store.boards.page(1, order=order, limit=100)
        pages = []
        for offset in range(0, total, 7):
            pages += await store.boards.page(1, order=order, limit=7, offset=offset)
        assert pages == whole
        assert [row.rank for row in pages] == list(range(1, total + 1))
    assert await store.boards.page(1, offset=total) == []
    with pytest.raises(StoreError, match="order must be"):
        await store.boards.page(1, order="luck")
    with pytest.raises(StoreError, match="limit"):
        await store.boards.page(1, limit=0)


async def test_orders_and_deterministic_ties(store):
    # Users 30, 10, 20 always share one side, so their ratings, games and wins are all equal.
    for _ in range(3):
        await play_game(store, 1, [30, 10, 20, 1], [1, 1, 1, 2], sides=[0, 0, 0, 1])
    await play_game(store, 1, [5, 6], [1, 2])  # 1 game, 1 win: best win %
    await play_game(store, 1, [7, 8], [2, 1])
    await play_game(store, 1, [7, 9], [2, 1])  # user 7: 2 games, 0 wins
    by_rating = await store.boards.page(1, limit=20)
    tied = [r.user_id for r in by_rating if r.user_id in (10, 20, 30)]
    assert tied == [10, 20, 30]
    positions = [r.user_id for r in by_rating]
    assert positions.index(10) + 2 == positions.index(30)  # adjacent, ordered by user id
    by_wins = [(r.user_id, r.wins, r.games) for r in await store.boards.page(1, order="wins", limit=20)]
    assert by_wins[:3] == [(10, 3, 3), (20, 3, 3), (30, 3, 3)]
    # 5, 8, 9: one win in one game each -> tie on wins and games -> user id.
    assert [u for u, *_ in by_wins[3:6]] == [5, 8, 9]
    by_games = [(r.user_id, r.games) for r in await store.boards.page(1, order="games", limit=20)]
    assert by_games[:4] == [(10, 3), (20, 3), (30, 3), (1, 3)]  # 1 lost all three: fewer wins
    by_pct = [(r.user_id, r.win_pct) for r in await store.boards.page(1, order="winpct", limit=20)]
    # 100%: the 3-game players first (more wins), then 5, 8, 9; 0% at the end with more games first.
    assert [u for u, _ in by_pct[:6]] == [10, 20, 30, 5, 8, 9]
    assert [u for u, _ in by_pct[6:]] == [1, 7, 6]
    assert by_pct[0][1] == 100.0 and by_pct[-1][1] == 0.0
    # Same query, same answer.
    assert await store.boards.page(1, limit=20) == by_rating


async def test_family_filter(store):
    await play_game(store, 1, [1, 2], [1, 2], family="pitch")
    await play_game(store, 1, [1, 3], [1, 2], variant="pinochle", family="pinochle")
    pitch = await store.boards.page(1, family="pitch")
    assert {r.user_id for r in pitch} == {1, 2}
    every = await store.boards.page(1)
    one = next(r for r in every if r.user_id == 1)
    assert (one.games, one.wins) == (2, 2)
    assert one.rating == max(
        r.rating for r in [*(await store.boards.page(1, family="pinochle")), *pitch] if r.user_id == 1
    )
    assert await store.boards.count(1, family="pinochle") == 2


# ----- stats --------------------------------------------------------------------------------------


async def test_player_stats(store):
    # User 1: W W L W W W L W with scores 10/5, variants pitch mostly.
    pattern = [1, 1, 2, 1, 1, 1, 2, 1]
    for n, place in enumerate(pattern):
        variant = "pitch-partnership" if n in (1, 4) else "pitch"
        await play_game(
            store,
            1,
            [1, 2],
            [place, 3 - place],
            scores=[n, 0],
            variant=variant,
            finished_at=1000.0 + n,
        )
    for n in range(5):  # more pitch games for the trend window (12 > 10 games)
        await play_game(store, 1, [2, 1], [1, 2], scores=[5, 20 + n], finished_at=2000.0 + n)
    stats = await store.boards.player_stats(1, 1)
    assert (stats.games, stats.wins) == (13, 6)
    assert stats.win_pct == round(100 * 6 / 13, 1)
    assert stats.best_streak == 3
    assert stats.current_streak == 0
    assert stats.average_score == pytest.approx((sum(range(8)) + sum(range(20, 25))) / 13)
    assert stats.favourite_variant == "pitch"
    assert [g.finished_at for g in stats.recent] == [2004.0, 2003.0, 2002.0, 2001.0, 2000.0]
    assert stats.recent[0].place == 2 and not stats.recent[0].won and stats.recent[0].score == 24
    [pitch] = stats.ratings
    assert (pitch.family, pitch.games, pitch.wins) == ("pitch", 13, 6)
    history = await query(
        store, "SELECT ordinal_before, ordinal FROM rating_history WHERE user_id = 1 ORDER BY finished_at"
    )
    assert pitch.rating == pytest.approx(history[-1][1])
    assert pitch.trend == pytest.approx(history[-1][1] - history[-10][0])
    assert pitch.trend < 0  # five losses in a row
    await play_game(store, 1, [1, 2], [1, 2], finished_at=3000.0)
    await play_game(store, 1, [1, 2], [1, 2], finished_at=3001.0)
    assert (await store.boards.player_stats(1, 1)).current_streak == 2
    assert stats.to_json()["recent"][0]["variant"] == "pitch"


async def test_stats_of_a_newcomer(store):
    stats = await store.boards.player_stats(1, 77)
    assert (stats.games, stats.wins, stats.win_pct, stats.best_streak, stats.current_streak) == (
        0,
        0,
        0.0,
        0,
        0,
    )
    assert stats.average_score is None and stats.favourite_variant is None
    assert stats.ratings == [] and stats.recent == []


# ----- admin --------------------------------------------------------------------------------------


async def test_reset(store):
    await play_game(store, 1, [1, 2], [1, 2], family="pitch")
    done = await play_game(store, 1, [1, 2], [1, 2], variant="pinochle", family="pinochle")
    await play_game(store, 2, [1, 2], [1, 2])
    assert await store.boards.reset(1, family="pinochle") == 2
    assert await store.boards.page(1, family="pinochle") == []
    assert await store.boards.count(1, family="pitch") == 2
    assert await store.boards.reset(1) == 2
    assert await store.boards.page(1) == [] and (await store.boards.player_stats(1, 1)).games == 0
    assert await store.boards.count(2) == 2  # other guild untouched
    # The games stay ended: finishing one again after a reset still records nothing.
    assert not await store.results.finish(
        done, guild_id=1, family="pinochle", results=[SeatResult(0, 1, 0, 1, 1)], rated=True
    )


async def test_export_csv(store):
    league = await store.leagues.start(1, "L")
    await play_game(store, 1, [1, None], [2, 1], scores=[-3, 11])
    seats = [human(2, '=HYPERLINK("http://x")'), human(3, "Bo, Jr.")]
    game_id = await store_game(store, 1, seats)
    await store.results.finish(
        game_id,
        guild_id=1,
        family="pitch",
        results=[SeatResult(0, 2, 0, 7, 1), SeatResult(1, 3, 1, 2, 2)],
        rated=True,
    )
    await play_game(store, 2, [9, 8], [1, 2])  # another guild: not exported
    rows = list(csv.DictReader(io.StringIO(await store.boards.export_csv(1))))
    assert len(rows) == 4
    assert list(rows[0]) == [
        "game_id",
        "finished_at",
        "variant",
        "family",
        "league_id",
        "seat",
        "side",
        "user_id",
        "player",
        "score",
        "place",
        "won",
    ]
    assert rows[0]["user_id"] == "1" and rows[0]["score"] == "-3" and rows[0]["won"] == "0"
    assert rows[1]["user_id"] == "" and rows[1]["player"] == "Computer (easy)" and rows[1]["won"] == "1"
    assert rows[2]["player"].startswith("'=")  # no spreadsheet formula
    assert rows[3]["player"] == "Bo, Jr." and (rows[3]["seat"], rows[3]["side"]) == ("2", "2")
    assert {row["league_id"] for row in rows} == {str(league.id)}
    assert rows[0]["finished_at"].endswith("+00:00")
    assert (await store.boards.export_csv(5)).count("\n") == 1  # just the header
