"""``/rules``: a game's rules, its house-rule options and this channel's table settings."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_ui import VARIANT_CHOICES, options_text, services
from bot.engine import find_variant


def rules_embed(variant: str) -> discord.Embed:
    cls = find_variant(variant)
    embed = discord.Embed(title=f"{cls.title} — rules", description=cls.rules_text[:4000])
    embed.add_field(name="Players", value=", ".join(str(n) for n in cls.player_counts), inline=True)
    options = "\n".join(
        f"`{spec.name}` ({spec.describe_values()}, default "
        f"{('on' if spec.default else 'off') if spec.is_flag else spec.default}): {spec.help}"
        for spec in cls.option_specs
    )
    embed.add_field(
        name="House rules (`/table new options:key=value`)", value=options or "none", inline=False
    )
    return embed


class RulesCog(commands.Cog):
    @app_commands.command(name="rules", description="The rules of a game and this table's house rules")
    @app_commands.describe(game="Which game", share="Show it to the whole channel (default: only you)")
    @app_commands.choices(game=VARIANT_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: str, share: bool = False) -> None:
        embed = rules_embed(game)
        table = services(interaction).tables.table_in(interaction.channel_id or 0)
        if table is not None and table.variant == game:
            embed.add_field(name=f"This table (#{table.id})", value=options_text(table), inline=False)
        await interaction.response.send_message(embed=embed, ephemeral=not share)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(RulesCog())
