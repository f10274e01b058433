"""Issue 13, input checks on Discord: a bad player count, option or house rule given to
``/table new``, ``/admin settings`` or ``/meld`` is answered with the engine's one message,
ephemerally, and changes nothing (no table, no stored game, no public message, settings kept)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.discord_ui.helpers import close_bot_state, server_admin

PITCH_COUNTS = "players must be a whole number from 2 to 7 for pitch"
TARGETS = "valid values are 7/9/10/11/21"


@pytest.fixture
async def world(simcord_env: Any) -> AsyncIterator[tuple[Any, Any, Any, Any]]:
    env = simcord_env
    guild = env.create_guild("Card Club")
    channel = guild.create_text_channel("cards")
    admin = server_admin(env, guild)
    try:
        yield env, guild, channel, admin
    finally:
        await close_bot_state(env)


# (/table new arguments, the one message)
BAD_TABLES: list[tuple[dict[str, Any], str]] = [
    ({"game": "pitch", "players": 9}, f"{PITCH_COUNTS}; got 9"),
    ({"game": "pitch", "players": 1}, f"{PITCH_COUNTS}; got 1"),
    ({"game": "pinochle-4", "players": 3}, "players must be 4 for pinochle-4; got 3"),
    ({"game": "pitch", "options": "Target=99"}, f"option 'target' cannot be '99': {TARGETS}"),
    (
        {"game": "pitch", "options": "Target=7 target=9"},
        "option 'target' is given twice ('Target=7' and 'target=9'): give it once",
    ),
    ({"game": "pitch", "options": "smudge"}, "'smudge' is not key=value, e.g. target=21 or smudge=on"),
    (
        {"game": "pitch", "options": "kitty=on"},
        "pitch has no option 'kitty'; its options are: target (7/9/10/11/21), old-high-low (on/off), "
        "dealer-steal (on/off), smudge (on/off), off-jack (on/off), jokers (0/1/2), "
        "joker-rank (auto/low/mid), joker-lead (spades/name/forbidden), slam (on/off), "
        "all-four-wins (on/off)",
    ),
    (
        {"game": "double-deck", "options": "ask=must-give"},
        "option ask=must-give needs a card pass: add pass=1, 2, 3 or 4",
    ),
]


@pytest.mark.parametrize(("arguments", "message"), BAD_TABLES)
async def test_table_new_refuses_a_bad_value_and_opens_nothing(
    world: Any, arguments: dict[str, Any], message: str
) -> None:
    env, _, channel, admin = world
    r = await admin.slash(channel, "table new", **arguments)
    assert r.ephemeral and r.response.content == message
    assert env.bot.tables.table_in(channel.id) is None
    assert await env.bot.store.games.in_channel(channel.id) is None
    assert list(channel.history()) == []


async def test_table_new_takes_option_names_in_any_case(world: Any) -> None:
    env, _, channel, admin = world
    await admin.slash(channel, "table new", game="pitch", players=3, options="Target=7 SMUDGE=On")
    table = env.bot.tables.table_in(channel.id)
    assert table is not None and table.players == 3
    assert table.options["target"] == 7 and table.options["smudge"] is True


# (/admin settings house_rules for pitch or double-deck, the one message)
BAD_HOUSE_RULES: list[tuple[str, str, str]] = [
    ("pitch", "target=99", f"House rules for pitch: option 'target' cannot be '99': {TARGETS}"),
    ("pitch", "Smudge=maybe", "House rules for pitch: option 'smudge' is on or off, not 'maybe'"),
    (
        "pitch",
        "target=7 Target=9",
        "option 'target' is given twice ('target=7' and 'Target=9'): give it once",
    ),
    ("pitch", "target", "'target' is not key=value, e.g. target=21 or smudge=on"),
    (
        "double-deck",
        "pass-order=partner-first",
        "House rules for double-deck: option pass-order=partner-first needs a card pass: "
        "add pass=1, 2, 3 or 4",
    ),
]


@pytest.mark.parametrize(("game", "house_rules", "message"), BAD_HOUSE_RULES)
async def test_settings_refuse_bad_house_rules_and_keep_the_old_ones(
    world: Any, game: str, house_rules: str, message: str
) -> None:
    env, guild, channel, admin = world
    await admin.slash(channel, "admin settings", game="pitch", house_rules="smudge=on")
    before = await env.bot.store.settings.get(guild.id)
    r = await admin.slash(channel, "admin settings", game=game, house_rules=house_rules)
    assert r.ephemeral and r.response.content == message
    assert await env.bot.store.settings.get(guild.id) == before


async def test_settings_store_house_rules_under_the_options_own_names(world: Any) -> None:
    env, guild, channel, admin = world
    r = await admin.slash(channel, "admin settings", game="pitch", house_rules="Target=7 SMUDGE=on")
    assert "target=7" in str(r.response.embeds[0].to_dict())
    settings = await env.bot.store.settings.get(guild.id)
    assert settings.default_options == {"pitch": {"target": 7, "smudge": True}}
    # A table's own option overrides the house rule whatever its spelling.
    await admin.slash(channel, "table new", game="pitch", options="TARGET=21")
    table = env.bot.tables.table_in(channel.id)
    assert table is not None and table.options["target"] == 21 and table.options["smudge"] is True


# (/meld arguments, the one message)
BAD_MELDS: list[tuple[dict[str, Any], str]] = [
    (
        {"game": "pinochle-4", "trump": "H", "cards": "AH 10H ZZ"},
        "I could not read that hand: 'ZZ' is not a card: write rank then suit, e.g. 10H, QS, 9C, AD (or 10♥)",
    ),
    (
        {"game": "pinochle-2", "trump": "H", "cards": "7H"},
        "I could not read that hand: 7H is not in the pinochle-2 pack (ranks A 10 K Q J 9)",
    ),
    (
        {"game": "pinochle-4", "trump": "H", "cards": "QS QS QS"},
        "I could not read that hand: QS appears 3 times: the pinochle-4 pack has 2 of each card",
    ),
]


@pytest.mark.parametrize(("arguments", "message"), BAD_MELDS)
async def test_meld_refuses_a_bad_hand_with_one_message(
    world: Any, arguments: dict[str, Any], message: str
) -> None:
    _, _, channel, admin = world
    r = await admin.slash(channel, "meld", **arguments)
    assert r.ephemeral and r.response.content.startswith(message)
    assert list(channel.history()) == []
