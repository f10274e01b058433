"""The hand panel: after a player first opens it, every decision is one click (or one menu choice)
in that same ephemeral message and the bot creates no new ephemeral message; when the player's
turn comes again the bot edits the panel so its controls are live, or, once the panel's token has
expired, the turn ping carries a button that opens a fresh one. At most one turn ping per table."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from typing import Any

import pytest
from simcord import SetupError

from bot import render
from bot.discord_ui import hand_text
from bot.engine import new_game
from bot.tables import Seat, Table
from tests.discord_ui.helpers import (
    answer_content,
    enabled_action_ids,
    message_by_id,
    new_ephemeral_messages,
    table_of,
    turn_pings,
    view_timeout_tasks,
)
from tests.discord_ui.test_pinochle_table import audit, controls, decide


async def open_table(env: Any, channel: Any, host: Any, game: str, joiners: list[Any], computers: int,
                     options: str | None = None, *, timer: bool = True) -> Table:  # fmt: skip
    if not timer:  # tests that move the clock by minutes keep people from going away
        await env.bot.tables.update_settings(host.guild.id, turn_timeout_seconds=0)
    await host.slash(channel, "table new", game=game, **({"options": options} if options else {}))
    lobby = channel.last_message
    for person in joiners:
        await person.click(lobby, label="Join")
    for _ in range(computers):
        await host.click(lobby, label="Add computer (easy)")
    await host.click(lobby, label="Start")
    return table_of(env.bot, channel.id)


async def next_person(env: Any, table: Table) -> int | None:
    """Wait until the game waits for a person and Discord shows it; their seat (None: game over)."""
    for _ in range(5000):
        if table.status != "playing" or table.game is None:
            await env.bot.publisher.wait_idle()
            return None
        people = [s for s in table.game.to_act if table.seats[s] and table.seats[s].is_human]
        if people:
            await env.bot.publisher.wait_idle()
            return people[0]
        await asyncio.sleep(0.005)  # a computer is thinking (off the event loop)
    raise AssertionError("the computers never handed the turn back")


@dataclass
class Tally:
    decisions: int = 0
    clicks: int = 0
    opened: int = 0
    panels: dict[int, Any] = field(default_factory=dict)  # user id -> the panel (a ResponseMessage)
    most_pings: int = 0


def check_panel_is_live(table: Table, seat: int, panel: Any) -> None:
    """The panel shows the seat's own hand as it is now, says it is their turn, and its controls
    belong to this moment of the game (the bot edited it when the turn came)."""
    assert table.game is not None
    hand = render.pretty_cards(table.game.view(seat)["hand"])
    hand_line = next(line for line in panel.content.split("\n") if line.startswith("**Your hand**"))
    assert hand_line == f"**Your hand** — {table.title}, seat {seat + 1}: {hand}", panel.content
    assert "Your turn" in panel.content, panel.content
    buttons, selects = controls(panel)
    ids = buttons + list(selects)
    assert ids, panel.content
    assert all(cid.split(":")[3] == str(table.version) for cid in ids), (ids, table.version)


async def one_decision(env: Any, channel: Any, table: Table, people: dict[int, Any], tally: Tally) -> bool:
    """The next person's decision through their panel; False once the game is over."""
    seat = await next_person(env, table)
    audit(env, channel)
    pings = turn_pings(channel)
    tally.most_pings = max(tally.most_pings, len(pings))
    assert len(pings) <= 1, [m.content for m in pings]
    if seat is None:
        return False
    assert table.game is not None
    user_id = table.seats[seat].user_id  # type: ignore[union-attr]
    person = people[user_id]
    if user_id not in tally.panels:
        opened = await person.click(message_by_id(channel, table.message_id), label="Show my hand")
        assert opened.response.ephemeral
        tally.panels[user_id] = opened.response
        tally.opened += 1
        tally.clicks += 1
    panel = tally.panels[user_id]
    check_panel_is_live(table, seat, panel)
    before, done = new_ephemeral_messages(env), len(table.game.log)
    clicked = await decide(person, panel, {"meld": 0, "select": 0})
    tally.clicks += 1
    tally.decisions += 1
    assert clicked.response.id == panel.id and clicked.response.ephemeral  # the same panel, edited
    assert answer_content(env, clicked).startswith("You: ")
    assert new_ephemeral_messages(env) == before  # no new ephemeral message for a decision
    assert table.game.log[done][0] == seat  # exactly this person's one decision was taken
    return True


async def play_through_panels(env: Any, channel: Any, table: Table, people: dict[int, Any]) -> Tally:
    tally = Tally()
    start = new_ephemeral_messages(env)
    while await one_decision(env, channel, table, people, tally):
        assert tally.decisions < 600
    assert tally.clicks == tally.decisions + tally.opened
    assert new_ephemeral_messages(env) - start == tally.opened == len(people)
    final = [m for m in channel.history() if "Final scores" in (m.content or "")]
    assert len(final) == 1
    return tally


def live_panel(env: Any, table: Table, seat: int) -> Any:
    """The bot's record of a seat's panel, read on simcord's virtual clock (inside the bot,
    ``time.monotonic`` is that clock; in the test it is the real one)."""
    panels = env.bot.publisher.panels
    real = panels.clock
    panels.clock = lambda: env.backend.clock.elapsed
    try:
        return panels.live(table.id, seat)
    finally:
        panels.clock = real


