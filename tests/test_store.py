"""The store on real SQLite files: opening and migrations, the action log, results and ratings,
leaderboards, stats, leagues, settings and admin tools."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from bot.engine import Game, new_game
from bot.store import (
    MIGRATIONS_DIR,
    ActionOutOfOrder,
    GameNotFound,
    SeatResult,
    Store,
    StoreError,
    load_migrations,
)
from tests.store_helpers import computer, human, play_game
from tests.store_helpers import new_game as store_game

LATEST = load_migrations()[-1].version
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
async def store(tmp_path):
    opened = await Store.open(tmp_path / "tricknight.db")
    yield opened
    await opened.close()


def sql(path: Path, query: str, params=()) -> list[tuple]:
    """Read a database file directly, bypassing the store."""
    conn = sqlite3.connect(path)
    try:
        return conn.execute(query, params).fetchall()
    finally:
        conn.close()


# ----- opening and migrations -------------------------------------------------------------------


async def test_open_creates_folder_with_wal_and_foreign_keys(tmp_path):
    path = tmp_path / "deep" / "er" / "tricknight.db"
    store = await Store.open(path)
    try:
        assert path.exists()
        assert store.schema_version == LATEST
        assert await store._value("PRAGMA journal_mode") == "wal"
        assert await store._value("PRAGMA foreign_keys") == 1
        # The database itself refuses an action of a game that does not exist.
        with pytest.raises(sqlite3.IntegrityError):
            await store._run("INSERT INTO actions (game_id, idx, seat, action, at) VALUES (99, 0, 0, 'x', 0)")
    finally:
        await store.close()
    await store.close()  # closing twice is harmless
    assert sql(path, "PRAGMA user_version") == [(LATEST,)]
    assert sql(path, "PRAGMA journal_mode") == [("wal",)]


async def test_reopen_keeps_data(tmp_path):
    path = tmp_path / "t.db"
    async with await Store.open(path) as store:
        game_id = await store_game(store, 1, [human(5), human(6)])
        await store.append_action(game_id, 0, 0, "bid 2")
    async with await Store.open(path) as store:
        record = await store.load_game(game_id)
        assert record.actions == [(0, "bid 2")]


async def test_memory_database():
    async with await Store.open(":memory:") as store:
        await play_game(store, 1, [1, 2], [1, 2])
        assert [row.user_id for row in await store.leaderboard(1)] == [1, 2]


async def test_closed_store_refuses_work(tmp_path):
    store = await Store.open(tmp_path / "t.db")
    await store.close()
    with pytest.raises(StoreError, match="closed"):
        await store.guild_settings(1)


def build_version_1(path: Path) -> None:
    """A database exactly as Trick Night schema 1 left it, with data, without using the store."""
    first = load_migrations()[0]
    assert first.version == 1
    conn = sqlite3.connect(path, isolation_level=None)
    conn.executescript(f"BEGIN; {first.sql}; PRAGMA user_version = 1; COMMIT;")
    conn.execute(
        "INSERT INTO guilds (guild_id, turn_timeout_seconds, computer_delay_seconds, rate_computer_games,"
        " updated_at) VALUES (1, 120, 0.5, 1, 0)"
    )
    game = (
        "INSERT INTO games (id, guild_id, channel_id, host_id, variant, family, options, seed, players,"
        " seats, status, created_at, updated_at, finished_at) VALUES (?, 1, 10, 7, 'pitch', 'pitch', '{}',"
        " 42, 2, ?, ?, 0, 0, ?)"
    )
    seats = '[{"kind":"human","user_id":7,"name":"a"},{"kind":"human","user_id":8,"name":"b"}]'
    conn.execute(game, (1, seats, "ended", 100.0))
    conn.execute(game, (2, seats, "playing", None))
    conn.execute("INSERT INTO actions VALUES (2, 0, 0, 'bid 2', 5)")
    for seat, user, place in ((0, 7, 1), (1, 8, 2)):
        conn.execute(
            "INSERT INTO results VALUES (1, ?, ?, ?, ?, ?, 1, 'pitch', 'pitch', 100.0)",
            (seat, user, seat, 11 - seat * 4, place),
        )
        conn.execute(
            "INSERT INTO ratings VALUES (1, 'pitch', ?, ?, 8.0, ?, 1, ?)",
            (user, 26.0 - seat * 2, 2.0 - seat * 2, 1 - seat),
        )
    conn.close()


async def test_version_1_database_upgrades_in_place(tmp_path):
    path = tmp_path / "old.db"
    build_version_1(path)
    assert sql(path, "PRAGMA user_version") == [(1,)]

    async with await Store.open(path) as store:
        assert store.schema_version == LATEST
        # Old data is intact.
        settings = await store.guild_settings(1)
        assert (settings.turn_timeout_seconds, settings.computer_delay_seconds) == (120, 0.5)
        assert settings.rate_computer_games is True
        assert settings.default_options == {}
        ended = await store.load_game(1)
        assert ended.status == "ended" and ended.league_id is None
        [resumable] = await store.unfinished_games()
        assert resumable.id == 2 and resumable.actions == [(0, "bid 2")]
        board = await store.leaderboard(1)
        assert [(row.user_id, row.games, row.wins) for row in board] == [(7, 1, 1), (8, 1, 0)]
        stats = await store.player_stats(1, 7)
        assert (stats.games, stats.wins, stats.average_score) == (1, 1, 11.0)
        # What schema 2 added works on the upgraded file, with the old game finishing into a league.
        await store.update_guild_settings(1, default_options={"pitch": {"target": 21}})
        league = await store.start_league(1, "Upgrade night")
        await store.append_action(2, 1, 1, "pass")
        assert await store.finish_game(
            2,
            guild_id=1,
            family="pitch",
            results=[SeatResult(0, 7, 0, 3, 2), SeatResult(1, 8, 1, 11, 1)],
            rated=True,
        )
        _, standings = await store.end_league(1)
        assert [(row.user_id, row.wins) for row in standings] == [(8, 1), (7, 0)]
        assert (await store.load_game(2)).league_id == league.id
    assert sql(path, "PRAGMA user_version") == [(LATEST,)]


async def test_newer_database_is_refused_untouched(tmp_path):
    path = tmp_path / "t.db"
    async with await Store.open(path) as store:
        await play_game(store, 1, [1, 2], [1, 2])
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {LATEST + 7}")
    conn.close()
    before = path.read_bytes()
    with pytest.raises(StoreError) as err:
        await Store.open(path)
    message = str(err.value)
    assert f"newer Trick Night (schema {LATEST + 7}, this version knows {LATEST})" in message
    assert str(path) in message
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    "content",
    [
        b"DISCORD_TOKEN=abc\nthis is a text file, not a database\n",
        bytes(random.Random(3).randrange(256) for _ in range(8192)),
    ],
    ids=["text", "random-bytes"],
)
async def test_non_sqlite_file_is_refused_untouched(tmp_path, content):
    path = tmp_path / "tricknight.db"
    path.write_bytes(content)
    with pytest.raises(StoreError) as err:
        await Store.open(path)
    assert "is not a Trick Night database" in str(err.value)
    assert str(path) in str(err.value)
    assert path.read_bytes() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tricknight.db"]  # no -wal/-shm either


@pytest.mark.parametrize("user_version", [0, 2])
async def test_foreign_sqlite_database_is_refused_untouched(tmp_path, user_version):
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    conn.execute("INSERT INTO notes (text) VALUES ('keep me')")
    conn.execute(f"PRAGMA user_version = {user_version}")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(StoreError) as err:
        await Store.open(path)
    assert "is not a Trick Night database" in str(err.value) and "notes" in str(err.value)
    assert str(path) in str(err.value)
    assert path.read_bytes() == before


@pytest.mark.parametrize("where", ["after-header", "deep-inside"])
async def test_damaged_database_is_refused_at_start_up(tmp_path, where):
    path = tmp_path / "t.db"
    async with await Store.open(path) as store:
        for n in range(300):
            await play_game(store, 1, [n, n + 1000], [1, 2])
    data = bytearray(path.read_bytes())
    # Page 1 intact but garbage after it, or only two index/table pages near the end damaged
    # (which a plain open would not notice until a query touched them).
    span = slice(100, None) if where == "after-header" else slice(-3 * 4096, -4096)
    data[span] = random.Random(1).randbytes(len(data[span]))
    path.write_bytes(bytes(data))
    before = path.read_bytes()
    with pytest.raises(StoreError, match="damaged") as err:
        await Store.open(path)
    assert str(path) in str(err.value)
    assert path.read_bytes() == before


async def test_empty_file_becomes_a_new_database(tmp_path):
    path = tmp_path / "t.db"
    path.touch()
    async with await Store.open(path) as store:
        assert store.schema_version == LATEST


async def test_folder_as_database_is_refused(tmp_path):
    with pytest.raises(StoreError, match="is a folder"):
        await Store.open(tmp_path)


async def test_failed_migration_rolls_back_to_previous_version(tmp_path):
    folder = tmp_path / "migrations"
    folder.mkdir()
    shutil.copy(MIGRATIONS_DIR / "0001_initial.sql", folder)
    (folder / "0002_broken.sql").write_text("CREATE TABLE half_done (x INTEGER);\nCREATE TABLE oops (;\n")
    path = tmp_path / "t.db"
    with pytest.raises(StoreError, match="could not upgrade .* to schema 2"):
        await Store.open(path, migrations_dir=folder)
    assert sql(path, "PRAGMA user_version") == [(1,)]
    assert sql(path, "SELECT name FROM sqlite_master WHERE name = 'half_done'") == []
    # The real migrations then upgrade that same file.
    async with await Store.open(path) as store:
        assert store.schema_version == LATEST


def test_migration_numbering_is_checked(tmp_path):
    (tmp_path / "0001_a.sql").write_text("SELECT 1;")
    (tmp_path / "0003_c.sql").write_text("SELECT 1;")
    with pytest.raises(StoreError, match="skip or repeat number 0002"):
        load_migrations(tmp_path)
    (tmp_path / "notes.sql").write_text("")
    with pytest.raises(StoreError, match="not named like"):
        load_migrations(tmp_path)


# ----- games and the action log -----------------------------------------------------------------


async def test_game_round_trip_and_replay(store):
    engine = new_game("pitch", players=3, seed=99)
    seats = [human(1, "Ann"), computer("basic"), human(2, "Bo")]
    game_id = await store.create_game(
        guild_id=5,
        channel_id=50,
        host_id=1,
        variant="pitch",
        family=engine.family,
        options=dict(engine.options),
        seed=engine.seed,
        players=3,
        seats=seats,
    )
    await store.update_game(game_id, status="playing", message_id=777)
    rng = random.Random(4)
    for idx in range(12):
        seat = engine.to_act[0]
        action = rng.choice(engine.legal_actions(seat))
        engine.apply(seat, action)
        await store.append_action(game_id, idx, seat, str(action))
    record = await store.load_game(game_id)
    assert (record.guild_id, record.channel_id, record.host_id, record.message_id) == (5, 50, 1, 777)
    assert record.status == "playing" and record.seats == seats and record.players == 3
    assert record.is_unfinished
    rebuilt = Game.from_json(record.engine_record())
    assert rebuilt.to_json() == engine.to_json()
    assert rebuilt.public_view() == engine.public_view()
    assert json.loads(json.dumps(record.to_json()))["actions"] == [list(a) for a in record.actions]


async def test_update_game_fields_and_rules(store):
    game_id = await store_game(store, 1, [human(1), None], status="lobby")
    await store.update_game(game_id, seats=[human(1), human(2)], options={"target": 21}, seed=8, players=2)
    record = await store.load_game(game_id)
    assert record.seats == [human(1), human(2)] and record.options == {"target": 21} and record.seed == 8
    await store.update_game(game_id, message_id=5, host_id=2)  # other fields untouched
    record = await store.load_game(game_id)
    assert (record.options, record.message_id, record.host_id) == ({"target": 21}, 5, 2)
    with pytest.raises(StoreError, match="finish_game"):
        await store.update_game(game_id, status="ended")
    with pytest.raises(StoreError, match="status must be"):
        await store.update_game(game_id, status="paused")
    with pytest.raises(StoreError, match="already has a seat"):
        await store.update_game(game_id, seats=[human(1), human(1)])
    with pytest.raises(GameNotFound):
        await store.update_game(999, status="playing")
    await store.update_game(game_id, status="abandoned")
    with pytest.raises(StoreError, match="abandoned"):
        await store.update_game(game_id, status="playing")


async def test_create_game_validates(store):
    base = {
        "guild_id": 1,
        "channel_id": 2,
        "host_id": 3,
        "variant": "pitch",
        "family": "pitch",
        "options": {},
        "seed": 1,
        "players": 2,
        "seats": [human(1), computer()],
    }
    with pytest.raises(StoreError, match="human seat without an integer user_id"):
        await store.create_game(**{**base, "seats": [{"kind": "human", "user_id": "1"}]})
    with pytest.raises(StoreError, match="options cannot be saved"):
        await store.create_game(**{**base, "options": {"x": object()}})
    with pytest.raises(StoreError, match="seed"):
        await store.create_game(**{**base, "seed": 2**70})
    with pytest.raises(StoreError, match="lobby or playing"):
        await store.create_game(**{**base, "status": "ended"})


async def test_append_action_refuses_double_and_skipped_writes(store):
    game_id = await store_game(store, 1, [human(1), human(2)])
    await store.append_action(game_id, 0, 0, "bid 2")
    with pytest.raises(ActionOutOfOrder, match="next is number 1, not 0"):
        await store.append_action(game_id, 0, 0, "bid 2")
    with pytest.raises(ActionOutOfOrder):
        await store.append_action(game_id, 2, 1, "pass")
    await store.append_action(game_id, 1, 1, "pass")
    assert (await store.load_game(game_id)).actions == [(0, "bid 2"), (1, "pass")]
    with pytest.raises(GameNotFound):
        await store.append_action(12345, 0, 0, "pass")
    await store.finish_game(
        game_id,
        guild_id=1,
        family="pitch",
        results=[SeatResult(0, 1, 0, 7, 1), SeatResult(1, 2, 1, 3, 2)],
        rated=True,
    )
    with pytest.raises(StoreError, match="ended"):
        await store.append_action(game_id, 2, 0, "play 10H")


async def test_concurrent_writers_do_not_interleave(store):
    games = [await store_game(store, 1, [human(2 * n), human(2 * n + 1)], channel_id=n) for n in range(8)]

    async def play(game_id: int) -> None:
        for idx in range(15):
            await store.append_action(game_id, idx, idx % 2, f"a{idx}")

    await asyncio.gather(*(play(game_id) for game_id in games))
    for game_id in games:
        assert [a for _, a in (await store.load_game(game_id)).actions] == [f"a{i}" for i in range(15)]


async def test_cancelled_writer_leaves_no_partial_transaction(store):
    game_id = await store_game(store, 1, [human(1), human(2)])
    task = asyncio.create_task(
        store.finish_game(
            game_id,
            guild_id=1,
            family="pitch",
            results=[SeatResult(0, 1, 0, 7, 1), SeatResult(1, 2, 1, 3, 2)],
            rated=True,
        )
    )
    for _ in range(3):
        await asyncio.sleep(0)  # let it get into its transaction
    task.cancel()
    finished = True
    try:
        await task
    except asyncio.CancelledError:
        finished = False
    rows = await store._all("SELECT COUNT(*) FROM results")
    assert rows[0][0] == (2 if finished else 0)
    assert (await store.load_game(game_id)).status == ("ended" if finished else "playing")
    # The store keeps working either way.
    await store.append_action(await store_game(store, 1, [human(3), human(4)]), 0, 0, "pass")


async def test_unfinished_games_and_game_by_channel(store):
    lobby = await store_game(store, 1, [human(1), None], channel_id=10, status="lobby")
    playing = await store_game(store, 1, [human(2), human(3)], channel_id=11)
    await store.append_action(playing, 0, 0, "bid 2")
    abandoned = await store_game(store, 1, [human(4), human(5)], channel_id=12)
    await store.update_game(abandoned, status="abandoned")
    ended = await play_game(store, 1, [6, 7], [1, 2])
    unfinished = await store.unfinished_games()
    assert [g.id for g in unfinished] == [lobby, playing]
    assert unfinished[1].actions == [(0, "bid 2")] and unfinished[0].actions == []
    assert (await store.game_by_channel(10)).id == lobby
    assert await store.game_by_channel(12) is None
    assert await store.game_by_channel(999) is None
    assert (await store.load_game(ended)).status == "ended"
    with pytest.raises(GameNotFound):
        await store.load_game(4242)


# ----- results and ratings ----------------------------------------------------------------------


async def count(store: Store, table: str) -> int:
    return (await store._all(f"SELECT COUNT(*) FROM {table}"))[0][0]


async def rating_of(store: Store, guild: int, user: int, family: str = "pitch") -> tuple:
    rows = await store._all(
        "SELECT mu, sigma, games, wins FROM ratings WHERE guild_id = ? AND family = ? AND user_id = ?",
        (guild, family, user),
    )
    return tuple(rows[0]) if rows else ()


async def test_finish_game_is_idempotent(store):
    game_id = await store_game(store, 1, [human(1), human(2), human(3)])
    results = [SeatResult(0, 1, 0, 11, 1), SeatResult(1, 2, 1, 8, 2), SeatResult(2, 3, 2, 2, 3)]
    assert await store.finish_game(game_id, guild_id=1, family="pitch", results=results, rated=True)
    snapshot = [await count(store, t) for t in ("results", "ratings", "rating_history")]
    first = await rating_of(store, 1, 1)
    assert not await store.finish_game(game_id, guild_id=1, family="pitch", results=results, rated=True)
    assert not await store.finish_game(game_id, guild_id=1, family="pitch", results=results[:1], rated=False)
    assert [await count(store, t) for t in ("results", "ratings", "rating_history")] == snapshot == [3, 3, 3]
    assert await rating_of(store, 1, 1) == first
    assert first[2:] == (1, 1)
    record = await store.load_game(game_id)
    assert record.status == "ended" and record.finished_at is not None


async def test_finish_game_checks_its_input(store):
    game_id = await store_game(store, 1, [human(1), human(2)])
    good = [SeatResult(0, 1, 0, 1, 1), SeatResult(1, 2, 1, 0, 2)]
    with pytest.raises(StoreError, match="belongs to guild 1"):
        await store.finish_game(game_id, guild_id=2, family="pitch", results=good, rated=True)
    with pytest.raises(StoreError, match="seat appears twice"):
        await store.finish_game(game_id, guild_id=1, family="pitch", results=good + good[:1], rated=True)
    with pytest.raises(StoreError, match="two seats"):
        await store.finish_game(
            game_id, guild_id=1, family="pitch", results=[good[0], SeatResult(1, 1, 1, 0, 2)], rated=True
        )
    with pytest.raises(StoreError, match="seats 0-1"):
        await store.finish_game(
            game_id, guild_id=1, family="pitch", results=[*good, SeatResult(5, 9, 2, 0, 3)], rated=True
        )
    with pytest.raises(GameNotFound):
        await store.finish_game(404, guild_id=1, family="pitch", results=good, rated=True)
    assert await count(store, "results") == 0 and await count(store, "ratings") == 0
    with pytest.raises(StoreError, match="bad result"):
        await store.finish_game(
            game_id, guild_id=1, family="pitch", results=[good[0], SeatResult(1, 2, 1, 0, 0)], rated=True
        )
    with pytest.raises(StoreError, match="needs seat, user_id"):
        await store.finish_game(game_id, guild_id=1, family="pitch", results=[{"seat": 0}], rated=True)
    abandoned = await store_game(store, 1, [human(1), human(2)])
    await store.update_game(abandoned, status="abandoned")
    assert not await store.finish_game(abandoned, guild_id=1, family="pitch", results=good, rated=True)
    # Plain dicts with the same keys work too (what the table manager builds).
    as_dicts = [
        {"seat": r.seat, "user_id": r.user_id, "side": r.side, "score": r.score, "place": r.place}
        for r in good
    ]
    assert await store.finish_game(game_id, guild_id=1, family="pitch", results=as_dicts, rated=True)
    assert (await store.player_stats(1, 1)).wins == 1


async def test_failure_mid_finish_writes_nothing(store):
    """A write that fails after ratings were updated rolls everything back (as a kill would)."""
    await store._run(
        "CREATE TRIGGER boom BEFORE INSERT ON results WHEN NEW.score = 666"
        " BEGIN SELECT RAISE(ABORT, 'boom'); END"
    )
    game_id = await store_game(store, 1, [human(1), human(2)])
    with pytest.raises(StoreError, match="boom") as err:
        await store.finish_game(
            game_id,
            guild_id=1,
            family="pitch",
            results=[SeatResult(0, 1, 0, 1, 1), SeatResult(1, 2, 1, 666, 2)],
            rated=True,
        )
    assert isinstance(err.value.__cause__, sqlite3.IntegrityError)
    assert [await count(store, t) for t in ("results", "ratings", "rating_history")] == [0, 0, 0]
    assert (await store.load_game(game_id)).status == "playing"


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
    assert (await store._all("SELECT COUNT(*) FROM results WHERE user_id IS NULL"))[0][0] == 2
    stats = await store.player_stats(1, 1)
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
    standings = await store.leaderboard(1, order="wins")
    assert [row.user_id for row in standings] == [1, 3, 2, 4]
    # Beating a strong team moves a rating further than beating a weak one would.
    await play_game(store, 1, [5, 2, 6, 4], [1, 2, 1, 2], sides=[0, 1, 0, 1])
    await play_game(store, 1, [7, 1, 8, 3], [1, 2, 1, 2], sides=[0, 1, 0, 1])
    assert (await rating_of(store, 1, 7))[0] > (await rating_of(store, 1, 5))[0]


async def test_ratings_are_per_family(store):
    await play_game(store, 1, [1, 2], [1, 2], family="pitch")
    await play_game(store, 1, [1, 2], [2, 1], variant="pinochle", family="pinochle")
    assert (await rating_of(store, 1, 1, "pitch"))[0] > 25 > (await rating_of(store, 1, 1, "pinochle"))[0]
    stats = await store.player_stats(1, 1)
    assert sorted(r.family for r in stats.ratings) == ["pinochle", "pitch"]


# ----- leaderboards -----------------------------------------------------------------------------


async def test_leaderboards_are_per_guild(store):
    await play_game(store, 1, [1, 2], [1, 2])
    await play_game(store, 2, [1, 3], [2, 1])
    await play_game(store, 2, [3, 4], [1, 2])
    one = await store.leaderboard(1)
    two = await store.leaderboard(2)
    assert [(r.user_id, r.games, r.wins) for r in one] == [(1, 1, 1), (2, 1, 0)]
    assert two[0].user_id == 3 and {r.user_id for r in two} == {1, 3, 4}
    assert next(r for r in two if r.user_id == 1).wins == 0  # guild 1's win does not leak in
    assert await store.leaderboard_count(1) == 2 and await store.leaderboard_count(2) == 3
    assert await store.leaderboard(3) == [] and await store.leaderboard_count(3) == 0
    assert (await store.player_stats(2, 1)).games == 1


async def test_leaderboard_paging(store):
    rng = random.Random(5)
    for _ in range(40):
        players = rng.sample(range(100, 125), 4)
        await play_game(store, 1, players, [1, 2, 3, 4])
    total = await store.leaderboard_count(1)
    assert total == len({row.user_id for row in await store.leaderboard(1, limit=100)})
    for order in ("rating", "wins", "games", "winpct"):
        whole = await store.leaderboard(1, order=order, limit=100)
        pages = []
        for offset in range(0, total, 7):
            pages += await store.leaderboard(1, order=order, limit=7, offset=offset)
        assert pages == whole
        assert [row.rank for row in pages] == list(range(1, total + 1))
    assert await store.leaderboard(1, offset=total) == []
    with pytest.raises(StoreError, match="order must be"):
        await store.leaderboard(1, order="luck")
    with pytest.raises(StoreError, match="limit"):
        await store.leaderboard(1, limit=0)


async def test_leaderboard_orders_and_deterministic_ties(store):
    # Users 30, 10, 20 always share one side, so their ratings, games and wins are all equal.
    for _ in range(3):
        await play_game(store, 1, [30, 10, 20, 1], [1, 1, 1, 2], sides=[0, 0, 0, 1])
    await play_game(store, 1, [5, 6], [1, 2])  # 1 game, 1 win: best win %
    await play_game(store, 1, [7, 8], [2, 1])
    await play_game(store, 1, [7, 9], [2, 1])  # user 7: 2 games, 0 wins
    by_rating = await store.leaderboard(1, limit=20)
    tied = [r.user_id for r in by_rating if r.user_id in (10, 20, 30)]
    assert tied == [10, 20, 30]
    positions = [r.user_id for r in by_rating]
    assert positions.index(10) + 2 == positions.index(30)  # adjacent, ordered by user id
    by_wins = [(r.user_id, r.wins, r.games) for r in await store.leaderboard(1, order="wins", limit=20)]
    assert by_wins[:3] == [(10, 3, 3), (20, 3, 3), (30, 3, 3)]
    # 5, 8, 9: one win in one game each -> tie on wins and games -> user id.
    assert [u for u, *_ in by_wins[3:6]] == [5, 8, 9]
    by_games = [(r.user_id, r.games) for r in await store.leaderboard(1, order="games", limit=20)]
    assert by_games[:4] == [(10, 3), (20, 3), (30, 3), (1, 3)]  # 1 lost all three: fewer wins
    by_pct = [(r.user_id, r.win_pct) for r in await store.leaderboard(1, order="winpct", limit=20)]
    # 100%: the 3-game players first (more wins), then 5, 8, 9; 0% at the end with more games first.
    assert [u for u, _ in by_pct[:6]] == [10, 20, 30, 5, 8, 9]
    assert [u for u, _ in by_pct[6:]] == [1, 7, 6]
    assert by_pct[0][1] == 100.0 and by_pct[-1][1] == 0.0
    # Same query, same answer.
    assert await store.leaderboard(1, limit=20) == by_rating


async def test_leaderboard_family_filter(store):
    await play_game(store, 1, [1, 2], [1, 2], family="pitch")
    await play_game(store, 1, [1, 3], [1, 2], variant="pinochle", family="pinochle")
    pitch = await store.leaderboard(1, family="pitch")
    assert {r.user_id for r in pitch} == {1, 2}
    every = await store.leaderboard(1)
    one = next(r for r in every if r.user_id == 1)
    assert (one.games, one.wins) == (2, 2)
    assert one.rating == max(
        r.rating for r in [*(await store.leaderboard(1, family="pinochle")), *pitch] if r.user_id == 1
    )
    assert await store.leaderboard_count(1, family="pinochle") == 2


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
    stats = await store.player_stats(1, 1)
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
    history = await store._all(
        "SELECT ordinal_before, ordinal FROM rating_history WHERE user_id = 1 ORDER BY finished_at"
    )
    assert pitch.rating == pytest.approx(history[-1][1])
    assert pitch.trend == pytest.approx(history[-1][1] - history[-10][0])
    assert pitch.trend < 0  # five losses in a row
    await play_game(store, 1, [1, 2], [1, 2], finished_at=3000.0)
    await play_game(store, 1, [1, 2], [1, 2], finished_at=3001.0)
    assert (await store.player_stats(1, 1)).current_streak == 2
    assert stats.to_json()["recent"][0]["variant"] == "pitch"


async def test_stats_of_a_newcomer(store):
    stats = await store.player_stats(1, 77)
    assert (stats.games, stats.wins, stats.win_pct, stats.best_streak, stats.current_streak) == (
        0,
        0,
        0.0,
        0,
        0,
    )
    assert stats.average_score is None and stats.favourite_variant is None
    assert stats.ratings == [] and stats.recent == []


# ----- leagues ------------------------------------------------------------------------------------


async def test_league_lifecycle(store):
    now = time.time()
    await play_game(store, 1, [1, 2], [1, 2], finished_at=now - 100)  # before the league
    assert await store.active_league(1) is None
    league = await store.start_league(1, "  Friday night  ", started_at=now - 50)
    assert league.name == "Friday night" and league.running
    assert (await store.active_league(1)) == league
    with pytest.raises(StoreError, match="'Friday night' is still running"):
        await store.start_league(1, "Another")
    await store.start_league(2, "Other guild's league")  # guilds are independent
    await play_game(store, 1, [2, 3], [1, 2], finished_at=now - 10)
    await play_game(store, 1, [2, 1], [1, 2], scores=[11, 9], finished_at=now - 5)
    await play_game(store, 1, [1, 3], [1, 2], scores=[7, 1], finished_at=now - 4)
    await play_game(store, 1, [None, 3], [1, 2], rated=False, finished_at=now - 3)
    await play_game(store, 2, [1, 2], [1, 2], finished_at=now - 2)  # other guild
    standings = await store.league_standings(league.id)
    assert [(r.user_id, r.wins, r.games, r.points) for r in standings] == [
        (2, 2, 2, 21),
        (1, 1, 2, 16),
        (3, 0, 3, 11),
    ]
    board = await store.leaderboard(1, league_id=league.id, order="wins")
    assert [(r.user_id, r.wins, r.games) for r in board] == [(2, 2, 2), (1, 1, 2), (3, 0, 3)]
    assert await store.leaderboard_count(1, league_id=league.id) == 3
    with pytest.raises(StoreError, match="no league"):
        await store.leaderboard(2, league_id=league.id)  # another guild's league
    ended, final = await store.end_league(1)
    assert not ended.running and ended.ended_at is not None and final == standings
    await play_game(store, 1, [3, 1], [1, 2])  # after the league: not counted
    assert await store.league_standings(league.id) == standings
    assert await store.active_league(1) is None
    with pytest.raises(StoreError, match="no league is running"):
        await store.end_league(1)
    second = await store.start_league(1, "Next week")
    assert [lg.id for lg in await store.leagues(1)] == [second.id, league.id]
    assert (await store.league(league.id)).ended_at == ended.ended_at
    assert await store.league_standings(second.id) == []
    with pytest.raises(StoreError, match="no league 999"):
        await store.league_standings(999)


async def test_league_for_one_family_and_planned_end(store):
    now = time.time()
    league = await store.start_league(1, "Pinochle only", family="pinochle", ends_at=now + 3600)
    await play_game(store, 1, [1, 2], [1, 2], family="pitch")
    await play_game(store, 1, [1, 2], [2, 1], variant="pinochle", family="pinochle")
    await play_game(store, 1, [1, 2], [2, 1], variant="pinochle", family="pinochle", finished_at=now + 7200)
    assert [(r.user_id, r.wins, r.games) for r in await store.league_standings(league.id)] == [
        (2, 1, 1),
        (1, 0, 1),
    ]
    assert await store.due_leagues(now) == []
    assert [lg.id for lg in await store.due_leagues(now + 3600)] == [league.id]
    with pytest.raises(StoreError, match="end after it starts"):
        await store.start_league(3, "Backwards", ends_at=now - 1)
    with pytest.raises(StoreError, match="name"):
        await store.start_league(3, "   ")


async def test_overdue_league_closes_at_its_planned_end(store):
    start = time.time() - 100
    await store.start_league(1, "Short", started_at=start, ends_at=start + 10)
    ended, _ = await store.end_league(1)
    assert ended.ended_at == start + 10


# ----- settings -----------------------------------------------------------------------------------


async def test_guild_settings_defaults_updates_and_validation(tmp_path):
    path = tmp_path / "t.db"
    async with await Store.open(path, default_computer_delay=1.0) as store:
        settings = await store.guild_settings(9)
        assert (settings.turn_timeout_seconds, settings.computer_delay_seconds) == (300, 1.0)
        assert settings.rate_computer_games is False and settings.default_options == {}
        updated = await store.update_guild_settings(
            9,
            turn_timeout_seconds=0,
            computer_delay_seconds=2,
            rate_computer_games=True,
            default_options={"pitch": {"smudge": True, "target": 21}},
        )
        assert updated.default_options == {"pitch": {"smudge": True, "target": 21}}
        assert updated.computer_delay_seconds == 2.0 and isinstance(updated.computer_delay_seconds, float)
        await store.update_guild_settings(9, computer_delay_seconds=0.25)
        assert (await store.guild_settings(8)).turn_timeout_seconds == 300  # other guilds unaffected
        refused = [
            {"turn_timeout_seconds": -1},
            {"turn_timeout_seconds": "300"},
            {"turn_timeout_seconds": True},
            {"turn_timeout_seconds": 10**9},
            {"computer_delay_seconds": float("nan")},
            {"computer_delay_seconds": -0.5},
            {"rate_computer_games": "yes"},
            {"default_options": ["pitch"]},
            {"default_options": {1: {}}},
            {"default_options": {"pitch": ["target", 21]}},
        ]
        for change in refused:
            with pytest.raises(StoreError):
                await store.update_guild_settings(9, **change)
        with pytest.raises(StoreError, match="no guild setting 'colour'"):
            await store.update_guild_settings(9, colour="blue")
        with pytest.raises(StoreError, match="cannot be saved"):
            await store.update_guild_settings(9, default_options={"pitch": {"target": object()}})
    async with await Store.open(path) as store:
        settings = await store.guild_settings(9)
        assert settings.to_json() == {
            "guild_id": 9,
            "turn_timeout_seconds": 0,
            "computer_delay_seconds": 0.25,
            "rate_computer_games": True,
            "default_options": {"pitch": {"smudge": True, "target": 21}},
        }


# ----- admin --------------------------------------------------------------------------------------


async def test_reset_leaderboard(store):
    await play_game(store, 1, [1, 2], [1, 2], family="pitch")
    done = await play_game(store, 1, [1, 2], [1, 2], variant="pinochle", family="pinochle")
    await play_game(store, 2, [1, 2], [1, 2])
    assert await store.reset_leaderboard(1, family="pinochle") == 2
    assert await store.leaderboard(1, family="pinochle") == []
    assert await store.leaderboard_count(1, family="pitch") == 2
    assert await store.reset_leaderboard(1) == 2
    assert await store.leaderboard(1) == [] and (await store.player_stats(1, 1)).games == 0
    assert await store.leaderboard_count(2) == 2  # other guild untouched
    # The games stay ended: finishing one again after a reset still records nothing.
    assert not await store.finish_game(
        done, guild_id=1, family="pinochle", results=[SeatResult(0, 1, 0, 1, 1)], rated=True
    )


async def test_export_csv(store):
    league = await store.start_league(1, "L")
    await play_game(store, 1, [1, None], [2, 1], scores=[-3, 11])
    seats = [human(2, '=HYPERLINK("http://x")'), human(3, "Bo, Jr.")]
    game_id = await store_game(store, 1, seats)
    await store.finish_game(
        game_id,
        guild_id=1,
        family="pitch",
        results=[SeatResult(0, 2, 0, 7, 1), SeatResult(1, 3, 1, 2, 2)],
        rated=True,
    )
    await play_game(store, 2, [9, 8], [1, 2])  # another guild: not exported
    rows = list(csv.DictReader(io.StringIO(await store.export_csv(1))))
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
    assert rows[1]["user_id"] == "" and rows[1]["player"] == "computer (basic)" and rows[1]["won"] == "1"
    assert rows[2]["player"].startswith("'=")  # no spreadsheet formula
    assert rows[3]["player"] == "Bo, Jr." and (rows[3]["seat"], rows[3]["side"]) == ("2", "2")
    assert {row["league_id"] for row in rows} == {str(league.id)}
    assert rows[0]["finished_at"].endswith("+00:00")
    assert (await store.export_csv(5)).count("\n") == 1  # just the header


# ----- crash safety -------------------------------------------------------------------------------

WRITER = textwrap.dedent(
    """
    import asyncio, random, sys
    sys.path.insert(0, {root!r})
    from bot.store import SeatResult, Store

    async def main():
        store = await Store.open({path!r})
        rng = random.Random()
        print("ready", flush=True)
        while True:
            users = rng.sample(range(1, 13), 4)
            seats = [{{"kind": "human", "user_id": u, "name": str(u)}} for u in users]
            game = await store.create_game(guild_id=1, channel_id=1, host_id=users[0], variant="pitch",
                family="pitch", options={{}}, seed=1, players=4, seats=seats, status="playing")
            for idx in range(rng.randrange(1, 8)):
                await store.append_action(game, idx, idx % 4, "pass")
            places = [1, 2, 1, 2]
            await store.finish_game(game, guild_id=1, family="pitch", rated=True, results=[
                SeatResult(s, u, s % 2, 10, places[s]) for s, u in enumerate(users)])

    asyncio.run(main())
    """
)


@pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")
async def test_killed_writer_leaves_a_consistent_database(tmp_path):
    path = tmp_path / "kill.db"
    script = tmp_path / "writer.py"
    script.write_text(WRITER.format(root=str(ROOT), path=str(path)))
    for round_ in range(3):
        proc = await asyncio.create_subprocess_exec(sys.executable, str(script), stdout=subprocess.PIPE)
        assert proc.stdout is not None
        assert (await proc.stdout.readline()).strip() == b"ready"
        await asyncio.sleep(0.3 + 0.2 * round_)
        proc.send_signal(signal.SIGKILL)
        await proc.wait()
        async with await Store.open(path) as store:
            ended = await store._all("SELECT id FROM games WHERE status = 'ended'")
            with_results = await store._all("SELECT DISTINCT game_id FROM results")
            assert {r[0] for r in ended} == {r[0] for r in with_results}
            assert await count(store, "results") == 4 * len(ended)
            # Every rating row's games equals that player's results: no result half-written.
            mismatched = await store._all(
                "SELECT r.user_id FROM ratings r WHERE r.games != (SELECT COUNT(*) FROM results s"
                " WHERE s.guild_id = r.guild_id AND s.user_id = r.user_id)"
            )
            assert mismatched == []
            gaps = await store._all(
                "SELECT game_id FROM actions GROUP BY game_id HAVING MAX(idx) + 1 != COUNT(*)"
            )
            assert gaps == []
    assert len(ended) > 0
