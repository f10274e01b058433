"""Backups and restores of the database, and a read-only look at a database file.

``backup_database`` uses SQLite's online backup API: one step under one read transaction, so the
copy is a consistent snapshot that includes what is still in the WAL, taken while the bot keeps
writing (in WAL mode a reader never blocks the writer). The copy is written beside its destination
(mode 0600), switched to a single self-contained file (journal mode DELETE), checked with
``PRAGMA integrity_check``, and only then renamed into place, so a failed backup leaves no half
file behind.

``restore_database`` checks the backup first (an SQLite file, intact, a Trick Night database, a
schema this version knows), refuses while a bot holds the database's instance lock, keeps the
current database beside it (``<name>.before-restore-<time>``, one self-contained file with what
was in its WAL) and puts the backup in its place. An older schema is upgraded at the next start.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from bot.files import FILE_MODE, create_private_file, side_files
from bot.instance import InstanceLock, InstanceLocked, lock_supported
from bot.store import load_migrations
from bot.store.database import APPLICATION
from bot.store.sqlite import SQLITE_MAGIC


class BackupError(Exception):
    """A backup or restore that cannot be done; the message says why and what to do."""


@dataclass
class DatabaseInfo:
    """What a read-only look at a database file found. ``problems`` empty means usable."""

    path: Path
    exists: bool = False
    schema: int = 0
    latest: int = 0
    games: int = 0
    unfinished: int = 0
    actions: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        """One line: schema and contents."""
        upgrade = f", upgraded to {self.latest} at the next start" if self.schema < self.latest else ""
        return (
            f"schema {self.schema} of {self.latest}{upgrade}; {self.games} games "
            f"({self.unfinished} unfinished), {self.actions} actions"
        )


@contextlib.contextmanager
def _read_only(path: Path) -> Iterator[sqlite3.Connection]:
    conn = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True, timeout=10.0)
    try:
        yield conn
    finally:
        conn.close()


def inspect_database(path: Path, *, full_check: bool = False) -> DatabaseInfo:
    """Look at ``path`` without changing it: is it an intact Trick Night database this version can
    use? ``full_check`` runs ``integrity_check`` instead of the faster ``quick_check``."""
    info = DatabaseInfo(path=path, latest=load_migrations()[-1].version)
    if path.is_dir():
        info.problems.append(f"{path} is a folder, not a database file")
        return info
    if not path.exists():
        return info
    info.exists = True
    try:
        with path.open("rb") as handle:
            header = handle.read(len(SQLITE_MAGIC))
    except OSError as err:
        info.problems.append(f"cannot read {path}: {err.strerror or err}")
        return info
    if header and header != SQLITE_MAGIC:
        info.problems.append(f"{path} is not an SQLite file, so not a Trick Night database")
        return info
    if not header:
        return info  # empty: SQLite makes a new database there
    try:
        with _read_only(path) as conn:
            _inspect(conn, info, full_check)
    except sqlite3.Error as err:
        info.problems.append(f"{path} cannot be read as a database ({err}): damaged?")
    return info


def _inspect(conn: sqlite3.Connection, info: DatabaseInfo, full_check: bool) -> None:
    check = "integrity_check" if full_check else "quick_check"
    problems = [row[0] for row in conn.execute(f"PRAGMA {check}(5)")]
    if problems != ["ok"]:
        info.problems.append(f"{info.path} is damaged ({'; '.join(problems)})")
        return
    info.schema = int(conn.execute("PRAGMA user_version").fetchone()[0])
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    owner = None
    if "tricknight_meta" in tables:
        row = conn.execute("SELECT value FROM tricknight_meta WHERE key = 'application'").fetchone()
        owner = row[0] if row else None
    if owner != APPLICATION:
        if tables - {"sqlite_sequence"}:
            info.problems.append(f"{info.path} is an SQLite database of something else, not Trick Night")
        return  # an empty SQLite file: Trick Night builds its schema there
    if info.schema > info.latest:
        info.problems.append(
            f"{info.path} was written by a newer Trick Night (schema {info.schema}; this version "
            f"knows {info.latest}): upgrade Trick Night first"
        )
        return
    if info.schema == 0:
        info.problems.append(f"{info.path} is a damaged Trick Night database (no schema version)")
        return
    info.games, info.unfinished = conn.execute(
        "SELECT COUNT(*), COUNT(*) FILTER (WHERE status IN ('lobby', 'playing')) FROM games"
    ).fetchone()
    info.actions = int(conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0])


def _fsync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _copy(source: sqlite3.Connection, destination: Path) -> None:
    """Copy ``source`` into ``destination`` (replaced atomically) as one self-contained file."""
    temporary = destination.with_name(f".{destination.name}.{os.getpid()}.tmp")
    temporary.unlink(missing_ok=True)
    create_private_file(temporary)
    try:
        out = sqlite3.connect(temporary)
        try:
            source.backup(out)  # one step: a consistent snapshot of every committed transaction
            out.execute("PRAGMA journal_mode = DELETE")  # no -wal beside the copy
            problems = [row[0] for row in out.execute("PRAGMA integrity_check(5)")]
        finally:
            out.close()
        if problems != ["ok"]:
            raise BackupError(f"the copy failed its integrity check ({'; '.join(problems)}); nothing written")
        with temporary.open("rb") as handle:
            os.fsync(handle.fileno())
        os.chmod(temporary, FILE_MODE)
        os.replace(temporary, destination)
        _fsync_folder(destination.parent)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def backup_database(database: Path, given: str | Path, *, force: bool = False) -> DatabaseInfo:
    """Copy the database at ``database`` to ``given`` (a file, or a folder to put a dated file
    in), safe while the bot runs. Refuses to overwrite a file unless ``force``."""
    database = database.absolute()
    destination = Path(given).expanduser().absolute()
    if str(given).endswith(("/", os.sep)) and not destination.is_dir():
        raise BackupError(f"the folder {destination} does not exist")
    if destination.is_dir():
        destination = destination / f"tricknight-{time.strftime('%Y%m%d-%H%M%S')}.db"
    if not database.is_file():
        raise BackupError(f"there is no database at {database} (check TRICKNIGHT_DATABASE or --env-file)")
    if destination.exists() and destination.samefile(database):
        raise BackupError("the backup cannot be the database itself: choose another file")
    if destination.exists() and not force:
        raise BackupError(f"{destination} already exists: choose another name, or add --force to replace it")
    if not destination.parent.is_dir():
        raise BackupError(f"the folder {destination.parent} does not exist")
    source = inspect_database(database)
    if source.problems:
        raise BackupError(source.problems[0])
    try:
        with _read_only(database) as conn:
            _copy(conn, destination)
    except sqlite3.Error as err:
        raise BackupError(f"the backup of {database} failed: {err}; nothing was written") from None
    except OSError as err:
        raise BackupError(f"cannot write {destination}: {err.strerror or err}") from None
    return inspect_database(destination, full_check=True)


@dataclass
class Restored:
    """What ``restore_database`` did."""

    database: Path
    info: DatabaseInfo
    kept: Path | None  # where the database that was replaced now is


def restore_database(backup: Path, database: Path) -> Restored:
    """Put the backup at ``backup`` in place of the database at ``database``; the bot must be
    stopped. The replaced database is kept beside it."""
    backup = backup.expanduser().absolute()
    database = database.absolute()
    if not backup.is_file():
        raise BackupError(f"there is no backup file at {backup}")
    if database.exists() and backup.samefile(database):
        raise BackupError(f"{backup} is the database itself, not a backup of it")
    info = inspect_database(backup, full_check=True)
    if info.problems:
        raise BackupError(f"not restored: {info.problems[0]}")
    if not info.exists or info.schema == 0:
        raise BackupError(f"not restored: {backup} is an empty database, not a Trick Night backup")
    lock = InstanceLock(database, purpose="restore")
    if lock_supported():
        try:
            lock.acquire()
        except InstanceLocked as err:
            holder = f" (pid {err.pid})" if err.pid is not None else ""
            raise BackupError(
                f"not restored: Trick Night is running on {database}{holder}. Stop it first "
                "(e.g. systemctl stop tricknight, or docker compose stop), then restore."
            ) from None
    try:
        return _swap_in(backup, database, info)
    finally:
        lock.release()


def _unused(path: Path) -> Path:
    """``path``, or ``path-2``, ``path-3``… if it is taken."""
    candidate, number = path, 1
    while candidate.exists():
        number += 1
        candidate = path.with_name(f"{path.name}-{number}")
    return candidate


def _swap_in(backup: Path, database: Path, info: DatabaseInfo) -> Restored:
    # A copy through SQLite (not a file copy): it also checks the backup reads from end to end.
    incoming = database.with_name(f".{database.name}.restore.tmp")
    try:
        with _read_only(backup) as conn:
            _copy(conn, incoming)
    except sqlite3.Error as err:
        raise BackupError(f"not restored: reading {backup} failed: {err}") from None
    kept = None
    try:
        if database.exists():
            kept = _keep(database)
        # The replaced database's side files go before the backup takes its name: an old WAL
        # beside the new file would be read as part of it.
        for side in side_files(database):
            side.unlink(missing_ok=True)
        os.replace(incoming, database)
        _fsync_folder(database.parent)
    except OSError as err:
        incoming.unlink(missing_ok=True)
        raise BackupError(f"not restored: {err.strerror or err} ({err.filename})") from None
    return Restored(database, inspect_database(database), kept)


def _keep(database: Path) -> Path:
    """Keep the database about to be replaced beside it, as ``<name>.before-restore-<time>``: one
    self-contained file holding everything committed, also what was still in its WAL (a copy
    through SQLite's backup API, as ``backup_database`` makes). A database SQLite cannot copy
    intact (damaged, which is when one restores) is kept as it is instead, its side files renamed
    with it, so nothing of it is lost."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    kept = _unused(database.with_name(f"{database.name}.before-restore-{stamp}"))
    try:
        with _read_only(database) as conn:
            _copy(conn, kept)
        return kept
    except (sqlite3.Error, BackupError):
        pass
    try:
        os.link(database, kept)  # the database stays in place until the backup replaces it
    except OSError:
        os.rename(database, kept)  # no hard links on this file system
    for side, kept_side in zip(side_files(database), side_files(kept), strict=True):
        if side.exists():
            os.replace(side, kept_side)
    return kept
