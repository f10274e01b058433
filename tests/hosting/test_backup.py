"""``tricknight backup`` while tables play (a consistent, intact copy holding every committed action)
and ``tricknight restore`` (refusals first, then a swap that keeps the replaced database)."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from bot.backup import BackupError, backup_database, inspect_database, restore_database
from bot.instance import InstanceLock
from bot.store import Store
from tests.hosting.harness import ROOT, clean_environ
from tests.store.helpers import computer, human, play_game
from tests.store.helpers import new_game as store_game
from tests.test_resume import start_runner

TABLES = 4


def logs(db: Path) -> dict[int, list[tuple[int, int, str]]]:
    """Every game's action log, read from ``db`` (read-only; works beside a running writer)."""
    conn = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True, timeout=10)
    try:
        out: dict[int, list[tuple[int, int, str]]] = {}
        for game_id, idx, seat, action in conn.execute(
            "SELECT game_id, idx, seat, action FROM actions ORDER BY game_id, idx"
        ):
            out.setdefault(game_id, []).append((idx, seat, action))
        return out
    finally:
        conn.close()


def tricknight(*args: str, cwd: Path, db: Path) -> subprocess.CompletedProcess[str]:
    env = clean_environ(cwd, TRICKNIGHT_DATABASE=str(db), PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120,
        check=False,
    )  # fmt: skip


async def test_backup_while_tables_play_is_intact_and_holds_every_committed_action(tmp_path: Path) -> None:
    db = tmp_path / "live.db"
    runner = start_runner(db, create=TABLES)  # a process playing computer-only tables on db
    try:
        assert runner.stdout is not None and runner.stdout.readline().strip() == "ready"
        copies = []
        for number in range(3):
            committed = logs(db)  # everything committed before the backup starts
            copy = tmp_path / f"copy{number}.db"
            info = await asyncio.to_thread(backup_database, db, copy)
            assert runner.poll() is None, "the tables ended before the backup: make them longer"
            copies.append((copy, committed, info))
            await asyncio.sleep(0.15)
    finally:
        runner.kill()
        runner.wait(timeout=30)
    final = logs(db)
    total = sum(len(actions) for actions in final.values())
    assert total > sum(len(actions) for actions in copies[0][1].values())  # it played on meanwhile
    for copy, committed, info in copies:
        assert info.ok and info.actions > 0
        assert stat.S_IMODE(copy.stat().st_mode) == 0o600
        assert not copy.with_name(copy.name + "-wal").exists()  # one self-contained file
        conn = sqlite3.connect(copy)
        try:
            assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            assert conn.execute("PRAGMA journal_mode").fetchone() == ("delete",)
        finally:
            conn.close()
        copied = logs(copy)
        for game_id, actions in committed.items():
            # Every action committed before the backup is in it, and the copy is a prefix of the
            # live log (a consistent snapshot, nothing half-written).
            assert copied[game_id][: len(actions)] == actions
            assert final[game_id][: len(copied[game_id])] == copied[game_id]
        # The copy is a Trick Night database that the bot can open and resume from.
        async with await Store.open(copy) as store:
            assert len(await store.games.unfinished()) <= TABLES


async def make_database(path: Path, finished: int = 2) -> None:
    async with await Store.open(path) as store:
        for n in range(finished):
            await play_game(store, 1, [10 + n, None], [1, 2])
        await store_game(store, 1, [human(7), computer()])


