"""What cannot be undone asks first: declare out, concede, throw in, leaving a running game and
ending a table. The question states the consequence, sits apart from the cards, and a stale
**Yes** changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from bot.ai import decide, make_player
from bot.discord_ui import hand_view
from bot.discord_ui.confirm import consequence
from bot.engine import find_variant, new_game
from bot.tables import Seat, Table
from tests.discord_ui.helpers import (
    answer_content,
    enabled_action_ids,
    message_by_id,
    table_of,
)


def table_where(variant: str, action: str, options: dict[str, Any] | None = None) -> tuple[Table, int]:
    """A table (computer-played from a seed) at the first moment a seat may take ``action``."""
    for seed in range(40):
        game = new_game(variant, options=options, seed=seed)
        seats: list[Seat | None] = [Seat("human", f"P{i}", i + 1) for i in range(game.players)]
        table = Table(
            9, 1, 2, 1, variant, dict(game.options), game.players, seats, status="playing", game=game
        )
        bots = [make_player(find_variant(variant).family, "basic", s) for s in range(game.players)]
        while not game.is_over:
            for seat in range(game.players):
                if action in game.view(seat)["legal"]:
                    return table, seat
            seat = game.to_act[0]
            game.apply(seat, decide(bots[seat], game, seat))
    raise AssertionError(f"no {action} in {variant}")


@pytest.mark.parametrize(
    ("variant", "action", "options", "words"),
    [
        ("pinochle-2", "declare-out", {}, "If you are wrong your side loses the game"),
        ("pinochle-3", "concede", {}, "The deal ends now and is scored as lost. Your score changes by -"),
        (
            "double-deck",
            "throw-in",
            {"match": 250},
            "It is not played and your side loses its bid. Your score",
        ),
    ],
)
def test_the_question_states_the_consequence_and_changes_nothing(
    variant: str, action: str, options: dict[str, Any], words: str
) -> None:
    table, seat = table_where(variant, action, options)
    assert table.game is not None
    before = table.game.to_json()
    question = consequence(table, seat, action)
    assert words in question, question
    assert table.game.to_json() == before  # tried on a copy
    if action == "declare-out":
        trial = table.game.copy()
        total = next(e for e in trial.apply(seat, action) if e["type"] == "declare_out")["total"]
        assert question.startswith(f"Declare out with {total:,}? ")


def test_irreversible_buttons_ask_first_on_a_row_without_cards() -> None:
    table, seat = table_where("pinochle-2", "declare-out")
    assert table.game is not None
    rows = hand_view(table, seat, table.game.view(seat)).to_components()
    ask_rows = [row for row in rows if any(c["custom_id"].startswith("tn:ask:") for c in row["components"])]
    assert len(ask_rows) == 1
    assert [c["label"] for c in ask_rows[0]["components"]] == ["Declare out…"]
    assert all(c["custom_id"].startswith("tn:ask:") for c in ask_rows[0]["components"])
    acts = [c["custom_id"] for row in rows for c in row["components"] if c["custom_id"].startswith("tn:act:")]
    assert acts and not any(cid.endswith(":declare-out") for cid in acts)  # no one-click declare out


# ----- through Discord -----------------------------------------------------------------------------
async def two_hand(env: Any, channel: Any, alice: Any) -> tuple[Table, Any]:
    await alice.slash(channel, "table new", game="pinochle-2", options="match=1000")
    lobby = channel.last_message
    await alice.click(lobby, label="Add computer (easy)")
    await alice.click(lobby, label="Start")
    table = table_of(env.bot, channel.id)
    shown = await alice.click(message_by_id(channel, table.message_id), label="Show my hand")
    return table, shown


async def test_cancel_changes_nothing(world: Any) -> None:
    env, channel, alice, _ = world
    table, shown = await two_hand(env, channel, alice)
    before = table.game.to_json()
    asked = await alice.click(shown.response, label="Declare out…")
    assert asked.ephemeral and asked.response.id != shown.response.id  # a separate message
    cancelled = await alice.click(asked.response, label="Cancel")
    assert cancelled.response.content == "Cancelled: nothing was changed."
    assert cancelled.response.components == []
    assert table.game.to_json() == before and table.status == "playing"


async def test_a_stale_yes_changes_nothing(world: Any) -> None:
    env, channel, alice, _ = world
    table, shown = await two_hand(env, channel, alice)
    asked = await alice.click(shown.response, label="Declare out…")
    # The game moves on (alice plays a card) before she answers the question.
    played = await alice.click(shown.response, custom_id=enabled_action_ids(shown.response)[0])
    assert answer_content(env, played).startswith("You: ")
    await env.bot.publisher.wait_idle()
    before = table.game.to_json()
    late = await alice.click(asked.response, label="Yes, declare out")
    late_answer = answer_content(env, late)
    assert "out of date" in late_answer and "nothing was changed" in late_answer
    assert table.game.to_json() == before and table.status == "playing"


async def test_leaving_a_running_game_asks_first(world: Any) -> None:
    env, channel, alice, bob = world
    await alice.slash(channel, "table new", game="pitch", players=3)
    lobby = channel.last_message
    await bob.click(lobby, label="Join")
    await alice.click(lobby, label="Start")
    table = table_of(env.bot, channel.id)
    asked = await bob.slash(channel, "table leave")
    assert asked.ephemeral and "A computer plays your seat" in asked.response.content
    assert "cannot take it back" in asked.response.content
    assert table.seats[1] is not None and table.seats[1].is_human  # nothing yet
    done = await bob.click(asked.response, label="Yes, leave the game")
    assert "You left the table" in done.response.content
    assert table.seats[1] is not None and not table.seats[1].is_human


async def test_leaving_a_lobby_is_immediate_and_ending_asks(world: Any) -> None:
    env, channel, alice, bob = world
    await alice.slash(channel, "table new", game="pitch", players=3)
    lobby = channel.last_message
    await bob.click(lobby, label="Join")
    left = await bob.slash(channel, "table leave")
    assert left.response.content == "You left the table."
    refused = await bob.slash(channel, "table end")
    assert refused.ephemeral and "Only the host" in refused.response.content  # refused before asking
    asked = await alice.slash(channel, "table end")
    assert "The lobby closes" in asked.response.content
    assert env.bot.tables.table_in(channel.id) is not None
    done = await alice.click(asked.response, label="Yes, end the table")
    assert "is ended" in done.response.content
    assert env.bot.tables.table_in(channel.id) is None
