"""Checks on a request before anything is done: can the bot post here, is a text short enough."""

from __future__ import annotations

import discord

from bot.errors import Refusal

# What a table needs in its channel: to see it, to post its message and announcements, to show
# the table as an embed.
TABLE_PERMISSIONS = {
    "view_channel": "View Channel",
    "send_messages": "Send Messages",
    "embed_links": "Embed Links",
}


def missing_permissions(interaction: discord.Interaction) -> list[str]:
    """The permissions a table needs that the bot lacks in the interaction's channel."""
    perms = interaction.app_permissions
    needed = dict(TABLE_PERMISSIONS)
    if isinstance(interaction.channel, discord.Thread):
        needed["send_messages_in_threads"] = "Send Messages in Threads"
        del needed["send_messages"]
    return [label for name, label in needed.items() if not getattr(perms, name, False)]


def require_posting(interaction: discord.Interaction) -> None:
    """Refuse, with what is missing, where the bot cannot post a table."""
    missing = missing_permissions(interaction)
    if missing:
        raise Refusal(
            f"I cannot post in this channel (I lack {', '.join(missing)} here), so a table could not "
            "show its game. Ask a server admin to allow me here, or use another channel."
        )


def check_length(text: str | None, what: str, limit: int) -> None:
    """Refuse a text longer than ``limit`` characters, saying how long it is and what fits."""
    if text is not None and len(text) > limit:
        raise Refusal(f"That {what} is {len(text):,} characters long; it can be at most {limit}.")
