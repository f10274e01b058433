"""Finishing games: results, ratings and league credit in one transaction, idempotent."""

from __future__ import annotations

import sqlite3

import pytest

from bot.store import GameNotFound, SeatResult, StoreError
from tests.store.helpers import count, human, play_game, query, rating_of
from tests.store.helpers import new_game as store_game


async def test_finish_is_idempotent(store):
    game_id = await store_game(store, 1, [human(1), human(2), human(3)])
    results = [SeatResult(0, 1, 0, 11, 1), SeatResult(1, 2, 1, 8, 2), SeatResult(2, 3, 2, 2, 3)]
    assert await store.results.finish(game_id, guild_id=1, family="pitch", results=results, rated=True)
    snapshot = [await count(store, t) for t in ("results", "ratings", "rating_history")]
    first = await rating_of(store, 1, 1)
    assert not await store.results.finish(game_id, guild_id=1, family="pitch", results=results, rated=True)
    assert not await store.results.finish(
        game_id, guild_id=1, family="pitch", results=results[:1], rated=False
    )
    assert [await count(store, t) for t in ("results", "ratings", "rating_history")] == snapshot == [3, 3, 3]
    assert await rating_of(store, 1, 1) == first
    assert first[2:] == (1, 1)
    record = await store.games.load(game_id)
    assert record.status == "ended" and record.finished_at is not None


async def test_finish_checks_its_input(store):
    game_id = await store_game(store, 1, [human(1), human(2)])
    good = [SeatResult(0, 1, 0, 1, 1), SeatResult(1, 2, 1, 0, 2)]
    with pytest.raises(StoreError, match="belongs to guild 1"):
        await store.results.finish(game_id, guild_id=2, family="pitch", results=good, rated=True)
    with pytest.raises(StoreError, match="seat appears twice"):
        await store.results.finish(game_id, guild_id=1, family="pitch", results=good + good[:1], rated=True)
    with pytest.raises(StoreError, match="two seats"):
        await store.results.finish(
            game_id, guild_id=1, family="pitch", results=[good[0], SeatResult(1, 1, 1, 0, 2)], rated=True
        )
    with pytest.raises(StoreError, match="seats 0-1"):
        await store.results.finish(
            game_id, guild_id=1, family="pitch", results=[*good, SeatResult(5, 9, 2, 0, 3)], rated=True
        )
    with pytest.raises(GameNotFound):
        await store.results.finish(404, guild_id=1, family="pitch", results=good, rated=True)
    assert await count(store, "results") == 0 and await count(store, "ratings") == 0
    with pytest.raises(StoreError, match="bad result"):
        await store.results.finish(
            game_id, guild_id=1, family="pitch", results=[good[0], SeatResult(1, 2, 1, 0, 0)], rated=True
        )
    with pytest.raises(StoreError, match="needs seat, user_id"):
        await store.results.finish(game_id, guild_id=1, family="pitch", results=[{"seat": 0}], rated=True)
    abandoned = await store_game(store, 1, [human(1), human(2)])
    await store.games.update(abandoned, status="abandoned")
    assert not await store.results.finish(abandoned, guild_id=1, family="pitch", results=good, rated=True)
    # Plain dicts with the same keys work too (what the table manager builds).
    as_dicts = [
        {"seat": r.seat, "user_id": r.user_id, "side": r.side, "score": r.score, "place": r.place}
        for r in good
    ]
    assert await store.results.finish(game_id, guild_id=1, family="pitch", results=as_dicts, rated=True)
    assert (await store.boards.player_stats(1, 1)).wins == 1


