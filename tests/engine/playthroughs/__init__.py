"""Golden playthroughs: one seeded game per file, every action with what it did, byte-compared.

Each file records a game of one variant played by seeded random seats: a header naming the
variant, players, options and seed; then one line per action

    seat | action | number of legal actions | events as JSON | view hashes

where the view hashes are the first 16 hex digits of the sha256 of ``view(seat)`` as JSON, for
every seat in order (so a change to any seat's view, hidden hand included, shows up); and last
the final ``public_view`` in full. A refactor that changes no behaviour leaves every file
byte-identical (``test_playthroughs.py``); regenerate after an intended change with

    python -m tests.engine.playthroughs --regen

and explain the diff in the commit.

The seats are seeded random players with two biases that let whole games end: in an auction they
pass (or concede a forced bid; with option meld-info, tell their meld a third of those times) half
the time and otherwise mostly make the lowest bid, now and then one of the next twenty (uniform
random bids up to 500 set the bidder nearly every deal and scores sink for ever); and they declare
out only when the claim wins (a random false claim would end every game in its first deal).
Everything else is a uniform choice among the legal actions,
in the order ``legal_actions`` lists them.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.engine import Action, Game, Kind, new_game, variant_names

HERE = Path(__file__).resolve().parent
MAX_ACTIONS = 20_000
HEADER = "# seat | action | legal actions | events | view hash per seat (sha256 of view JSON, 16 hex)"


@dataclass(frozen=True)
class Playthrough:
    """One golden game: a file name, the variant, its options (beyond the defaults) and a seed."""

    file: str
    variant: str
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 1
    players: int | None = None


def _short_options(variant: str) -> dict[str, Any]:
    """Options making a short game: one deal where the variant has ``match=deal``, else a short one."""
    if variant == "pinochle-3":
        return {"deals": 1}
    if variant == "pitch-10":
        return {"target": 31}
    if variant.startswith("pitch"):
        return {"target": 7}
    return {"match": "deal"}


def playthroughs() -> list[Playthrough]:
    """Every golden game: per variant a short one and a full-length one (defaults), plus a few
    option combinations the defaults never reach."""
    out: list[Playthrough] = []
    for name in variant_names():
        out.append(Playthrough(f"{name}.short.txt", name, _short_options(name)))
        out.append(Playthrough(f"{name}.game.txt", name))
    out += [
        Playthrough("pinochle-2.deck64.txt", "pinochle-2", {"deck64": True, "match": "deal"}, seed=2),
        Playthrough(
            "pinochle-3.chips.txt",
            "pinochle-3",
            {"chips": "1-2-4-6-8-10-12", "suit-bonus": True, "set-single": True, "deals": 3},
            seed=6,
        ),
        Playthrough("pinochle-4.tens.txt", "pinochle-4", {"count": "tens-fives", "match": "deal"}, seed=4),
        Playthrough(
            "pinochle-4-auction.pass.txt", "pinochle-4-auction", {"pass": 4, "match": "deal"}, seed=5
        ),
        Playthrough("pinochle-6.auction.txt", "pinochle-6", {"rules": "auction", "pass": 4, "match": "deal"}),
        Playthrough("pinochle-8.auction.txt", "pinochle-8", {"rules": "auction", "match": "deal"}, seed=6),
        Playthrough("pitch.2.txt", "pitch", {"target": 7, "dealer-steal": True, "smudge": True}, players=2),
        Playthrough("pitch.7.txt", "pitch", {"target": 7, "old-high-low": True}, players=7),
        Playthrough("pitch-partnership.old.txt", "pitch-partnership", {"target": 11, "old-high-low": True}),
        Playthrough(
            "pitch.jokers.txt",
            "pitch",
            {"target": 7, "off-jack": True, "jokers": 2, "joker-lead": "name"},
            seed=3,
            players=3,
        ),
        Playthrough(
            "pitch.slam.txt", "pitch", {"target": 7, "slam": True, "dealer-steal": True}, seed=4, players=3
        ),
        Playthrough(
            "pitch-10.six.txt",
            "pitch-10",
            {"target": 31, "three": False, "end": "bid-out"},
            seed=5,
            players=6,
        ),
        Playthrough(
            "double-deck.rules.txt",
            "double-deck",
            {
                "min-20": True,
                "giveup": "play",
                "rounds": 2,
                "tens-over-100": True,
                "roundhouse": 32,
                "match": 250,
            },
            seed=7,
        ),
        Playthrough(
            "double-deck.giveup.txt",
            "double-deck",
            {
                "giveup": "meld+25",
                "trump-marriage": "after-pass",
                "pass": 2,
                "100-aces": True,
                "double-roundhouse": 240,
                "match": "deal",
            },
            seed=8,
        ),
        Playthrough("double-deck.meldinfo.txt", "double-deck", {"meld-info": True, "match": "deal"}, seed=10),
        Playthrough(
            "double-deck.ask.txt",
            "double-deck",
            {
                "ask": "optional",
                "pass": 1,
                "pass-when": "before-trump",
                "bidding": "any",
                "rounds": 1,
                "meld": "book",
                "pinochle-14": True,
                "roundhouse": 39,
                "match": "deal",
            },
            seed=9,
        ),
    ]
    return out


def _choose(rng: random.Random, game: Game, seat: int, legal: list[Action]) -> Action:
    bids = [action for action in legal if action.kind is Kind.BID]
    if bids:
        others = [action for action in legal if action.kind is not Kind.BID]  # pass, or concede
        roll = rng.random()
        if others and roll < 0.5:
            tells = [action for action in others if action.kind is Kind.TELL_MELD]  # option meld-info
            return tells[0] if tells and roll < 0.15 else others[0]
        return bids[0] if roll < 0.9 else rng.choice(bids[:20])
    claims = [action for action in legal if action.kind is Kind.DECLARE_OUT]
    if claims:
        declared_total = getattr(game, "declared_total")  # noqa: B009  (pinochle only)
        target = getattr(game, "target")  # noqa: B009
        if declared_total(game.side_of[seat]) >= target:
            return claims[0]
        legal = [action for action in legal if action.kind is not Kind.DECLARE_OUT] or legal
    return rng.choice(legal)


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _view_hashes(game: Game) -> str:
    return " ".join(
        hashlib.sha256(_dumps(game.view(seat)).encode()).hexdigest()[:16] for seat in range(game.players)
    )


def play(spec: Playthrough) -> Iterator[tuple[Game, int, Action, int, list[dict[str, Any]]]]:
    """Play ``spec``'s game: after each action, the game, the seat, the action, how many actions
    were legal and the events. The game as created comes first (seat -1, no action)."""
    game = new_game(spec.variant, players=spec.players, options=spec.options, seed=spec.seed)
    seats = [random.Random(f"{spec.seed}/{seat}") for seat in range(game.players)]
    picker = random.Random(f"{spec.seed}/to-act")
    yield game, -1, Action(Kind.PASS), 0, []
    for _ in range(MAX_ACTIONS):
        if game.is_over:
            return
        to_act = game.to_act
        seat = to_act[0] if len(to_act) == 1 else picker.choice(to_act)
        legal = game.legal_actions(seat)
        action = _choose(seats[seat], game, seat, legal)
        events = game.apply(seat, action)
        yield game, seat, action, len(legal), events


def lines(spec: Playthrough) -> Iterator[str]:
    """The golden file of ``spec``, line by line."""
    game: Game | None = None
    for game, seat, action, legal, events in play(spec):
        if seat < 0:
            options = _dumps(game.options)
            yield f"# {spec.variant}: players={game.players} seed={spec.seed} options={options}"
            yield HEADER
            yield f"start | | | | {_view_hashes(game)}"
        else:
            yield f"{seat} | {action} | {legal} | {_dumps(events)} | {_view_hashes(game)}"
    assert game is not None
    if not game.is_over:
        yield f"# stopped after {MAX_ACTIONS} actions"
    yield "# final public view"
    yield _dumps(game.public_view())


def render(spec: Playthrough) -> str:
    return "\n".join(lines(spec)) + "\n"


def regenerate() -> list[Path]:
    """Write every golden file (and remove stale ones); returns the files written."""
    written = []
    keep = set()
    for spec in playthroughs():
        path = HERE / spec.file
        path.write_text(render(spec), encoding="utf-8")
        written.append(path)
        keep.add(path.name)
    for stale in HERE.glob("*.txt"):
        if stale.name not in keep:
            stale.unlink()
    return written