def test_backup_refusals_and_force(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    asyncio.run(make_database(db))
    missing = tricknight("backup", str(tmp_path / "out.db"), cwd=tmp_path, db=tmp_path / "none.db")
    assert missing.returncode == 1
    assert f"backup: there is no database at {tmp_path / 'none.db'}" in missing.stderr

    made = tricknight("backup", str(tmp_path / "out.db"), cwd=tmp_path, db=db)
    assert made.returncode == 0, made.stderr
    assert f"backed up {db} to {tmp_path / 'out.db'}: schema" in made.stdout
    assert "3 games (1 unfinished)" in made.stdout and "integrity check ok" in made.stdout

    again = tricknight("backup", str(tmp_path / "out.db"), cwd=tmp_path, db=db)
    assert again.returncode == 1
    assert "already exists: choose another name, or add --force to replace it" in again.stderr
    forced = tricknight("backup", str(tmp_path / "out.db"), "--force", cwd=tmp_path, db=db)
    assert forced.returncode == 0, forced.stderr

    no_folder = tricknight("backup", str(tmp_path / "nope" / "x.db"), cwd=tmp_path, db=db)
    assert no_folder.returncode == 1 and f"the folder {tmp_path / 'nope'} does not exist" in no_folder.stderr
    no_folder = tricknight("backup", f"{tmp_path / 'nope'}/", cwd=tmp_path, db=db)
    assert no_folder.returncode == 1 and f"the folder {tmp_path / 'nope'} does not exist" in no_folder.stderr
    assert not (tmp_path / "nope").exists()
    itself = tricknight("backup", str(db), "--force", cwd=tmp_path, db=db)
    assert itself.returncode == 1 and "cannot be the database itself" in itself.stderr

    # A folder as destination: a dated file inside it.
    (tmp_path / "backups").mkdir()
    dated = tricknight("backup", str(tmp_path / "backups"), cwd=tmp_path, db=db)
    assert dated.returncode == 0, dated.stderr
    assert [p.name.startswith("tricknight-") for p in (tmp_path / "backups").iterdir()] == [True]

    foreign = tmp_path / "foreign.db"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE invoices (id INTEGER)")
    refused = tricknight("backup", str(tmp_path / "f.db"), cwd=tmp_path, db=foreign)
    assert refused.returncode == 1 and "not Trick Night" in refused.stderr
    assert not (tmp_path / "f.db").exists()


def damaged_copy(source: Path, target: Path) -> None:
    """A copy whose header is fine but whose b-tree pages are garbage."""
    data = bytearray(source.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    for offset in range(page, len(data), page):
        data[offset : offset + 64] = os.urandom(64)
    target.write_bytes(bytes(data))


@pytest.fixture
def backup_and_live(tmp_path: Path) -> tuple[Path, Path]:
    backup, live = tmp_path / "backup.db", tmp_path / "live.db"
    asyncio.run(make_database(backup, finished=2))
    asyncio.run(make_database(live, finished=5))
    return backup, live


def test_restore_refuses_while_the_bot_runs(backup_and_live: tuple[Path, Path]) -> None:
    backup, live = backup_and_live
    before = live.read_bytes()
    running = rf"Trick Night is running on .*live\.db \(pid {os.getpid()}\)"
    with InstanceLock(live), pytest.raises(BackupError, match=running):  # the lock a running bot holds
        restore_database(backup, live)
    assert live.read_bytes() == before


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("missing", "there is no backup file at"),
        ("not sqlite", "is not an SQLite file"),
        ("damaged", "damaged"),
        ("foreign", "SQLite database of something else"),
        ("newer", "written by a newer Trick Night (schema 99"),
        ("empty", "is an empty database, not a Trick Night backup"),
        ("itself", "is the database itself"),
    ],
)
def test_restore_checks_the_file_first(
    backup_and_live: tuple[Path, Path], tmp_path: Path, kind: str, message: str
) -> None:
    backup, live = backup_and_live
    bad = tmp_path / "bad.db"
    if kind == "not sqlite":
        bad.write_text("not a database at all")
    elif kind == "damaged":
        damaged_copy(backup, bad)
    elif kind == "foreign":
        with sqlite3.connect(bad) as conn:
            conn.execute("CREATE TABLE invoices (id INTEGER)")
    elif kind == "newer":
        bad.write_bytes(backup.read_bytes())
        with sqlite3.connect(bad) as conn:
            conn.execute("PRAGMA user_version = 99")
    elif kind == "empty":
        bad.write_bytes(b"")
    elif kind == "itself":
        bad = live
    before = live.read_bytes()
    result = tricknight("restore", str(bad), cwd=tmp_path, db=live)
    assert result.returncode == 1
    assert message in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    assert live.read_bytes() == before
    assert not list(tmp_path.glob("live.db.before-restore-*"))


