"""The double-deck house rules as options (§8 of the spec), a preset's changed defaults, and the
check refusing combinations that cannot be played."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bot.engine.errors import BadOption
from bot.engine.options import OptionSpec

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("match", 500, "Game target (x10 with 100-aces), or one deal only", (500, 250, 1000, "deal")),
    OptionSpec(
        "bidding",
        "standard",
        "standard: open 50+, by 1 to 60 then by 5; any: any number from 50; toby-thomas: open 25+, "
        "by 1 to 50 then by 5",
        ("standard", "any", "toby-thomas"),
    ),
    OptionSpec("tens-over-100", False, "Bids above 100 only in multiples of 10"),
    OptionSpec(
        "meld-info",
        False,
        "With a bid a player may tell its meld: one number, counted without trump (marriages, arounds, "
        "pinochles), so it never points at a suit",
    ),
    OptionSpec(
        "rounds",
        "unlimited",
        "Bidding rounds: unlimited (until three pass), 1 (each speaks once), 2 (a first-round pass is final)",
        ("unlimited", 1, 2),
    ),
    OptionSpec("pass", 0, "Cards the bidder and partner pass each other (0: no pass)", (0, 1, 2, 3, 4)),
    OptionSpec(
        "pass-order",
        "simultaneous",
        "simultaneous (both choose face down, unseen) or partner-first (the bidder looks, then passes back)",
        ("simultaneous", "partner-first"),
    ),
    OptionSpec(
        "pass-when",
        "after-trump",
        "The pass comes after or before trump is named",
        ("after-trump", "before-trump"),
    ),
    OptionSpec(
        "ask",
        "off",
        "Before a before-trump pass the bidder names a suit: optional (a wish) or must-give (the partner "
        "passes cards of that suit while holding any)",
        ("off", "optional", "must-give"),
    ),
    OptionSpec(
        "trump-marriage",
        "required",
        "The bidder needs a marriage in trump: required, none, or after-pass (held after the pass)",
        ("required", "none", "after-pass"),
    ),
    OptionSpec(
        "meld",
        "standard",
        "Meld scores: standard, book (triple pinochle 45, quadruple 300; runs 15/30/45/60), npa (run 25, "
        "pinochle 15), toby-thomas (its table)",
        ("standard", "book", "npa", "toby-thomas"),
    ),
    OptionSpec("pinochle-14", False, "A single pinochle scores 14"),
    OptionSpec(
        "roundhouse",
        24,
        "A K and Q of every suit: 24 (its parts), 32, or 39 with a run (its royal marriage also in the run)",
        (24, 32, 39),
    ),
    OptionSpec("double-roundhouse", 160, "Two K and Q of every suit: 160 (its parts) or 240", (160, 240)),
    OptionSpec(
        "min-20",
        False,
        "A side needs 20 meld to lay it down and 20 in tricks to score; a bidding side under 20 meld loses",
    ),
    OptionSpec(
        "giveup",
        "standard",
        "What the opponents score when the bidding side gives up before play: standard (their laid meld; "
        "nothing after no marriage), nothing, "
        "meld, meld+25, meld+50 (meld only if 20+), or play (the hand is played out)",
        ("standard", "nothing", "meld", "meld+25", "meld+50", "play"),
    ),
    OptionSpec("100-aces", False, "Every score x10 (older scoring): meld, counters, bids and the game"),
)


def with_defaults(defaults: Mapping[str, Any]) -> tuple[OptionSpec, ...]:
    """The double-deck options with some defaults changed (a preset)."""
    unknown = set(defaults) - {spec.name for spec in OPTIONS}
    assert not unknown, unknown
    return tuple(replace(spec, default=defaults.get(spec.name, spec.default)) for spec in OPTIONS)


def validate(options: Mapping[str, Any], specs: tuple[OptionSpec, ...]) -> None:
    """Refuse option combinations that cannot be played (``BadOption`` saying why); ``specs`` are
    the variant's options, whose defaults fill what ``options`` leaves out."""
    o = {spec.name: options.get(spec.name, spec.default) for spec in specs}
    if o["pass"] == 0:
        for name, default in (
            ("pass-order", "simultaneous"),
            ("pass-when", "after-trump"),
            ("ask", "off"),
        ):
            if o[name] != default:
                raise BadOption(f"option {name}={o[name]} needs a card pass: add pass=1, 2, 3 or 4")
        if o["trump-marriage"] == "after-pass":
            raise BadOption("option trump-marriage=after-pass needs a card pass: add pass=1, 2, 3 or 4")
    if o["ask"] != "off" and o["pass-when"] != "before-trump":
        raise BadOption(
            f"option ask={o['ask']}: the bidder names a suit before trump is named, so the pass must "
            "come first: add pass-when=before-trump"
        )
    if o["pinochle-14"] and o["meld"] == "npa":
        raise BadOption(
            "options pinochle-14 and meld=npa disagree on a single pinochle (14 or 15): choose one"
        )
