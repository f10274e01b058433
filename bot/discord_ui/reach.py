"""Which table a click, a form or a command may reach: only a table of the interaction's own guild,
and only where the bot posts that table's controls. Every component, form and command finds its
table here, so no handler can forget the check.

Why: a control's custom id names its table by id (``tn:…:<table id>:…``), and ids are not unique
across bot processes: two processes with a database each both have a table #1, and when a guild's
shard moves from one process to the other its old buttons arrive at the other process. A custom id
can also be forged. So a table of another guild is refused exactly like one that does not exist
(``tables.GONE``, ephemeral): nothing about it is shown, nothing there changes, nobody is seated or
added to its thread.

Where each control is posted, and so where its click may come from:

- the table message (lobby buttons, the seat menu, **Show my hand**, **Take my seat back**), turn
  pings, hand panels and their questions, swap requests, invitations and the **Other bid…** form
  all live in the table's own channel (its thread, for a table in a thread): clicked anywhere else
  they can only be forged, and are refused;
- **Join** is also on the line ``/table new`` posts in the parent channel of the table's thread
  (so people outside a private thread can sit down): it works from there too
  (``from_parent``), and from no other channel.

Commands (``/table …``, ``/hand``, ``/hint``, ``/rules``) name no table: they reach the table of
the channel they are used in, within the command's guild (``table_here``, ``here``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord

from bot.discord_ui.replies import CLICK_PATIENCE, REFUSALS, refuse, reply
from bot.discord_ui.services import services
from bot.store import write_patience
from bot.tables import GONE, Table, TableError

log = logging.getLogger(__name__)


async def thread_parent(client: discord.Client, channel_id: int) -> int | None:
    """The parent channel of the thread ``channel_id`` (None if it is no thread or cannot be seen).
    An archived thread is not in the cache: it is asked for (only for a Join from the parent)."""
    channel = client.get_channel(channel_id)
    if channel is None:
        try:
            channel = await client.fetch_channel(channel_id)
        except discord.HTTPException:
            return None
    return channel.parent_id if isinstance(channel, discord.Thread) else None


async def table_for(interaction: discord.Interaction, table_id: int, *, from_parent: bool = False) -> Table:
    """The live table ``table_id`` if the interaction may reach it: a table of the interaction's
    guild, played in the interaction's channel or, with ``from_parent`` (**Join**), in a thread of
    it. Else ``TableError(GONE)``, as for a table that has ended."""
    manager = services(interaction).tables
    guild_id, channel_id = interaction.guild_id, interaction.channel_id
    if not from_parent:
        return manager.get(table_id, guild_id=guild_id, channel_id=channel_id)
    table = manager.get(table_id, guild_id=guild_id, channel_id=channel_id, any_channel=True)
    if table.channel_id == channel_id:
        return table
    if channel_id is not None and await thread_parent(interaction.client, table.channel_id) == channel_id:
        return table
    raise TableError(GONE)


def table_here(interaction: discord.Interaction) -> Table | None:
    """The table played in the channel the interaction came from (in its guild), if any."""
    return services(interaction).tables.table_here(interaction.channel_id, guild_id=interaction.guild_id)


def here(interaction: discord.Interaction) -> Table:
    """The table a command is about: the one in its channel; a refusal if there is none."""
    return services(interaction).tables.require(interaction.channel_id, guild_id=interaction.guild_id)


async def on_table(
    interaction: discord.Interaction,
    table_id: int,
    work: Callable[[Table], Awaitable[None]],
    *,
    from_parent: bool = False,
) -> None:
    """Run a control's (or form's) handler for the table its custom id names, once ``table_for``
    has let the interaction reach it. Refusals get a clear ephemeral reply and change nothing
    (with player names only from a table the person may reach); anything unexpected is logged and
    answered too (discord.py only logs DynamicItem errors, which would leave the click
    unanswered)."""
    table: Table | None = None
    try:
        with write_patience(CLICK_PATIENCE):
            table = await table_for(interaction, table_id, from_parent=from_parent)
            await work(table)
    except REFUSALS as err:
        await refuse(interaction, err, table)
    except Exception:
        log.exception("interaction failed")
        await reply(interaction, "Something went wrong on our side; nothing was changed. Try again.")
