"""Tables in threads: ``/table new`` opens each table in a thread of its own (public or private, per
the guild's ``table_threads`` setting), so one channel hosts many tables; where the bot may not
create threads, or the channel cannot have them, the table is played in the channel itself and
the host is told why in one line. The thread is the table's channel (its id is stored as such), so
a table in a thread survives a restart like any other. When the game ends, the thread has the
final summary and is archived (and locked, where the bot may manage threads).
"""

from __future__ import annotations

import logging
from typing import Literal

import discord

from bot.discord_ui import limits
from bot.tables import Table

log = logging.getLogger(__name__)

THREAD_TYPES = {"public": discord.ChannelType.public_thread, "private": discord.ChannelType.private_thread}
THREAD_PERMISSIONS = {  # the permission a thread table needs → its name in Discord
    "public": ("create_public_threads", "Create Public Threads"),
    "private": ("create_private_threads", "Create Private Threads"),
}
# An idle table's thread hides after a day (a lobby waiting for players).
ARCHIVE_AFTER_MINUTES: Literal[1440] = 1440


def why_no_thread(interaction: discord.Interaction, mode: str) -> str | None:
    """Why a new table cannot have a ``mode`` thread here (None: it can, or threads are off)."""
    if mode not in THREAD_TYPES:
        return None
    channel = interaction.channel
    if isinstance(channel, discord.Thread):
        return "this is a thread, and threads cannot have threads of their own"
    if not isinstance(channel, discord.TextChannel):
        return "this kind of channel cannot have threads"
    perms = interaction.app_permissions
    name, label = THREAD_PERMISSIONS[mode]
    missing = [label] if not getattr(perms, name) else []
    if not perms.send_messages_in_threads:
        missing.append("Send Messages in Threads")
    if missing:
        return f"I lack {' and '.join(missing)} here"
    return None


def fallback_note(reason: str) -> str:
    """The one line a host gets when their table is played in the channel instead of a thread."""
    return limits.clip(
        f"I opened the table here in the channel, not in a thread of its own: {reason}. "
        "A server admin can change that (or choose `/admin settings table_threads`).",
        limits.CONTENT,
    )


def thread_name(title: str, host_name: str) -> str:
    return limits.clip(f"{title} — {host_name}'s table", 100)  # Discord's limit for channel names


async def open_thread(
    channel: discord.TextChannel, mode: str, title: str, host: discord.abc.User
) -> discord.Thread:
    """A new thread for a table, with its host in it (a private thread shows only its members)."""
    thread = await channel.create_thread(
        name=thread_name(title, getattr(host, "display_name", host.name)),
        type=THREAD_TYPES[mode],
        auto_archive_duration=ARCHIVE_AFTER_MINUTES,
        invitable=False,  # players come in by taking a seat, not by one another's invitation
        reason="a Trick Night table",
    )
    await thread.add_user(host)
    return thread


async def close_thread(table: Table, channel: discord.abc.Messageable, me: discord.abc.User | None) -> None:
    """Archive a finished table's own thread (the bot opened it), and lock it where the bot may."""
    if not isinstance(channel, discord.Thread) or me is None or channel.owner_id != me.id:
        return  # a table in a channel, or in a thread someone else opened: left as it is
    try:
        if channel.permissions_for(channel.guild.me).manage_threads:
            await channel.edit(archived=True, locked=True)
        else:  # its creator may archive it; only Manage Threads may lock it
            await channel.edit(archived=True)
    except discord.HTTPException as err:
        log.warning("table %s: could not archive its thread %s: %s", table.id, channel.id, err)
