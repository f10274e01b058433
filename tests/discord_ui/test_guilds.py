"""A table belongs to its guild (and its channel): a control naming a table of another guild, as a
message of another bot process would (two processes with a database each both have a table #1,
and a guild whose shard moves brings its old buttons to the other one) or a forged custom id, is
refused exactly like a table that does not exist, ephemerally, and changes nothing: nobody is
seated or added to the table's thread, and the table and the store stay as they were. Within a
guild, a table's controls work only where the bot posts them: its own channel or thread, and for
**Join** also the thread's parent channel, where the line announcing the table carries it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.app import TrickNightBot
from bot.config import Settings
from bot.discord_ui.bidding import OtherBidButton
from bot.discord_ui.components import ActButton, ActSelect, LobbyButton, SeatButton
from bot.discord_ui.confirm import AskButton, ConfirmButton
from bot.discord_ui.lobby import InviteButton, SeatSelect
from bot.discord_ui.panels import untracked
from bot.tables import Table
from tests.discord_ui.fake_discord import FakeDiscord
from tests.discord_ui.helpers import close_bot_state, server_admin, table_of
from tests.discord_ui.test_wire import running
from tests.discord_ui.test_wire_answers import EPHEMERAL, answer_to

NOT_HERE = "That table has ended or is not here. Nothing was changed"


@pytest.fixture
async def clubs(simcord_env: Any) -> AsyncIterator[SimpleNamespace]:
    """Two servers: the Card Club plays its tables in private threads; the Other Club has a guest,
    an admin, and alice, who is a member of both."""
    env = simcord_env
    home, away = env.create_guild("Card Club"), env.create_guild("Other Club")
    alice = env.create_user("alice")
    world = SimpleNamespace(
        env=env,
        home=home,
        channel=home.create_text_channel("cards"),
        lounge=home.create_text_channel("lounge"),
        alice=home.add_member(alice),
        other=away.create_text_channel("cards"),
        alice_away=away.add_member(alice),
        guest=away.add_member(env.create_user("guest")),
        away_admin=server_admin(env, away),
    )
    await env.bot.tables.update_settings(home.id, turn_timeout_seconds=0, table_threads="private")
    try:
        yield world
    finally:
        await close_bot_state(env)


async def open_lobby(world: SimpleNamespace, game: str = "pitch") -> tuple[Table, Any]:
    """alice's lobby in a private thread of the Card Club; returns the table and its thread."""
    before = {t.id for t in world.channel.threads}
    await world.alice.slash(world.channel, "table new", game=game)
    (thread,) = [t for t in world.channel.threads if t.id not in before]
    await world.env.bot.publisher.wait_idle()
    return table_of(world.env.bot, thread.id), thread


def table_message(thread: Any, table: Table) -> Any:
    return next(m for m in thread.history() if m.id == table.message_id)


