"""The command line: running without a token, the terminal table and simulate."""

from __future__ import annotations

import argparse
import io
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import build_parser, main, play_command, this_command
from tests.hosting.harness import fake_token

ROOT = Path(__file__).resolve().parents[1]


def run_cli(
    *args: str, env: dict[str, str] | None = None, stdin: str = "", cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    full_env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TRICKNIGHT_"))}
    full_env["PYTHONPATH"] = str(ROOT)
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        capture_output=True,
        text=True,
        input=stdin,
        env=full_env,
        cwd=cwd or ROOT,
        timeout=120,
        check=False,
    )


def test_without_a_token_it_exits_nonzero_with_one_clear_line(tmp_path: Path) -> None:
    result = run_cli(cwd=tmp_path)
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "DISCORD_TOKEN" in lines[0] and ".env" in lines[0]
    # Issue 46 (9): the hint said `python -m bot play pitch`, which works only in an active
    # virtual environment; it names the command that ran, so it works as printed.
    hint = lines[0].split("To play without Discord: ")[1]
    assert hint == f"{sys.executable} -m bot play pitch"
    played = subprocess.run(
        [*shlex.split(hint), "--seed", "1"], input="quit\n", capture_output=True, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=tmp_path, timeout=120, check=False,
    )  # fmt: skip
    assert played.returncode == 0 and "Game abandoned." in played.stdout, played.stderr


@pytest.mark.parametrize(
    ("argv0", "on_path", "shown"),
    [
        ("/site/bot/__main__.py", False, ".venv/bin/python -m bot"),  # the Quick start's way
        ("/site/bot/__main__.py", True, "python -m bot"),  # an active virtual environment
        ("/site/.venv/bin/tricknight", False, ".venv/bin/tricknight"),
        ("/site/.venv/bin/tricknight", True, "tricknight"),
    ],
)
def test_this_command_is_what_to_type_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, argv0: str, on_path: bool, shown: str
) -> None:
    site = tmp_path / "site"
    folder = site / ".venv" / "bin"
    folder.mkdir(parents=True)
    for name in ("python", "tricknight"):
        (folder / name).write_text("#!/bin/sh\n")
        (folder / name).chmod(0o755)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    # The shell finds the virtual environment's programs only when it is active (on PATH).
    monkeypatch.setenv("PATH", str(folder if on_path else elsewhere))
    argv0 = argv0.replace("/site", str(site))
    assert this_command(argv0, str(folder / "python"), site) == shown
    # From another folder the path is whole, so it still works.
    if not on_path:
        assert this_command(argv0, str(folder / "python"), elsewhere).startswith(str(site))


def test_bad_settings_are_named(tmp_path: Path) -> None:
    result = run_cli(
        cwd=tmp_path, env={"DISCORD_TOKEN": "secret-token-value", "TRICKNIGHT_SHARD_COUNT": "lots"}
    )
    assert result.returncode == 2
    assert "TRICKNIGHT_SHARD_COUNT" in result.stderr
    assert "secret-token-value" not in result.stderr + result.stdout


def test_unknown_variant_and_option_exit_nonzero() -> None:
    assert main(["play", "bridge"]) == 2
    assert main(["play", "pitch", "--option", "target=12"]) == 2
    assert main(["simulate", "pitch", "--games", "0"]) == 2
    assert main(["simulate", "pitch", "--seats", "basic,genius,basic,basic"]) == 2


def test_play_a_whole_game_in_the_terminal_choosing_the_first_option() -> None:
    args = build_parser().parse_args(["play", "pitch", "--players", "3", "--seed", "5"])
    out = io.StringIO()
    assert play_command(args, io.StringIO("1\n" * 2000), out) == 0
    text = out.getvalue()
    assert "Game over:" in text
    assert "Your hand:" in text and "  1. " in text


def test_play_refuses_bad_input_and_goes_on() -> None:
    args = build_parser().parse_args(["play", "pitch", "--players", "2", "--seed", "5"])
    out = io.StringIO()
    assert play_command(args, io.StringIO("99\nplay ZZ\nfly\nquit\n"), out) == 0
    text = out.getvalue()
    assert "Choose a number from 1 to" in text
    assert "not a card" in text
    assert "unknown action 'fly'" in text
    assert "Game abandoned." in text
    # Nothing changed between the refusals: the table is shown once, then only the hand and the
    # choices under each message (issue 46's fresh look: the message was lost above a whole table).
    assert text.count("Seats:") == 1 and text.count("Your hand:") == 4