async def test_failure_mid_finish_writes_nothing(store):
    """A write that fails after ratings were updated rolls everything back (as a kill would)."""
    async with store.db.write() as tx:
        await tx.run(
            "CREATE TRIGGER boom BEFORE INSERT ON results WHEN NEW.score = 666"
            " BEGIN SELECT RAISE(ABORT, 'boom'); END"
        )
    game_id = await store_game(store, 1, [human(1), human(2)])
    with pytest.raises(StoreError, match="boom") as err:
        await store.results.finish(
            game_id,
            guild_id=1,
            family="pitch",
            results=[SeatResult(0, 1, 0, 1, 1), SeatResult(1, 2, 1, 666, 2)],
            rated=True,
        )
    assert isinstance(err.value.__cause__, sqlite3.IntegrityError)
    assert [await count(store, t) for t in ("results", "ratings", "rating_history")] == [0, 0, 0]
    assert (await store.games.load(game_id)).status == "playing"


async def test_rated_human_game_moves_ratings(store):
    await play_game(store, 1, [1, 2, 3], [1, 2, 3])
    winner, middle, loser = [await rating_of(store, 1, u) for u in (1, 2, 3)]
    assert winner[0] > 25 > loser[0]
    assert all(r[1] < 25 / 3 for r in (winner, middle, loser))  # everyone became more certain
    assert (winner[2:], middle[2:], loser[2:]) == ((1, 1), (1, 0), (1, 0))


async def test_unrated_computer_game_counts_games_and_wins_only(store):
    await play_game(store, 1, [1, None, 2, None], [1, 2, 3, 4], rated=False)
    mu, sigma, games, wins = await rating_of(store, 1, 1)
    assert (mu, sigma) == pytest.approx((25.0, 25 / 3)) and (games, wins) == (1, 1)
    assert (await rating_of(store, 1, 2))[2:] == (1, 0)
    assert await count(store, "ratings") == 2  # computers never get a rating row
    assert (await query(store, "SELECT COUNT(*) FROM results WHERE user_id IS NULL"))[0][0] == 2
    stats = await store.boards.player_stats(1, 1)
    assert (stats.games, stats.wins, stats.ratings[0].trend) == (1, 1, 0.0)
    # With the guild's "rate computer games" on, the caller passes rated=True and ratings move.
    await play_game(store, 1, [1, None], [1, 2], rated=True)
    assert (await rating_of(store, 1, 1))[0] > 25


async def test_computer_only_game_is_recorded_without_ratings(store):
    await play_game(store, 1, [None, None], [1, 2])
    assert await count(store, "results") == 2 and await count(store, "ratings") == 0


async def test_partners_are_rated_as_a_team(store):
    # Seats 0 and 2 against 1 and 3, as in partnership Pitch; side 0 wins.
    await play_game(
        store,
        1,
        [1, 2, 3, 4],
        [1, 2, 1, 2],
        sides=[0, 1, 0, 1],
        scores=[21, 14, 21, 14],
        variant="pitch-partnership",
    )
    r1, r2, r3, r4 = [await rating_of(store, 1, u) for u in (1, 2, 3, 4)]
    assert r1 == r3 and r2 == r4  # equal partners move together
    assert r1[0] > 25 > r2[0]
    assert (r1[2:], r2[2:]) == ((1, 1), (1, 0))
    standings = await store.boards.page(1, order="wins")
    assert [row.user_id for row in standings] == [1, 3, 2, 4]
    # Beating a strong team moves a rating further than beating a weak one would.
    await play_game(store, 1, [5, 2, 6, 4], [1, 2, 1, 2], sides=[0, 1, 0, 1])
    await play_game(store, 1, [7, 1, 8, 3], [1, 2, 1, 2], sides=[0, 1, 0, 1])
    assert (await rating_of(store, 1, 7))[0] > (await rating_of(store, 1, 5))[0]


async def test_ratings_are_per_family(store):
    await play_game(store, 1, [1, 2], [1, 2], family="pitch")
    await play_game(store, 1, [1, 2], [2, 1], variant="pinochle", family="pinochle")
    assert (await rating_of(store, 1, 1, "pitch"))[0] > 25 > (await rating_of(store, 1, 1, "pinochle"))[0]
    stats = await store.boards.player_stats(1, 1)
    assert sorted(r.family for r in stats.ratings) == ["pinochle", "pitch"]