async def posted(world: SimpleNamespace, channel: Any, *items: discord.ui.Item[Any]) -> Any:
    """A message of the bot in ``channel`` carrying these controls: what another process of the
    bot (its own database, its own table with this id) posted there, or a forged custom id."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    sent = world.env.bot.get_channel(channel.id)
    await sent.send("A table", view=untracked(view))
    return channel.last_message


async def snapshot(world: SimpleNamespace, table: Table) -> tuple[Any, ...]:
    """What a refused click must leave as it was: the table, its stored record, its thread."""
    record = await world.env.bot.store.games.load(table.id)
    game = table.game.to_json() if table.game is not None else None
    members = set(world.env.backend.channels[table.channel_id].thread_members)
    return (table.status, table.seats_json(), game, record.status, record.seats, len(record.actions),
            members, table.host_id)  # fmt: skip


def assert_not_here(result: Any) -> None:
    assert result.ephemeral, "the refusal is for the clicker only"
    assert result.modal is None
    assert NOT_HERE in (result.response.content or ""), result.response.content


# ----- another guild ---------------------------------------------------------------------------------
LOBBY_CONTROLS = {
    # name: (who clicks, the control, its label or None for the seat menu)
    "Join": ("guest", lambda t, w: LobbyButton(t.id, "join"), "Join"),
    "Choose a seat": ("guest", lambda t, w: SeatSelect(t.id, t), None),
    "Join the table (invitation)": ("guest", lambda t, w: InviteButton(t.id, w.guest.id), "Join the table"),
    "Start (that server's admin)": ("away_admin", lambda t, w: LobbyButton(t.id, "start"), "Start"),
    "Yes, end the table (that server's admin)": (
        "away_admin", lambda t, w: ConfirmButton(t.id, 0, "end"), "Yes, end the table",
    ),
}  # fmt: skip


@pytest.mark.parametrize("control", list(LOBBY_CONTROLS))
async def test_a_lobby_control_from_another_guild_is_refused_and_changes_nothing(
    clubs: SimpleNamespace, control: str
) -> None:
    world = clubs
    table, thread = await open_lobby(world)
    who, make, label = LOBBY_CONTROLS[control]
    person = getattr(world, who)
    message = await posted(world, world.other, make(table, world))
    before = await snapshot(world, table)
    if label is None:
        result = await person.select(message, ["1"])
    else:
        result = await person.click(message, label=label)
    assert_not_here(result)
    assert await snapshot(world, table) == before
    assert table.seat_of(person.id) is None
    assert person.id not in world.env.backend.channels[thread.id].thread_members
    assert table_of(world.env.bot, thread.id) is table  # still open, still a lobby
    await world.env.bot.publisher.wait_idle()
    assert [m.content for m in thread.history() if person.name in (m.content or "")] == []


async def alices_turn_to_bid(world: SimpleNamespace) -> tuple[Table, Any]:
    """alice's pinochle-3 table with two computers, at her turn to bid (a long ladder: the hand
    has **Other bid…**)."""
    table, thread = await open_lobby(world, "pinochle-3")
    lobby = table_message(thread, table)
    for _ in range(2):
        await world.alice.click(lobby, label="Add computer (easy)")
    await world.alice.click(lobby, label="Start")
    assert table.game is not None and table.game.to_act == (0,), "computers move until alice's turn"
    return table, thread


def lowest_bid(table: Table) -> str:
    assert table.game is not None
    return next(a for a in table.game.view(0)["legal"] if a.startswith("bid "))


GAME_CONTROLS = {
    # name: (the control, its label, or None for a menu of actions)
    "Show my hand": (lambda t: SeatButton(t.id, "hand"), "Show my hand"),
    "Take my seat back": (lambda t: SeatButton(t.id, "back"), "Take my seat back"),
    "a bid button": (lambda t: ActButton(t.id, t.version, lowest_bid(t), label="Bid"), "Bid"),
    "a menu of actions": (lambda t: ActSelect(t.id, t.version, [lowest_bid(t)], group="bid"), None),
    "Other bid…": (lambda t: OtherBidButton(t.id, t.version), "Other bid…"),
    "Concede…": (lambda t: AskButton(t.id, t.version, "concede"), "Concede…"),
    "Yes, concede": (lambda t: ConfirmButton(t.id, t.version, "concede"), "Yes, concede"),
    "Yes, leave the game": (lambda t: ConfirmButton(t.id, 0, "leave"), "Yes, leave the game"),
}  # fmt: skip


@pytest.mark.parametrize("control", list(GAME_CONTROLS))
async def test_a_game_control_from_another_guild_is_refused_even_for_the_seated_player(
    clubs: SimpleNamespace, control: str
) -> None:
    """alice sits at the Card Club's table; the same control in the Other Club, where she is a
    member too, is not hers to use there: no hand is shown, no action taken."""
    world = clubs
    table, _ = await alices_turn_to_bid(world)
    make, label = GAME_CONTROLS[control]
    message = await posted(world, world.other, make(table))
    before = await snapshot(world, table)
    if label is None:
        result = await world.alice_away.select(message, [lowest_bid(table)])
    else:
        result = await world.alice_away.click(message, label=label)
    assert_not_here(result)
    assert await snapshot(world, table) == before
    assert world.env.bot.publisher.panels.seats(table.id) == []  # no hand panel was opened


# ----- another channel of the same guild ---------------------------------------------------------------
async def test_join_works_from_the_threads_parent_channel_but_not_from_another_channel(
    clubs: SimpleNamespace,
) -> None:
    world = clubs
    bob = world.home.add_member(world.env.create_user("bob"))
    table, thread = await open_lobby(world)
    elsewhere = await posted(world, world.lounge, LobbyButton(table.id, "join"))
    before = await snapshot(world, table)
    refused = await bob.click(elsewhere, label="Join")
    assert_not_here(refused)
    assert await snapshot(world, table) == before
    line = await posted(world, world.channel, LobbyButton(table.id, "join"))  # as /table new posts it
    joined = await bob.click(line, label="Join")
    assert joined.ephemeral and f"The table is in {thread.mention}" in joined.response.content
    assert table.seat_of(bob.id) == 1 and bob.id in world.env.backend.channels[thread.id].thread_members


async def test_join_from_the_parent_channel_works_when_the_thread_has_been_archived(
    clubs: SimpleNamespace,
) -> None:
    """An idle lobby's thread is archived after a day and leaves discord.py's cache: the Join line
    still seats people (the thread's parent is asked of Discord)."""
    world = clubs
    bob = world.home.add_member(world.env.create_user("bob"))
    table, thread = await open_lobby(world)
    await world.env.bot.get_channel(thread.id).edit(archived=True)
    assert world.env.bot.get_channel(thread.id) is None
    line = await posted(world, world.channel, LobbyButton(table.id, "join"))
    joined = await bob.click(line, label="Join")
    assert joined.ephemeral and "You took seat 2" in joined.response.content
    assert table.seat_of(bob.id) == 1


async def test_table_controls_work_only_in_the_tables_own_thread(clubs: SimpleNamespace) -> None:
    """Only Join is posted outside the table's thread: everything else clicked in the parent
    channel or another channel can only be forged."""
    world = clubs
    table, thread = await open_lobby(world)
    bob = world.home.add_member(world.env.create_user("bob"))
    for channel in (world.channel, world.lounge):
        message = await posted(world, channel, InviteButton(table.id, bob.id), LobbyButton(table.id, "start"))
        before = await snapshot(world, table)
        assert_not_here(await bob.click(message, label="Join the table"))
        assert_not_here(await world.alice.click(message, label="Start"))
        assert await snapshot(world, table) == before
    started = await world.alice.click(table_message(thread, table), label="Start")
    assert started.ephemeral and "The game has started" in started.response.content


# ----- the Other bid… form, over the wire -------------------------------------------------------------
@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """The wire fake with two text channels in its guild."""
    server = FakeDiscord(channels=2)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


async def test_a_bid_form_sent_from_another_guild_or_channel_is_refused(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """A submitted form names its table in its custom id too (``tn:bidform:<table>:<version>``):
    from another guild, or another channel of the table's guild, it is refused like the controls
    and bids nothing; from the table's channel it bids."""
    settings = Settings(token="fake-token", database=tmp_path / "wire.db", computer_delay=0.0)
    bot = TrickNightBot(settings, min_edit_interval=0.0, guild_ready_timeout=0.05)
    async with running(bot):
        await fake.wait_for_request("PUT", rf"^/applications/{fake.app_id}/commands$")
        new = [{"type": 1, "name": "new", "options": [{"type": 3, "name": "game", "value": "pinochle-3"}]}]
        await answer_to(fake, fake.slash_interaction("table", new))
        await answer_to(fake, fake.slash_interaction("table", [{"type": 1, "name": "start", "options": []}]))
        table = bot.tables.table_in(int(fake.channel_id))
        assert table is not None and table.game is not None
        for _ in range(200):  # the computers bid until it is the host's turn
            if table.game.to_act == (0,):
                break
            await asyncio.sleep(0.01)
        assert table.game.to_act == (0,)
        bid = lowest_bid(table)

        def form(guild_id: str, channel_id: str) -> dict[str, Any]:
            amount = {"type": 4, "custom_id": "amount", "value": bid[4:]}
            data = {"custom_id": f"tn:bidform:{table.id}:{table.version}",
                    "components": [{"type": 1, "components": [amount]}]}  # fmt: skip
            payload = fake._interaction_base(5, data, None, channel_id)
            payload["guild_id"] = payload["guild"]["id"] = payload["channel"]["guild_id"] = guild_id
            payload["authorizing_integration_owners"] = {"0": guild_id}
            payload["message"] = fake.message(flags=EPHEMERAL, channel_id=channel_id)
            return payload

        before, moves = table.game.to_json(), len(table.game.log)
        elsewhere = [("1200000000000000099", "1200000000000000098"), (fake.guild_id, fake.channel_ids[1])]
        for guild_id, channel_id in elsewhere:
            callback, _ = await answer_to(fake, form(guild_id, channel_id))
            assert callback.json["type"] == 4 and callback.json["data"]["flags"] & EPHEMERAL
            assert NOT_HERE in callback.json["data"]["content"], (guild_id, callback.json)
            assert table.game.to_json() == before
        callback, _ = await answer_to(fake, form(fake.guild_id, fake.channel_id))
        assert callback.json["type"] == 7  # the panel it came from, edited: the bid is taken
        assert table.game.log[moves][0] == 0 and str(table.game.log[moves][1]) == bid
