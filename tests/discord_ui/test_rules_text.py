"""Issue 13, rules text for players: every variant's rules, every rules file and every ``/rules``
page (the rules and the house-rule options) read as plain text for players: no ``[gap]`` markers,
no "§" references to documents players do not have, no event names or other code words, no
action syntax to type; and the computers' bidding is explained wherever there is bidding."""

from __future__ import annotations

import re
from importlib.resources import files

import pytest

from bot.discord_ui.rules import page_texts
from bot.engine import EventType, Kind, find_variant, variant_names

RULES_DIR = files("bot.engine") / "rules"
RULES_FILES = sorted(entry.name for entry in RULES_DIR.iterdir() if entry.name.endswith(".md"))
SNAKE_CASE = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b")  # deal_scored, throw_in, min_bid, …
ACTIONS = "|".join(re.escape(kind.value) for kind in Kind)
ACTION_SYNTAX = re.compile(rf"'(?:{ACTIONS})\b[^']*'")  # 'give 9C', ('concede'): typed commands
# Event types that are code words (the one-word ones, "bid", "trick", are plain English).
EVENT_NAMES = [event.value for event in EventType if "_" in event.value]


def problems(text: str) -> list[str]:
    """Everything in ``text`` a player should not meet in rules."""
    found = [marker for marker in ("[gap", "gap]", "§", "{{", "}}") if marker in text]
    found += [f"event name {name!r}" for name in EVENT_NAMES if name in text]
    found += [f"code word {word!r}" for word in SNAKE_CASE.findall(text)]
    found += [f"action syntax {match!r}" for match in ACTION_SYNTAX.findall(text)]
    return found


def test_the_scan_finds_what_it_looks_for() -> None:
    assert problems("The dealer's left leads [gap].")
    assert problems("the standard rules (§5 and §7)")
    assert problems("its deal report (deal_scored: melds)")
    assert problems("the bidder may throw in ('throw-in')")
    assert problems("one card per action, 'give 9C', N times")
    assert not problems("House rule giveup=meld+25: the opponents score 25 plus their meld.")


@pytest.mark.parametrize("name", variant_names())
def test_a_variants_rules_text_is_plain(name: str) -> None:
    assert problems(find_variant(name).rules_text) == []


@pytest.mark.parametrize("file_name", RULES_FILES)
def test_every_rules_file_is_plain(file_name: str) -> None:
    text = (RULES_DIR / file_name).read_text(encoding="utf-8")
    assert problems(re.sub(r"\{\{_[a-z0-9-]+\}\}", "", text)) == []


@pytest.mark.parametrize("name", variant_names())
def test_every_rules_page_is_plain(name: str) -> None:
    for section, text in page_texts(name):
        assert problems(text) == [], section


@pytest.mark.parametrize("name", variant_names())
def test_where_there_is_bidding_the_computers_bidding_is_explained(name: str) -> None:
    text = find_variant(name).rules_text
    has_bidding = name != "pinochle-2" and name != "pinochle-4"
    assert ("How the computers bid" in text) == has_bidding


def test_a_human_partner_can_read_a_computers_double_deck_bid() -> None:
    text = find_variant("double-deck").rules_text
    for meaning in ("Opening 51", "52 = 20 meld", "raising the last bid by 1", "wants to name trump"):
        assert meaning in text


def test_the_rules_say_what_the_spec_settles() -> None:
    double_deck = find_variant("double-deck").rules_text
    assert "the dealer must bid exactly the minimum" in double_deck
    assert "It is a choice, never forced" in double_deck  # the throw-in when more than 50 short
    assert "A-10-K-K-Q-J) is no marriage: 15" in double_deck  # Toby Thomas royal marriages
    assert "triple aces 150" in double_deck  # the Toby Thomas table's missing values
    eight = find_variant("pinochle-8").rules_text
    assert "Four flushes:" in eight and "3040" in eight
    assert "scored as taken" in find_variant("pinochle-4").rules_text  # counting modes
    assert "not rounded in this game" in find_variant("pinochle-3").rules_text
