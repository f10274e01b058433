"""``/meld``: count the meld in a pinochle hand with the engine's meld counter (the same one the
``python -m bot meld`` command uses). Ephemeral unless ``share`` is set."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import render
from bot.discord_ui import limits
from bot.engine import EngineError, Suit, parse_cards
from bot.engine.meld import MeldResult
from bot.engine.pinochle import meld_hand, pinochle_variants

GAME_CHOICES = [app_commands.Choice(name=name, value=name) for name in pinochle_variants()][:25]
TRUMP_CHOICES = [app_commands.Choice(name=f"{suit.symbol} {suit.label}", value=suit.value) for suit in Suit]


def meld_text(variant: str, trump: str, cards: list[str], result: MeldResult) -> str:
    """The meld found, each with its cards and points, and the total."""
    lines = [
        f"**Meld** — {variant}, trump {render.suit_name(trump)}: {render.pretty_cards(cards)}",
    ]
    for meld in result.melds:
        shown = " ".join(card.pretty for card in meld.cards)
        lines.append(f"• {meld.name}: {shown} = {meld.points}")
    if not result.melds:
        lines.append("No meld.")
    lines.append(f"**Total: {result.total}**")
    return limits.clip("\n".join(lines), limits.CONTENT)


class MeldCog(commands.Cog):
    @app_commands.command(name="meld", description="Count the meld in a pinochle hand")
    @app_commands.describe(
        game="Which pinochle game (its meld table)",
        trump="The trump suit",
        cards="The cards, e.g. AH 10H KH QH JH QS JD (or A♥ 10♥ …)",
        share="Show it to the whole channel (default: only you)",
    )
    @app_commands.choices(game=GAME_CHOICES, trump=TRUMP_CHOICES)
    async def meld(
        self, interaction: discord.Interaction, game: str, trump: str, cards: str, share: bool = False
    ) -> None:
        try:
            result = meld_hand(game, trump, cards)
            codes = [card.code for card in parse_cards(cards)]
        except EngineError as err:
            await interaction.response.send_message(
                limits.clip(
                    f"I could not read that hand: {err}\nGive cards like `AH 10H KH QH JH QS JD`.", 2000
                ),
                ephemeral=True,
            )
            return
        await interaction.response.send_message(
            **limits.checked(content=meld_text(game, trump, codes, result)),
            ephemeral=not share,
            allowed_mentions=discord.AllowedMentions.none(),
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(MeldCog())
