"""PostgreSQL's schema: the same migrations as SQLite's, number for number; a database at an older
schema upgrades at start; two processes starting together migrate once (the migration lock); a
database of another program, or of a newer Trick Night, is refused and left untouched."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import psycopg
import pytest

from bot.store import Store, StoreError, load_migrations, migrations_dir
from bot.store.postgresql import postgresql_migrations


def test_both_dialects_have_the_same_migrations() -> None:
    sqlite = [(m.version, m.name) for m in load_migrations()]
    postgresql = [(m.version, m.name) for m in postgresql_migrations()]
    assert sqlite == postgresql


def first_migrations(tmp_path: Path, count: int, *, extra: str = "") -> Path:
    """A migrations folder with PostgreSQL's first ``count`` migrations (``extra`` appended to the
    last one)."""
    folder = tmp_path / f"migrations-{count}"
    (folder / "postgresql").mkdir(parents=True)
    source = Path(str(migrations_dir())) / "postgresql"
    files = sorted(source.glob("*.sql"))[:count]
    for file in files:
        shutil.copy(file, folder / "postgresql" / file.name)
    if extra:
        last = folder / "postgresql" / files[-1].name
        last.write_text(last.read_text() + "\n" + extra)
    return folder


def version_of(url: str) -> int:
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT value FROM tricknight_meta WHERE key = 'schema_version'").fetchone()
        assert row is not None
        return int(row[0])


async def test_a_database_at_an_older_schema_upgrades_at_start_and_keeps_its_data(
    tmp_path: Path, postgres_url: str
) -> None:
    old = await Store.open(postgres_url, migrations_dir=first_migrations(tmp_path, 5))
    assert old.schema_version == 5
    await old.close()
    with psycopg.connect(postgres_url, autocommit=True) as conn:  # as a bot of schema 5 wrote it
        conn.execute("INSERT INTO guilds (guild_id, turn_timeout_seconds, updated_at) VALUES (7, 120, 0)")
    assert version_of(postgres_url) == 5
    store = await Store.open(postgres_url)
    try:
        assert store.schema_version == len(postgresql_migrations()) == version_of(postgres_url)
        assert (await store.settings.get(7)).turn_timeout_seconds == 120
        assert (await store.settings.get(7)).table_threads == "public"  # a column added by 0006
    finally:
        await store.close()


async def test_two_processes_starting_together_migrate_once(tmp_path: Path, postgres_url: str) -> None:
    # The last migration also counts how often it ran: under the lock, once.
    counted = first_migrations(
        tmp_path,
        len(postgresql_migrations()),
        extra="CREATE TABLE IF NOT EXISTS migration_runs (n INTEGER); INSERT INTO migration_runs VALUES (1);",
    )
    stores = await asyncio.gather(*(Store.open(postgres_url, migrations_dir=counted) for _ in range(3)))
    try:
        assert {store.schema_version for store in stores} == {len(postgresql_migrations())}
    finally:
        for store in stores:
            await store.close()
    with psycopg.connect(postgres_url) as conn:
        assert conn.execute("SELECT COUNT(*) FROM migration_runs").fetchone() == (1,)


async def test_a_database_of_another_program_is_refused_untouched(postgres_url: str) -> None:
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    with pytest.raises(StoreError, match="is not a Trick Night database .*invoices"):
        await Store.open(postgres_url)
    with psycopg.connect(postgres_url) as conn:
        tables = conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        ).fetchall()
    assert tables == [("invoices",)]


async def test_a_database_of_a_newer_trick_night_is_refused_untouched(postgres_url: str) -> None:
    store = await Store.open(postgres_url)
    await store.close()
    newer = len(postgresql_migrations()) + 1
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("UPDATE tricknight_meta SET value = %s WHERE key = 'schema_version'", (str(newer),))
    with pytest.raises(StoreError, match=f"newer Trick Night \\(schema {newer}"):
        await Store.open(postgres_url)
    assert version_of(postgres_url) == newer


async def test_a_failed_migration_leaves_the_previous_schema(tmp_path: Path, postgres_url: str) -> None:
    broken = first_migrations(tmp_path, 3, extra="SELECT no_such_function();")
    with pytest.raises(StoreError, match="could not upgrade .* to schema 3 .*stays at schema 2"):
        await Store.open(postgres_url, migrations_dir=broken)
    assert version_of(postgres_url) == 2
