"""The Discord bot: an ``AutoShardedBot`` whose ``setup_hook`` opens the store, registers the
persistent components, loads the cogs, resumes unfinished tables and syncs the slash commands."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import render
from bot.config import Settings
from bot.discord_ui import DYNAMIC_ITEMS, DiscordPublisher, refuse, reply
from bot.engine import EngineError
from bot.store import Store
from bot.tables import Table, TableError, TableManager

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.table", "cogs.rules", "cogs.leaderboard", "cogs.meld")
ANNOUNCED = {
    "deal_scored",
    "game_over",
    "redeal",
    "meld",
    "melds",
    "widow",
    "declare_out",
    "gave_up",
    "throw_in",
}


def describe(table: Table, event: dict[str, Any]) -> str | None:
    """The public line for an event worth a message of its own (end of deal, end of game)."""
    if event["type"] not in ANNOUNCED or table.game is None:
        return None
    view = table.game.public_view()
    names = table.names()
    if event["type"] == "game_over":
        final = render.scores_line(view, event["scores"], names)
        return f"🏁 **{table.title}**: {render.describe_event(event, view, names)}\nFinal scores: {final}"
    return render.describe_event(event, view, names)


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
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]

    async def setup_hook(self) -> None:
        self.store = await Store.open(
            self.settings.database, default_computer_delay=self.settings.computer_delay
        )
        self.publisher = DiscordPublisher(self, min_edit_interval=self.min_edit_interval)
        self.tables = TableManager(
            self.store, self.publisher, describe=describe, owns_guild=self.settings.owns_guild
        )
        self.add_dynamic_items(*DYNAMIC_ITEMS)
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

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, TableError | EngineError):
            await refuse(interaction, original)
            return
        if isinstance(error, app_commands.NoPrivateMessage):
            await reply(interaction, "Tables live in server channels: use this command in a server.")
            return
        if isinstance(error, app_commands.MissingPermissions):
            await reply(interaction, "You need the Manage Server permission for that.")
            return
        log.error("command failed", exc_info=original)
        await reply(interaction, "Something went wrong on our side; nothing was changed.")

    async def close(self) -> None:
        if hasattr(self, "tables"):
            await self.tables.shutdown()
            await self.publisher.wait_idle()
            await self.store.close()
        await super().close()
