"""``tricknight migrate-store --from PATH --to postgresql://…``: a club's SQLite database copied
to PostgreSQL, then shown to be the same there (and ``--from postgresql://… --to PATH`` back to a
new SQLite file: the copy itself does not care which way it goes).

1. The SQLite side is looked at read-only first (``bot.backup.inspect_database``): an intact Trick
   Night database of a schema no newer than this version's (as the target it may also be a new
   file). It is then held with the bot's own lock (``<database>.lock``), so no bot writes to it
   during the copy (and none starts on it), and opened as a store: an older schema is upgraded in
   place, as the bot would at its start (said so).
2. The server is opened as a store (its schema is created on an empty database; a database of
   another program is refused by ``Store.open``). The target must hold no Trick Night data.
3. ``bot.store.transfer.copy_store`` copies every table in one transaction on the target, reading
   each table back and comparing it (count and contents) before the commit: all or nothing.
4. After the commit, the verification: the row counts of every table on both sides, and every
   stored game read from both (its record, its action log, and for a finished game its results
   seat by seat) and replayed from each side's record to its state and score (what a restart
   resumes: ``bot.table_model.stored_game``). Should anything differ, or the verification be
   interrupted, the copy is removed from the target again (it held no data before), and the
   command fails. A new SQLite target that did not take a verified copy is deleted.

Every problem is one ``error:`` line on stderr and exit status 1 (a server's password is never
printed: stores name a server by its redacted URL).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from bot.backup import DatabaseInfo, inspect_database
from bot.engine import EngineError
from bot.files import side_files
from bot.instance import Instance, InstanceLock, InstanceLocked, lock_supported
from bot.store import GameRecord, Store, StoreError, is_postgresql_url
from bot.store.transfer import (
    TABLES,
    StoredGame,
    TableCopy,
    clear_copy,
    copy_store,
    row_counts,
    stored_games,
)
from bot.table_model import stored_game

PROGRESS_ROWS = 50_000  # a running count of a table's rows every this many
PROGRESS_GAMES = 1_000  # and of the games replayed
SHOWN_PROBLEMS = 5  # differences named in the error (their count is given too)


def plural(number: int, noun: str) -> str:
    return noun if number == 1 else f"{noun}s"


def counted(number: int, noun: str) -> str:
    """``1 row``, ``2,127 rows``."""
    return f"{number:,} {plural(number, noun)}"


class MigrateError(Exception):
    """The migration cannot be done, or failed; the message is the one line to print."""


@dataclass
class Verified:
    """What the verification found the same on both sides."""

    counts: dict[str, int] = field(default_factory=dict)
    games: int = 0
    replayed: int = 0
    unreplayable: int = 0  # games whose log does not replay, from either side's record alike
    finished: int = 0
    problems: list[str] = field(default_factory=list)


class Report:
    """Lines for the person running the command (also from the target's writer thread)."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self._lock = threading.Lock()
        self._shown: dict[str, int] = {}

    def line(self, text: str) -> None:
        with self._lock:
            self.out.write(text + "\n")
            self.out.flush()

    def copied(self, table: str, done: int, total: int) -> None:
        """``bot.store.transfer.Progress``: a running count every PROGRESS_ROWS rows, then the total."""
        if done >= total:
            self.line(f"  {table:<18} {total:>12,} {plural(total, 'row')} copied and checked")
        elif done // PROGRESS_ROWS > self._shown.get(table, 0):
            self._shown[table] = done // PROGRESS_ROWS
            self.line(f"  {table:<18} {done:>12,} of {total:,} rows …")


NOT_STARTED = "not started"
DOES_NOT_REPLAY = "does not replay"


def game_state(record: GameRecord) -> str:
    """A fingerprint of the game a restart would rebuild from this record: its state (to_json,
    public view, every seat's private view), scores and outcome; ``NOT_STARTED`` for a table whose
    game never started; or why it does not replay."""
    try:
        game = stored_game(record)
    except EngineError as err:
        return f"{DOES_NOT_REPLAY}: {err}"
    if game is None:
        return NOT_STARTED
    state = {
        "game": game.to_json(),
        "public": game.public_view(),
        "seats": [game.private_view(seat) for seat in range(game.players)],
        "scores": list(game.scores),
        "outcome": None if game.outcome is None else game.outcome.to_json(),
    }
    return hashlib.sha256(json.dumps(state, sort_keys=True, default=repr).encode()).hexdigest()


def compare_game(mine: StoredGame | None, theirs: StoredGame | None) -> tuple[str | None, str]:
    """What differs between a game as the source and as the target store it (None: nothing), and
    its state (``game_state``) replayed from each side's record."""
    if mine is None or theirs is None:
        only = theirs if mine is None else mine
        assert only is not None
        return f"game {only.record.id} is only in the {'target' if mine is None else 'source'}", ""
    game_id = mine.record.id
    if mine.record != theirs.record:
        ours, other = mine.record.to_json(), theirs.record.to_json()
        fields = [name for name, value in ours.items() if other.get(name) != value]
        return f"game {game_id}: its record differs ({', '.join(fields)})", ""
    if mine.results != theirs.results:
        return f"game {game_id}: its results differ", ""
    before, after = game_state(mine.record), game_state(theirs.record)
    if before != after:
        return f"game {game_id} replays differently from the target's record ({before} / {after})", ""
    return None, before


async def verify(source: Store, target: Store, copied: list[TableCopy], report: Report) -> Verified:
    """Compare the two stores after the copy (see the module docstring)."""
    found = Verified()
    counts = await row_counts(source), await row_counts(target)
    expected = {table.name: table.rows for table in copied}
    report.line(f"  {'table':<18} {source.backend:>12} {target.backend:>12}")
    for spec in TABLES:
        there, here = counts[0][spec.name], counts[1][spec.name]
        report.line(f"  {spec.name:<18} {there:>12,} {here:>12,}")
        if not there == here == expected.get(spec.name):
            found.problems.append(
                f"{spec.name} has {counted(there, 'row')} in the source and {here:,} in the target "
                f"({expected.get(spec.name, 0):,} copied)"
            )
    found.counts = counts[1]
    total = counts[0]["games"]
    report.line(f"  reading {counted(total, 'game')} on both sides and replaying each side's record …")
    async for pairs in stored_games(source, target):
        for mine, theirs in pairs:
            problem, state = compare_game(mine, theirs)
            if problem is not None:
                found.problems.append(problem)
                continue
            assert mine is not None
            found.games += 1
            found.replayed += state != NOT_STARTED and not state.startswith(DOES_NOT_REPLAY)
            found.unreplayable += state.startswith(DOES_NOT_REPLAY)
            found.finished += bool(mine.results)
            if found.games % PROGRESS_GAMES == 0 and found.games < total:
                report.line(f"  {found.games:>12,} of {total:,} games the same …")
    return found


def check_file(given: str, *, copied_from: bool) -> DatabaseInfo:
    """A read-only look at the SQLite side: an intact Trick Night database of a schema this
    version knows; as the source it must exist and hold a schema, as the target it may be new."""
    path = Path(given).expanduser().absolute()
    info = inspect_database(path)
    if info.problems:
        raise MigrateError(info.problems[0])
    if copied_from and not info.exists:
        raise MigrateError(f"there is no database at {path}")
    if copied_from and info.schema == 0:
        raise MigrateError(f"{path} is an empty database, not a Trick Night database")
    return info


def check_driver() -> None:
    try:
        import bot.store.postgresql  # noqa: F401  (the driver is the optional 'postgresql' install)
    except ImportError:
        raise MigrateError(
            "the PostgreSQL driver is not installed: pip install 'tricknight[postgresql]'"
        ) from None


async def open_server(url: str, option: str) -> Store:
    try:
        return await Store.open(url)
    except StoreError as err:
        # The store's own advice names the bot's setting; here the server was given as an option.
        raise MigrateError(str(err).replace("TRICKNIGHT_DATABASE", option)) from None


async def migrate(given_source: str, given_target: str, report: Report) -> Verified:
    """Copy and verify (see the module docstring); raises ``MigrateError`` or ``StoreError``.
    Either direction: an SQLite file to a PostgreSQL server, or back to a new SQLite file."""
    forward = is_postgresql_url(given_target)
    if forward == is_postgresql_url(given_source):
        raise MigrateError(
            "--from takes the SQLite database's path and --to the PostgreSQL server's URL "
            "(postgresql://user@host:port/database), or the other way round"
        )
    check_driver()
    url, option = (given_target, "--to") if forward else (given_source, "--from")
    info = await asyncio.to_thread(check_file, given_source if forward else given_target, copied_from=forward)
    created = not info.exists
    try:
        async with contextlib.AsyncExitStack() as held:
            # No bot may write to either side meanwhile (nor start): each is held as a bot holds it.
            held.enter_context(_hold_file(info.path))
            if info.exists and 0 < info.schema < info.latest:
                report.line(
                    f"{info.path} is at schema {info.schema}: upgrading it to schema {info.latest} first, "
                    "as the bot would at its start"
                )
            local = await Store.open(info.path, integrity_check=False)  # inspect_database checked it
            held.push_async_callback(local.close)
            server = await open_server(url, option)
            held.push_async_callback(server.close)
            instance = await asyncio.to_thread(_hold_server, url, server.path)
            held.push_async_callback(asyncio.to_thread, instance.release)
            source, target = (local, server) if forward else (server, local)
            return await _copy_and_verify(source, target, report)
    except BaseException:
        if created:  # a new SQLite target that did not take the copy: leave nothing behind
            for made in (info.path, *side_files(info.path)):
                made.unlink(missing_ok=True)
        raise


def _running(where: str, err: InstanceLocked) -> MigrateError:
    found = re.search(r"\((pid [^)]*)\)", str(err))  # both locks name the holder so: (pid 7 on host)
    holder = found.group(1) if found else "pid unknown"
    return MigrateError(
        f"Trick Night is running on {where} ({holder}): stop it first, so that nothing it writes is "
        "left behind"
    )


@contextlib.contextmanager
def _hold_file(path: Path) -> Iterator[None]:
    """The SQLite file's instance lock (``<database>.lock``), as a bot holds it."""
    lock = InstanceLock(path, purpose="migrate-store")
    if lock_supported():
        try:
            lock.acquire()
        except InstanceLocked as err:
            raise _running(str(path), err) from None
    try:
        yield
    finally:
        lock.release()


def _hold_server(url: str, label: str) -> Instance:
    """The server's instance lock (``bot.postgres_instance``), as a bot holds it."""
    from bot.postgres_instance import PostgresInstance

    instance = PostgresInstance(url, purpose="migrate-store")
    try:
        instance.acquire()
    except InstanceLocked as err:
        raise _running(label, err) from None
    except Exception as err:  # the driver's: the server went away since it was opened
        raise MigrateError(
            f"the database {label} cannot be reached ({str(err).strip().splitlines()[0]})"
        ) from None
    return instance


async def _copy_and_verify(source: Store, target: Store, report: Report) -> Verified:
    report.line(f"copying {source.db.describe()} to {target.db.describe()} in one transaction:")
    started = time.monotonic()
    copied = await copy_store(source, target, progress=report.copied)
    rows = sum(table.rows for table in copied)
    seconds = time.monotonic() - started
    report.line(
        f"copied {counted(rows, 'row')} of {len(copied)} tables in {seconds:.1f} s (committed); verifying:"
    )
    try:
        found = await verify(source, target, copied, report)
    except BaseException as err:
        await _remove_copy(target, f"the verification stopped ({err or type(err).__name__})")
        raise
    if found.problems:
        shown = "; ".join(found.problems[:SHOWN_PROBLEMS])
        more = len(found.problems) - SHOWN_PROBLEMS
        why = f"the copy differs from the source ({shown}{f'; and {more} more' if more > 0 else ''})"
        await _remove_copy(target, why)
        raise MigrateError(f"{why}; it was removed from {target.path}, which is empty again")
    report.line(
        f"verified: {counted(rows, 'row')} in {len(copied)} tables, and {counted(found.games, 'game')} "
        f"({found.replayed:,} replayed to the same state and score, {found.finished:,} finished with "
        "the same results), are the same in both databases"
    )
    if found.unreplayable:
        report.line(
            f"note: {counted(found.unreplayable, 'game')} do not replay (from the source's record either): "
            "they were copied as they are"
        )
    setting = "the --to URL" if target.backend == "postgresql" else target.path
    report.line(
        f"next: set TRICKNIGHT_DATABASE to {setting} and start the bot; {source.path} is left as it was "
        "(keep it as a backup)"
    )
    return found


async def _remove_copy(target: Store, why: str) -> None:
    """Empty the target again after a copy that was committed but not verified."""
    try:
        await clear_copy(target)
    except StoreError as err:
        raise MigrateError(
            f"{why}, and the unverified copy could not be removed from {target.path} ({err}): "
            "empty that database before running migrate-store again"
        ) from None


def migrate_command(source: str, target: str, out: TextIO, err: TextIO) -> int:
    """``tricknight migrate-store``: 0 when copied and verified, else one ``error:`` line and 1."""
    try:
        asyncio.run(migrate(source, target, Report(out)))
    except (MigrateError, StoreError) as problem:
        text = " ".join(str(problem).split())  # one line (a server's message may hold several)
        err.write(f"tricknight migrate-store: error: {text}\n")
        return 1
    except KeyboardInterrupt:
        err.write("tricknight migrate-store: error: interrupted; nothing was kept in the target\n")
        return 130
    return 0
