"""``/duplicate …``: duplicate events for players (open an event's table, see its ranking); the
organizer's side is ``/admin duplicate-start`` and ``/admin duplicate-end`` (``cogs.admin``)."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.discord_ui import answers_refusals, limits, reply, services, services_of
from bot.discord_ui.duplicate import (
    OpenTableButton,
    event_choices,
    event_ranking,
    find_event,
    open_event_table,
    ranking_files,
    ranking_text,
    tend_events,
)
from bot.discord_ui.history import may_attach
from bot.discord_ui.leagues import Pace
from bot.store import StoreError

log = logging.getLogger(__name__)
EVENT_CLOCK_SECONDS = 10


class DuplicateCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.pace = Pace(EVENT_CLOCK_SECONDS)
        self.event_clock.start()

    async def cog_unload(self) -> None:
        self.event_clock.cancel()

    @tasks.loop(seconds=EVENT_CLOCK_SECONDS)
    async def event_clock(self) -> None:
        """Event tables stop after their deals (also after a restart); an event whose tables are all
        done ends, and its ranking is posted."""
        if not self.pace.due():
            return
        try:
            await tend_events(self.bot, services_of(self.bot))
        except (StoreError, discord.HTTPException) as err:
            log.warning("could not tend the duplicate events: %s", err)

    @event_clock.before_loop
    async def until_ready(self) -> None:
        await self.bot.wait_until_ready()

    duplicate = app_commands.Group(name="duplicate", description="Duplicate events", guild_only=True)

    @duplicate.command(name="table", description="Open a table of a duplicate event in this channel")
    @app_commands.describe(event="Which event (pick from the list)")
    @answers_refusals
    async def table(self, interaction: discord.Interaction, event: str) -> None:
        chosen = await find_event(services(interaction).store, interaction.guild_id or 0, event)
        await open_event_table(interaction, chosen)

    @duplicate.command(name="show", description="A duplicate event's ranking (so far, or final)")
    @app_commands.describe(
        event="Which event (pick from the list)", share="Show it to the channel (default: only you)"
    )
    @answers_refusals
    async def show(self, interaction: discord.Interaction, event: str, share: bool = False) -> None:
        store = services(interaction).store
        chosen = await find_event(store, interaction.guild_id or 0, event)
        ranking = await event_ranking(store, chosen)
        text = ranking_text(ranking, final=not chosen.open)
        files = await ranking_files(ranking, allowed=may_attach(interaction))
        if share:
            await interaction.response.send_message(**limits.checked(content=text), files=files)
        else:
            await reply(interaction, text, files=files)

    @table.autocomplete("event")
    async def table_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await event_choices(
            services(interaction).store, interaction.guild_id or 0, current, open_only=True
        )

    @show.autocomplete("event")
    async def show_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await event_choices(
            services(interaction).store, interaction.guild_id or 0, current, open_only=False
        )


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(OpenTableButton)
    await bot.add_cog(DuplicateCog(bot))