def test_simulate_prints_wins_points_and_speed() -> None:
    result = run_cli(
        "simulate", "pitch", "--games", "20", "--seed", "3", "--players", "2", "--seats", "easy,random"
    )
    assert result.returncode == 0, result.stderr
    assert "easy (1 seat): won" in result.stdout
    assert "games/s" in result.stdout


@pytest.mark.parametrize("variant", ["pitch", "pitch-partnership", "pitch-10", "pitch-joker", "pitch-smudge"])
def test_simulate_runs_each_pitch_variant(variant: str) -> None:
    assert main(["simulate", variant, "--games", "3"]) == 0


@pytest.mark.parametrize(
    ("variant", "players"), [("pitch-10", 4), ("pitch-10", 6), ("pitch-joker", 3), ("pitch-smudge", 4)]
)
def test_play_the_new_pitch_variants_to_the_end_choosing_the_first_option(variant: str, players: int) -> None:
    argv = ["play", variant, "--players", str(players), "--seed", "4"]
    out = io.StringIO()
    assert play_command(build_parser().parse_args(argv), io.StringIO("1\n" * 5000), out) == 0
    text = out.getvalue()
    assert "Game over:" in text, text[-2000:]
    assert "Deal 1 —" in text and "Scores:" in text
    assert "[gap]" not in text


def test_pitch_10_in_the_terminal_widow_trump_keep_and_discard() -> None:
    argv = ["play", "pitch-10", "--seed", "1", "--option", "target=31"]
    out = io.StringIO()
    assert play_command(build_parser().parse_args(argv), io.StringIO("bid 9\n" + "1\n" * 5000), out) == 0
    text = out.getvalue()
    assert "Game over:" in text
    assert "You take the widow (18 cards, face down)." in text
    assert "Your turn: choose 2 more cards to keep (your point cards are kept" in text
    assert "  1. Keep Q♠" in text
    assert "names trump:" in text
    assert "Your turn: discard 3 cards (point cards may not be discarded)." in text
    assert "Off-Jack" in text and "High Joker" in text and "Three (3" in text


PINOCHLE_SHORT = {
    "pinochle-2": ["match=deal"],
    "pinochle-3": ["deals=1"],
    "pinochle-4": ["match=deal"],
    "pinochle-4-auction": ["match=deal", "pass=4"],
    "pinochle-6": ["match=deal"],
    "pinochle-8": ["match=deal", "rules=auction"],
    "double-deck": ["match=deal"],
    "double-deck-npa": ["match=deal"],
    "double-deck-pass": ["match=deal"],
    "double-deck-jim-davis": ["match=deal"],
    "double-deck-toby-thomas": ["match=deal"],
}


def test_every_pinochle_variant_has_a_short_game_here() -> None:
    from bot.engine.pinochle import pinochle_variants

    assert set(pinochle_variants()) <= set(PINOCHLE_SHORT)


@pytest.mark.parametrize("variant", sorted(PINOCHLE_SHORT))
def test_play_every_pinochle_variant_to_the_end_choosing_the_first_option(variant: str) -> None:
    from bot.engine import variant_names

    if variant not in variant_names():
        pytest.skip(f"{variant} is not registered")
    argv = ["play", variant, "--seed", "3"]
    for option in PINOCHLE_SHORT[variant]:
        argv += ["--option", option]
    out = io.StringIO()
    assert play_command(build_parser().parse_args(argv), io.StringIO("1\n" * 5000), out) == 0
    text = out.getvalue()
    assert "Game over:" in text, text[-2000:]
    assert "Deal 1 —" in text and "Scores:" in text
    assert "Your hand: " in text and "  1. " in text


@pytest.mark.parametrize("content", [b"this is not a database\n" * 50, bytes(range(256)) * 40])
def test_a_corrupt_or_foreign_database_stops_start_up_clearly(tmp_path: Path, content: bytes) -> None:
    db = tmp_path / "broken.db"
    db.write_bytes(content)
    token = fake_token()
    result = run_cli(cwd=tmp_path, env={"DISCORD_TOKEN": token, "TRICKNIGHT_DATABASE": str(db)})
    assert result.returncode == 2
    assert "not a Trick Night database" in result.stderr or "damaged" in result.stderr, result.stderr
    assert str(db) in result.stderr
    assert token not in result.stderr + result.stdout
    assert db.read_bytes() == content


