"""``tricknight migrate-store``: a club's SQLite database copied to PostgreSQL loses nothing.

The club (``tests/store/club.py``) holds every kind of record, made by the table manager and the
store's APIs. After the migration the public Store API gives the same answers on both sides
(leaderboards in every order, /history, league standings, season boards, duplicate events,
settings, preferences) and every game replays to the same state. A target holding data is
refused without a change, a failure in the middle leaves the target empty, and the command line
prints its counts and "verified", or one ``error:`` line.
"""

from __future__ import annotations

import asyncio
import io
import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

from bot.cli import main
from bot.engine import new_game
from bot.instance import InstanceLock
from bot.migrate import MigrateError, Report, migrate
from bot.store import Store, StoreError, Tx, migrations_dir
from bot.store.boards import ORDERS
from bot.store.transfer import NOT_COPIED, TABLES, TargetNotEmpty, TransferError, row_counts, table_names
from bot.table_model import stored_game
from tests.store.club import GUILD, OTHER_GUILD, PEOPLE, seed_club
from tests.store.helpers import LATEST, refuse_scores_of

ROOT = Path(__file__).resolve().parents[2]
FAMILIES = (None, "pitch", "pinochle", "double-deck")
USERS = (*PEOPLE, 21, 22, 999)


@pytest.fixture(scope="module")
def club_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("club") / "club.db"
    asyncio.run(seed_club(path))
    return path


@pytest.fixture
def club(club_file: Path, tmp_path: Path) -> Path:
    """A copy of the club's database for one test."""
    path = tmp_path / "tricknight.db"
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{club_file}{suffix}").exists():
            shutil.copy(f"{club_file}{suffix}", f"{path}{suffix}")
    return path


async def migrated(source: Path, target: str) -> str:
    out = io.StringIO()
    await migrate(str(source), target, Report(out))
    return out.getvalue()


async def everything(store: Store) -> dict[str, Any]:
    """What the bot shows of the club, through the public Store API only."""
    seen: dict[str, Any] = {}
    for guild in (GUILD, OTHER_GUILD):
        seen[f"settings {guild}"] = await store.settings.get(guild)
        seen[f"timezone {guild}"] = await store.leagues.timezone(guild)
        seen[f"csv {guild}"] = await store.boards.export_csv(guild)
        for family in FAMILIES:
            seen[f"board count {guild} {family}"] = await store.boards.count(guild, family=family)
            for order in ORDERS:
                seen[f"board {guild} {family} {order}"] = await store.boards.page(
                    guild, family=family, order=order, limit=100
                )
        leagues = await store.leagues.list(guild)
        seen[f"leagues {guild}"] = leagues
        seen[f"upcoming {guild}"] = await store.leagues.upcoming(guild)
        for league in leagues:
            seen[f"standings {league.id}"] = await store.leagues.standings(league.id)
            for order in ORDERS:
                seen[f"league board {league.id} {order}"] = await store.boards.page(
                    guild, league_id=league.id, order=order, limit=100
                )
        seasons = await store.seasons.list(guild)
        seen[f"seasons {guild}"] = seasons
        seen[f"current season {guild}"] = await store.seasons.current(guild)
        for season in seasons:
            for family in FAMILIES:
                seen[f"season count {season.id} {family}"] = await store.seasons.count(
                    season.id, family=family
                )
                for order in ORDERS:
                    seen[f"season {season.id} {family} {order}"] = await store.seasons.page(
                        season.id, family=family, order=order, limit=100
                    )
            for user in USERS:
                seen[f"season ratings {season.id} {user}"] = await store.seasons.player_ratings(
                    season.id, user
                )
        events = await store.duplicates.list(guild)
        seen[f"duplicates {guild}"] = events
        for event in events:
            seen[f"event {event.id}"] = await store.duplicates.get(event.id)
            tables = await store.duplicates.tables(event.id)
            seen[f"event tables {event.id}"] = tables
            for table in tables:
                seen[f"event of {table.game_id}"] = await store.duplicates.event_of(table.game_id)
        for user in USERS:
            seen[f"history {guild} {user}"] = await store.history.recent(guild, user, limit=25)
            seen[f"history count {guild} {user}"] = await store.history.count(guild, user)
            seen[f"rating trend {guild} {user}"] = await store.history.rating_trend(guild, user)
            seen[f"results trend {guild} {user}"] = await store.history.results_trend(guild, user)
            seen[f"stats {guild} {user}"] = await store.boards.player_stats(guild, user)
    for user in USERS:
        seen[f"prefs {user}"] = await store.players.prefs(user)
    seen["unfinished"] = await store.games.unfinished()
    seen["unannounced"] = await store.games.unannounced()
    return seen


