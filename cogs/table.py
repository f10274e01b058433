"""Slash commands for tables: thin handlers that check input, call the table manager and render."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import render
from bot.discord_ui import (
    BID_ITEMS,
    CONFIRM_ITEMS,
    TABLE_ITEMS,
    VARIANT_CHOICES,
    answers_refusals,
    ask_to_end,
    ask_to_leave,
    check_length,
    display_name,
    is_admin,
    limits,
    reply,
    require_posting,
    send_hand,
    services,
    table_embed,
    table_view,
)
from bot.engine import find_variant, parse_option_pairs
from bot.errors import Refusal
from bot.levels import OFFERED, level_name
from bot.tables import Table

MAX_OPTIONS_TEXT = 400  # house rules as key=value pairs: every option of a variant fits easily
HINT_DESCRIPTION = "What the hard computer would do now, and why (only you see it)"
LEVEL_CHOICES = [app_commands.Choice(name=shown, value=level) for shown, level in OFFERED.items()]
CARD_STYLE_CHOICES = [
    app_commands.Choice(name="Pictures", value="pictures"),
    app_commands.Choice(name="Text", value="text"),
]


def here(interaction: discord.Interaction) -> Table:
    return services(interaction).tables.require(interaction.channel_id or 0)


class TableCog(commands.Cog):
    """``/table …`` and ``/hand``. One active table per channel, played in the channel itself."""

    table = app_commands.Group(name="table", description="Open, join and run a card table", guild_only=True)

    @table.command(name="new", description="Open a table in this channel")
    @app_commands.describe(
        game="Which game", players="Number of seats (default: the game's usual count)",
        options="House rules as key=value pairs, e.g. target=21 smudge=on",
    )  # fmt: skip
    @app_commands.choices(game=VARIANT_CHOICES)
    @answers_refusals
    async def new(
        self,
        interaction: discord.Interaction,
        game: str,
        players: int | None = None,
        options: str | None = None,
    ) -> None:
        require_posting(interaction)
        check_length(options, "list of house rules", MAX_OPTIONS_TEXT)
        pairs = parse_option_pairs(options.replace(",", " ").split()) if options else {}
        assert interaction.guild_id is not None and interaction.channel_id is not None
        table = await services(interaction).tables.open_table(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id, host_id=interaction.user.id,
            host_name=display_name(interaction), variant=game, options=pairs, players=players,
        )  # fmt: skip
        cls = find_variant(table.variant)
        summary = render.player_text(cls.rules_text.split("\n", 1)[0])
        sent = await interaction.response.send_message(
            **limits.checked(
                content=f"{summary} — use `/rules` for the full rules.",
                embed=table_embed(table),
                view=table_view(table) or discord.utils.MISSING,
            )
        )
        message_id = sent.message_id if sent is not None else None
        if message_id is None:
            message_id = (await interaction.original_response()).id
        await services(interaction).tables.set_message(table, message_id)

    @table.command(name="join", description="Take a seat at this channel's table")
    @answers_refusals
    async def join(self, interaction: discord.Interaction) -> None:
        table = here(interaction)
        seat = await services(interaction).tables.join(table, interaction.user.id, display_name(interaction))
        await reply(interaction, f"You took seat {seat + 1}.")

    @table.command(name="leave", description="Leave this channel's table (a computer takes over a game seat)")
    @answers_refusals
    async def leave(self, interaction: discord.Interaction) -> None:
        table = here(interaction)
        if table.status == "playing" and table.seat_of(interaction.user.id) is not None:
            await ask_to_leave(interaction, table)  # final: the seat goes to a computer
            return
        await services(interaction).tables.leave(table, interaction.user.id)
        await reply(interaction, "You left the table.")

    @table.command(name="add-computer", description="Add a computer player to an empty seat")
    @app_commands.describe(level="How strong: easy (the default) or hard (thinks up to a second a move)")
    @app_commands.choices(level=LEVEL_CHOICES)
    @answers_refusals
    async def add_computer(self, interaction: discord.Interaction, level: str = OFFERED["easy"]) -> None:
        table = here(interaction)
        seat = await services(interaction).tables.add_computer(table, interaction.user.id, level)
        await reply(interaction, f"A computer player ({level_name(level)}) sits in seat {seat + 1}.")

    @table.command(name="start", description="Start the game (host or Manage Server)")
    @answers_refusals
    async def start(self, interaction: discord.Interaction) -> None:
        await services(interaction).tables.start(
            here(interaction), interaction.user.id, is_admin=is_admin(interaction)
        )
        await reply(interaction, "The game has started. Click **Show my hand** or use `/hand`.")

    @table.command(
        name="end", description="End this channel's table without a result (host or Manage Server)"
    )
    @answers_refusals
    async def end(self, interaction: discord.Interaction) -> None:
        await ask_to_end(interaction, here(interaction))

    @table.command(name="status", description="Post this channel's table message again")
    @answers_refusals
    async def status(self, interaction: discord.Interaction) -> None:
        table = here(interaction)
        require_posting(interaction)
        await interaction.response.defer(ephemeral=True)
        try:
            await services(interaction).tables.repost(table)
        except discord.Forbidden:
            raise Refusal(
                "I could not post the table in this channel (Discord refused: missing permissions). "
                "Ask a server admin to allow me here."
            ) from None
        await interaction.followup.send("The table is posted again below.", ephemeral=True)

    @table.command(name="back", description="Take your seat back from the computer playing it")
    @answers_refusals
    async def back(self, interaction: discord.Interaction) -> None:
        table = here(interaction)
        await services(interaction).tables.take_back(table, interaction.user.id)
        await send_hand(interaction, table)

    @table.command(name="cards", description="How your hand panel shows your cards: pictures or text")
    @app_commands.describe(
        style="Pictures of the cards (the default) or text only",
        four_colour="In pictures, give each suit its own colour (♦ blue, ♣ green)",
    )
    @app_commands.choices(style=CARD_STYLE_CHOICES)
    @answers_refusals
    async def cards(
        self, interaction: discord.Interaction, style: str | None = None, four_colour: bool | None = None
    ) -> None:
        prefs = await services(interaction).store.players.update(
            interaction.user.id, card_style=style, four_colour=four_colour
        )
        shown = "text"
        if prefs.pictures:
            shown = "pictures with four suit colours" if prefs.four_colour else "pictures"
        await reply(
            interaction,
            f"Your hand panel shows your cards as {shown} from its next update, at every table. "
            "Change it any time with `/table cards`.",
        )

    @table.command(name="hints", description="Allow /hint at this table or not (host, in the lobby)")
    @app_commands.describe(allowed="Whether seated players may ask /hint (on for a new table)")
    @answers_refusals
    async def hints(self, interaction: discord.Interaction, allowed: bool) -> None:
        await services(interaction).tables.hints.set_enabled(here(interaction), interaction.user.id, allowed)
        await reply(interaction, "Hints are on at this table." if allowed else "Hints are off at this table.")

    @app_commands.command(name="hint", description=HINT_DESCRIPTION)
    @app_commands.guild_only()
    @answers_refusals
    async def hint(self, interaction: discord.Interaction) -> None:
        table = here(interaction)
        # The search takes up to a second (more while its workers start): answer within Discord's 3 s.
        await interaction.response.defer(ephemeral=True, thinking=True)
        advice = await services(interaction).tables.hints.hint(table, interaction.user.id)
        await reply(interaction, limits.clip(f"💡 Hint (what the hard computer would do): {advice.reason}",
                                             limits.CONTENT))  # fmt: skip

    @app_commands.command(name="hand", description="Your hand and your choices (only you see it)")
    @app_commands.guild_only()
    @answers_refusals
    async def hand(self, interaction: discord.Interaction) -> None:
        await send_hand(interaction, here(interaction))


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*TABLE_ITEMS, *BID_ITEMS, *CONFIRM_ITEMS)
    await bot.add_cog(TableCog())
