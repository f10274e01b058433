"""The composition root: an ``AutoShardedBot`` whose ``setup_hook`` opens the store, builds the
publisher and the table manager, loads the cogs (each registers its own persistent components),
resumes unfinished tables and syncs the slash commands. Wiring only: the behaviour lives in
``bot.tables``, ``bot.discord_ui`` and the cogs."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord.ext import commands

from bot.config import Settings
from bot.discord_ui import DiscordPublisher, answer_command_error, answer_unhandled
from bot.store import Store
from bot.tables import Table, TableManager

log = logging.getLogger(__name__)

EXTENSIONS = (
    "cogs.table", "cogs.rules", "cogs.leaderboard", "cogs.meld", "cogs.admin", "cogs.help", "cogs.history",
)  # fmt: skip


class TrickNightBot(commands.AutoShardedBot):
    """Trick Night. All game state lives in ``self.tables`` (the table manager) and the store."""

    store: Store
    tables: TableManager
    publisher: DiscordPublisher

    def __init__(self, settings: Settings, *, min_edit_interval: float = 1.0, **kwargs: Any) -> None:
        intents = discord.Intents.default()
        if settings.shard_ids is not None:  # TRICKNIGHT_SHARD_IDS: only these shards in this process
            kwargs.setdefault("shard_ids", list(settings.shard_ids))
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            shard_count=settings.shard_count,
            help_command=None,
            **kwargs,
        )
        self.settings = settings
        self.min_edit_interval = min_edit_interval
        self.tree.error(answer_command_error)
        # Clicks and forms no handler takes still get an answer (never "This interaction failed").
        self.add_listener(answer_unhandled, "on_interaction")

    async def setup_hook(self) -> None:
        self.store = await Store.open(
            self.settings.database, default_computer_delay=self.settings.computer_delay
        )
        self.publisher = DiscordPublisher(
            self, min_edit_interval=self.min_edit_interval, on_posted=self._table_posted
        )
        # owns_guild: only the tables of guilds on this process's shards (TRICKNIGHT_SHARD_IDS).
        self.tables = TableManager(self.store, self.publisher, owns_guild=self.settings.owns_guild)
        # The cogs (and the persistent items they register) load before resume_all(), so a resumed
        # table's old buttons are answered as soon as the table is back.
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        resumed = await self.tables.resume_all()
        if resumed:
            log.info("resumed %d unfinished table(s)", len(resumed))
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def _table_posted(self, table: Table, message_id: int) -> None:
        # A method, not self.tables.set_message: the publisher is built before the table manager.
        await self.tables.set_message(table, message_id)

    async def close(self) -> None:
        if hasattr(self, "tables"):
            await self.tables.shutdown()
            await self.publisher.wait_idle()
            await self.store.close()
        await super().close()
