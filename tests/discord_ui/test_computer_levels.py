"""Computer levels in Discord: what is offered, and the level shown wherever a computer is named."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest

from bot.discord_ui.components import LobbyButton
from bot.levels import OFFERED, computer_label, level_name
from bot.store.ratings import computer_player
from bot.tables import Seat
from tests.discord_ui.helpers import buttons, message_by_id, table_of


def test_people_see_easy_for_basic_and_other_levels_as_they_are() -> None:
    assert OFFERED == {"easy": "basic", "hard": "hard"}
    assert [level_name(level) for level in ("basic", "hard", "random")] == ["easy", "hard", "random"]


@pytest.mark.parametrize(
    ("name", "level", "shown"),
    [
        ("Computer 2", "hard", "Computer 2 (hard)"),
        ("Computer 2", "basic", "Computer 2 (easy)"),
        ("Computer 3 (basic)", "basic", "Computer 3 (easy)"),  # stored before levels were named
        ("Computer 2 (random)", "random", "Computer 2 (random)"),
        ("Computer (Ann's seat)", "basic", "Computer (Ann's seat, easy)"),
    ],
)
def test_a_computer_seat_is_labelled_with_its_level(name: str, level: str, shown: str) -> None:
    assert computer_label(name, level) == shown
    seat = Seat.from_json({"kind": "computer", "name": name, "level": level})
    assert seat.label() == shown
    assert seat.to_json()["level"] == level  # the stored level stays the registered one


def test_a_person_keeps_their_name() -> None:
    assert Seat("human", "Ann (basic)", 1).label() == "Ann (basic)"


def lobby_labels(message: Any) -> list[str]:
    return [b.get("label", "") for b in buttons(message)]


async def test_the_lobby_offers_easy_and_the_command_adds_a_named_computer(world: Any) -> None:
    env, channel, alice, _ = world
    await alice.slash(channel, "table new", game="pitch")
    lobby = channel.last_message
    labels = lobby_labels(lobby)
    assert "Add computer (easy)" in labels and "Add computer (hard)" in labels
    assert not any("random" in label or "basic" in label for label in labels)
    result = await alice.slash(channel, "table add-computer", level="basic")
    assert result.ephemeral and result.response.content == "A computer player (easy) sits in seat 2."
    table = table_of(env.bot, channel.id)
    assert table.seats[1] is not None and table.seats[1].level == "basic"
    shown = message_by_id(channel, table.message_id)
    assert "Computer 2 (easy)" in shown.embeds[0].fields[0].value
    await alice.click(shown, label="Add computer (easy)")
    assert table.names()[2] == "Computer 3 (easy)"
    result = await alice.click(message_by_id(channel, table.message_id), label="Add computer (hard)")
    assert result.response.content == "A computer player (hard) sits in seat 4."
    assert table.names()[3] == "Computer 4 (hard)" and table.seats[3].level == "hard"
    result = await alice.slash(channel, "table add-computer", level="hard")
    assert result.ephemeral and "full" in result.response.content


async def test_the_level_choices_are_easy_and_hard_only(world: Any) -> None:
    env, *_ = world
    group = env.bot.tree.get_command("table")
    command = group.get_command("add-computer")
    (level,) = [p for p in command.parameters if p.name == "level"]
    assert [(c.name, c.value) for c in level.choices] == [("easy", "basic"), ("hard", "hard")]


async def test_an_old_random_lobby_button_is_refused_and_changes_nothing(world: Any) -> None:
    env, channel, alice, _ = world
    await alice.slash(channel, "table new", game="pitch")
    table = table_of(env.bot, channel.id)
    # A lobby message from before "random" left the lobby, posted as it was.
    old = discord.ui.View(timeout=None)
    old.add_item(LobbyButton(table.id, "add-random"))
    await env.bot.get_channel(channel.id).send("old lobby", view=old)
    result = await alice.click(channel.last_message, custom_id=f"tn:lobby:{table.id}:add-random")
    assert result.ephemeral and "not one I know" in result.response.content
    assert table.seats[1:] == [None, None, None]


async def test_random_stays_reachable_for_tests_through_the_manager(world: Any) -> None:
    env, channel, alice, _ = world
    await alice.slash(channel, "table new", game="pitch")
    table = table_of(env.bot, channel.id)
    seat = await env.bot.tables.add_computer(table, alice.id, "random")
    assert table.names()[seat] == f"Computer {seat + 1} (random)"


async def test_empty_seats_filled_at_start_are_named_easy(world: Any) -> None:
    env, channel, alice, _ = world
    await alice.slash(channel, "table new", game="pitch")
    await alice.click(channel.last_message, label="Start")
    table = table_of(env.bot, channel.id)
    assert table.names()[1:] == ["Computer 2 (easy)", "Computer 3 (easy)", "Computer 4 (easy)"]
    record = await env.bot.store.games.load(table.id)
    assert [s["level"] for s in record.seats[1:]] == ["basic"] * 3


async def play_out(env: Any, table: Any) -> None:
    """Let the computers play every seat (the people marked away) until the game is over."""
    for seat in table.seats:
        seat.away = seat.is_human
    env.bot.tables.after_change(table)
    for _ in range(2000):
        if table.status == "ended":
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the computers did not finish the game")


async def test_a_rated_game_rates_the_computer_level_and_the_leaderboard_names_it(world: Any) -> None:
    env, channel, alice, _ = world
    guild_id = channel.guild.id
    await env.bot.tables.update_settings(guild_id, rate_computer_games=True)
    await alice.slash(channel, "table new", game="pitch", players=2)
    table = table_of(env.bot, channel.id)
    await env.bot.tables.add_computer(table, alice.id, "random")
    await alice.click(message_by_id(channel, table.message_id), label="Start")
    await play_out(env, table)
    player = computer_player("random")
    assert player is not None
    (row,) = [r for r in await env.bot.store.boards.page(guild_id) if r.user_id == player]
    assert row.games == 1
    result = await alice.slash(channel, "leaderboard show")
    assert "Computer (random)" in result.response.embeds[0].description
    assert f"<@{player}>" not in result.response.embeds[0].description
