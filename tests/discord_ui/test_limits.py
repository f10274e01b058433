"""Discord's limits, in one place: the check itself, the splitting that never cuts a rule, and
everything the bot builds — every variant (presets included) at every player count, through every
phase met in seeded games, for every seat — inside every limit."""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import discord
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot import render
from bot.ai import decide, make_player
from bot.bid_menu import amounts
from bot.discord_ui import (
    announcement,
    hand_text,
    hand_view,
    limits,
    rules_page,
    table_content,
    table_embed,
    table_view,
)
from bot.discord_ui.bidding import BidForm
from bot.discord_ui.confirm import IRREVERSIBLE, consequence, question_view
from bot.discord_ui.rules import page_texts
from bot.engine import find_variant, new_game, variant_names
from bot.tables import Seat, Table

LONGEST_NAME = "W" * 31  # Discord display names are at most 32 characters


# ----- the check ----------------------------------------------------------------------------------
def embed_with(**parts: Any) -> discord.Embed:
    embed = discord.Embed(title=parts.get("title"), description=parts.get("description"))
    for name, value in parts.get("fields", []):
        embed.add_field(name=name, value=value)
    return embed


def buttons(count: int, *, custom_id: str = "x", label: str = "b") -> discord.ui.View:
    view = discord.ui.View()
    for n in range(count):
        view.add_item(discord.ui.Button(label=label, custom_id=f"{custom_id}{n}"))
    return view


@pytest.mark.parametrize(
    ("message", "broken"),
    [
        ({"content": "x" * 2001}, "content"),
        ({"embed": embed_with(title="t" * 257)}, "title"),
        ({"embed": embed_with(description="d" * 4097)}, "description"),
        ({"embed": embed_with(fields=[("n" * 257, "v")])}, "field name"),
        ({"embed": embed_with(fields=[("n", "v" * 1025)])}, "value"),
        ({"embed": embed_with(fields=[("n", "v")] * 26)}, "26 fields"),
        ({"embed": embed_with(description="d" * 4000, fields=[("n", "v" * 1000)] * 3)}, "in all"),
        ({"view": buttons(1, custom_id="c" * 100)}, "custom_id"),
        ({"view": buttons(1, label="l" * 81)}, "button label"),
    ],
    ids=["content", "title", "description", "field-name", "field-value", "fields", "total", "custom-id",
         "label"],
)  # fmt: skip
async def test_the_check_names_each_broken_limit(message: dict[str, Any], broken: str) -> None:
    found = limits.problems(**message)
    assert any(broken in problem for problem in found), found
    with pytest.raises(limits.LimitExceeded):
        limits.check(**message)


async def test_the_check_counts_rows_buttons_and_select_options() -> None:
    view = discord.ui.View()
    select = discord.ui.Select(custom_id="s", options=[discord.SelectOption(label="o" * 101, value="v")])
    view.add_item(select)
    assert any("option label" in p for p in limits.problems(view=view))
    rows = [
        {"type": 1, "components": [{"type": 2, "custom_id": f"b{n}", "label": "x"} for n in range(6)]}
    ] * 6
    found = limits.component_problems(rows)
    assert any("6 action rows" in p for p in found) and any("6 buttons" in p for p in found)
    too_many = [{"type": 1, "components": [{"type": 3, "custom_id": "s", "options": [
        {"label": str(n), "value": str(n)} for n in range(26)]}]}]  # fmt: skip
    assert any("26 options" in p for p in limits.component_problems(too_many))


async def test_the_check_covers_forms() -> None:
    view = {"legal": [], "bid_names": {}}
    form = BidForm(1, 2, view, [350, 360, 10**40])
    assert limits.modal_problems(form) == []  # clipped to 45
    form.title = "t" * 46
    assert any("modal title" in p for p in limits.modal_problems(form))


@given(st.text(alphabet=st.sampled_from("ab cd.\n;"), max_size=3000), st.integers(20, 300))
def test_split_text_keeps_every_word_whole_and_every_piece_within_the_limit(text: str, limit: int) -> None:
    pieces = limits.split_text(text, limit)
    assert all(len(piece) <= limit for piece in pieces)
    if all(len(word) <= limit for word in text.split()):
        assert [w for piece in pieces for w in piece.split()] == text.split()


def test_clip_cuts_between_words_with_an_ellipsis() -> None:
    assert limits.clip("short", 10) == "short"
    clipped = limits.clip("Computer 3 (basic) & Computer 4 (basic)", 24)
    assert len(clipped) <= 24 and clipped.endswith("…") and clipped == "Computer 3 (basic) &…"


# ----- everything the bot builds, in seeded games ---------------------------------------------------
def short_options(variant: str) -> dict[str, Any]:
    """Options for a short game of several deals (so declaring out, redeals and the game's end
    are met too)."""
    specs = {spec.name: spec for spec in find_variant(variant).option_specs}
    options: dict[str, Any] = {}
    for name in ("match", "target", "deals"):
        numbers = [c for c in specs[name].choices if isinstance(c, int)] if name in specs else []
        if numbers:
            options[name] = min(n for n in numbers if n > 1) if name == "deals" else min(numbers)
    return options


