"""Slash commands for tables: thin handlers that check input, call the table manager and render."""

from __future__ import annotations

import contextlib

import discord
from discord import app_commands
from discord.ext import commands

from bot import render
from bot.discord_ui import (
    BID_ITEMS,
    CONFIRM_ITEMS,
    TABLE_ITEMS,
    VARIANT_CHOICES,
    LobbyButton,
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
from bot.discord_ui.lobby import (
    LOBBY_ITEMS,
    add_to_thread,
    answer_choice,
    bring_in,
    invite_view,
    only_them,
    show_out,
)
from bot.discord_ui.panels import untracked
from bot.discord_ui.reach import here
from bot.discord_ui.threads import THREAD_TYPES, fallback_note, open_thread, why_no_thread
from bot.engine import find_variant, parse_option_pairs
from bot.errors import Refusal
from bot.levels import OFFERED, level_name

MAX_OPTIONS_TEXT = 400  # house rules as key=value pairs: every option of a variant fits easily
HINT_DESCRIPTION = "What the hard computer would do now, and why (only you see it)"
LEVEL_CHOICES = [app_commands.Choice(name=shown, value=level) for shown, level in OFFERED.items()]
CARD_STYLE_CHOICES = [
    app_commands.Choice(name="Pictures", value="pictures"),
    app_commands.Choice(name="Text", value="text"),
]


class TableCog(commands.Cog):
    """``/table …`` and ``/hand``. One table per channel; `/table new` gives each its own thread."""

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
        manager = services(interaction).tables
        mode = (await manager.store.settings.get(interaction.guild_id)).table_threads
        no_thread = why_no_thread(interaction, mode)
        if mode in THREAD_TYPES and no_thread is None:
            await manager.check_new(interaction.guild_id, game, pairs, players)  # refused before any thread
            await interaction.response.defer()  # creating a thread may take longer than Discord's 3 s
            assert isinstance(interaction.channel, discord.TextChannel)
            title = find_variant(game).title
            try:
                thread = await open_thread(interaction.channel, mode, title, interaction.user)
            except discord.HTTPException as err:  # Discord refused after all: play in the channel
                no_thread = f"Discord would not create the thread ({err.text or err.status})"
            else:
                await self.open_in_thread(interaction, thread, game, pairs, players)
                return
        table = await manager.open_table(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id, host_id=interaction.user.id,
            host_name=display_name(interaction), variant=game, options=pairs, players=players,
        )  # fmt: skip
        cls = find_variant(table.variant)
        summary = render.player_text(cls.rules_text.split("\n", 1)[0])
        message = limits.checked(
            content=f"{summary} — use `/rules` for the full rules.",
            embed=table_embed(table),
            view=table_view(table) or discord.utils.MISSING,
        )
        if interaction.response.is_done():
            message_id: int | None = (await interaction.followup.send(**message, wait=True)).id
        else:
            sent = await interaction.response.send_message(**message)
            message_id = sent.message_id if sent is not None else None
        if message_id is None:
            message_id = (await interaction.original_response()).id
        await manager.set_message(table, message_id)
        if no_thread is not None and mode in THREAD_TYPES:
            await interaction.followup.send(fallback_note(no_thread), ephemeral=True)

    @staticmethod
    async def open_in_thread(
        interaction: discord.Interaction, thread: discord.Thread, game: str, pairs: dict[str, str],
        players: int | None,
    ) -> None:  # fmt: skip
        """Open the table in its new thread (the publisher posts its message there) and say so in
        the channel, with a **Join** button that also works for people outside a private thread."""
        assert interaction.guild_id is not None
        try:
            table = await services(interaction).tables.open_table(
                guild_id=interaction.guild_id, channel_id=thread.id, host_id=interaction.user.id,
                host_name=display_name(interaction), variant=game, options=pairs, players=players,
                in_answer=False,
            )  # fmt: skip
        except BaseException:
            with contextlib.suppress(discord.HTTPException):
                await thread.delete()  # no table came of it
            raise
        view = discord.ui.View(timeout=None)
        view.add_item(LobbyButton(table.id, "join"))
        await interaction.followup.send(
            **limits.checked(
                content=f"{display_name(interaction)} opened the {table.title} table #{table.id} in "
                f"{thread.mention}. Click **Join** to take a seat there.",
                view=untracked(view),
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @table.command(name="join", description="Take a seat at this channel's table")
    @answers_refusals
    async def join(self, interaction: discord.Interaction) -> None:
        table = here(interaction)
        seat = await services(interaction).tables.join(table, interaction.user.id, display_name(interaction))
        await reply(interaction, f"You took seat {seat + 1}.{await bring_in(interaction, table)}")

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

    # ----- seats and people (the rules are in manager.seating) -----------------------------------
    @table.command(
        name="seat", description="Sit in, or move to, a seat before the start (it decides partners)"
    )
    @app_commands.describe(number="The seat's number (partners sit opposite: 1 & 3, 2 & 4 at four)")
    @answers_refusals
    async def seat(self, interaction: discord.Interaction, number: app_commands.Range[int, 1, 8]) -> None:
        table = here(interaction)
        change = await services(interaction).tables.seating.choose(
            table, interaction.user.id, display_name(interaction), number - 1
        )
        await answer_choice(interaction, table, change)

    @table.command(name="swap", description="Swap two seats before the start (host or Manage Server)")
    @app_commands.describe(first="A seat number", second="The other seat number")
    @answers_refusals
    async def swap(
        self, interaction: discord.Interaction,
        first: app_commands.Range[int, 1, 8], second: app_commands.Range[int, 1, 8],
    ) -> None:  # fmt: skip
        table = here(interaction)
        await services(interaction).tables.seating.swap(
            table, interaction.user.id, first - 1, second - 1, is_admin=is_admin(interaction)
        )
        await reply(interaction, f"Seats {first} and {second} were swapped.")

    @table.command(name="remove-computer", description="Take a computer out of the lobby (host)")
    @app_commands.describe(number="The computer's seat number")
    @answers_refusals
    async def remove_computer(
        self, interaction: discord.Interaction, number: app_commands.Range[int, 1, 8]
    ) -> None:
        name = await services(interaction).tables.seating.remove_computer(
            here(interaction), interaction.user.id, number - 1, is_admin=is_admin(interaction)
        )
        await reply(interaction, f"{name} left seat {number}.")

    @table.command(name="kick", description="Remove a player (host); during a game a computer takes the seat")
    @app_commands.describe(member="The player to remove")
    @answers_refusals
    async def kick(self, interaction: discord.Interaction, member: discord.Member) -> None:
        table = here(interaction)
        playing = table.status == "playing"
        name = await services(interaction).tables.seating.kick(
            table, interaction.user.id, member.id, is_admin=is_admin(interaction)
        )
        await show_out(interaction, table, member)
        after = "a computer plays their seat" if playing else "their seat is free"
        await reply(interaction, f"{name} was removed from the table: {after}.")

    @table.command(name="host", description="Hand over hosting to a seated player (host)")
    @app_commands.describe(member="The new host (seated at this table)")
    @answers_refusals
    async def host(self, interaction: discord.Interaction, member: discord.Member) -> None:
        name = await services(interaction).tables.seating.hand_over(
            here(interaction), interaction.user.id, member.id, is_admin=is_admin(interaction)
        )
        await reply(interaction, f"{name} is the host now.")

    @table.command(name="invite", description="Invite a member to this table (pings only them)")
    @app_commands.describe(member="Who to invite")
    @answers_refusals
    async def invite(self, interaction: discord.Interaction, member: discord.Member) -> None:
        table = here(interaction)
        services(interaction).tables.seating.check_invite(
            table, interaction.user.id, member.id, member_is_bot=member.bot
        )
        require_posting(interaction)
        await add_to_thread(interaction, table, member)
        text = (
            f"{member.mention}, {display_name(interaction)} invites you to the {table.title} table "
            f"(#{table.id}). Click **Join the table** to take a seat."
        )
        # The one mention here: exactly the invited member.
        await interaction.response.send_message(
            **limits.checked(content=text, view=invite_view(table, member.id)),
            allowed_mentions=only_them(member.id),
        )

    @app_commands.command(name="hand", description="Your hand and your choices (only you see it)")
    @app_commands.guild_only()
    @answers_refusals
    async def hand(self, interaction: discord.Interaction) -> None:
        await send_hand(interaction, here(interaction))


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*TABLE_ITEMS, *BID_ITEMS, *CONFIRM_ITEMS, *LOBBY_ITEMS)
    await bot.add_cog(TableCog())
