"""Per-guild settings: ``store.settings``."""

from __future__ import annotations

import copy
import json
import math
import time
from typing import Any

from bot.i18n import LANGUAGES
from bot.store.database import Database, Row, Tx
from bot.store.errors import StoreError, StoreRefusal
from bot.store.records import THREAD_MODES, GuildSettings
from bot.store.validate import dumps, is_int, options_by_variant

MAX_TURN_TIMEOUT = 86_400
MAX_COMPUTER_DELAY = 30.0
SETTINGS = (
    "turn_timeout_seconds",
    "computer_delay_seconds",
    "rate_computer_games",
    "default_options",
    "table_threads",
    "language",
)


def _checked(name: str, value: Any) -> Any:
    """One setting's value, checked (raises ``StoreRefusal`` with a sentence for the person)."""
    if name == "turn_timeout_seconds":
        if not is_int(value) or not 0 <= value <= MAX_TURN_TIMEOUT:
            raise StoreRefusal(
                f"the turn timer is 0 (off) or up to {MAX_TURN_TIMEOUT} seconds, not {value!r}"
            )
        return int(value)
    if name == "computer_delay_seconds":
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
            or not 0 <= value <= MAX_COMPUTER_DELAY
        ):
            raise StoreRefusal(f"the computer delay is 0 to {MAX_COMPUTER_DELAY:g} seconds, not {value!r}")
        return float(value)
    if name == "rate_computer_games":
        if not isinstance(value, bool):
            raise StoreRefusal(f"rate_computer_games is True or False, not {value!r}")
        return value
    if name == "default_options":
        return options_by_variant(value)
    if name == "table_threads":
        if value not in THREAD_MODES:
            raise StoreRefusal(f"table_threads is one of {', '.join(THREAD_MODES)}, not {value!r}")
        return value
    if name == "language":
        if value != "" and value not in LANGUAGES:
            raise StoreRefusal(
                f"the language is one of {', '.join(LANGUAGES)} (or empty: the server's own), not {value!r}"
            )
        return value
    raise StoreError(f"there is no guild setting {name!r}; the settings are {', '.join(SETTINGS)}")


class GuildSettingsRepo:
    """Read and change a guild's settings; a guild that never changed any gets the defaults."""

    # Where a guild that never chose opens its tables.
    default_table_threads = "public"

    def __init__(self, db: Database, default_computer_delay: float = 1.0) -> None:
        self._db = db
        self.default_computer_delay = float(default_computer_delay)
        # Read on every computer turn: kept after the first read. Only this store writes them (one
        # bot per database), and update() refreshes the copy once its write has committed.
        self._cache: dict[int, GuildSettings] = {}

    def _from_row(self, guild_id: int, row: Row | None) -> GuildSettings:
        if row is None:
            return GuildSettings(
                guild_id, computer_delay_seconds=self.default_computer_delay,
                table_threads=self.default_table_threads,
            )  # fmt: skip
        return GuildSettings(
            guild_id=guild_id,
            turn_timeout_seconds=row["turn_timeout_seconds"],
            computer_delay_seconds=row["computer_delay_seconds"],
            rate_computer_games=bool(row["rate_computer_games"]),
            default_options=json.loads(row["default_options"]),
            table_threads=row["table_threads"],
            language=row["language"],
        )

    async def get(self, guild_id: int) -> GuildSettings:
        """The guild's settings (defaults if it never changed any). Callers get their own copy."""
        cached = self._cache.get(guild_id)
        if cached is None:
            row = await self._db.read(Tx.one, "SELECT * FROM guilds WHERE guild_id = ?", (guild_id,))
            cached = self._cache.setdefault(guild_id, self._from_row(guild_id, row))
        return copy.deepcopy(cached)

    async def update(self, guild_id: int, **changes: Any) -> GuildSettings:
        """Change some settings and return them all. Raises ``StoreError`` on a bad name or value
        (``StoreRefusal`` for a bad value).

        ``turn_timeout_seconds``: 0 (off) to 86400; ``computer_delay_seconds``: 0 to 30;
        ``rate_computer_games``: bool; ``table_threads``: one of ``THREAD_MODES``; ``language``: a
        code of ``bot.i18n.LANGUAGES`` or "" (the server's preferred locale);
        ``default_options``: {variant: {option: value}} (replaces the
        whole mapping; stored as given: the table manager checks it against the variants' rules).
        """
        checked = {name: _checked(name, value) for name, value in changes.items()}

        def change(tx: Tx) -> GuildSettings:
            row = tx.one("SELECT * FROM guilds WHERE guild_id = ?", (guild_id,))
            settings = self._from_row(guild_id, row)
            for name, value in checked.items():
                setattr(settings, name, value)
            tx.run(
                "INSERT INTO guilds (guild_id, turn_timeout_seconds, computer_delay_seconds,"
                " rate_computer_games, default_options, table_threads, language, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET turn_timeout_seconds = excluded.turn_timeout_seconds,"
                " computer_delay_seconds = excluded.computer_delay_seconds,"
                " rate_computer_games = excluded.rate_computer_games,"
                " default_options = excluded.default_options, table_threads = excluded.table_threads,"
                " language = excluded.language, updated_at = excluded.updated_at",
                (
                    guild_id,
                    settings.turn_timeout_seconds,
                    settings.computer_delay_seconds,
                    int(settings.rate_computer_games),
                    dumps(settings.default_options, "default_options"),
                    settings.table_threads,
                    settings.language,
                    time.time(),
                ),
            )
            return settings

        settings = await self._db.write(change)
        self._cache[guild_id] = settings
        return copy.deepcopy(settings)
