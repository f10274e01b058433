"""Helpers for driving tables through simcord like a person would."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import discord

from bot.app import TrickNightBot
from bot.tables import Table


def buttons(message: Any) -> list[dict[str, Any]]:
    """Every button of a message (raw component dicts from a simcord ResponseMessage)."""
    rows = message.components
    out = []
    for row in rows:
        children = row["components"] if isinstance(row, dict) else [c.to_dict() for c in row.children]
        out.extend(c for c in children if c.get("type") == 2)
    return out


def enabled_action_ids(message: Any) -> list[str]:
    return [
        b["custom_id"]
        for b in buttons(message)
        if b["custom_id"].startswith("tn:act:") and not b.get("disabled")
    ]


def table_of(bot: TrickNightBot, channel_id: int) -> Table:
    table = bot.tables.table_in(channel_id)
    assert table is not None
    return table


def message_by_id(channel: Any, message_id: int) -> Any:
    for message in channel.history():
        if message.id == message_id:
            return message
    raise AssertionError(f"no public message {message_id}")


def server_admin(env: Any, guild: Any, name: str = "admin") -> Any:
    """A member of ``guild`` with Manage Server (through a "Mods" role), who may use /admin."""
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(env.create_user(name), roles=(mods,))


async def close_bot_state(env: Any) -> None:
    """simcord does not call ``bot.close()``: stop timers and close the database ourselves."""
    bot: TrickNightBot = env.bot
    await bot.tables.shutdown()
    await bot.store.close()


def answer_content(env: Any, result: Any) -> str:
    """The text the bot answered an interaction with (its callback), even if the message was edited
    again since (a hand panel is refreshed when the player's turn comes back)."""
    interaction_id = result._interaction.id
    for entry in reversed(env.http_requests):
        if entry.method == "POST" and entry.path.startswith(f"/interactions/{interaction_id}/"):
            return str((entry.json or {}).get("data", {}).get("content") or "")
    raise AssertionError(f"interaction {interaction_id} was not answered")


def new_ephemeral_messages(env: Any) -> int:
    """How many ephemeral messages the bot has created so far (interaction answers that post a
    message, and followups), read from simcord's REST log. Edits of a message are not counted."""
    count = 0
    for entry in env.http_requests:
        body = entry.json or {}
        if entry.method != "POST" or not entry.path.startswith(("/interactions/", "/webhooks/")):
            continue
        data = body.get("data", {}) if entry.path.endswith("/callback") else body
        if entry.path.endswith("/callback") and body.get("type") != 4:
            continue
        if int(data.get("flags") or 0) & 64:
            count += 1
    return count


def turn_pings(channel: Any) -> list[Any]:
    """The turn pings in the channel (messages that mention someone for their turn)."""
    return [
        m
        for m in channel.history()
        if (m.content or "").startswith("<@") and ("your turn" in m.content or "reminder" in m.content)
    ]


def view_timeout_tasks() -> list[Any]:
    """discord.py's 15-minute timeout tasks of tracked Views (one per ephemeral View it keeps)."""
    tasks = asyncio.all_tasks()
    return [t for t in tasks if "timeout_task_impl" in getattr(t.get_coro(), "__qualname__", "")]


# A deal's report names cards of the deal it scores (which card was High, Low or Jack, what the
# bidder buried): they were played or shown in that deal, and the next deal is already dealt when
# the report is posted, so the audit of hidden cards leaves those notes out.
PAST_DEAL_CARDS = re.compile(r"^  (?:(?:High|Low|Jack|Three) \([^)]*\):|.* had buried .*$)", re.MULTILINE)


def without_past_deal_cards(text: str) -> str:
    return PAST_DEAL_CARDS.sub("", text)
