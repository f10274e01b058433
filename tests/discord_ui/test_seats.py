"""Seats and people through Discord: the lobby's seat menu decides partners, the host's commands
(swap, remove a computer, kick, hand over hosting) and invitations that ping one member."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.discord_ui.helpers import close_bot_state, message_by_id, table_of


@pytest.fixture
async def club(simcord_env: Any) -> AsyncIterator[tuple[Any, Any, Any, Any, Any]]:
    env = simcord_env
    guild = env.create_guild("Card Club")
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    carol = guild.add_member(env.create_user("carol"))
    await env.bot.tables.update_settings(guild.id, turn_timeout_seconds=0)
    try:
        yield env, channel, alice, bob, carol
    finally:
        await close_bot_state(env)


def seat_menu(message: Any) -> dict[str, Any]:
    for row in message.components:
        for child in row.children:
            data = child.to_dict()
            if data.get("custom_id", "").startswith("tn:seat:"):
                return data
    raise AssertionError("no seat menu on the lobby")


async def lobby(env: Any, channel: Any, host: Any, game: str = "pinochle-4") -> Any:
    result = await host.slash(channel, "table new", game=game)
    assert result.acknowledged and not result.ephemeral
    return channel.last_message


async def test_the_seat_menu_decides_partners(club: Any) -> None:
    env, channel, alice, bob, carol = club
    message = await lobby(env, channel, alice)
    menu = seat_menu(message)
    labels = [o["label"] for o in menu["options"]]
    assert labels == ["Seat 1: alice", "Seat 2: free", "Seat 3: free", "Seat 4: free"]
    assert menu["options"][0]["description"] == "Partner: seat 3 (free)"
    chosen = await bob.select(message, ["2"], custom_id=menu["custom_id"])  # opposite alice
    assert chosen.ephemeral and "You took seat 3" in chosen.response.content
    await carol.click(message, label="Join")  # the first free seat: 2
    table = table_of(env.bot, channel.id)
    assert [s.name if s else None for s in table.seats] == ["alice", "carol", "bob", None]
    shown = message_by_id(channel, table.message_id)
    assert seat_menu(shown)["options"][0]["description"] == "Partner: seat 3 (bob)"
    seats = next(f.value for f in shown.embeds[0].fields if f.name == "Seats")
    assert "Partners: 1 & 3 · 2 & 4" in seats
    moved = await carol.select(shown, ["3"], custom_id=menu["custom_id"])
    assert "You moved to seat 4" in moved.response.content
    asked = await carol.select(shown, ["0"], custom_id=menu["custom_id"])  # alice's seat: she is asked
    assert not asked.ephemeral and f"<@{alice.id}>, carol (seat 4) asks to swap" in asked.response.content
    request = channel.last_message
    assert [s.name if s else None for s in table.seats] == ["alice", None, "bob", "carol"]
    wrong = await bob.click(request, label="Accept the swap")
    assert wrong.ephemeral and "asked of someone else" in wrong.response.content
    accepted = await alice.click(request, label="Accept the swap")
    assert accepted.response.content == "Seats 4 and 1 were swapped."
    assert [s.name if s else None for s in table.seats] == ["carol", None, "bob", "alice"]
    await alice.click(shown, label="Start")
    assert table.game is not None  # carol and bob are partners now, against alice
    assert table.game.side_of[0] == table.game.side_of[2] != table.game.side_of[3]


async def test_host_commands_and_their_refusals(club: Any) -> None:
    env, channel, alice, bob, _ = club
    message = await lobby(env, channel, alice)
    await bob.click(message, label="Join")
    await alice.click(message, label="Add computer (basic)")
    table = table_of(env.bot, channel.id)
    refused = await bob.slash(channel, "table swap", first=1, second=2)
    assert refused.ephemeral and "Only the host" in refused.response.content
    swapped = await alice.slash(channel, "table swap", first=2, second=4)
    assert swapped.ephemeral and "Seats 2 and 4 were swapped" in swapped.response.content
    assert [s.name if s else None for s in table.seats] == ["alice", None, "Computer 3 (basic)", "bob"]
    refused = await alice.slash(channel, "table remove-computer", number=4)
    assert "Seat 4 has no computer" in refused.response.content
    removed = await alice.slash(channel, "table remove-computer", number=3)
    assert "Computer 3 (basic) left seat 3" in removed.response.content
    assert table.seats[2] is None
    handed = await alice.slash(channel, "table host", member=bob)
    assert handed.ephemeral and "bob is the host now" in handed.response.content
    assert table.host_id == bob.id
    assert any("handed hosting to bob" in (m.content or "") for m in channel.history())
    refused = await alice.slash(channel, "table start")
    assert refused.ephemeral and "Only the host" in refused.response.content
    record = await env.bot.store.games.load(table.id)
    assert record.host_id == bob.id and record.seats[2] is None


async def test_a_kick_mid_game_gives_the_seat_to_a_computer_and_the_game_goes_on(club: Any) -> None:
    env, channel, alice, bob, _ = club
    message = await lobby(env, channel, alice, game="pitch")
    await bob.click(message, label="Join")
    await alice.click(message, label="Start")
    table = table_of(env.bot, channel.id)
    refused = await bob.slash(channel, "table kick", member=alice)
    assert refused.ephemeral and "Only the host" in refused.response.content
    kicked = await alice.slash(channel, "table kick", member=bob)
    assert kicked.ephemeral and "a computer plays their seat" in kicked.response.content
    await env.bot.publisher.wait_idle()
    assert any(
        f"bob was removed from the table by <@{alice.id}>: a computer plays their seat" in (m.content or "")
        for m in channel.history()
    )
    seat = table.seats[1]
    assert seat is not None and not seat.is_human
    refused = await bob.slash(channel, "hand")
    assert refused.ephemeral and "not seated" in refused.response.content
    # Alice leaves too (confirming), and the computers play the game out.
    await env.bot.tables.leave(table, alice.id)
    for _ in range(30_000):
        if table.status == "ended":
            break
        await asyncio.sleep(0.01)
    assert table.status == "ended"
    assert (await env.bot.store.games.load(table.id)).status == "ended"


async def test_an_invitation_pings_only_the_invited_member(club: Any) -> None:
    env, channel, alice, bob, carol = club
    robot = channel.guild.add_member(env.create_user("robot", bot=True))
    await lobby(env, channel, alice)
    refused = await alice.slash(channel, "table invite", member=robot)
    assert refused.ephemeral and "Bots cannot be invited" in refused.response.content
    refused = await bob.slash(channel, "table invite", member=carol)
    assert refused.ephemeral and "Only a seated player" in refused.response.content
    invited = await alice.slash(channel, "table invite", member=carol)
    assert invited.acknowledged and not invited.ephemeral
    invitation = channel.last_message
    assert f"<@{carol.id}>" in invitation.content
    callback = next(
        r for r in reversed(env.http_requests)
        if r.method == "POST" and r.path.startswith(f"/interactions/{invited._interaction.id}/")
    )  # fmt: skip
    assert callback.json["data"]["allowed_mentions"]["parse"] == []
    assert callback.json["data"]["allowed_mentions"]["users"] == [carol.id]
    wrong = await bob.click(invitation, label="Join the table")
    assert wrong.ephemeral and "for someone else" in wrong.response.content
    joined = await carol.click(invitation, label="Join the table")
    assert joined.ephemeral and "You took seat 2" in joined.response.content
    table = table_of(env.bot, channel.id)
    assert table.seat_of(carol.id) == 1 and table.seat_of(bob.id) is None
    again = await carol.click(invitation, label="Join the table")
    assert again.ephemeral and "already have a seat" in again.response.content
