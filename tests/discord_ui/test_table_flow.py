"""A whole Pitch game through slash commands and clicks, and the safety rules around it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.engine import ALL_CARDS, IllegalAction
from tests.discord_ui.helpers import (
    answer_content,
    close_bot_state,
    enabled_action_ids,
    message_by_id,
    table_of,
    without_past_deal_cards,
)

CARD_SYMBOL_TEXT = {card.pretty for card in ALL_CARDS}


@pytest.fixture
async def world(simcord_env: Any) -> AsyncIterator[tuple[Any, Any, Any, Any, Any]]:
    env = simcord_env
    guild = env.create_guild("Card Club")
    channel = guild.create_text_channel("pitch")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    carol = guild.add_member(env.create_user("carol"))
    try:
        yield env, channel, alice, bob, carol
    finally:
        await close_bot_state(env)


def hidden_cards(bot: Any, channel_id: int) -> set[str]:
    table = bot.tables.table_in(channel_id)
    if table is None or table.game is None:
        return set()
    return {card.pretty for hand in table.game.hands for card in hand} | {
        card.code for hand in table.game.hands for card in hand
    }


def public_text(message: Any) -> str:
    parts = [without_past_deal_cards(message.content or "")]
    for embed in message.embeds:
        parts.append(embed.title or "")
        parts.append(embed.description or "")
        parts.extend(f"{f.name} {f.value}" for f in embed.fields)
        parts.append(embed.footer.text or "" if embed.footer else "")
    parts.extend(attachment.description or "" for attachment in message.attachments)  # alt texts
    return "\n".join(parts)


def audit(env: Any, channel: Any) -> None:
    """No public message ever shows a card still hidden in a hand."""
    hidden = hidden_cards(env.bot, channel.id)
    for message in channel.history():
        text = public_text(message)
        leaked = {code for code in hidden if _mentions_card(text, code)}
        assert not leaked, f"public message shows hidden cards {leaked}: {text!r}"


def _mentions_card(text: str, code: str) -> bool:
    import re

    return re.search(rf"(?<![0-9A-Za-z]){re.escape(code)}(?![0-9A-Za-z])", text) is not None


async def open_pitch_table(env: Any, channel: Any, alice: Any, bob: Any, *, timer: bool = True) -> Any:
    if not timer:  # tests that move the clock by minutes keep people from going away
        await env.bot.tables.update_settings(alice.guild.id, turn_timeout_seconds=0)
    result = await alice.slash(channel, "table new", game="pitch")
    assert result.acknowledged and not result.ephemeral
    lobby = channel.last_message
    r = await bob.click(lobby, label="Join")
    assert r.ephemeral and "seat 2" in r.response.content
    await alice.click(lobby, label="Add computer (easy)")
    await alice.click(lobby, label="Add computer (easy)")
    r = await alice.click(lobby, label="Start")
    assert r.ephemeral
    return table_of(env.bot, channel.id)


async def test_full_pitch_game_through_discord(world: Any) -> None:
    env, channel, alice, bob, _ = world
    table = await open_pitch_table(env, channel, alice, bob)
    assert [s.kind for s in table.seats] == ["human", "human", "computer", "computer"]
    people = {alice.id: alice, bob.id: bob}
    decisions = 0
    while table.status == "playing":
        audit(env, channel)
        assert table.game is not None
        to_act = [s for s in table.game.to_act if table.seats[s] and table.seats[s].is_human]
        assert to_act, "computers should have moved on their own"
        person = people[table.seats[to_act[0]].user_id]
        table_message = message_by_id(channel, table.message_id)
        shown = await person.click(table_message, label="Show my hand")
        assert shown.ephemeral and "Your turn" in shown.response.content
        choices = enabled_action_ids(shown.response)
        assert choices, shown.response.content
        # Bids: pass or the lowest bid; cards: the first legal card. Every decision is a click.
        choice = next((c for c in choices if c.endswith(":pass")), choices[0])
        clicked = await person.click(shown.response, custom_id=choice)
        assert clicked.acknowledged and clicked.response.ephemeral
        assert clicked.response.id == shown.response.id  # the panel is edited, not a new message
        assert answer_content(env, clicked).startswith("You: ")
        decisions += 1
        assert decisions < 2000
    audit(env, channel)
    final = [m for m in channel.history() if "Final scores" in (m.content or "")]
    assert len(final) == 1
    assert "Game over" in final[0].content
    # Each scored deal's results are posted ("Deal 2 — trump ..." when everyone passed the first).
    assert any((m.content or "").startswith("Deal ") and " — trump " in m.content for m in channel.history())
    record = await env.bot.store.games.load(table.id)
    assert record.status == "ended"
    assert len(record.actions) == len(table.game.log)


async def test_a_user_without_a_seat_is_refused_and_nothing_changes(world: Any) -> None:
    env, channel, alice, bob, carol = world
    table = await open_pitch_table(env, channel, alice, bob)
    before = table.game.to_json()
    table_message = message_by_id(channel, table.message_id)
    r = await carol.click(table_message, label="Show my hand")
    assert r.ephemeral and "not seated" in r.response.content
    r = await carol.slash(channel, "hand")
    assert r.ephemeral and "not seated" in r.response.content
    assert table.game.to_json() == before


async def test_a_seated_user_out_of_turn_is_refused(world: Any) -> None:
    env, channel, alice, bob, _ = world
    table = await open_pitch_table(env, channel, alice, bob)
    game = table.game
    waiting = bob if game.to_act[0] == 0 else alice
    seat = 1 if waiting is bob else 0
    assert seat not in game.to_act
    # Forge the button a player would have if it were their turn: the engine refuses it.
    before = game.to_json()
    shown = await waiting.click(message_by_id(channel, table.message_id), label="Show my hand")
    assert shown.ephemeral and "waiting for" in shown.response.content
    assert enabled_action_ids(shown.response) == []
    r = await waiting.slash(channel, "table join")
    assert r.ephemeral and "already started" in r.response.content
    with pytest.raises(IllegalAction, match="not your turn"):
        await env.bot.tables.act(table, waiting.id, "pass")
    assert table.game.to_json() == before


async def test_double_click_is_harmless(world: Any) -> None:
    env, channel, alice, bob, _ = world
    table = await open_pitch_table(env, channel, alice, bob, timer=False)
    person = alice if table.seats[table.game.to_act[0]].user_id == alice.id else bob
    table_message = message_by_id(channel, table.message_id)
    # An old panel the bot can no longer edit (its token ran out) and a fresh one, both showing
    # the same choice; the choice is made in the fresh one, then again in the old one.
    old_copy = await person.click(table_message, label="Show my hand")
    await env.advance_time(15 * 60)
    fresh_copy = await person.click(table_message, label="Show my hand")
    assert fresh_copy.response.id != old_copy.response.id
    choice = enabled_action_ids(old_copy.response)[0]
    assert choice in enabled_action_ids(fresh_copy.response)
    accepted = await person.click(fresh_copy.response, custom_id=choice)
    assert answer_content(env, accepted).startswith("You: ")
    repeated = await person.click(old_copy.response, custom_id=choice)
    assert repeated.response.ephemeral and repeated.response.id == old_copy.response.id  # answered in place
    assert "out of date" in answer_content(env, repeated)
    decisions_by_person = [a for seat, a in table.game.log if table.seats[seat].user_id == person.id]
    assert len(decisions_by_person) == 1


async def test_ending_a_table_closes_the_panels_and_old_buttons_answer_clearly(world: Any) -> None:
    env, channel, alice, bob, _ = world
    table = await open_pitch_table(env, channel, alice, bob, timer=False)
    person = alice if table.seats[table.game.to_act[0]].user_id == alice.id else bob
    table_message = message_by_id(channel, table.message_id)
    expired = await person.click(table_message, label="Show my hand")
    choice = enabled_action_ids(expired.response)[0]
    await env.advance_time(15 * 60)  # this panel can no longer be edited by the bot
    other = bob if person is alice else alice
    live = await other.click(table_message, label="Show my hand")
    r = await alice.slash(channel, "table end")
    assert r.ephemeral and "no result is recorded" in r.response.content
    assert env.bot.tables.table_in(channel.id) is table  # asked first: nothing ended yet
    r = await alice.click(r.response, label="Yes, end the table")
    assert "is ended" in r.response.content
    assert env.bot.tables.table_in(channel.id) is None
    assert message_by_id(channel, table.message_id).components == []  # the public buttons are gone
    assert live.response.components == [] and "ended" in live.response.content  # the live panel too
    assert env.bot.publisher.panels.tables() == 0 and not env.bot.publisher.pending
    r = await person.click(expired.response, custom_id=choice)
    assert r.ephemeral and "ended" in r.response.content
    r = await bob.slash(channel, "hand")
    assert r.ephemeral and "no table" in r.response.content


async def test_only_host_or_admin_can_start_and_end(world: Any) -> None:
    env, channel, alice, bob, _ = world
    await alice.slash(channel, "table new", game="pitch-partnership")
    lobby = channel.last_message
    await bob.click(lobby, label="Join")
    r = await bob.click(lobby, label="Start")
    assert r.ephemeral and "Only the host" in r.response.content
    r = await bob.slash(channel, "table end")
    assert r.ephemeral and "Only the host" in r.response.content
    assert table_of(env.bot, channel.id).status == "lobby"


async def test_one_table_per_channel_and_bad_options(world: Any) -> None:
    env, channel, alice, bob, _ = world
    r = await alice.slash(channel, "table new", game="pitch", options="target=12")
    assert r.ephemeral and "valid values are 7/9/10/11/21" in r.response.content
    r = await alice.slash(channel, "table new", game="pitch", players=9)
    assert r.ephemeral and "players must be a whole number from 2 to 7 for pitch; got 9" in r.response.content
    await alice.slash(channel, "table new", game="pitch", options="smudge=on target=21")
    table = table_of(env.bot, channel.id)
    assert table.options["smudge"] is True and table.options["target"] == 21
    r = await bob.slash(channel, "table new", game="pitch")
    assert r.ephemeral and "already has a" in r.response.content


async def test_rules_shows_house_rules(world: Any) -> None:
    _, channel, alice, bob, _ = world
    await alice.slash(channel, "table new", game="pitch", options="smudge=on")
    r = await bob.slash(channel, "rules", game="pitch")
    assert r.ephemeral
    embed = r.response.embeds[0]
    text = str(embed.to_dict())
    assert "smudge" in text and "Auction Pitch" in text