def test_the_terminal_lists_the_next_bids_and_takes_any_typed_bid() -> None:
    args = build_parser().parse_args(["play", "pinochle-4-auction", "--seed", "2"])
    out = io.StringIO()
    assert play_command(args, io.StringIO("bid 990\nquit\n"), out) == 0
    text = out.getvalue()
    first_menu = text[text.index("Your hand:") :].split("\n")
    menu_lines = []
    for line in first_menu[1:]:
        if not line.startswith("  "):
            break
        menu_lines.append(line)
    assert menu_lines[:6] == [
        "  1. Pass",
        "  2. Bid 100",
        "  3. Bid 110",
        "  4. Bid 120",
        "  5. Bid 130",
        "  6. Bid 140",
    ]
    assert menu_lines[6] == "  … or type 'bid N' for any other bid up to 1000."
    assert len(menu_lines) == 7  # not 92 lines
    assert "You bid 990." in text and "You win the bid at 990." in text


def test_the_terminal_shows_you_the_cards_passed_to_you_and_counts_the_cards_you_choose() -> None:
    """Double-deck's pass is face down (spec §8): the receiver — and only it — sees which cards
    arrived; the public line says how many; the passer sees how many it has chosen so far."""
    for seed in range(1, 30):
        argv = ["play", "double-deck-pass", "--seed", str(seed), "--option", "match=deal"]
        out = io.StringIO()
        assert play_command(build_parser().parse_args(argv), io.StringIO("1\n" * 5000), out) == 0
        lines = out.getvalue().splitlines()
        to_you = [i for i, line in enumerate(lines) if line.endswith("passed 3 cards to You.")]
        if not to_you:
            continue
        received = lines[to_you[0] + 1]
        assert received.startswith("You received ") and received.endswith("(only you see these).")
        assert " from Computer 3 " in received and len(received.split(" from ")[0].split()) == 2 + 3
        assert any(line.startswith("Cards you chose to pass (1 of 3): ") for line in lines)
        to_others = [i for i, line in enumerate(lines) if "passed 3 cards to Computer" in line]
        assert to_others and not any(lines[i + 1].startswith("You received") for i in to_others)
        return
    pytest.fail("no seed put you in the pass")


def declare_out_number(argv: list[str]) -> tuple[str, list[str]]:
    """The number the first menu gives 'Declare out' (and that menu's lines): read from a game
    that is quit at once, so the number follows the real menu, not a guess."""
    out = io.StringIO()
    assert play_command(build_parser().parse_args(argv), io.StringIO("quit\n"), out) == 0
    lines = out.getvalue().splitlines()
    first = lines.index(next(line for line in lines if line.startswith("Your hand: ")))
    menu = []
    for line in lines[first + 1 :]:
        if not line.startswith("  "):
            break
        menu.append(line)
    [number] = [line.split(".")[0].strip() for line in menu if line.endswith("Declare out…")]
    return number, menu


def test_declaring_out_in_the_terminal_is_listed_apart_and_asks_first() -> None:
    """Issue 46 (2): in pinochle-4 choosing 'Declare out' at the first trick ended the game at once;
    now it is listed after the cards under its own heading, and asks, as Discord does."""
    argv = ["play", "pinochle-4", "--seed", "3"]
    number, menu = declare_out_number(argv)
    assert menu.index("  Cannot be undone (you are asked first):") == len(menu) - 2
    assert menu[-1] == f"  {number}. Declare out…"

    # Declining keeps the game going: nothing changed, the same menu comes back.
    out = io.StringIO()
    assert play_command(build_parser().parse_args(argv), io.StringIO(f"{number}\nno\nquit\n"), out) == 0
    text = out.getvalue()
    assert (
        "Declare out with " in text
        and "If you are wrong your side loses the game (the target is 1,000)" in text
    )
    assert "Type 'yes' to declare out, anything else to go back." in text
    assert "You did not declare out: nothing was changed." in text
    assert "You declare out" not in text and "Game over" not in text
    assert text.count("Cannot be undone (you are asked first):") == 2  # the turn is asked again

    # 'yes' declares out (with far too little, so this side loses at once).
    out = io.StringIO()
    assert play_command(build_parser().parse_args(argv), io.StringIO(f"{number}\nyes\n"), out) == 0
    text = out.getvalue()
    assert "You declare out with" in text and "Game over" in text


