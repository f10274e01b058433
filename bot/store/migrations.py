"""The schema's history: numbered SQL files applied in order, ``PRAGMA user_version`` counting them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib.resources.abc import Traversable

from bot.resources import migrations_folder
from bot.store.errors import StoreError

_MIGRATION_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def migrations_dir() -> Traversable:
    """Where the released migrations live: ``data/migrations`` in a checkout, ``bot/_data/migrations``
    in an installed wheel (``bot.resources`` knows which)."""
    return migrations_folder()


def load_migrations(folder: Traversable | None = None) -> list[Migration]:
    """The migrations in ``folder`` (default: the released ones), checked to be numbered 1, 2, 3, … ."""
    folder = migrations_dir() if folder is None else folder
    if not folder.is_dir():
        raise StoreError(f"no migrations found: {folder} is missing (a broken install: reinstall it)")
    migrations = []
    for path in sorted((p for p in folder.iterdir() if p.name.endswith(".sql")), key=lambda p: p.name):
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
