"""Issue 13, input checks: every value given to the game factory is checked once, in the engine,
and a bad one gets one message naming the field, the value and what is allowed (and changes
nothing). The terminal (tests/test_cli_input.py) and Discord (tests/discord_ui/test_input_checks.py)
show these very messages."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from bot.engine import EngineError, new_game, parse_option_pairs

PITCH_COUNTS = "players must be a whole number from 2 to 7 for pitch"
TARGETS = "valid values are 7/9/10/11/21"

# (variant, new_game keywords, the one message)
BAD_VALUES: list[tuple[str, dict[str, Any], str]] = [
    ("pitch", {"players": 4.0}, f"{PITCH_COUNTS}; got 4.0"),
    ("pitch", {"players": "4.0"}, f"{PITCH_COUNTS}; got '4.0'"),
    ("pitch", {"players": "four"}, f"{PITCH_COUNTS}; got 'four'"),
    ("pitch", {"players": True}, f"{PITCH_COUNTS}; got True"),
    ("pitch", {"players": 9}, f"{PITCH_COUNTS}; got 9"),
    ("pitch", {"players": "9"}, f"{PITCH_COUNTS}; got 9"),
    ("pinochle-4", {"players": 3}, "players must be 4 for pinochle-4; got 3"),
    ("pitch", {"seed": "abc"}, "seed must be a whole number; got 'abc'"),
    ("pitch", {"seed": 1.7}, "seed must be a whole number; got 1.7"),
    ("pitch", {"seed": "1.7"}, "seed must be a whole number; got '1.7'"),
    ("pitch", {"dealer": 4}, "dealer must be a seat number from 0 to 3 at this 4-player table; got 4"),
    ("pitch", {"options": {"target": 99}}, f"option 'target' cannot be 99: {TARGETS}"),
    ("pitch", {"options": {"Target": "99"}}, f"option 'target' cannot be '99': {TARGETS}"),
    ("pitch", {"options": {"target": 7.0}}, f"option 'target' cannot be 7.0: {TARGETS}"),
    ("pitch", {"options": {"target": True}}, f"option 'target' cannot be True: {TARGETS}"),
    ("pitch", {"options": {"smudge": "maybe"}}, "option 'smudge' is on or off, not 'maybe'"),
    (
        "pitch",
        {"options": {"Target": "7", "target": "9"}},
        "option 'target' is given twice ('Target' and 'target'): give it once",
    ),
    (
        "pitch",
        {"options": {"kitty": "on"}},
        "pitch has no option 'kitty'; its options are: target (7/9/10/11/21), old-high-low (on/off), "
        "dealer-steal (on/off), smudge (on/off), off-jack (on/off), jokers (0/1/2), "
        "joker-rank (auto/low/mid), joker-lead (spades/name/forbidden), slam (on/off), "
        "all-four-wins (on/off)",
    ),
    ("pitch", {"options": "target=7"}, "options must be name=value pairs, e.g. target=21; got 'target=7'"),
    ("pitch", {"options": {7: "on"}}, "an option name must be text, e.g. target; got 7"),
    (
        "double-deck",
        {"options": {"ask": "must-give"}},
        "option ask=must-give needs a card pass: add pass=1, 2, 3 or 4",
    ),
]


@pytest.mark.parametrize(("variant", "given", "message"), BAD_VALUES)
def test_a_bad_value_gets_one_message_naming_field_value_and_what_is_allowed(
    variant: str, given: dict[str, Any], message: str
) -> None:
    before = copy.deepcopy(given)
    with pytest.raises(EngineError) as caught:
        new_game(variant, **given)
    assert str(caught.value) == message
    assert given == before  # the caller's values are left as they were


def test_text_that_spells_a_whole_number_is_read_as_one() -> None:
    # players="4" used to be refused with "pitch is played by 2, 3, 4, 5, 6, 7 players, not 4".
    game = new_game("pitch", players="4", seed=" 17 ")
    assert (game.players, game.seed) == (4, 17)
    assert game.to_json()["players"] == 4 and game.to_json()["seed"] == 17


def test_option_names_are_case_insensitive_like_values() -> None:
    game = new_game("pitch", options={"Target": "7", " SMUDGE ": "On"}, seed=1)
    assert game.options["target"] == 7 and game.options["smudge"] is True
    assert new_game("double-deck", options={"Pass": "3", "MATCH": "Deal"}, seed=1).options["match"] == "deal"


def test_an_option_typed_twice_on_a_command_line_is_refused() -> None:
    with pytest.raises(EngineError, match=r"option 'target' is given twice \('target=7' and 'TARGET=9'\)"):
        parse_option_pairs(["target=7", "TARGET=9"])