def assert_nothing_left_behind(env: Any) -> None:
    publisher = env.bot.publisher
    assert len(publisher.panels) == 0 and publisher.panels.tables() == 0 and not publisher.pending
    assert view_timeout_tasks() == []
    assert env.bot._connection._view_store._synced_message_views == {}


async def test_a_pitch_game_is_one_click_per_decision_in_one_panel_each(world: Any) -> None:
    env, channel, alice, bob = world
    table = await open_table(env, channel, alice, "pitch", [bob], 2)
    tally = await play_through_panels(env, channel, table, {alice.id: alice, bob.id: bob})
    assert tally.decisions >= 20 and tally.opened == 2
    assert tally.most_pings == 1
    assert turn_pings(channel) == []  # the last ping went once its person acted
    assert_nothing_left_behind(env)
    for user_id, panel in tally.panels.items():  # the game's end reached every panel
        assert panel.components == [] and "Game over" in panel.content, (user_id, panel.content)


async def test_a_two_hand_pinochle_game_is_one_interaction_per_decision(world: Any) -> None:
    env, channel, alice, _ = world
    table = await open_table(env, channel, alice, "pinochle-2", [], 1, "match=deal")
    tally = await play_through_panels(env, channel, table, {alice.id: alice})
    assert tally.decisions >= 12 and tally.opened == 1
    assert_nothing_left_behind(env)


async def test_only_the_owner_sees_and_uses_a_panel(world: Any) -> None:
    env, channel, alice, bob = world
    table = await open_table(env, channel, alice, "pitch", [bob], 2)
    seat = await next_person(env, table)
    assert seat is not None and table.game is not None
    owner, other = (alice, bob) if table.seats[seat].user_id == alice.id else (bob, alice)  # type: ignore[union-attr]
    panel = (await owner.click(message_by_id(channel, table.message_id), label="Show my hand")).response
    with pytest.raises(SetupError, match="not visible"):
        await other.click(panel, custom_id=enabled_action_ids(panel)[0])
    audit(env, channel)  # no public message (the table, the ping) shows a card of a hand


async def test_an_expired_panel_is_not_edited_and_the_ping_opens_a_fresh_one(world: Any) -> None:
    env, channel, alice, bob = world
    table = await open_table(env, channel, alice, "pitch", [bob], 2, timer=False)
    people = {alice.id: alice, bob.id: bob}
    tally = Tally()
    # Play until Alice has a panel and the game waits for Bob.
    while True:
        seat = await next_person(env, table)
        assert seat is not None
        if table.seats[seat].user_id == bob.id and alice.id in tally.panels:  # type: ignore[union-attr]
            break
        assert await one_decision(env, channel, table, people, tally)
    alice_seat = table.seat_of(alice.id)
    assert alice_seat is not None
    old = live_panel(env, table, alice_seat)
    assert old is not None
    await env.advance_time(15 * 60)  # Bob thinks for a quarter of an hour: Alice's token runs out
    assert live_panel(env, table, alice_seat) is None
    mark = len(env.http_requests)
    while True:  # Bob plays (his own panel is new or fresh) until it is Alice's turn
        seat = await next_person(env, table)
        assert seat is not None
        if seat == alice_seat:
            break
        assert await one_decision(env, channel, table, people, tally)
    assert not [e for e in env.http_requests[mark:] if old.token in e.path]  # never edited again
    pings = turn_pings(channel)
    assert len(pings) == 1 and f"<@{alice.id}>" in pings[0].content
    assert "Show my hand" in pings[0].content
    before = new_ephemeral_messages(env)
    fresh = await alice.click(pings[0], label="Show my hand")
    assert fresh.response.ephemeral and fresh.response.id != tally.panels[alice.id].id
    assert new_ephemeral_messages(env) == before + 1
    tally.panels[alice.id] = fresh.response
    decisions = tally.decisions
    assert await one_decision(env, channel, table, people, tally)  # and then one click again
    assert tally.decisions == decisions + 1


async def test_a_new_panel_replaces_the_old_one(world: Any) -> None:
    env, channel, alice, _ = world
    table = await open_table(env, channel, alice, "pitch", [], 1)
    first = await alice.click(message_by_id(channel, table.message_id), label="Show my hand")
    first_id = first.response.id
    second = await alice.slash(channel, "hand")
    assert second.response.id != first_id
    assert first.response is None  # the old panel was deleted: one panel per player
    assert enabled_action_ids(second.response)
    seat = table.seat_of(alice.id)
    assert seat is not None
    panel = live_panel(env, table, seat)
    assert panel is not None and panel.message_id == second.response.id


def test_the_panel_names_the_last_trick_once_the_table_is_cleared() -> None:
    game = new_game("pitch", players=2, seed=5)
    seats: list[Seat | None] = [Seat("human", "Ann", 1), Seat("computer", "Computer 2 (basic)")]
    table = Table(3, 1, 5, 1, "pitch", dict(game.options), 2, seats, status="playing", game=game)
    chooser = random.Random(5)
    for _ in range(200):
        if game.view(0).get("last_trick") and not game.view(0)["trick"]:
            break
        seat = game.to_act[0]
        game.apply(seat, chooser.choice(game.legal_actions(seat)))
    last = game.view(0)["last_trick"]
    text = hand_text(table, 0, game.view(0))
    cards = ", ".join(f"{table.names()[p['seat']]} {render.pretty(p['card'])}" for p in last["plays"])
    assert f"Last trick: {cards} → {table.names()[last['winner']]}" in text
