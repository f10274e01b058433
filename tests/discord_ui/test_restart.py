"""A table survives a bot restart: the new bot rebuilds it from the store and old buttons still work."""

from __future__ import annotations

from typing import Any

from bot.app import TrickNightBot
from tests.discord_ui.helpers import (
    answer_content,
    close_bot_state,
    enabled_action_ids,
    message_by_id,
    table_of,
)


async def test_game_goes_on_after_a_restart(simcord_env: Any, settings: Any) -> None:
    env = simcord_env
    guild = env.create_guild("Club")
    channel = guild.create_text_channel("pitch")
    alice = guild.add_member(env.create_user("alice"))
    await alice.slash(channel, "table new", game="pitch", players=2)
    lobby = channel.last_message
    await alice.click(lobby, label="Add computer (easy)")
    await alice.click(lobby, label="Start")
    table = table_of(env.bot, channel.id)
    before = table.game.to_json()
    message_id = table.message_id
    old_bot = env.bot

    await old_bot.tables.shutdown()
    await old_bot.store.close()
    await env.restart_bot(TrickNightBot(settings, min_edit_interval=0.0))
    try:
        resumed = table_of(env.bot, channel.id)
        assert resumed is not table
        assert resumed.game.to_json() == before  # exactly the state after the last accepted action
        assert resumed.message_id == message_id
        # The Show my hand button on the message posted before the restart still works.
        shown = await alice.click(message_by_id(channel, message_id), label="Show my hand")
        assert shown.ephemeral and "Your hand" in shown.response.content
        choice = enabled_action_ids(shown.response)[0]
        clicked = await alice.click(shown.response, custom_id=choice)
        assert answer_content(env, clicked).startswith("You: ")
        record = await env.bot.store.games.load(resumed.id)
        assert len(record.actions) == len(resumed.game.log) > len(before["log"])
    finally:
        await close_bot_state(env)
