"""Tables in threads: each /table new gets a thread of its own (public or private), so one channel
hosts many tables at once; where the bot may not create threads the table plays in the channel
and the host is told; a finished table's thread keeps the final scores and is archived; and a
table in a thread survives a restart."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest

from bot.app import TrickNightBot
from tests.discord_ui.helpers import (
    close_bot_state,
    enabled_action_ids,
    message_by_id,
    server_admin,
    table_of,
)


@pytest.fixture
async def club(simcord_env: Any) -> AsyncIterator[tuple[Any, Any, Any, Any, Any]]:
    env = simcord_env
    guild = env.create_guild("Card Club")
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    await env.bot.tables.update_settings(guild.id, turn_timeout_seconds=0, table_threads="public")
    try:
        yield env, guild, channel, alice, bob
    finally:
        await close_bot_state(env)


def metadata(env: Any, thread: Any) -> Any:
    return env.backend.channels[thread.id].thread_metadata


async def open_in_thread(env: Any, channel: Any, host: Any, **options: Any) -> tuple[Any, Any]:
    """/table new: the channel gets a line with Join, the table its own new thread; returns both."""
    before = {t.id for t in channel.threads}
    result = await host.slash(channel, "table new", **options)
    assert result.acknowledged
    (thread,) = [t for t in channel.threads if t.id not in before]
    await env.bot.publisher.wait_idle()
    (line,) = [m for m in channel.history() if thread.mention in (m.content or "")]
    assert "Join" in line.content and line.author.id == env.bot.user.id
    return thread, line


async def play_out(env: Any, tables: list[tuple[Any, Any, Any]]) -> None:
    """Each person plays their own table through its thread, one decision at a time in turn, until
    every table has ended: the tables run side by side."""
    for _ in range(2000):
        going = [(t, thread, person) for t, thread, person in tables if t.status == "playing"]
        if not going:
            return
        for table, thread, person in going:
            if person.id not in [table.seats[s].user_id for s in table.game.to_act]:
                await env.bot.publisher.wait_idle()
                continue
            shown = await person.click(message_by_id(thread, table.message_id), label="Show my hand")
            choice = enabled_action_ids(shown.response)[0]
            await person.click(shown.response, custom_id=choice)
    raise AssertionError("the games did not end")


async def test_two_tables_in_two_threads_of_one_channel_play_at_once(club: Any) -> None:
    env, _, channel, alice, bob = club
    alice_thread, alice_line = await open_in_thread(env, channel, alice, game="pitch", players=2)
    bob_thread, _ = await open_in_thread(env, channel, bob, game="pitch", players=2)
    assert alice_thread.id != bob_thread.id and env.bot.tables.table_in(channel.id) is None
    tables = []
    for person, thread in ((alice, alice_thread), (bob, bob_thread)):
        table = table_of(env.bot, thread.id)
        assert table.channel_id == thread.id and table.host_id == person.id
        assert person.id in env.backend.channels[thread.id].thread_members
        lobby = message_by_id(thread, table.message_id)
        await person.click(lobby, label="Add computer (easy)")
        await person.click(lobby, label="Start")
        tables.append((table, thread, person))
    # Joining from the channel's line is refused once the game has started.
    late = await bob.click(alice_line, label="Join")
    assert late.ephemeral and "already started" in late.response.content
    await play_out(env, tables)
    await env.bot.publisher.wait_idle()
    for table, thread, _ in tables:
        assert (await env.bot.store.games.load(table.id)).status == "ended"
        assert any("Final scores" in (m.content or "") for m in thread.history())
        assert metadata(env, thread).archived and metadata(env, thread).locked
    assert not any("Final scores" in (m.content or "") for m in channel.history())


async def test_a_private_thread_adds_each_player_who_takes_a_seat(club: Any) -> None:
    env, guild, channel, alice, bob = club
    await env.bot.tables.update_settings(guild.id, table_threads="private")
    thread, line = await open_in_thread(env, channel, alice, game="pinochle-4")
    assert env.backend.channels[thread.id].type == discord.ChannelType.private_thread.value
    assert bob.id not in env.backend.channels[thread.id].thread_members
    joined = await bob.click(line, label="Join")  # from the channel: bob cannot see the thread yet
    assert joined.ephemeral and f"The table is in {thread.mention}" in joined.response.content
    assert bob.id in env.backend.channels[thread.id].thread_members
    carol = guild.add_member(env.create_user("carol"))
    invited = await alice.slash(thread, "table invite", member=carol)
    assert invited.acknowledged and not invited.ephemeral
    assert carol.id in env.backend.channels[thread.id].thread_members  # to see the invitation
    await carol.click(thread.last_message, label="Join the table")
    table = table_of(env.bot, thread.id)
    assert [table.seat_of(p.id) for p in (alice, bob, carol)] == [0, 1, 2]
    kicked = await alice.slash(thread, "table kick", member=carol)
    assert kicked.ephemeral and "their seat is free" in kicked.response.content
    assert carol.id not in env.backend.channels[thread.id].thread_members


async def test_without_thread_permissions_the_table_plays_in_the_channel(club: Any) -> None:
    env, guild, _, alice, bob = club
    no_threads = discord.PermissionOverwrite(create_public_threads=False)
    channel = guild.create_text_channel("no-threads", overwrites={env.bot.user: no_threads})
    result = await alice.slash(channel, "table new", game="pitch")
    assert result.acknowledged and not result.ephemeral
    assert channel.threads == []
    table = table_of(env.bot, channel.id)
    assert table.message_id == channel.last_message.id
    notes = [m for m in env.http_requests if m.method == "POST" and m.path.startswith("/webhooks/")]
    note = notes[-1].json
    assert int(note.get("flags") or 0) & 64  # only the host sees it
    assert "not in a thread of its own: I lack Create Public Threads here" in note["content"]
    again = await bob.slash(channel, "table new", game="pitch")
    assert again.ephemeral and "already has a table (Auction Pitch, lobby)" in again.response.content


async def test_threads_off_plays_in_the_channel_without_a_note(club: Any) -> None:
    env, guild, channel, alice, _ = club
    await env.bot.tables.update_settings(guild.id, table_threads="off")
    before = len(env.http_requests)
    await alice.slash(channel, "table new", game="pitch")
    assert channel.threads == []
    assert table_of(env.bot, channel.id).message_id == channel.last_message.id
    assert not [r for r in env.http_requests[before:] if r.path.startswith("/webhooks/")]


async def test_the_admin_setting_chooses_threads(club: Any) -> None:
    env, guild, channel, alice, _ = club
    admin = server_admin(env, guild)
    answered = await admin.slash(channel, "admin settings", table_threads="private")
    assert answered.ephemeral and "new tables: each in a private thread" in answered.response.content
    assert (await env.bot.store.settings.get(guild.id)).table_threads == "private"
    await env.bot.publisher.wait_idle()
    before = {t.id for t in channel.threads}
    await alice.slash(channel, "table new", game="pitch")
    (thread,) = [t for t in channel.threads if t.id not in before]
    assert env.backend.channels[thread.id].type == discord.ChannelType.private_thread.value


async def test_a_table_in_a_thread_survives_a_restart(club: Any, settings: Any) -> None:
    env, _, channel, alice, _ = club
    thread, _ = await open_in_thread(env, channel, alice, game="pitch", players=2)
    table = table_of(env.bot, thread.id)
    lobby = message_by_id(thread, table.message_id)
    await alice.click(lobby, label="Add computer (easy)")
    await alice.click(lobby, label="Start")
    before, message_id = table.game.to_json(), table.message_id
    await env.bot.tables.shutdown()
    await env.bot.store.close()
    await env.restart_bot(TrickNightBot(settings, min_edit_interval=0.0))
    resumed = table_of(env.bot, thread.id)
    assert resumed is not table and resumed.channel_id == thread.id
    assert resumed.game.to_json() == before and resumed.message_id == message_id
    await play_out(env, [(resumed, thread, alice)])  # the buttons posted before the restart work
    await env.bot.publisher.wait_idle()
    assert any("Final scores" in (m.content or "") for m in thread.history())
    assert metadata(env, thread).archived


async def test_an_ended_table_without_manage_threads_is_archived_but_not_locked(club: Any) -> None:
    env, guild, _, alice, _ = club
    no_manage = discord.PermissionOverwrite(manage_threads=False)
    channel = guild.create_text_channel("unmanaged", overwrites={env.bot.user: no_manage})
    thread, _ = await open_in_thread(env, channel, alice, game="pitch")
    table = table_of(env.bot, thread.id)
    await env.bot.tables.end(table, alice.id, is_admin=False)  # in the lobby: no result
    await env.bot.publisher.wait_idle()
    assert any("was ended by" in (m.content or "") for m in thread.history())
    assert metadata(env, thread).archived and not metadata(env, thread).locked
