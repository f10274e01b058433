"""``python -m bot meld <variant> --trump <suit> <cards…> [--json]``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main

ROOT = Path(__file__).resolve().parents[1]

# Hand-computed pinochle-4 totals (hearts trump unless stated): §3 with the four-hand doubles.
HANDS = [
    ("H", "AH 10H KH QH JH", 150),
    ("H", "AH 10H KH KH QH QH JH", 190),  # flush + extra royal marriage
    ("H", "QS JD QS JD", 300),  # double pinochle
    ("H", "AS AH AD AC AS AH AD AC", 1000),  # 8 aces
    ("H", "AH 10H KH QH JH 9H 9H", 170),  # each dix counted
    ("H", "9H 9H", 20),
    ("H", "KS KH KD KC QS QH QD QC", 240),
    ("H", "KS QS JD", 60),
    ("H", "AH 10H KH QH JH AH 10H KH QH JH", 1500),  # double flush
    ("H", "JS JH JD JC JS JH JD JC QS QS", 700),  # 8 jacks + double pinochle
    ("H", "QS QH QD QC QS QH QD QC KS KH", 660),  # 8 queens + royal + marriage
    ("H", "AH 10H KH QH JH KS KH KD KC", 230),
    ("H", "KS QS KS QS", 40),
    ("H", "KH QH KH QH", 80),
    ("H", "AS AH AD AC AS", 100),
    ("H", "JS JH JD JC QS", 80),
    ("H", "AS 10S 9C", 0),
    ("S", "AS 10S KS QS JS 9S AH AD AC", 260),
    ("D", "KS KH KD KC KS KH KD KC QS QH QD QC QS QH QD QC", 1600),  # 8 kings + 8 queens + marriages
    ("S", "AS AH AD AC KS KH KD KC QS QH QD QC JS JH JD JC", 420),
    ("H", "AH AH 10H 10H KH KH QH QH JH", 190),
    ("C", "AC 10C KC QC JC AC 10C KC QC JC 9C QS JD", 1550),  # double flush + dix + pinochle
]


@pytest.mark.parametrize(("trump", "cards", "total"), HANDS)
def test_meld_json_agrees_with_hand_computed_totals(
    trump: str, cards: str, total: int, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["meld", "pinochle-4", "--trump", trump, *cards.split(), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"total", "melds"}
    assert out["total"] == total
    assert sum(meld["points"] for meld in out["melds"]) == total
    for meld in out["melds"]:
        assert meld["cards"] and meld["name"]


def test_text_output_lists_each_meld_with_its_cards_and_the_total(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["meld", "pinochle-4", "--trump", "H", "AH", "10H", "KH", "KH", "QH", "QH", "JH", "9H"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[0] == "flush" and "A♥ 10♥ K♥ Q♥ J♥" in lines[0] and "150" in lines[0]
    assert "royal marriage" in lines[1] and "K♥ Q♥" in lines[1]
    assert lines[2].startswith("dix") and "9♥" in lines[2]
    assert lines[-1].split() == ["total", "200"]


def test_other_variants_use_their_own_table(capsys: pytest.CaptureFixture[str]) -> None:
    aces = ["AS", "AH", "AD", "AC", "AS", "AH", "AD", "AC"]
    assert main(["meld", "pinochle-2", "--trump", "S", *aces, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 200  # two 100 aces, no 8-aces meld
    assert main(["meld", "pinochle-6", "--trump", "S", *aces, *["AS", "AH", "AD", "AC"], "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 2000  # 12 aces
    assert main(["meld", "pinochle-2", "--option", "deck64=on", "--trump", "S", "7S", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 10


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["pinochle-4", "--trump", "H", "AH", "ZZ"], "'ZZ' is not a card"),
        (["pinochle-4", "--trump", "H", "7H"], "7H is not in the pinochle-4 pack"),
        (["pinochle-4", "--trump", "H", "AH", "AH", "AH"], "the pinochle-4 pack has 2 of each card"),
        (["pinochle-4", "--trump", "X", "AH"], "'X' is not a suit"),
        (["pitch", "--trump", "H", "AH"], "pitch has no meld"),
    ],
)
def test_bad_input_exits_nonzero_with_a_clear_message(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["meld", *args]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_meld_command_as_a_process() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TRICKNIGHT_"))}
    env["PYTHONPATH"] = str(ROOT)
    ok = subprocess.run(
        [sys.executable, "-m", "bot", "meld", "pinochle-4", "--trump", "H", "QS", "JD", "--json"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout) == {
        "total": 40,
        "melds": [
            {
                "name": "pinochle",
                "kind": "pinochle",
                "class": "C",
                "suit": None,
                "cards": ["QS", "JD"],
                "points": 40,
            }
        ],
    }
    bad = subprocess.run(
        [sys.executable, "-m", "bot", "meld", "pinochle-4", "--trump", "H", "QX"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert bad.returncode != 0
    assert "not a card" in bad.stderr
