"""Issue 13, rules text for players: every variant's rules, every rules file and every ``/rules``
page (the rules and the house-rule options) read as plain text for players: no ``[gap]`` markers,
no "§" references to documents players do not have, no event names or other code words, no
action syntax to type; and the computers' bidding is explained wherever there is bidding."""

from __future__ import annotations

import re
from importlib.resources import files

import pytest

from bot.discord_ui.rules import page_texts
from bot.engine import EventType, Kind, find_variant, new_game, variant_names

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


# ----- what the rules say the computers do is what they do (issue 46, item 6) ---------------------


def easy_bids(
    variant: str, seeds: range, options: dict[str, object] | None = None
) -> list[tuple[int, int, int]]:
    """Every bid (not pass) the easy computers make in the first deal of games among themselves:
    (the bid, the lowest bid allowed then, whether it was the seat's first bid as 0/1)."""
    from bot.ai import decide, make_player

    out = []
    for seed in seeds:
        game = new_game(variant, options=options, seed=seed)
        bots = [
            make_player(find_variant(variant).family, "basic", seed * 10 + s) for s in range(game.players)
        ]
        made: set[int] = set()
        while not game.is_over and game.deal_no == 1:
            seat = game.to_act[0]
            view = game.view(seat)
            action = decide(bots[seat], game, seat)
            bids = sorted(int(a.split()[1]) for a in view["legal"] if a.startswith("bid "))
            if action.kind is Kind.BID and action.amount is not None and "pass" in view["legal"]:
                out.append((action.amount, bids[0], int(seat not in made)))
                made.add(seat)
            game.apply(seat, action)
    return out


def test_the_three_hand_text_says_what_the_easy_computers_bid() -> None:
    """The text said a computer bids "the lowest bid allowed, one step at a time"; the easy player
    jumps to the chip band that pays best on purpose (e.g. 320 to 350)."""
    text = find_variant("pinochle-3").rules_text
    assert "one step at a time" not in text and "(320 to 350)" in text
    jumps = [(bid, lowest) for bid, lowest, _ in easy_bids("pinochle-3", range(40)) if bid > lowest]
    assert jumps, "no easy computer jumped in 40 deals"
    assert all(bid % 50 == 0 for bid, _ in jumps), jumps  # to the lowest bid of a chip band


def test_the_partnership_auction_text_says_what_the_easy_computers_bid() -> None:
    text = find_variant("pinochle-4-auction").rules_text
    assert "one step at a time" in text and "It never jumps" in text
    assert "raise the partner by up to 20" not in text  # the old rule, no longer what they do
    bids = easy_bids("pinochle-4-auction", range(30))
    assert bids and all(bid == lowest for bid, lowest, _ in bids)


def test_the_double_deck_text_says_the_easy_computers_compete_by_jumps() -> None:
    """The text said that above the signals a computer "bids the next bid"; it goes half way to its
    limit at once."""
    text = find_variant("double-deck").rules_text
    assert "it bids the next bid while" not in text and "half way" in text
    later = [(bid, lowest) for bid, lowest, first in easy_bids("double-deck", range(40)) if not first]
    assert any(bid > lowest for bid, lowest in later), later


@pytest.mark.parametrize("name", variant_names())
def test_the_rules_say_which_computers_bid_as_described(name: str) -> None:
    """The bidding described is the easy computers'; the hard ones, which search, are described
    apart (the text used to say "a computer" for both)."""
    text = find_variant(name).rules_text
    if "How the computers bid" in text:
        assert "easy computer" in text and "A hard computer" in text
