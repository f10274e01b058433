"""Helpers for driving tables through simcord like a person would."""

from __future__ import annotations

from typing import Any

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


async def close_bot_state(env: Any) -> None:
    """simcord does not call ``bot.close()``: stop timers and close the database ourselves."""
    bot: TrickNightBot = env.bot
    await bot.tables.shutdown()
    await bot.store.close()
