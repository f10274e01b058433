"""Every legal bid within three clicks: quick-bid buttons for long ladders and the **Other bid…**
form, whose amount the engine judges; short ladders keep one button per bid."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.ai import decide, make_player
from bot.bid_menu import amounts, quick_bids
from bot.discord_ui import hand_view
from bot.engine import find_variant, new_game, variant_names
from bot.tables import Seat, Table
from tests.discord_ui.helpers import close_bot_state, message_by_id, table_of

AUCTIONS = [v for v in variant_names() if v not in ("pinochle-2", "pinochle-4", "pinochle-6", "pinochle-8")]
OTHER = "Other bid…"


def first_bid_decision(variant: str) -> tuple[Table, int, dict[str, Any]]:
    """A table at the first decision where a seat may bid."""
    game = new_game(variant, seed=5)
    players = game.players
    seats: list[Seat | None] = [Seat("human", f"P{i}", i + 1) for i in range(players)]
    table = Table(9, 1, 2, 1, variant, dict(game.options), players, seats, status="playing", game=game)
    bots = [make_player(find_variant(variant).family, "basic", seat) for seat in range(players)]
    for _ in range(500):
        seat = game.to_act[0]
        view = game.view(seat)
        if amounts(view["legal"]):
            return table, seat, view
        game.apply(seat, decide(bots[seat], game, seat))
    raise AssertionError(f"{variant}: nobody could bid")


def clicks_to_reach(table: Table, seat: int, view: dict[str, Any]) -> dict[int, int]:
    """For every legal bid, the clicks it takes from the hand: 1 on a button, 2 through the form."""
    components = hand_view(table, seat, view).to_components()
    ids = [c["custom_id"] for row in components for c in row["components"]]
    on_buttons = {int(cid.rsplit(" ", 1)[1]) for cid in ids if ":bid " in cid}
    has_form = any(cid.startswith("tn:bidamt:") for cid in ids)
    return {amount: 1 if amount in on_buttons else 2 if has_form else 99 for amount in amounts(view["legal"])}


@pytest.mark.parametrize("variant", AUCTIONS)
def test_every_legal_bid_is_within_three_clicks(variant: str) -> None:
    table, seat, view = first_bid_decision(variant)
    clicks = clicks_to_reach(table, seat, view)
    bids = sorted(clicks)
    assert max(clicks.values()) <= 3, {b: c for b, c in clicks.items() if c > 3}
    top = bids[-1]
    print(f"\n{variant}: {len(bids)} legal bids {bids[0]}-{top}; top bid in {clicks[top]} click(s)")
    if len(bids) > 5:
        assert {bids[0]} | set(quick_bids(bids)) == {b for b, c in clicks.items() if c == 1}
    else:
        assert set(clicks.values()) == {1}  # pitch: one button per bid


def row_kind(custom_id: str) -> str:
    """Which group of the hand a control belongs to: cards, bids, or the other choices."""
    if ":play " in custom_id or custom_id.endswith(":play"):
        return "cards"
    if ":bid " in custom_id or custom_id.startswith("tn:bidamt:"):
        return "bids"
    return "other"


@pytest.mark.parametrize("variant", AUCTIONS)
def test_the_bid_controls_have_a_row_of_their_own(variant: str) -> None:
    """discord.py fills the gaps of earlier rows: the bids must not sit among the cards."""
    table, seat, view = first_bid_decision(variant)
    rows = hand_view(table, seat, view).to_components()
    kinds = [{row_kind(c["custom_id"]) for c in row["components"]} for row in rows]
    assert all(len(kind) == 1 for kind in kinds), kinds
    assert kinds.count({"bids"}) == 1, kinds


def test_quick_bids_follow_uneven_ladders() -> None:
    ladder = [*range(50, 61), *range(65, 501, 5)]  # by 1 to 60, then by 5
    assert quick_bids(ladder) == [50, 60, 100]
    assert quick_bids([350, 360, 370, 380, 390, 400]) == [350, 360, 400]
    assert quick_bids([490, 495, 500]) == [490, 500]
    assert quick_bids([]) == []


# ----- through Discord -------------------------------------------------------------------------------
@pytest.fixture
async def world(simcord_env: Any) -> AsyncIterator[tuple[Any, Any, Any]]:
    env = simcord_env
    guild = env.create_guild("Card Club")
    channel = guild.create_text_channel("bids")
    alice = guild.add_member(env.create_user("alice"))
    try:
        yield env, channel, alice
    finally:
        await close_bot_state(env)


async def alices_bid_turn(
    env: Any, channel: Any, alice: Any, variant: str, computers: int
) -> tuple[Any, Any]:
    await alice.slash(channel, "table new", game=variant)
    lobby = channel.last_message
    for _ in range(computers):
        await alice.click(lobby, label="Add computer (easy)")
    await alice.click(lobby, label="Start")
    table = table_of(env.bot, channel.id)
    assert table.game is not None and table.game.to_act == (0,), "computers move until alice's turn"
    shown = await alice.click(message_by_id(channel, table.message_id), label="Show my hand")
    return table, shown


@pytest.mark.parametrize(
    ("variant", "computers", "amount", "above"),
    [("pinochle-3", 2, 800, 540), ("pinochle-4-auction", 3, 1000, 340), ("double-deck", 3, 500, 130)],
)
async def test_the_top_bid_is_two_clicks_away_through_the_form(
    world: Any, variant: str, computers: int, amount: int, above: int
) -> None:
    env, channel, alice = world
    table, shown = await alices_bid_turn(env, channel, alice, variant, computers)
    form = await alice.click(shown.response, label=OTHER)
    assert form.modal is not None
    assert "to" in form.modal["title"] and len(form.modal["title"]) <= 45
    before = len(table.game.log)
    done = await alice.submit_modal(form, {"amount": f"{amount:,}"})
    assert done.acknowledged
    assert str(table.game.log[before][1]) == f"bid {amount}" and amount > above
    assert table.game.log[before][0] == 0


async def test_a_typed_bid_the_engine_refuses_changes_nothing(world: Any) -> None:
    env, channel, alice = world
    table, shown = await alices_bid_turn(env, channel, alice, "double-deck", 3)
    before = table.game.to_json()
    form = await alice.click(shown.response, label=OTHER)
    refused = await alice.submit_modal(form, {"amount": "plenty"})
    assert refused.ephemeral and "Type a number" in (refused.response.content or "")
    form = await alice.click(shown.response, label=OTHER)
    refused = await alice.submit_modal(form, {"amount": "7"})
    assert refused.ephemeral and "bid" in refused.response.content  # the engine's reason
    assert table.game.to_json() == before
