"""Ten-point pitch through Discord: a short game with two people and two computers, where the
hand panel offers the widow's trump choice and every card of a 27-card keep step (more than one
select holds) and of the others' discards, one click per decision."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.discord_ui import hand_view
from tests.discord_ui.helpers import answer_content, message_by_id, table_of
from tests.discord_ui.test_pinochle_table import audit, controls


async def choose(person: Any, shown: Any, stats: dict[str, int]) -> Any:
    """Bid whenever a bid is offered (so the people pitch), name the first trump, keep or discard
    the first card offered, play the first card."""
    buttons, selects = controls(shown)
    assert buttons or selects, shown.content
    keeps = [value for values in selects.values() for value in values if value.startswith("keep ")]
    keeps += [cid.split(":", 4)[-1] for cid in buttons if ":keep " in cid]
    if keeps:
        stats["keep_options"] = max(stats["keep_options"], len(keeps))
        stats["keep"] += 1
        assert "to keep" in shown.content
    for cid in buttons:
        if ":bid " in cid or ":trump " in cid:
            stats["bid" if ":bid " in cid else "trump"] += 1
            return await person.click(shown, custom_id=cid)
    for cid in buttons:
        if ":discard " in cid or ":keep " in cid or ":play " in cid:
            return await person.click(shown, custom_id=cid)
    for cid in buttons:
        if cid.endswith(":pass"):
            return await person.click(shown, custom_id=cid)
    cid, values = next(iter(selects.items()))
    stats["select"] += 1
    if values[0].startswith("discard "):
        stats["discard"] += 1
    return await person.select(shown, [values[0]], custom_id=cid)


async def test_a_short_pitch_10_game_through_discord(world: Any) -> None:
    env, channel, alice, bob = world
    await env.bot.tables.update_settings(alice.guild.id, turn_timeout_seconds=0)
    result = await alice.slash(channel, "table new", game="pitch-10", options="target=31")
    assert result.acknowledged and not result.ephemeral
    lobby = channel.last_message
    await bob.click(lobby, label="Join")
    await alice.click(lobby, label="Add computer (easy)")
    await alice.click(lobby, label="Add computer (easy)")
    await alice.click(lobby, label="Start")
    table = table_of(env.bot, channel.id)
    people = {alice.id: alice, bob.id: bob}
    stats = {"decisions": 0, "keep": 0, "keep_options": 0, "select": 0, "bid": 0, "trump": 0, "discard": 0}
    while table.status == "playing":
        audit(env, channel)
        assert table.game is not None
        humans = [s for s in table.game.to_act if table.seats[s] and table.seats[s].is_human]
        if not humans:
            await asyncio.sleep(0.01)  # a computer is still thinking
            continue
        seat = humans[0]
        view = table.game.view(seat)
        if view["phase"] == "discard":  # every legal choice is somewhere in the panel's controls
            reachable: set[str] = set()
            for row in hand_view(table, seat, view).to_components():
                for child in row["components"]:
                    reachable |= {option["value"].lower() for option in child.get("options", [])}
                    reachable.add(child.get("custom_id", "").split(":", 4)[-1].lower())
            assert {action.lower() for action in view["legal"]} <= reachable
        person = people[table.seats[seat].user_id]
        shown = await person.click(message_by_id(channel, table.message_id), label="Show my hand")
        assert shown.ephemeral and "Your turn" in shown.response.content, shown.response.content
        clicked = await choose(person, shown.response, stats)
        assert clicked.acknowledged and clicked.response.ephemeral
        assert clicked.response.id == shown.response.id  # the panel is edited, not a new message
        assert answer_content(env, clicked).startswith("You: "), answer_content(env, clicked)
        stats["decisions"] += 1
        assert stats["decisions"] < 1500
    audit(env, channel)
    assert stats["trump"] >= 1 and stats["keep"] >= 1, stats  # a person pitched: widow, trump, keep
    assert stats["keep_options"] > 0
    history = [m.content or "" for m in channel.history()]
    assert any("Off-Jack" in text and "Three (3" in text for text in history)
    final = [text for text in history if "Final scores" in text]
    assert len(final) == 1 and "Game over" in final[0]


async def test_a_27_card_keep_step_spreads_over_two_selects_within_discords_limits() -> None:
    from bot.discord_ui import limits
    from bot.discord_ui.messages import hand_text
    from bot.tables import Seat, Table
    from tests.engine.helpers import run_script, stacked_pitch_game

    # Spades will be trump: every point card (JS, JC, HJ, LJ, 3S) is in another hand, so the
    # pitcher keeps six of 27 cards, none of them kept for it: 27 choices, more than one select.
    game = stacked_pitch_game(
        "pitch-10",
        {0: "JS JC HJ LJ 2H 3H 4H 5H 6H", 2: "3S 7H 8H 9H 10H QH KH AH 2D"},
        dealer=3,
        players=4,
    )
    run_script(
        game, "s0 pass, s1 bid 4, s2 pass, s3 pass, s1 trump S, s0 discard 2H, s0 discard 3H, s0 discard 4H"
    )
    seats: list[Seat | None] = [Seat("human", f"P{i}", i + 1) for i in range(4)]
    table = Table(9, 1, 2, 1, "pitch-10", dict(game.options), 4, seats, status="playing", game=game)
    view = game.view(1)
    assert len(view["legal"]) == 27 and all(action.startswith("keep ") for action in view["legal"])
    ui = hand_view(table, 1, view)
    children = [child for row in ui.to_components() for child in row["components"]]
    selects = [child for child in children if child["type"] == 3]
    assert [len(select["options"]) for select in selects] == [25]  # the last two are buttons
    reachable = {option["value"].lower() for select in selects for option in select["options"]}
    reachable |= {child["custom_id"].split(":", 4)[-1] for child in children if child["type"] == 2}
    assert reachable == {action.lower() for action in view["legal"]}
    assert not limits.problems(content=hand_text(table, 1, view), view=ui)
    assert "choose 6 more cards to keep" in hand_text(table, 1, view)


async def test_an_impossible_combination_is_refused_at_table_new_and_rules_cite_sources(world: Any) -> None:
    env, channel, alice, _ = world
    r = await alice.slash(channel, "table new", game="pitch", options="smudge=on slam=on")
    assert r.ephemeral and "two meanings" in r.response.content
    assert env.bot.tables.table_in(channel.id) is None  # nothing was opened
    for variant, source in (
        ("pitch-10", "Pitch the Card Game"),
        ("pitch-joker", "Bicycle"),
        ("pitch", "Parlett"),
    ):
        r = await alice.slash(channel, "rules", game=variant)
        text = r.response.embeds[0].description or ""
        assert source in text and "[gap" not in text, (variant, text[:300])
