"""Duplicate events (simcord): an admin starts one; two tables (one from the event message's button,
one with /duplicate table elsewhere) play the same two deals in the same seats and stop; the event
ends by itself and posts the expected match-point ranking with its card."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.discord_ui.duplicate import tend_events
from bot.duplicate import boards_of, differing_deals, match_points
from bot.history import replay
from tests.discord_ui.helpers import close_bot_state, server_admin


@pytest.fixture
async def club(simcord_env: Any) -> AsyncIterator[dict[str, Any]]:
    env = simcord_env
    guild = env.create_guild("Card Club")
    world = {
        "env": env,
        "guild": guild,
        "events": guild.create_text_channel("events"),
        "other": guild.create_text_channel("table-two"),
        "admin": server_admin(env, guild),
        "alice": guild.add_member(env.create_user("alice")),
        "bob": guild.add_member(env.create_user("bob")),
    }
    try:
        yield world
    finally:
        await close_bot_state(env)


async def until(check: Any, timeout: float = 30.0) -> None:
    for _ in range(int(timeout / 0.02)):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("timed out")


async def test_two_tables_play_the_same_two_deals_and_are_ranked_by_match_points(
    club: dict[str, Any],
) -> None:
    env, admin, alice, bob = club["env"], club["admin"], club["alice"], club["bob"]
    store, tables = env.bot.store, env.bot.tables
    assert "admin duplicate-start" not in alice.available_commands(club["events"])
    r = await admin.slash(club["events"], "admin duplicate-start", game="pitch", deals=2)
    assert (
        not r.ephemeral
        and "Duplicate event #" in r.response.content
        and "2 match points" in r.response.content
    )
    event = (await store.duplicates.list(club["guild"].id))[0]
    assert (event.variant, event.players, event.deals) == ("pitch", 4, 2) and event.seed

    # Table 1 from the event message's button, table 2 with the command in another channel.
    opened = await alice.click(r.response, label="Open a table here")
    assert "Table 1 of duplicate event" in opened.response.content
    choices = await bob.autocomplete(club["other"], "duplicate table", "event", "")
    assert [c["value"] for c in choices] == [str(event.id)]
    opened = await bob.slash(club["other"], "duplicate table", event=str(event.id))
    assert "Table 2 of duplicate event" in opened.response.content
    first, second = tables.table_in(club["events"].id), tables.table_in(club["other"].id)
    assert first is not None and second is not None
    # Mixed tables: basic computers at one, random ones at the other (so the play differs), and
    # each host hands their seat to a computer once the game is on.
    for table, host, level in ((first, alice, "basic"), (second, bob, "random")):
        for _ in range(3):
            await tables.add_computer(table, host.id, level)
        await tables.start(table, host.id)
        await tables.leave(table, host.id)
    await until(lambda: first.status == "ended" and second.status == "ended")

    records = [await store.games.load(t.id) for t in (first, second)]
    assert [r.status for r in records] == ["abandoned", "abandoned"]  # stopped, no rated result
    replays = [replay(r.engine_record()) for r in records]
    boards = {1: boards_of(replays[0], 2), 2: boards_of(replays[1], 2)}
    assert sorted(boards[1]) == sorted(boards[2]) == [1, 2]
    assert all(max(d.number for d in rp.deals) == 2 for rp in replays)  # nobody played deal 3
    assert differing_deals(boards) == []  # the same deals in the same seats at both tables
    assert [d.tricks for d in replays[0].deals] != [d.tricks for d in replays[1].deals]

    # Every table is done: the clock ends the event and posts the ranking, once.
    assert await tend_events(env.bot, env.bot) == 1
    assert await tend_events(env.bot, env.bot) == 0
    posted = [m for m in club["events"].history() if "Final ranking" in (m.content or "")]
    assert len(posted) == 1
    sides = len(replays[0].sides)  # auction pitch: four players, each on their own
    expected = match_points({n: {d: b.changes for d, b in bs.items()} for n, bs in boards.items()}, sides)
    for st in expected:
        assert f"{st.rank}. Table {st.table} · " in posted[0].content
        assert f"{st.match_points} of {st.top} match points ({st.percent:.1f}%)" in posted[0].content
    assert len(expected) == 2 * sides
    assert sum(st.match_points for st in expected) == 2 * sides * 2  # 2 points shared per deal and side
    card = [a for a in posted[0].attachments if a.filename == "standings.png"]
    assert card and f"Duplicate #{event.id}" in card[0].description
    r = await alice.slash(club["events"], "duplicate show", event=str(event.id))
    assert r.ephemeral and "Final ranking" in r.response.content
    r = await alice.slash(club["other"], "duplicate table", event=str(event.id))
    assert r.ephemeral and "has ended" in r.response.content


async def test_an_admin_ends_an_event_early_and_bad_input_is_refused(club: dict[str, Any]) -> None:
    env, admin, alice = club["env"], club["admin"], club["alice"]
    r = await admin.slash(club["events"], "admin duplicate-start", game="pinochle-4", deals=2)
    event = (await env.bot.store.duplicates.list(club["guild"].id))[0]
    await alice.slash(club["other"], "duplicate table", event=str(event.id))
    r = await alice.slash(club["events"], "duplicate table", event="999")
    assert r.ephemeral and "no duplicate event" in r.response.content
    r = await admin.slash(club["events"], "admin duplicate-end", event=str(event.id))
    assert (
        not r.ephemeral
        and "Final ranking" in r.response.content
        and "No table has finished a deal" in r.response.content
    )
    assert env.bot.tables.table_in(club["other"].id) is None  # its unstarted table was ended
    r = await admin.slash(club["events"], "admin duplicate-end", event=str(event.id))
    assert r.ephemeral and "already ended" in r.response.content
    assert await tend_events(env.bot, env.bot) == 0  # posted once, by the admin's command


async def test_a_table_resumed_past_its_deals_is_stopped_by_the_clock(club: dict[str, Any]) -> None:
    env, admin, alice = club["env"], club["admin"], club["alice"]
    store, tables = env.bot.store, env.bot.tables
    await store.settings.update(club["guild"].id, computer_delay_seconds=0.01)
    await admin.slash(club["events"], "admin duplicate-start", game="pitch", deals=2)
    event = (await store.duplicates.list(club["guild"].id))[0]
    await alice.slash(club["other"], "duplicate table", event=str(event.id))
    table = tables.table_in(club["other"].id)
    assert table is not None and table.deal_limit == 2
    table.deal_limit = None  # as a table rebuilt at a restart is, until the event clock's first tick
    await tables.start(table, alice.id)
    assert table.seed == event.seed
    await tables.leave(table, alice.id)
    await until(lambda: table.game is not None and int(table.game.public_view()["deal"]) >= 3)
    assert await tend_events(env.bot, env.bot) == 1  # stopped; the event is over; its ranking posted
    assert table.status == "ended" and (await store.games.load(table.id)).status == "abandoned"
    assert sorted(boards_of(replay((await store.games.load(table.id)).engine_record()), 2)) == [1, 2]
    assert await tend_events(env.bot, env.bot) == 0
