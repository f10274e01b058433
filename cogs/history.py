"""``/history`` (a player's recent games here) and ``/replay`` (a finished deal, trick by trick).

Thin handlers: ``bot.discord_ui.history`` builds the messages and answers their controls.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_ui import answers_refusals, reply, services
from bot.discord_ui.history import HISTORY_ITEMS, history_message, send_replay
from bot.errors import Refusal


class HistoryCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="history", description="A player's recent games in this server")
    @app_commands.describe(
        user="Whose games (default: yours)", share="Show it to the channel (default: only you)"
    )
    @app_commands.guild_only()
    @answers_refusals
    async def history(
        self, interaction: discord.Interaction, user: discord.User | None = None, share: bool = False
    ) -> None:
        who = user or interaction.user
        store = services(interaction).store
        embed, view = await history_message(store, interaction.guild_id or 0, who.id, 0)
        if share:
            await interaction.response.send_message(
                embed=embed, view=view, allowed_mentions=discord.AllowedMentions.none()
            )
        else:
            await reply(interaction, None, embed=embed, view=view)

    @app_commands.command(name="replay", description="Step through a finished deal of a game, trick by trick")
    @app_commands.describe(
        game="The game's number (see /history)", share="Show it to the channel (default: only you)"
    )
    @app_commands.guild_only()
    @answers_refusals
    async def replay(self, interaction: discord.Interaction, game: int, share: bool = False) -> None:
        if game <= 0:
            raise Refusal("A game number is a positive whole number: /history lists your games with theirs.")
        await send_replay(interaction, game, share=share)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*HISTORY_ITEMS)
    await bot.add_cog(HistoryCog(bot))
