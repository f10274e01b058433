"""Slash-command choices shared by several cogs (so no cog imports another)."""

from __future__ import annotations

from discord import app_commands

from bot.engine import find_variant, variant_names

VARIANT_CHOICES = [app_commands.Choice(name=find_variant(n).title, value=n) for n in variant_names()]
FAMILY_CHOICES = [
    app_commands.Choice(name="Pitch", value="pitch"),
    app_commands.Choice(name="Pinochle", value="pinochle"),
    app_commands.Choice(name="Double-deck pinochle", value="double-deck"),
]
ORDER_CHOICES = [
    app_commands.Choice(name="Rating", value="rating"),
    app_commands.Choice(name="Wins", value="wins"),
    app_commands.Choice(name="Games", value="games"),
    app_commands.Choice(name="Win %", value="winpct"),
]