SEEDS = (1, 2)


def scenarios() -> list[tuple[str, int, dict[str, Any], int]]:
    out = []
    for seed in SEEDS:
        for variant in variant_names():  # the double-deck presets are variants of their own
            for players in find_variant(variant).player_counts:
                out.append((variant, players, short_options(variant), seed))
        out.append(("pitch", 4, {"smudge": True, "target": 21}, seed))
        out.append(("double-deck", 4, {"match": "deal", "100-aces": True}, seed))
        out.append(("double-deck-pass", 4, {"match": "deal", "pass": 4, "ask": "must-give",
                                            "pass-when": "before-trump"}, seed))  # fmt: skip
    return out


CHECKED: Counter[str] = Counter()
PHASES: dict[str, set[str]] = {}


def assert_fits(what: str, **message: Any) -> None:
    CHECKED[what] += 1
    found = limits.problems(**message)
    assert not found, (what, found)


def check_table(table: Table) -> None:
    assert_fits("table", content=table_content(table), embed=table_embed(table), view=table_view(table))


@pytest.mark.parametrize(("variant", "players", "options", "seed"), scenarios(), ids=str)
async def test_every_message_of_a_seeded_game_fits_discords_limits(
    variant: str, players: int, options: dict[str, Any], seed: int
) -> None:
    game = new_game(variant, players=players, options=options, seed=seed * 1000 + players)
    seats: list[Seat | None] = [Seat("human", f"{LONGEST_NAME}{i}", 10**18 + i) for i in range(players)]
    table = Table(10**6, 1, 2, 10**18, variant, dict(game.options), players, seats, status="lobby")
    check_table(table)  # the lobby
    table.status, table.game, table.seed = "playing", game, game.seed
    rng = random.Random(seed)
    # Computer players decide (so the game ends), with a random move now and then for variety.
    bots = [make_player(find_variant(variant).family, "basic", seed + seat) for seat in range(players)]
    phases = PHASES.setdefault(variant, set())
    last_phase = None
    for _ in range(20_000):
        if game.is_over:
            break
        phase = game.public_view()["phase"]
        phases.add(phase)
        check_table(table)
        # The seats to act every time; every seat whenever the phase changes.
        for seat in range(players) if phase != last_phase else game.to_act:
            view = game.view(seat)
            assert_fits("hand", content=hand_text(table, seat, view), view=hand_view(table, seat, view))
            for action in view["legal"]:
                if action in IRREVERSIBLE:
                    question = consequence(table, seat, action)
                    assert_fits(
                        "question", content=question, view=question_view(table.id, table.version, action)
                    )
            if any(a.startswith("bid ") for a in view["legal"]):
                assert_fits("bid form", modal=BidForm(table.id, table.version, view, amounts(view["legal"])))
        last_phase = phase
        seat = game.to_act[0]
        # Random moves stay out of the auction: random high bids set the bidders for ever.
        unbid = [a for a in game.legal_actions(seat) if not str(a).startswith("bid ")]
        action = rng.choice(unbid) if unbid and rng.random() < 0.05 else decide(bots[seat], game, seat)
        for event in game.apply(seat, action):
            text = announcement(table, event)
            if text is not None:
                for part in limits.split_content(text):
                    assert_fits("announcement", content=part)
                assert "[gap" not in text
    assert game.is_over, "the seeded game should end"
    table.status = "ended"
    check_table(table)


@pytest.mark.parametrize("variant", variant_names())
async def test_rules_pages_fit_and_never_cut_a_rule(variant: str) -> None:
    cls = find_variant(variant)
    seats: list[Seat | None] = [Seat("human", LONGEST_NAME, 1)] * cls.default_players
    table = Table(
        7, 1, 2, 1, variant, {s.name: s.default for s in cls.option_specs}, cls.default_players, seats
    )
    texts = page_texts(variant)
    for page in range(len(texts)):
        for here in (None, table):
            embed, view = rules_page(variant, page, here)
            assert_fits("rules page", embed=embed, view=view)
            assert "[gap" not in (embed.description or "")
    rules = render.player_text(cls.rules_text)
    joined = "\n".join(text for _, text in texts)
    for paragraph in rules.split("\n"):
        assert paragraph in joined  # whole: pages break between paragraphs
    # Words survive in order (nothing dropped between pages).
    assert re.sub(r"\s+", " ", rules).strip() in re.sub(r"\s+", " ", joined)


def test_the_seeded_games_went_through_the_phases_and_were_counted() -> None:
    """Runs after the seeded games (same module): every auction variant met bidding, and the
    number of checked messages is the figure reported for the issue."""
    if not PHASES:
        pytest.skip("run with the seeded games")
    for variant, phases in PHASES.items():
        family = find_variant(variant).family
        assert "play" in phases or "playoff" in phases, (variant, phases)
        if family != "pitch" and variant not in ("pinochle-2", "pinochle-4", "pinochle-6", "pinochle-8"):
            assert "bidding" in phases, (variant, phases)
    print(f"\nlimits: {sum(CHECKED.values())} messages checked: {dict(CHECKED)}")
    assert sum(CHECKED.values()) > 10_000
