"""A whole double-deck game with a card pass through the Discord layer (two people, two computers)."""

from __future__ import annotations

from typing import Any

from tests.discord_ui.helpers import table_of
from tests.discord_ui.test_pinochle_table import audit, play_out


async def test_full_double_deck_game_with_a_card_pass(world: Any) -> None:
    env, channel, alice, bob = world
    result = await alice.slash(channel, "table new", game="double-deck-pass", options="match=deal")
    assert result.acknowledged and not result.ephemeral, result.response.content
    lobby = channel.last_message
    await bob.click(lobby, label="Join")
    await alice.click(lobby, label="Add computer (easy)")
    await alice.click(lobby, label="Add computer (easy)")
    await alice.click(lobby, label="Start")
    table = table_of(env.bot, channel.id)
    await play_out(env, channel, {alice.id: alice, bob.id: bob})
    audit(env, channel)
    assert table.game is not None and table.game.is_over
    log = [str(action) for _, action in table.game.log]
    gave_up = any(action == "throw-in" for action in log)
    assert gave_up or sum(action.startswith("give ") for action in log) == 6  # 3 cards each way
    final = [m for m in channel.history() if "Final scores" in (m.content or "")]
    assert len(final) == 1
