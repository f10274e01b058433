"""``/rules``: a game's rules, its house-rule options and this channel's table settings, in pages."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_ui import RULES_ITEMS, VARIANT_CHOICES, rules_page
from bot.discord_ui.reach import table_here


class RulesCog(commands.Cog):
    @app_commands.command(name="rules", description="The rules of a game and this table's house rules")
    @app_commands.describe(game="Which game", share="Show it to the whole channel (default: only you)")
    @app_commands.choices(game=VARIANT_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: str, share: bool = False) -> None:
        embed, view = rules_page(game, 0, table_here(interaction))
        await interaction.response.send_message(embed=embed, view=view, ephemeral=not share)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*RULES_ITEMS)
    await bot.add_cog(RulesCog())
