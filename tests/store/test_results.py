"""Finishing games: results, ratings and league credit in one transaction, idempotent."""

from __future__ import annotations

import pytest

from bot.store import GameNotFound, SeatResult, StoreError
from bot.store.ratings import computer_player
from tests.store.helpers import computer, count, human, play_game, query, rating_of, refuse_scores_of
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
    await refuse_scores_of(store, 666)
    game_id = await store_game(store, 1, [human(1), human(2)])
    with pytest.raises(StoreError, match="boom") as err:
        await store.results.finish(
            game_id,
            guild_id=1,
            family="pitch",
            results=[SeatResult(0, 1, 0, 1, 1), SeatResult(1, 2, 1, 666, 2)],
            rated=True,
        )
    assert err.value.__cause__ is not None  # the driver's own error, kept
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


async def test_a_rated_game_rates_each_computer_level_as_one_player(store):
    hard, easy = computer_player("hard"), computer_player("basic")
    seats = [human(1), computer("hard"), human(2), computer("hard")]
    game_id = await store_game(store, 1, seats)
    results = [
        SeatResult(0, 1, 0, 5, 2),
        SeatResult(1, None, 1, 11, 1, level="hard"),
        SeatResult(2, 2, 0, 5, 2),
        SeatResult(3, None, 1, 11, 1, level="hard"),
    ]
    assert await store.results.finish(game_id, guild_id=1, family="pitch", results=results, rated=True)
    mu, sigma, games, wins = await rating_of(store, 1, hard)
    assert mu > 25 and sigma < 25 / 3 and (games, wins) == (1, 1)  # one player, one game, one win
    assert (await rating_of(store, 1, 1))[0] < 25
    history = await query(store, "SELECT user_id, rated FROM rating_history WHERE game_id = ?", (game_id,))
    assert sorted(tuple(row) for row in history) == [(hard, 1), (1, 1), (2, 1)]
    # Results keep a computer seat without a user id: league standings and /stats list people only.
    assert (await query(store, "SELECT COUNT(*) FROM results WHERE user_id IS NULL"))[0][0] == 2
    board = await store.boards.page(1)
    assert board[0].user_id == hard and {row.user_id for row in board} == {hard, 1, 2}
    # An unrated game (the guild does not rate computer games) leaves the levels' players alone.
    game_id = await store_game(store, 1, [human(1), computer("basic")])
    unrated = [SeatResult(0, 1, 0, 11, 1), SeatResult(1, None, 1, 5, 2, level="basic")]
    assert await store.results.finish(game_id, guild_id=1, family="pitch", results=unrated, rated=False)
    assert await rating_of(store, 1, easy) == ()
    assert (await rating_of(store, 1, hard))[2] == 1


@pytest.mark.parametrize(
    "bad",
    [
        {"seat": 0, "user_id": -2, "side": 0, "score": 1, "place": 1},  # a computer level's id as a person
        {"seat": 0, "user_id": 5, "side": 0, "score": 1, "place": 1, "level": "hard"},  # a person, a level
        {"seat": 0, "user_id": None, "side": 0, "score": 1, "place": 1, "level": 3},
    ],
)
async def test_a_seat_result_mixing_people_and_computer_levels_is_refused(store, bad):
    game_id = await store_game(store, 1, [human(5), computer()])
    other = {"seat": 1, "user_id": None, "side": 1, "score": 0, "place": 2}
    with pytest.raises(StoreError, match="bad result"):
        await store.results.finish(game_id, guild_id=1, family="pitch", results=[bad, other], rated=True)
    assert await count(store, "results") == 0
