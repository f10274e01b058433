"""The database file: opening, refusing foreign, damaged or newer files, migrations, the lock and
transactions, and a writer killed mid-write."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot.store import SeatResult, Store, StoreError, Tx, load_migrations, migrations_dir
from tests.store.helpers import LATEST, ROOT, count, human, play_game, query, sql
from tests.store.helpers import new_game as store_game


async def test_open_creates_folder_with_wal_and_foreign_keys(tmp_path):
    path = tmp_path / "deep" / "er" / "tricknight.db"
    store = await Store.open(path)
    try:
        assert path.exists()
        assert store.schema_version == LATEST
        assert await store.db.read(Tx.value, "PRAGMA journal_mode") == "wal"
        assert await store.db.write(Tx.value, "PRAGMA foreign_keys") == 1
        # The database itself refuses an action of a game that does not exist.
        with pytest.raises(StoreError, match="nothing of this change was saved") as err:
            await store.db.write(
                Tx.run, "INSERT INTO actions (game_id, idx, seat, action, at) VALUES (99, 0, 0, 'x', 0)"
            )
        assert isinstance(err.value.__cause__, sqlite3.IntegrityError)
    finally:
        await store.close()
    await store.close()  # closing twice is harmless
    assert sql(path, "PRAGMA user_version") == [(LATEST,)]
    assert sql(path, "PRAGMA journal_mode") == [("wal",)]


async def test_reopen_keeps_data(tmp_path):
    path = tmp_path / "t.db"
    async with await Store.open(path) as store:
        game_id = await store_game(store, 1, [human(5), human(6)])
        await store.games.append_action(game_id, 0, 0, "bid 2")
    async with await Store.open(path) as store:
        record = await store.games.load(game_id)
        assert record.actions == [(0, "bid 2")]


async def test_memory_database():
    async with await Store.open(":memory:") as store:
        await play_game(store, 1, [1, 2], [1, 2])
        assert [row.user_id for row in await store.boards.page(1)] == [1, 2]


async def test_closed_store_refuses_work(tmp_path):
    store = await Store.open(tmp_path / "t.db")
    await store.close()
    with pytest.raises(StoreError, match="closed"):
        await store.settings.get(1)


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
        settings = await store.settings.get(1)
        assert (settings.turn_timeout_seconds, settings.computer_delay_seconds) == (120, 0.5)
        assert settings.rate_computer_games is True
        assert settings.default_options == {}
        ended = await store.games.load(1)
        assert ended.status == "ended" and ended.league_id is None
        [resumable] = await store.games.unfinished()
        assert resumable.id == 2 and resumable.actions == [(0, "bid 2")]
        board = await store.boards.page(1)
        assert [(row.user_id, row.games, row.wins) for row in board] == [(7, 1, 1), (8, 1, 0)]
        stats = await store.boards.player_stats(1, 7)
        assert (stats.games, stats.wins, stats.average_score) == (1, 1, 11.0)
        # What schema 2 added works on the upgraded file, with the old game finishing into a league.
        await store.settings.update(1, default_options={"pitch": {"target": 21}})
        league = await store.leagues.start(1, "Upgrade night")
        await store.games.append_action(2, 1, 1, "pass")
        assert await store.results.finish(
            2,
            guild_id=1,
            family="pitch",
            results=[SeatResult(0, 7, 0, 3, 2), SeatResult(1, 8, 1, 11, 1)],
            rated=True,
        )
        _, standings = await store.leagues.end(1)
        assert [(row.user_id, row.wins) for row in standings] == [(8, 1), (7, 0)]
        assert (await store.games.load(2)).league_id == league.id
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
    shutil.copy(migrations_dir() / "0001_initial.sql", folder)
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


async def test_concurrent_writers_do_not_interleave(store):
    games = [await store_game(store, 1, [human(2 * n), human(2 * n + 1)], channel_id=n) for n in range(8)]

    async def play(game_id: int) -> None:
        for idx in range(15):
            await store.games.append_action(game_id, idx, idx % 2, f"a{idx}")

    await asyncio.gather(*(play(game_id) for game_id in games))
    for game_id in games:
        assert [a for _, a in (await store.games.load(game_id)).actions] == [f"a{i}" for i in range(15)]


async def test_reentering_a_transaction_is_refused_not_deadlocked(store):
    """Code inside a transaction must take its tx: a nested read()/write() fails at once."""
    for outer in (store.db.read, store.db.write):
        for inner in (store.db.read, store.db.write):

            def nested(tx, inner=inner):
                tx.value("SELECT 1")
                inner(Tx.value, "SELECT 1")

            with pytest.raises(RuntimeError, match="pass its tx down"):
                await outer(nested)
    # The store still works.
    await store.db.write(
        Tx.run, "INSERT INTO guilds (guild_id, turn_timeout_seconds, updated_at) VALUES (1, 60, 0)"
    )
    assert (await store.settings.get(1)).turn_timeout_seconds == 60


async def test_a_tx_is_dead_after_its_function(store):
    kept = []

    def keep(tx):
        kept.append(tx)
        return tx.value("SELECT 41 + 1")

    assert await store.db.read(keep) == 42
    with pytest.raises(StoreError, match="transaction is over"):
        kept[0].all("SELECT 1")


async def test_a_failed_write_rolls_back_everything_in_it(store):
    def twice(tx):
        tx.run("INSERT INTO guilds (guild_id, updated_at) VALUES (5, 0)")
        tx.run("INSERT INTO guilds (guild_id, updated_at) VALUES (5, 0)")  # duplicate key

    with pytest.raises(StoreError, match="nothing of this change was saved"):
        await store.db.write(twice)
    assert await count(store, "guilds") == 0

    def then_fail(tx):
        tx.run("INSERT INTO guilds (guild_id, updated_at) VALUES (6, 0)")
        raise ValueError("not SQL")

    with pytest.raises(ValueError, match="not SQL"):
        await store.db.write(then_fail)
    assert await count(store, "guilds") == 0


async def test_writes_queued_together_commit_together_and_fail_alone(store):
    """Group commit: concurrent writes share transactions, yet a failing one rolls back alone."""

    def insert(tx, guild_id, fail):
        tx.run("INSERT INTO guilds (guild_id, updated_at) VALUES (?, 0)", (guild_id,))
        if fail:
            raise StoreError(f"refused {guild_id}")
        return guild_id

    store.db.stats.reset()
    outcomes = await asyncio.gather(
        *(store.db.write(insert, n, n % 5 == 0) for n in range(1, 41)), return_exceptions=True
    )
    assert [o for o in outcomes if isinstance(o, StoreError)] == [
        o for o in outcomes if not isinstance(o, int)
    ]
    assert sorted(o for o in outcomes if isinstance(o, int)) == [n for n in range(1, 41) if n % 5]
    assert [r[0] for r in await query(store, "SELECT guild_id FROM guilds ORDER BY guild_id")] == [
        n for n in range(1, 41) if n % 5
    ]
    assert store.db.stats.snapshot()["commits"] < 40  # some writes shared a commit


async def test_cancelled_writer_leaves_no_partial_transaction(store):
    game_id = await store_game(store, 1, [human(1), human(2)])
    task = asyncio.create_task(
        store.results.finish(
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
    with contextlib.suppress(asyncio.CancelledError):
        await task
    await store.db.write(Tx.value, "SELECT 1")  # the writes queued before this one are done
    # All of it or none of it: the results exactly when the game is ended.
    rows = await query(store, "SELECT COUNT(*) FROM results")
    assert rows[0][0] in (0, 2)
    assert (await store.games.load(game_id)).status == ("ended" if rows[0][0] else "playing")
    # The store keeps working either way.
    await store.games.append_action(await store_game(store, 1, [human(3), human(4)]), 0, 0, "pass")


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
            game = await store.games.create(guild_id=1, channel_id=1, host_id=users[0], variant="pitch",
                family="pitch", options={{}}, seed=1, players=4, seats=seats, status="playing")
            for idx in range(rng.randrange(1, 8)):
                await store.games.append_action(game, idx, idx % 4, "pass")
            places = [1, 2, 1, 2]
            await store.results.finish(game, guild_id=1, family="pitch", rated=True, results=[
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
            ended = await query(store, "SELECT id FROM games WHERE status = 'ended'")
            with_results = await query(store, "SELECT DISTINCT game_id FROM results")
            assert {r[0] for r in ended} == {r[0] for r in with_results}
            assert await count(store, "results") == 4 * len(ended)
            # Every rating row's games equals that player's results: no result half-written.
            mismatched = await query(
                store,
                "SELECT r.user_id FROM ratings r WHERE r.games != (SELECT COUNT(*) FROM results s"
                " WHERE s.guild_id = r.guild_id AND s.user_id = r.user_id)",
            )
            assert mismatched == []
            gaps = await query(
                store, "SELECT game_id FROM actions GROUP BY game_id HAVING MAX(idx) + 1 != COUNT(*)"
            )
            assert gaps == []
    assert len(ended) > 0


# ----- start-up tells a locked, full, read-only and damaged database apart ----------------------------


def first_migration_only(tmp_path: Path) -> Path:
    folder = tmp_path / "migrations-1"
    folder.mkdir()
    shutil.copy(migrations_dir() / "0001_initial.sql", folder)
    return folder


async def test_a_database_locked_by_another_program_is_called_locked_not_damaged(tmp_path, monkeypatch):
    path = tmp_path / "t.db"
    async with await Store.open(path, migrations_dir=first_migration_only(tmp_path)):
        pass  # schema 1: the next start must write (upgrade) it
    monkeypatch.setattr("bot.store.sqlite.STARTUP_BUSY_MS", 200)
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(StoreError, match="is locked by another program") as err:
            await Store.open(path)
        assert "damaged" not in str(err.value)
    finally:
        blocker.rollback()
        blocker.close()
    assert sql(path, "PRAGMA user_version") == [(1,)]  # left untouched


async def test_a_full_disk_at_start_up_is_called_full(tmp_path):
    folder = first_migration_only(tmp_path)
    # No page may be added to the file while upgrading, as on a full disk.
    (folder / "0002_grow.sql").write_text("PRAGMA max_page_count = 1;\nCREATE TABLE more (x INTEGER);\n")
    path = tmp_path / "t.db"
    with pytest.raises(StoreError, match="is full") as err:
        await Store.open(path, migrations_dir=folder)
    assert "damaged" not in str(err.value)


async def test_a_read_only_database_is_called_read_only(tmp_path, monkeypatch):
    path = tmp_path / "t.db"
    async with await Store.open(path):
        pass
    real_access = os.access
    # (the tests run as root, who may write any file: ask os.access what another user would get)
    monkeypatch.setattr(
        "bot.store.sqlite.os.access", lambda p, mode: False if Path(p) == path else real_access(p, mode)
    )
    with pytest.raises(StoreError, match="read-only for this user") as err:
        await Store.open(path)
    assert "damaged" not in str(err.value)
