"""The Discord publisher: it picks the announced events, and reposts the table message on request."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.discord_ui import DiscordPublisher, announcement
from bot.errors import Refusal
from bot.tables import Table
from tests.discord_ui.helpers import close_bot_state, message_by_id, table_of
from tests.discord_ui.test_messages import finished_table


class GoneChannels:
    """A client for which the table's channel no longer exists."""

    def get_channel(self, channel_id: int) -> None:
        return None

    async def fetch_channel(self, channel_id: int) -> Any:
        raise discord.NotFound(SimpleNamespace(status=404, reason="Not Found"), "Unknown Channel")


async def never_posted(table: Table, message_id: int) -> None:
    raise AssertionError("nothing should be posted")


def gone_publisher() -> DiscordPublisher:
    return DiscordPublisher(GoneChannels(), min_edit_interval=0.0, on_posted=never_posted)


async def test_events_become_the_announcements_of_the_announced_types_only() -> None:
    table, said = finished_table()
    publisher = gone_publisher()
    publisher.events(table, [event for event, _ in said])
    queued = list(publisher.pending[table.id].messages)
    await publisher.wait_idle()
    assert queued == [announcement(table, event) for event, text in said if text is not None]
    assert len(queued) < len(said)


async def test_a_repost_where_the_channel_is_gone_is_refused() -> None:
    table, _ = finished_table()
    with pytest.raises(Refusal, match="cannot show a table"):
        await gone_publisher().repost(table)


async def test_table_status_posts_the_table_again_and_the_old_message_points_to_it(simcord_env: Any) -> None:
    env = simcord_env
    guild = env.create_guild("Club")
    channel = guild.create_text_channel("pitch")
    alice = guild.add_member(env.create_user("alice"))
    try:
        await alice.slash(channel, "table new", game="pitch", players=2)
        table = table_of(env.bot, channel.id)
        old = table.message_id
        r = await alice.slash(channel, "table status")
        assert r.ephemeral and "posted again" in r.response.content
        assert table.message_id is not None and table.message_id != old
        assert (await env.bot.store.games.load(table.id)).message_id == table.message_id
        new = message_by_id(channel, table.message_id)
        assert new.embeds and f"table #{table.id}" in new.embeds[0].title
        assert message_by_id(channel, old).content == "This table moved to a newer message below."
        # The new message's buttons work: Bob joins through it.
        bob = guild.add_member(env.create_user("bob"))
        joined = await bob.click(new, label="Join")
        assert "seat 2" in joined.response.content
    finally:
        await close_bot_state(env)
