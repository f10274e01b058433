"""Engine speed: random-legal complete deals per second for each variant, through the public API,
next to the reference bitmask playout measured in the same run (compare ratios, not absolutes).

Pinochle variants are timed as single-deal games (``match=deal``; three-hand ``deals=1``) so that
each measured deal is a whole deal from shuffle to score and nothing more: a random legal choice is
made at every decision (bids, dix exchanges, trump, bury, passes, melds, plays). The headline figure
is ``pinochle-4`` against the 48-card reference (target: at least 0.3). The meld counter's speed is
printed in hands per second.

Double-deck variants (80 cards) are compared with the 80-card reference (``--deck 80``), also in
the same run. Their deals are single-deal games with ``giveup=play`` so that a random bid far above
the bidding side's meld (which would otherwise end the deal at once, unplayed) still plays all 20
tricks; the headline ``double-deck`` figure counts only deals played to the last trick (a rare deal
lost for want of a marriage is timed but not counted), with a random legal choice at every decision
(bids, trump, meld, throw-in, plays). The double-deck meld counter is timed on 20-card hands.

Search (issue 15): determinized random rollouts per second for each variant — from 40 single-deal
positions half-way through the play (reached by random legal play), ``sample_world`` for the seat
to act, then ``rollout`` of that world to the end of the deal with a random legal choice at every
decision (the view-free fast path) — as a ratio to the reference playout (a whole random deal of
the bitmask kernel). Headline: ``pinochle-4`` (goal: at least 1.0). The positions are sampled over
and over, as a search samples its position: the seat's sampling plan (what it has seen, prepared
for dealing: ``Game.sampling_plan``) is made at the first sample of a position and kept; the cost
of a first sample and of a later one is printed for ``pinochle-4``.

Usage: python bench/engine.py [--seconds S]
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.engine import Action, Card, Game, Suit, find_variant, make_deck, new_game, variant_names  # noqa: E402
from bot.engine.meld import FOUR_HAND, MeldTable, count_meld, meld_total  # noqa: E402
from bot.engine.pinochle.common import RANKS_48  # noqa: E402
from bot.engine.pinochle.double_deck import RANKS_80, double_deck_table  # noqa: E402

REFERENCE = ROOT / "bench" / "reference_playout.py"  # a copy of ../shared/bench/reference_playout.py


def single_deal_options(variant: str) -> dict[str, object]:
    """Options making a pinochle game one deal (nothing is dealt after the measured deal)."""
    family = find_variant(variant).family
    if family == "double-deck":
        return {"match": "deal", "giveup": "play"}
    if family != "pinochle":
        return {}
    return {"deals": 1} if variant == "pinochle-3" else {"match": "deal"}


def deals_per_second(variant: str, players: int, seconds: float) -> float:
    """Complete deals (shuffle to scored deal, random legal choice at every decision)."""
    rand = random.Random(1).random
    deals = 0
    seed = 0
    options = single_deal_options(variant)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        seed += 1
        game = new_game(variant, players=players, seed=seed, options=options)
        while not game.is_over:
            seat = game.to_act[0]
            legal = game.legal_actions(seat)
            events = game.apply(seat, legal[int(rand() * len(legal))])
            # A play reports one event, two when it ends a trick: a deal's end reports more.
            if len(events) > 2 and any(event["type"] == "deal_scored" for event in events):
                deals += 1
                break
    return deals / (time.perf_counter() - start)


def mid_deal_positions(variant: str, players: int, count: int = 40) -> list[Game]:
    """Single-deal games stopped half-way through the play (half the tricks taken, none under way),
    reached by random legal play (positions where the deal ended before that are skipped)."""
    rand = random.Random(3).random
    options = single_deal_options(variant)
    out: list[Game] = []
    seed = 0
    while len(out) < count:
        seed += 1
        game = new_game(variant, players=players, seed=seed, options=options)
        # The tricks of a deal: a pitch hand is six cards; pinochle plays the whole pack.
        half = (6 if game.family == "pitch" else len(game.pack()) // players) // 2
        tricks: list[object] = []
        for _ in range(2000):
            if game.is_over:
                break
            tricks = getattr(game, "tricks", [])
            if len(tricks) >= half and not getattr(game, "trick", None):
                out.append(game)
                break
            seat = game.to_act[0]
            legal = game.legal_actions(seat)
            game.apply(seat, legal[int(rand() * len(legal))])
    return out


def rollouts_per_second(
    variant: str, players: int, seconds: float, positions: list[Game] | None = None
) -> float:
    """Determinized random rollouts: ``sample_world`` for the seat to act in a mid-deal position,
    then ``rollout`` of that world to the end of the deal with random legal choices (no views)."""
    positions = positions or mid_deal_positions(variant, players)
    rng = random.Random(4)
    rand = rng.random

    def policy(game: Game, seat: int, legal: list[Action]) -> Action:
        return legal[int(rand() * len(legal))]

    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for game in positions:
            game.sample_world(game.to_act[0], rng).rollout(policy)
        done += len(positions)
    return done / (time.perf_counter() - start)


def sample_micros(variant: str, players: int, *, first: bool, rounds: int = 5) -> float:
    """Mean µs of one ``sample_world`` at the mid-deal positions: the first of a position (its
    sampling plan made, ``first``) or a later one (the plan kept)."""
    positions = mid_deal_positions(variant, players)
    rng = random.Random(5)
    for game in positions:
        game.sample_world(game.to_act[0], rng)
    start = time.perf_counter()
    for _ in range(rounds):
        for game in positions:
            if first:
                game.invalidate()
            game.sample_world(game.to_act[0], rng)
    return (time.perf_counter() - start) / (rounds * len(positions)) * 1e6


def rollout_micros(variant: str, players: int, rounds: int = 5) -> float:
    """Mean µs of one ``rollout`` (random legal choices) of a world sampled at the mid-deal
    positions (the worlds are sampled before the clock starts)."""
    positions = mid_deal_positions(variant, players)
    rng = random.Random(6)
    rand = rng.random

    def policy(game: Game, seat: int, legal: list[Action]) -> Action:
        return legal[int(rand() * len(legal))]

    spent = 0.0
    for _ in range(rounds):
        worlds = [game.sample_world(game.to_act[0], rng) for game in positions]
        start = time.perf_counter()
        for world in worlds:
            world.rollout(policy)
        spent += time.perf_counter() - start
    return spent / (rounds * len(positions)) * 1e6


def reference(deck: int, seconds: float) -> float | None:
    if not REFERENCE.exists():
        return None
    out = subprocess.run(
        [sys.executable, str(REFERENCE), "--deck", str(deck), "--seconds", str(seconds)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return float(out.split(":")[1].split()[0])


def played_deals_per_second(variant: str, seconds: float) -> float:
    """Double-deck deals played to the last trick per second (random legal choices throughout)."""
    rand = random.Random(1).random
    played = 0
    seed = 0
    options = single_deal_options(variant)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        seed += 1
        game = new_game(variant, seed=seed, options=options)
        events: list[dict[str, object]] = []
        while not game.is_over:
            seat = game.to_act[0]
            legal = game.legal_actions(seat)
            events = game.apply(seat, legal[int(rand() * len(legal))])
        if any(event["type"] == "deal_scored" and event["played"] for event in events):
            played += 1
    return played / (time.perf_counter() - start)


def meld_hands_per_second(
    seconds: float, *, detail: bool, table: MeldTable = FOUR_HAND, size: int = 12
) -> float:
    """``count_meld`` (every meld with its cards) or ``meld_total`` on random hands of ``table``'s
    pack (12 cards of 48 for pinochle-4, 20 of 80 for double-deck)."""
    rng = random.Random(2)
    deck: list[Card] = make_deck(RANKS_48, 2) if table.copies == 2 else make_deck(RANKS_80, 4)
    hands = []
    for _ in range(2000):
        rng.shuffle(deck)
        hands.append((deck[:size], rng.choice(list(Suit))))
    count = count_meld if detail else meld_total
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for hand, trump in hands:
            count(hand, trump, table)
        done += len(hands)
    return done / (time.perf_counter() - start)


def headline(  # noqa: PLR0917  (the two optional ones name the figure)
    variant: str,
    deck: int,
    seconds: float,
    rate_of: Callable[[float], float],
    what: str = "complete deals/s",
    target: float = 0.30,
) -> None:
    """``variant`` against the ``deck``-card reference, measured back to back three times (this
    machine's speed drifts), the median ratio reported."""
    ratios = []
    for _ in range(3):
        ref = reference(deck, seconds / 2)
        rate = rate_of(seconds / 2)
        if ref:
            ratios.append((rate / ref, rate, ref))
    if not ratios:
        return
    ratios.sort()
    ratio, rate, ref = ratios[1] if len(ratios) == 3 else ratios[0]
    each = ", ".join(f"{r:.2f}" for r, _, _ in ratios)
    print(
        f"{variant} via the public API: {rate:.0f} {what} vs reference {ref:.0f}/s = "
        f"{ratio:.2f} x the {deck}-card reference (median of {each}; target >= {target:.2f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    ref48 = reference(48, args.seconds)
    ref80 = reference(80, args.seconds)
    print(f"reference 48-card playout: {ref48:.0f} deals/s" if ref48 else "reference playout not found")
    if ref80:
        print(f"reference 80-card playout: {ref80:.0f} deals/s")
    for name in variant_names():
        cls = find_variant(name)
        deck, ref = (80, ref80) if cls.family == "double-deck" else (48, ref48)
        for players in sorted({cls.default_players, min(cls.player_counts), max(cls.player_counts)}):
            rate = deals_per_second(name, players, args.seconds)
            ratio = f" ({rate / ref:.2f}x the {deck}-card reference)" if ref else ""
            print(f"{name}, {players} players: {rate:.0f} random-legal deals/s{ratio}")
    headline("pinochle-4", 48, args.seconds, lambda seconds: deals_per_second("pinochle-4", 4, seconds))
    for name in variant_names():
        cls = find_variant(name)
        deck, ref = (80, ref80) if cls.family == "double-deck" else (48, ref48)
        rate = rollouts_per_second(name, cls.default_players, args.seconds)
        ratio = f" ({rate / ref:.2f}x the {deck}-card reference)" if ref else ""
        print(f"{name}, {cls.default_players} players: {rate:.0f} determinized random rollouts/s{ratio}")
    positions = mid_deal_positions("pinochle-4", 4)
    headline(
        "pinochle-4",
        48,
        args.seconds,
        lambda seconds: rollouts_per_second("pinochle-4", 4, seconds, positions),
        "determinized rollouts/s (sample_world + rollout from mid-deal)",
        1.0,
    )
    first, later = (sample_micros("pinochle-4", 4, first=cold) for cold in (True, False))
    print(f"pinochle-4 sample_world: {first:.0f} µs first in a position, {later:.0f} µs later (kept plan)")
    rollout = rollout_micros("pinochle-4", 4)
    print(f"pinochle-4 rollout of a sampled world to the deal's end: {rollout:.0f} µs")
    headline("double-deck", 80, args.seconds, lambda seconds: played_deals_per_second("double-deck", seconds))
    listed = meld_hands_per_second(args.seconds, detail=True)
    totals = meld_hands_per_second(args.seconds, detail=False)
    print(
        f"meld counter (pinochle-4 table): {listed:.0f} hands/s with every meld listed, {totals:.0f} totals/s"
    )
    for label, table in (
        ("double-deck table", double_deck_table()),
        ("double-deck Toby Thomas table", double_deck_table("toby-thomas", roundhouse=32)),
    ):
        listed = meld_hands_per_second(args.seconds, detail=True, table=table, size=20)
        totals = meld_hands_per_second(args.seconds, detail=False, table=table, size=20)
        print(
            f"meld counter ({label}, 20-card hands): {listed:.0f} hands/s with every meld listed, "
            f"{totals:.0f} totals/s"
        )


if __name__ == "__main__":
    main()
