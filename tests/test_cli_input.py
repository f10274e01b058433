"""Issue 13, input checks in the terminal: a bad --players, --seed or --option of ``play``,
``simulate`` and ``meld`` prints the engine's one message and exits non-zero before anything
starts (the checks themselves are tests/engine/test_input_checks.py)."""

from __future__ import annotations

import io

import pytest

from bot.cli import main

PITCH_COUNTS = "players must be a whole number from 2 to 7 for pitch"

# (command line, the one message)
BAD_COMMANDS: list[tuple[list[str], str]] = [
    (["play", "pitch", "--players", "4.0"], f"{PITCH_COUNTS}; got '4.0'"),
    (["play", "pitch", "--players", "9"], f"{PITCH_COUNTS}; got 9"),
    (["play", "pinochle-4", "--players", "3"], "players must be 4 for pinochle-4; got 3"),
    (["play", "pitch", "--seed", "abc"], "seed must be a whole number; got 'abc'"),
    (["play", "pitch", "--seed", "1.7"], "seed must be a whole number; got '1.7'"),
    (
        ["play", "pitch", "--option", "Target=99"],
        "option 'target' cannot be '99': valid values are 7/9/10/11/21",
    ),
    (
        ["play", "pitch", "--option", "Target=7", "--option", "target=9"],
        "option 'target' is given twice ('Target=7' and 'target=9'): give it once",
    ),
    (["play", "pitch", "--option", "smudge"], "'smudge' is not key=value, e.g. target=21 or smudge=on"),
    (["simulate", "pitch", "--players", "4.0"], f"{PITCH_COUNTS}; got '4.0'"),
    (["simulate", "pitch", "--seed", "1.7"], "seed must be a whole number; got '1.7'"),
    (["simulate", "pitch", "--seed", "abc"], "seed must be a whole number; got 'abc'"),
    (
        ["simulate", "pitch", "--option", "smudge=maybe"],
        "option 'smudge' is on or off, not 'maybe'",
    ),
    (
        ["meld", "pinochle-4", "--trump", "H", "--option", "Count=fives", "AH"],
        "option 'count' cannot be 'fives': valid values are standard/tens-fives/tens",
    ),
]


@pytest.mark.parametrize(("argv", "message"), BAD_COMMANDS)
def test_a_bad_value_prints_one_message_and_exits_nonzero(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 50))  # a game that started would read it
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert err == f"tricknight: {message}\n"
    assert out == ""  # no game began, nothing was played


def test_text_numbers_and_any_case_option_names_are_taken(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "pitch", "--players", "3", "--seed", "7", "--option", "Target=7"]) == 0
    assert "you are seat 1 against 2 easy computer players" in capsys.readouterr().out
    assert main(["meld", "pinochle-4", "--trump", "H", "--option", "COUNT=tens", "KH", "QH"]) == 0
    assert "royal marriage" in capsys.readouterr().out
