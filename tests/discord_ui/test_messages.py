"""Which events get a public message of their own, and how the end of a game reads."""

from __future__ import annotations

import random
from typing import Any

from bot.discord_ui import ANNOUNCED, announcement
from bot.engine import new_game
from bot.tables import Seat, Table


def finished_table(variant: str = "pitch", seed: int = 4) -> tuple[Table, list[tuple[dict[str, Any], Any]]]:
    """A two-seat table played to the end with random legal actions; each event with the
    announcement made right after the action that caused it (as the table manager does)."""
    game = new_game(variant, players=2, seed=seed)
    seats: list[Seat | None] = [Seat("human", "Ann", 1), Seat("computer", "Computer 2 (basic)")]
    table = Table(3, 1, 5, 1, variant, dict(game.options), 2, seats, status="playing", seed=seed, game=game)
    chooser = random.Random(seed)
    said = []
    while not game.is_over:
        seat = game.to_act[0]
        events = game.apply(seat, chooser.choice(game.legal_actions(seat)))
        said.extend((event, announcement(table, event)) for event in events)
    return table, said


def test_exactly_the_announced_event_types_get_a_message() -> None:
    _, said = finished_table()
    types = {event["type"] for event, _ in said}
    assert {"deal_scored", "game_over"} <= types
    assert types - ANNOUNCED, "the game had events that are not announced"
    for event, text in said:
        assert (text is not None) == (event["type"] in ANNOUNCED), event["type"]


def test_the_end_of_the_game_reads_with_the_final_scores() -> None:
    table, said = finished_table()
    (last,) = [text for event, text in said if event["type"] == "game_over"]
    assert last.startswith(f"🏁 **{table.title}**: ")
    assert "\nFinal scores: " in last
    assert "Ann" in last


def test_a_table_without_a_game_announces_nothing() -> None:
    table, said = finished_table()
    table.game = None
    assert all(announcement(table, event) is None for event, _ in said)
