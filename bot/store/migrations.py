"""The schema's history: numbered SQL files applied in order, ``PRAGMA user_version`` counting them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from bot.store.errors import StoreError

_MIGRATION_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def migrations_dir() -> Path:
    """Where the released migrations live (the one place that knows)."""
    return Path(__file__).resolve().parents[2] / "data" / "migrations"


def load_migrations(folder: Path | None = None) -> list[Migration]:
    """The migrations in ``folder`` (default: the released ones), checked to be numbered 1, 2, 3, … ."""
    folder = migrations_dir() if folder is None else folder
    migrations = []
    for path in sorted(folder.glob("*.sql")):
        match = _MIGRATION_NAME.match(path.name)
        if match is None:
            raise StoreError(f"migration file {path} is not named like 0001_short_name.sql")
        migrations.append(Migration(int(match[1]), match[2], path.read_text(encoding="utf-8")))
    for expected, migration in enumerate(migrations, start=1):
        if migration.version != expected:
            raise StoreError(f"migrations in {folder} skip or repeat number {expected:04d}")
    if not migrations:
        raise StoreError(f"no migrations found in {folder}")
    return migrations