def test_typing_declare_out_asks_too_and_the_end_of_input_abandons_the_game() -> None:
    argv = ["play", "pinochle-2", "--seed", "3"]
    out = io.StringIO()
    assert play_command(build_parser().parse_args(argv), io.StringIO("declare-out\n"), out) == 0
    text = out.getvalue()
    assert text.rstrip().endswith("anything else to go back.\nGame abandoned.")
    assert "You declare out" not in text


def test_ctrl_c_abandons_the_game_without_a_traceback(tmp_path: Path) -> None:
    """Issue 46 (3): SIGINT at the prompt printed a KeyboardInterrupt traceback; now the same
    "Game abandoned." as Ctrl-D, with exit status 130 (128 + SIGINT, what shells expect of a
    program stopped by Ctrl-C)."""
    import signal

    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TRICKNIGHT_"))}
    env["PYTHONPATH"] = str(ROOT)
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "play", "pitch", "--seed", "2"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        cwd=tmp_path,
    )  # fmt: skip
    assert process.stdout is not None
    seen = []
    for line in process.stdout:  # wait until it waits for the player
        seen.append(line)
        if line.startswith("  1. "):
            break
    process.send_signal(signal.SIGINT)
    rest, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert rest.strip().splitlines()[-1] == "Game abandoned."
    assert "Traceback" not in err and "KeyboardInterrupt" not in err


@pytest.mark.parametrize(
    ("typed", "shown"), [("easy", "easy"), ("hard", "hard"), ("Easy", "easy"), ("basic", "easy")]
)
def test_play_takes_the_level_names_people_see_and_the_old_name(
    typed: str, shown: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 46 (4): `play --level easy` said "no computer level 'easy'"; basic stays an alias."""
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "pitch", "--players", "3", "--seed", "4", "--level", typed]) == 0
    out = capsys.readouterr().out
    assert f"against 2 {shown} computer players" in out
    assert f"2. Computer 2 ({shown})" in out and f"3. Computer 3 ({shown})" in out  # as in Discord


def test_an_unknown_level_lists_the_names_people_see(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "pitch", "--level", "genius"]) == 2
    assert (
        capsys.readouterr().err
        == "tricknight: no computer level 'genius'; choose one of: easy, hard, random\n"
    )
    assert main(["simulate", "pitch", "--seats", "easy,genius"]) == 2
    assert "choose one of: easy, hard, random" in capsys.readouterr().err


SUBCOMMANDS = ["run", "check", "backup", "restore", "health", "play", "simulate", "meld"]


def test_no_help_text_names_a_stale_level(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 46 (4): `play --help` said "(basic or random)" though hard works. Every help text
    uses the names Discord shows, and says what random is where it is offered."""
    texts = {}
    for command in ["", *SUBCOMMANDS]:
        with pytest.raises(SystemExit):
            main([command, "--help"] if command else ["--help"])
        texts[command] = capsys.readouterr().out
    for command, text in texts.items():
        flat = " ".join(text.split())
        assert "basic" not in flat and "(random)" not in flat, (command, flat)
    for command in ("play", "simulate"):
        flat = " ".join(texts[command].split())
        assert "easy" in flat and "hard" in flat and "random legal moves" in flat, flat


def test_simulate_help_describes_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 46 (10): --games, --players and --option had no description (nor had meld's --option)."""
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    for name, command in commands.choices.items():
        for action in command._actions:
            assert action.help, (name, action.option_strings or action.dest)
    assert "how many games to play" in " ".join(capsys.readouterr().out.split())


def test_a_reader_that_stops_early_gets_no_traceback(tmp_path: Path) -> None:
    """`… | head` closed the pipe and play or simulate printed a BrokenPipeError traceback (found
    reading the terminal afresh for issue 46); now they stop quietly, exit 141 (128 + SIGPIPE)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TRICKNIGHT_"))}
    env["PYTHONPATH"] = str(ROOT)
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "simulate", "pitch", "--games", "400"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=tmp_path,
    )  # fmt: skip
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # the reader is gone before the report is printed
    err = process.stderr.read().decode()
    assert process.wait(timeout=120) == 141, err
    assert "Traceback" not in err and "BrokenPipeError" not in err