async def replayed(store: Store) -> dict[int, Any]:
    """Every game as a restart would rebuild it: its record, and its game's state and score."""
    games: dict[int, Any] = {}
    last = await store.db.read(Tx.value, "SELECT COALESCE(MAX(id), 0) FROM games")
    for game_id in range(1, last + 1):
        record = await store.games.load(game_id)
        game = stored_game(record)
        state = None
        if game is not None:
            outcome = None if game.outcome is None else game.outcome.to_json()
            state = (game.to_json(), game.public_view(), list(game.scores), outcome)
        games[game_id] = (record, state)
    return games


async def test_the_club_migrates_whole_and_the_public_api_answers_the_same(
    club: Path, postgres_url: str
) -> None:
    printed = await migrated(club, postgres_url)
    assert "verified:" in printed
    async with await Store.open(club) as old, await Store.open(postgres_url) as new:
        assert new.backend == "postgresql"
        before, after = await everything(old), await everything(new)
        assert before.keys() == after.keys()
        assert [key for key in before if before[key] != after[key]] == []
        # The club really has every kind of record (so the comparison above compares something).
        assert len(before["unfinished"]) == 6  # five games being played and a lobby
        variants = {"pitch", "pinochle-2", "pinochle-3", "pinochle-4", "double-deck"}
        assert {record.variant for record in before["unfinished"]} >= variants
        assert before[f"board {GUILD} None rating"] and before[f"board {OTHER_GUILD} None rating"]
        assert len(before[f"leagues {GUILD}"]) == 2 and len(before[f"upcoming {GUILD}"]) == 1
        league = next(league for league in before[f"leagues {GUILD}"] if league.ended_at is not None)
        assert before[f"standings {league.id}"]
        assert [s.name for s in before[f"seasons {GUILD}"]] == ["Summer", "Spring"]
        assert all(before[f"season {s.id} None rating"] for s in before[f"seasons {GUILD}"])
        assert len(before[f"event tables {before[f'duplicates {GUILD}'][0].id}"]) == 2
        assert before[f"history {GUILD} {PEOPLE[0]}"] and before[f"prefs {PEOPLE[0]}"].card_style == "text"
        assert before[f"settings {GUILD}"].default_options == {"pitch": {"target": 7}}
        assert before[f"timezone {GUILD}"] == "Europe/Berlin"

        games = await replayed(old)
        assert await replayed(new) == games
        statuses = {record.status for record, _ in games.values()}
        assert statuses == {"ended", "playing", "lobby", "abandoned"}
        assert sum(state is not None and state[3] is not None for _, state in games.values()) == 8

        # New rows get new ids: each sequence was moved past the highest id copied.
        game_id = await new.games.create(
            guild_id=GUILD, channel_id=1, host_id=PEOPLE[0], variant="pitch", family="pitch", options={},
            seed=1, players=2, seats=[None, None],
        )  # fmt: skip
        assert game_id == max(games) + 1
        season, _ = await new.seasons.start(GUILD, "Autumn")
        assert season.id == 3
        assert (await new.leagues.start(OTHER_GUILD, "Later")).id == 3
    for line in ("guilds", "actions", "duplicate_tables", "verified:"):
        assert line in printed


async def test_a_target_holding_data_is_refused_and_nothing_changes(club: Path, postgres_url: str) -> None:
    async with await Store.open(postgres_url) as target:
        await target.settings.update(5, turn_timeout_seconds=60)  # a bot already ran here
        before = await row_counts(target)
    with pytest.raises(TargetNotEmpty, match=r"is not empty \(it holds guilds 1\).*nothing was changed"):
        await migrated(club, postgres_url)
    async with await Store.open(postgres_url) as target:
        assert await row_counts(target) == before
        await target.db.write(Tx.run, "DELETE FROM guilds")
    await migrated(club, postgres_url)  # emptied, it takes the copy
    async with await Store.open(postgres_url) as target:
        full = await row_counts(target)
    with pytest.raises(TargetNotEmpty):
        await migrated(club, postgres_url)  # and a second migration is refused
    async with await Store.open(postgres_url) as target:
        assert await row_counts(target) == full


async def test_a_failure_in_the_middle_of_the_copy_leaves_the_target_empty(
    club: Path, postgres_url: str
) -> None:
    async with await Store.open(club) as source:
        score = await source.db.read(Tx.value, "SELECT MAX(score) FROM results")
    async with await Store.open(postgres_url) as target:
        await refuse_scores_of(target, score)  # inserting that result fails, after most tables went in
    with pytest.raises(StoreError, match="boom"):
        await migrated(club, postgres_url)
    async with await Store.open(postgres_url) as target:
        assert set((await row_counts(target)).values()) == {0}
        await target.db.write(Tx.run, "DROP TRIGGER boom ON results")
    assert "verified:" in await migrated(club, postgres_url)