async def test_restore_swaps_in_the_backup_and_keeps_the_replaced_database(
    backup_and_live: tuple[Path, Path], tmp_path: Path
) -> None:
    backup, live = backup_and_live
    # Leave the live database with committed changes still in its WAL, as after a SIGKILL.
    conn = sqlite3.connect(live)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    conn.execute("INSERT INTO tricknight_meta (key, value) VALUES ('marker', 'in the wal')")
    conn.commit()
    assert live.with_name("live.db-wal").stat().st_size > 0
    result = await asyncio.to_thread(tricknight, "restore", str(backup), cwd=tmp_path, db=live)
    conn.close()
    assert result.returncode == 0, result.stderr
    assert f"restored {live} from {backup}: schema" in result.stdout
    # Issue 46 (8): the replaced database is kept as one self-contained file, without the
    # -wal and -shm side files it used to leave beside the kept copy.
    [kept_name] = [n for n in os.listdir(tmp_path) if n.startswith("live.db.before-restore-")]
    # (beside the instance lock's live.db.lock, which stays, as for a bot that stopped)
    beside = sorted(n for n in os.listdir(tmp_path) if n.startswith("live.db"))
    assert beside == ["live.db", kept_name, "live.db.lock"]
    kept = tmp_path / kept_name
    assert f"the database it replaced is kept as {kept}" in result.stdout
    assert inspect_database(live).games == 3
    assert stat.S_IMODE(live.stat().st_mode) == 0o600
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    # Nothing of the old database was lost: what was in its WAL is in the kept file.
    old = sqlite3.connect(f"{kept.as_uri()}?mode=ro", uri=True)
    try:
        assert old.execute("PRAGMA journal_mode").fetchone() == ("delete",)
        assert old.execute("SELECT value FROM tricknight_meta WHERE key = 'marker'").fetchone() == (
            "in the wal",
        )
        assert old.execute("SELECT COUNT(*) FROM games").fetchone() == (6,)
    finally:
        old.close()
    assert sorted(n for n in os.listdir(tmp_path) if n.startswith(kept_name)) == [kept_name]
    async with await Store.open(live) as store:
        assert [g.status for g in await store.games.unfinished()] == ["playing"]


def test_restore_names_the_backup_by_its_whole_path(
    backup_and_live: tuple[Path, Path], tmp_path: Path
) -> None:
    """A relative PATH is named in full in what restore prints, like the database it replaced."""
    backup, live = backup_and_live
    result = tricknight("restore", backup.name, cwd=tmp_path, db=live)
    assert result.returncode == 0, result.stderr
    assert f"restored {live} from {backup}: schema" in result.stdout


def test_restore_over_a_damaged_database_keeps_it_as_it_was(
    backup_and_live: tuple[Path, Path], tmp_path: Path
) -> None:
    """A database SQLite cannot copy intact (the usual reason to restore) is kept byte for byte,
    with its side files, rather than lost."""
    backup, live = backup_and_live
    damaged_copy(live, live)
    before = live.read_bytes()
    wal = live.with_name("live.db-wal")
    wal.write_bytes(b"whatever was in the log")
    result = tricknight("restore", str(backup), cwd=tmp_path, db=live)
    assert result.returncode == 0, result.stderr
    [kept] = [
        p for p in tmp_path.iterdir() if p.name.startswith("live.db.before-restore-") and p.name[-1].isdigit()
    ]
    assert kept.read_bytes() == before
    assert kept.with_name(kept.name + "-wal").read_bytes() == b"whatever was in the log"
    assert not wal.exists() and inspect_database(live).games == 3
