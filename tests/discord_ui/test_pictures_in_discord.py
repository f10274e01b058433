"""Cards as pictures in Discord: the hand panel's hand and the table message's trick or melds as
PNG attachments whose description is the alt text, the text summary kept beside them; a player's
choice of pictures or text (``/table cards``); text where the bot may not attach files, said once."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest

from bot import render
from bot.discord_ui import components
from bot.store import PlayerPrefs
from bot.tables import Table
from tests.discord_ui.helpers import close_bot_state, message_by_id
from tests.discord_ui.test_hand_panel import Tally, next_person, one_decision, open_table, play_through_panels


@pytest.fixture
async def world(simcord_env: Any) -> AsyncIterator[tuple[Any, Any, Any]]:
    env = simcord_env
    guild = env.create_guild("Card Club")
    alice = guild.add_member(env.create_user("alice"))
    try:
        yield env, guild, alice
    finally:
        await close_bot_state(env)


def picture(message: Any, filename: str) -> Any:
    found = [a for a in message.attachments if a.filename == filename]
    assert len(found) == 1, [a.filename for a in message.attachments]
    return found[0]


def table_uploads(env: Any, table: Table) -> tuple[int, int]:
    """(edits of the table message, those that uploaded a picture or removed one)."""
    path = f"/messages/{table.message_id}"
    edits = [e for e in env.http_requests if e.method == "PATCH" and e.path.endswith(path)]
    return len(edits), sum("attachments" in (e.json or {}) for e in edits)


async def test_the_panel_and_the_table_show_pictures_with_alt_text(world: Any) -> None:
    env, guild, alice = world
    channel = guild.create_text_channel("pitch")
    table = await open_table(env, channel, alice, "pitch", [], 1)
    people, tally = {alice.id: alice}, Tally()
    seen_trick = seen_playable = False
    while not (seen_trick and seen_playable) and await one_decision(env, channel, table, people, tally):
        seat = await next_person(env, table)
        if seat is None:
            break
        panel, view = tally.panels[alice.id], table.game.view(seat)
        hand = picture(panel, "hand.png")
        assert hand.description.startswith(f"Your hand ({len(view['hand'])} card")
        assert all(render.pretty(code) in hand.description for code in view["hand"])
        assert panel.content.startswith("You: ") or "**Your hand**" in panel.content  # the text stays
        assert f": {render.pretty_cards(view['hand'])}" in panel.content
        if any(action.startswith("play ") for action in view["legal"]):
            assert "playable:" in hand.description
            seen_playable = True
        public = table.game.public_view()
        if public["trick"]:
            message = message_by_id(channel, table.message_id)
            shown = picture(message, "table.png")
            assert shown.description.startswith("Trick: ")
            assert message.embeds[0].image.url == "attachment://table.png"
            trick_field = next(f for f in message.embeds[0].fields if f.name == "Trick")
            assert trick_field.value == render.trick_text(public["trick"], table.names())  # summary kept
            seen_trick = True
    assert seen_trick and seen_playable
    edits, uploads = table_uploads(env, table)
    assert 0 < uploads < edits  # a picture is uploaded again only when it changed


async def test_a_player_chooses_text_or_four_colour_pictures(world: Any) -> None:
    env, guild, alice = world
    channel = guild.create_text_channel("pitch")
    r = await alice.slash(channel, "table cards", style="text")
    assert r.ephemeral and "as text" in r.response.content
    assert await env.bot.store.players.prefs(alice.id) == PlayerPrefs(alice.id, "text", False)
    table = await open_table(env, channel, alice, "pitch", [], 1)
    panel = (await alice.click(message_by_id(channel, table.message_id), label="Show my hand")).response
    assert panel.attachments == [] and "**Your hand**" in panel.content
    r = await alice.slash(channel, "table cards", style="pictures", four_colour=True)
    assert "pictures with four suit colours" in r.response.content
    assert await env.bot.store.players.prefs(alice.id) == PlayerPrefs(alice.id, "pictures", True)
    panel = (await alice.slash(channel, "hand")).response
    assert picture(panel, "hand.png").description.startswith("Your hand")


async def test_without_attach_files_cards_stay_text_and_the_channel_is_told_once(world: Any) -> None:
    env, guild, alice = world
    no_files = discord.PermissionOverwrite(attach_files=False)
    channel = guild.create_text_channel("pitch", overwrites={env.bot.user: no_files})
    table = await open_table(env, channel, alice, "pitch", [], 1)
    tally = Tally()
    for _ in range(6):
        assert await one_decision(env, channel, table, {alice.id: alice}, tally)
        assert tally.panels[alice.id].attachments == []
        assert message_by_id(channel, table.message_id).attachments == []
    notes = [m for m in channel.history() if "Attach Files" in (m.content or "")]
    assert len(notes) == 1 and "as text" in notes[0].content


async def test_a_two_hand_game_pictures_the_trick_the_melds_and_the_last_trick(world: Any) -> None:
    env, guild, alice = world
    channel = guild.create_text_channel("pinochle")
    table = await open_table(env, channel, alice, "pinochle-2", [], 1, "match=deal")
    await play_through_panels(env, channel, table, {alice.id: alice})
    path = f"/messages/{table.message_id}"
    alt_texts = [
        attachment.get("description", "")
        for e in env.http_requests
        if e.method == "PATCH" and e.path.endswith(path)
        for attachment in (e.json or {}).get("attachments", [])
    ]
    for kind in ("Trick: ", "Melds", "Last trick: "):
        assert any(text.startswith(kind) for text in alt_texts), (kind, alt_texts[:5])


async def test_a_picture_that_fails_leaves_the_cards_as_text(
    world: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    env, guild, alice = world
    channel = guild.create_text_channel("pitch")

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise OSError("no font")

    monkeypatch.setattr("bot.discord_ui.components.hand_picture", broken)
    monkeypatch.setattr("bot.discord_ui.publisher.table_picture", broken)
    table = await open_table(env, channel, alice, "pitch", [], 1)
    tally = Tally()
    for _ in range(4):
        assert await one_decision(env, channel, table, {alice.id: alice}, tally)
        assert tally.panels[alice.id].attachments == []
        assert message_by_id(channel, table.message_id).attachments == []
    assert any("could not be drawn" in r.getMessage() for r in caplog.records)
    caplog.clear()  # the errors were expected here


async def test_a_panel_is_not_sent_the_picture_it_shows_already(world: Any) -> None:
    """A bid changes no card: the panel's hand picture is uploaded only when it changes."""
    env, guild, alice = world
    channel = guild.create_text_channel("pitch")
    table = await open_table(env, channel, alice, "pitch", [], 1)
    await play_through_panels(env, channel, table, {alice.id: alice})
    uploads: dict[str, list[str]] = {}  # panel message → the alt texts of its uploads, in order
    for request in env.http_requests:
        panel_edit = request.method == "PATCH" and "/webhooks/" in request.path
        if panel_edit and "attachments" in (request.json or {}):
            shown = [a.get("description", "") for a in request.json["attachments"]]
            uploads.setdefault(request.path.rsplit("/", 1)[1], []).append(" ".join(shown))
    assert uploads and sum(len(texts) for texts in uploads.values()) > 3
    for texts in uploads.values():
        assert all(a != b for a, b in itertools.pairwise(texts)), texts


async def test_no_hand_picture_is_drawn_while_its_panel_is_locked(
    world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The panel lock orders a panel's answers; drawing (and uploading) its picture happens outside
    it, so a click in the panel never waits for a picture."""
    env, guild, alice = world
    channel = guild.create_text_channel("pitch")
    table = await open_table(env, channel, alice, "pitch", [], 1)
    panels = env.bot.publisher.panels
    locked_while_drawing: list[bool] = []
    draw = components.hand_picture

    async def watched(view: dict[str, Any], seat: int, *, four_colour: bool) -> Any:
        locked_while_drawing.append(panels.lock(table, seat).locked())
        return await draw(view, seat, four_colour=four_colour)

    monkeypatch.setattr("bot.discord_ui.components.hand_picture", watched)
    tally = await play_through_panels(env, channel, table, {alice.id: alice})
    assert len(locked_while_drawing) >= tally.decisions // 2
    assert not any(locked_while_drawing)