async def test_rows_that_arrive_changed_fail_the_check_before_the_commit(
    club: Path, postgres_url: str
) -> None:
    async with await Store.open(postgres_url) as target:
        for statement in (
            "CREATE FUNCTION garble() RETURNS trigger LANGUAGE plpgsql AS"
            " $$ BEGIN NEW.action = NEW.action || ' '; RETURN NEW; END $$",
            "CREATE TRIGGER garble BEFORE INSERT ON actions FOR EACH ROW WHEN (NEW.idx = 3)"
            " EXECUTE FUNCTION garble()",
        ):
            await target.db.write(Tx.run, statement)
    with pytest.raises(TransferError, match="actions: the rows written differ from the source's"):
        await migrated(club, postgres_url)
    async with await Store.open(postgres_url) as target:
        assert set((await row_counts(target)).values()) == {0}


async def test_a_difference_found_after_the_commit_removes_the_copy(
    club: Path, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    states = iter(range(1_000_000))
    monkeypatch.setattr("bot.migrate.game_state", lambda record: f"state {next(states)}")  # never the same
    with pytest.raises(MigrateError, match=r"replays differently.*removed from .*which is empty again"):
        await migrated(club, postgres_url)
    async with await Store.open(postgres_url) as target:
        assert set((await row_counts(target)).values()) == {0}
    monkeypatch.undo()
    assert "verified:" in await migrated(club, postgres_url)
    async with await Store.open(postgres_url) as target:
        created = await target.games.create(
            guild_id=GUILD, channel_id=1, host_id=1, variant="pitch", family="pitch", options={}, seed=1,
            players=2, seats=[None, None],
        )  # fmt: skip
        assert created == await target.db.read(Tx.value, "SELECT MAX(id) FROM games")


async def test_an_older_database_is_upgraded_then_copied(tmp_path: Path, postgres_url: str) -> None:
    folder = tmp_path / "migrations-1"
    folder.mkdir()
    shutil.copy(str(migrations_dir() / "0001_initial.sql"), folder)
    path = tmp_path / "old.db"
    async with await Store.open(path, migrations_dir=folder):
        pass
    game = new_game("pitch", players=2, seed=3)
    for _ in range(12):
        seat = game.to_act[0]
        game.apply(seat, game.legal_actions(seat)[0])
    conn = sqlite3.connect(path)
    with conn:
        conn.execute(
            "INSERT INTO games (id, guild_id, channel_id, host_id, variant, family, options, seed, players,"
            " seats, status, created_at, updated_at) VALUES (4, 1, 2, 3, 'pitch', 'pitch', ?, 3, 2, '[]',"
            " 'playing', 1.5, 2.5)",
            (json.dumps(game.options),),
        )
        conn.executemany(
            "INSERT INTO actions (game_id, idx, seat, action, at) VALUES (4, ?, ?, ?, 2.0)",
            [(idx, seat, str(action)) for idx, (seat, action) in enumerate(game.log)],
        )
    conn.close()
    printed = await migrated(path, postgres_url)
    assert f"{path} is at schema 1: upgrading it to schema {LATEST} first" in printed
    assert "and 1 game (1 replayed to the same state and score" in printed
    async with await Store.open(postgres_url) as target:
        record = await target.games.load(4)
        rebuilt = stored_game(record)
        assert rebuilt is not None and rebuilt.to_json() == game.to_json()


async def test_a_database_a_bot_is_running_on_is_refused(club: Path, postgres_url: str) -> None:
    with InstanceLock(club), pytest.raises(MigrateError, match="Trick Night is running on .*stop it first"):
        await migrated(club, postgres_url)
    async with await Store.open(postgres_url) as target:
        assert set((await row_counts(target)).values()) == {0}
        from bot.postgres_instance import PostgresInstance  # the driver: PostgreSQL tests only

        bot = PostgresInstance(postgres_url)  # a bot running on the server
        await asyncio.to_thread(bot.acquire)
        try:
            with pytest.raises(
                MigrateError, match=r"Trick Night is running on .*\(pid \d+ on .*stop it first"
            ):
                await migrated(club, postgres_url)
        finally:
            await asyncio.to_thread(bot.release)
        assert set((await row_counts(target)).values()) == {0}


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_the_copy_knows_every_table_of_the_schema(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """A table added by a later migration must be added to TABLES too (the copy refuses a source
    with a table it does not know, rather than leave it behind)."""
    target = request.getfixturevalue("postgres_url") if backend == "postgresql" else tmp_path / "t.db"
    async with await Store.open(target) as store:
        names = await store.db.read(table_names, store.backend)
    assert names - set(NOT_COPIED) == {spec.name for spec in TABLES}


async def test_and_back_again_to_a_new_sqlite_file(
    club: Path, tmp_path: Path, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    await migrated(club, postgres_url)
    back = tmp_path / "back" / "tricknight.db"
    states = iter(range(1_000_000))
    monkeypatch.setattr("bot.migrate.game_state", lambda record: f"state {next(states)}")  # never the same
    with pytest.raises(MigrateError, match="differs"):
        await migrated_from(postgres_url, back)
    assert not back.exists()  # a new file that did not take a verified copy is not left behind
    monkeypatch.undo()
    printed = await migrated_from(postgres_url, back)
    assert "verified:" in printed and f"set TRICKNIGHT_DATABASE to {back}" in printed
    async with await Store.open(club) as old, await Store.open(back) as new:
        assert new.backend == "sqlite"
        before, after = await everything(old), await everything(new)
        assert [key for key in before if before[key] != after[key]] == []
        assert await replayed(new) == await replayed(old)
    with pytest.raises(TargetNotEmpty, match=f"the target {back} is not empty"):
        await migrated_from(postgres_url, back)


async def migrated_from(source: str, target: Path) -> str:
    out = io.StringIO()
    await migrate(source, str(target), Report(out))
    return out.getvalue()


# ----- the command line ----------------------------------------------------------------------------


def with_password(url: str, password: str) -> str:
    parts = urlsplit(url)
    netloc = parts.netloc.replace("@", f":{password}@", 1) if "@" in parts.netloc else parts.netloc
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def tricknight(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(ROOT)},
    )


def test_the_command_prints_its_counts_and_verified(club: Path, postgres_url: str) -> None:
    target = with_password(postgres_url, "s3cret-word")  # the test server trusts: a password is ignored
    done = tricknight("migrate-store", "--from", str(club), "--to", target)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    assert any(line.split()[:3] == ["actions", f"{int(_count(club, 'actions')):,}", "rows"] for line in lines)
    assert any(
        line.split() == ["games", f"{_count(club, 'games')}", f"{_count(club, 'games')}"] for line in lines
    )
    assert lines[-2].startswith("verified: ")
    assert "s3cret-word" not in done.stdout
    again = tricknight("migrate-store", "--from", str(club), "--to", target)
    assert again.returncode == 1
    assert again.stderr.startswith("tricknight migrate-store: error: the target ")
    assert "is not empty" in again.stderr and len(again.stderr.splitlines()) == 1
    assert "s3cret-word" not in again.stdout + again.stderr


def _count(path: Path, table: str) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
    finally:
        conn.close()


def test_bad_input_is_one_error_line(
    club: Path, tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE notes (x TEXT)")
    conn.close()
    (tmp_path / "text.db").write_text("not a database at all, just some words to fill the header\n")
    (tmp_path / "empty.db").touch()
    unreachable = urlunsplit(("postgresql", "postgres:pw@127.0.0.1:1", "/x", "", ""))
    cases = {
        "no such file": (
            ["--from", str(tmp_path / "missing.db"), "--to", postgres_url],
            "there is no database at",
        ),
        "a folder": (["--from", str(tmp_path), "--to", postgres_url], "is a folder"),
        "not SQLite": (["--from", str(tmp_path / "text.db"), "--to", postgres_url], "not an SQLite file"),
        "empty": (["--from", str(tmp_path / "empty.db"), "--to", postgres_url], "empty database"),
        "someone else's": (["--from", str(other), "--to", postgres_url], "something else, not Trick Night"),
        "two files": (["--from", str(club), "--to", str(tmp_path / "x.db")], "--from takes the SQLite"),
        "two servers": (["--from", postgres_url, "--to", postgres_url], "--from takes the SQLite"),
        "unreachable": (["--from", str(club), "--to", unreachable], "cannot be reached"),
    }
    for name, (args, expected) in cases.items():
        assert main(["migrate-store", *args]) == 1, name
        out, err = capsys.readouterr()
        assert err.startswith("tricknight migrate-store: error: "), (name, err)
        assert expected in err and len(err.splitlines()) == 1, (name, err)
        assert "Traceback" not in out + err and ":pw@" not in out + err, name
    assert not (tmp_path / "missing.db").exists()  # nothing was made where nothing was
    done = tricknight("migrate-store", "--from", str(tmp_path / "missing.db"), "--to", unreachable)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("tricknight migrate-store: error: there is no database at")
    assert len(done.stderr.splitlines()) == 1
    assert asyncio.run(_counts(postgres_url)) == dict.fromkeys(_counts_keys(), 0)  # nothing was written


async def _counts(url: str) -> dict[str, int]:
    async with await Store.open(url) as store:
        return await row_counts(store)


def _counts_keys() -> list[str]:
    return [spec.name for spec in TABLES]
