"""The lobby's seat menu, swap requests, invitations, and bringing seated people into a thread.

- **Choose a seat** (``SeatSelect``) on the lobby message: each seat with who sits there and its
  partners, so choosing a seat chooses a partner (``manager.seating.choose``). Choosing another
  person's seat asks them publicly (only they are pinged); **Accept the swap** (``SwapButton``)
  works for them alone.
- An invitation (``/table invite``) pings one member with **Join the table** (``InviteButton``),
  which only that member can use.
- A table played in a thread (``threads``) adds each person who takes a seat to the thread: a
  private thread is invisible to anyone not in it.

The three items are ``DynamicItem``s with templates of their own (``tn:seat:…``, ``tn:swap:…``,
``tn:invite:…``), so they keep working after a restart.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.discord_ui import limits
from bot.discord_ui.panels import untracked
from bot.discord_ui.reach import on_table
from bot.discord_ui.replies import display_name, reply
from bot.discord_ui.services import services
from bot.seating import SeatChange, partners_of
from bot.tables import Table, TableError

log = logging.getLogger(__name__)


def sitter_name(table: Table, seat: int) -> str:
    sitter = table.seats[seat]
    return sitter.label() if sitter is not None else "free"


def seat_option(table: Table, seat: int) -> discord.SelectOption:
    """One seat in the menu: its number and sitter, and with whom it plays."""
    who = sitter_name(table, seat)
    partners = partners_of(table, seat)
    if partners:
        plural = "s" if len(partners) > 1 else ""
        names = [f"{p + 1} ({sitter_name(table, p)})" for p in partners]
        description = f"Partner{plural}: seat{plural} " + ", ".join(names)
    else:
        description = "Plays alone"
    return discord.SelectOption(
        label=limits.clip(f"Seat {seat + 1}: {who}", limits.OPTION_TEXT),
        value=str(seat),
        description=limits.clip(description, limits.OPTION_TEXT),
    )


async def add_to_thread(
    interaction: discord.Interaction, table: Table, user: discord.abc.Snowflake
) -> discord.Thread | None:
    """Add ``user`` to the table's thread, if the table is played in one (which it returns)."""
    channel = interaction.client.get_channel(table.channel_id)
    if not isinstance(channel, discord.Thread):
        return None
    try:
        await channel.add_user(user)
    except discord.HTTPException as err:  # the thread was archived or closed to the bot meanwhile
        log.warning("table %s: could not add %s to thread %s: %s", table.id, user.id, channel.id, err)
    return channel


async def show_out(interaction: discord.Interaction, table: Table, user: discord.abc.Snowflake) -> None:
    """Take a removed player out of the table's private thread (a public one is open to all)."""
    channel = interaction.client.get_channel(table.channel_id)
    if isinstance(channel, discord.Thread) and channel.type is discord.ChannelType.private_thread:
        try:
            await channel.remove_user(user)
        except discord.HTTPException as err:
            log.warning("table %s: could not remove %s from thread %s: %s", table.id, user.id,
                        channel.id, err)  # fmt: skip


async def bring_in(interaction: discord.Interaction, table: Table) -> str:
    """Add the person who just took a seat to the table's thread (if it is one); the words that
    point them there (empty when they are in it already)."""
    thread = await add_to_thread(interaction, table, interaction.user)
    if thread is None or interaction.channel_id == table.channel_id:
        return ""
    return f" The table is in {thread.mention}."


def only_them(user_id: int) -> discord.AllowedMentions:
    """A message's mentions may notify exactly this one person."""
    return discord.AllowedMentions(users=[discord.Object(user_id)], everyone=False, roles=False)


async def answer_choice(interaction: discord.Interaction, table: Table, change: SeatChange) -> None:
    """Answer a seat choice: where the person sits now, or (a seat another person holds) a public
    request to that person, who alone is pinged and can accept it."""
    if change.asks is None:
        where = await bring_in(interaction, table) if change.came_from is None else ""
        verb = "took" if change.came_from is None else "moved to"
        await reply(interaction, f"You {verb} seat {change.seat + 1} at the {table.title} table.{where}")
        return
    assert change.came_from is not None
    view = discord.ui.View(timeout=None)
    view.add_item(SwapButton(table.id, change.came_from, interaction.user.id, change.seat, change.asks))
    text = (
        f"<@{change.asks}>, {display_name(interaction)} (seat {change.came_from + 1}) asks to swap seats "
        f"with you (seat {change.seat + 1}). Click **Accept the swap** to do it."
    )
    await interaction.response.send_message(
        **limits.checked(content=text, view=untracked(view)),
        allowed_mentions=only_them(change.asks),
    )


class SeatSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"tn:seat:(?P<tid>\d+)"):
    """**Choose a seat…** on a lobby message: sit down, or move, in the seat chosen. Only on the
    table message, in the table's channel: only choices from there count."""

    def __init__(self, table_id: int, table: Table | None = None) -> None:
        options = [seat_option(table, i) for i in range(table.players)] if table is not None else []
        super().__init__(
            discord.ui.Select(
                custom_id=f"tn:seat:{table_id}", placeholder="Choose a seat (and so a partner)…",
                options=options[: limits.SELECT_OPTIONS] or [discord.SelectOption(label="—", value="-")],
            )
        )  # fmt: skip
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> SeatSelect:
        return cls(int(match["tid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        values: list[str] = list(data.get("values") or [])

        async def work(table: Table) -> None:
            if not values or not str(values[0]).isdigit():
                raise TableError("Choose a seat from the menu.")
            change = await services(interaction).tables.seating.choose(
                table, interaction.user.id, display_name(interaction), int(values[0])
            )
            await answer_choice(interaction, table, change)

        await on_table(interaction, self.table_id, work)


class InviteButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tn:invite:(?P<tid>\d+):(?P<user>\d+)"
):
    """**Join the table** on an invitation: seats the invited member (and only them). ``/table
    invite`` is used in the table's channel (and adds the member to the table's thread first), so
    the invitation is there: only clicks from there count."""

    def __init__(self, table_id: int, user_id: int) -> None:
        super().__init__(
            discord.ui.Button(label="Join the table", style=discord.ButtonStyle.success,
                              custom_id=f"tn:invite:{table_id}:{user_id}")
        )  # fmt: skip
        self.table_id = table_id
        self.user_id = user_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> InviteButton:
        return cls(int(match["tid"]), int(match["user"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work(table: Table) -> None:
            seat = await services(interaction).tables.seating.accept_invite(
                table, interaction.user.id, display_name(interaction), self.user_id
            )
            where = await bring_in(interaction, table)
            await reply(interaction, f"You took seat {seat + 1} at the {table.title} table.{where}")

        await on_table(interaction, self.table_id, work)


class SwapButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tn:swap:(?P<tid>\d+):(?P<a>\d+):(?P<auser>\d+):(?P<b>\d+):(?P<buser>\d+)",
):
    """**Accept the swap** on a request: the person in seat ``b`` swaps with the asker in seat ``a``.
    The request answers a seat choice made in the table's channel: only clicks from there count."""

    def __init__(self, table_id: int, asker_seat: int, asker_id: int, seat: int, user_id: int) -> None:
        super().__init__(
            discord.ui.Button(label="Accept the swap", style=discord.ButtonStyle.primary,
                              custom_id=f"tn:swap:{table_id}:{asker_seat}:{asker_id}:{seat}:{user_id}")
        )  # fmt: skip
        self.table_id, self.asker_seat, self.asker_id = table_id, asker_seat, asker_id
        self.seat, self.user_id = seat, user_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> SwapButton:
        seats_and_people = (int(match[name]) for name in ("a", "auser", "b", "buser"))
        return cls(int(match["tid"]), *seats_and_people)

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work(table: Table) -> None:
            if interaction.user.id != self.user_id:
                raise TableError("This swap was asked of someone else.")
            await services(interaction).tables.seating.accept_swap(
                table, interaction.user.id, self.asker_id, self.asker_seat, self.seat
            )
            done = f"Seats {self.asker_seat + 1} and {self.seat + 1} were swapped."
            await interaction.response.edit_message(**limits.checked(content=done, view=None))

        await on_table(interaction, self.table_id, work)


def invite_view(table: Table, user_id: int) -> discord.ui.View:
    """The invitation's one button (found by its custom id when clicked, so not tracked)."""
    view = discord.ui.View(timeout=None)
    view.add_item(InviteButton(table.id, user_id))
    return untracked(view)


LOBBY_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (SeatSelect, InviteButton, SwapButton)
