"""The ``hard`` computer level: determinized search over sampled worlds for every decision (``search``;
the auction: ``bidding``). The player sees only what its seat may see: ``game.view(seat)``,
``game.legal_actions(seat)`` and worlds from ``game.sample_world(seat, rng)``."""

from __future__ import annotations

import gc
import random
import zlib
from dataclasses import dataclass
from typing import Any

from bot.ai.base import Player, make_player
from bot.ai.hard.bidding import DeclarerEdge, choose_bid, may_concede
from bot.ai.hard.ending import exact_ending
from bot.ai.hard.policy import RolloutPolicy
from bot.ai.hard.reasons import describe, play_reason
from bot.ai.hard.search import Clock, Context, Evaluator, Tally, best
from bot.ai.hard.similar import distinct_plays
from bot.ai.hard.solver import SOLVE_SHARE, SolveCache, solve_known
from bot.ai.hard.worlds import sample_world
from bot.engine import Action, EngineError, Game, Kind

DEFAULT_BUDGET = 1.0
"""Seconds a decision may take (never more than 10% over)."""
CAPS: dict[str, tuple[int, int]] = {
    "pitch": (96, 800),
    "pinochle-4": (240, 1800),
    "pinochle-4-auction": (240, 1800),
    "pinochle": (160, 1200),
    "pinochle-2": (48, 360),
    "pinochle-3": (64, 600),
    "double-deck": (160, 1200),
}
"""Per variant, else per family: worlds per candidate and rollouts per decision at most. Pinochle-4's
240 worlds: 85.5% of 500 pairs against ``basic`` (bench/records/experiments.md#caps)."""
DEFAULT_CAPS = (16, 120)
SPREAD: dict[str, int] = {"pinochle-4-auction": 600}
"""Variants whose card play gives the rollouts of candidates dropped early to the others
(``Context.spread``), each up to this many worlds within ``CAPS``: a set swings a deal by hundreds,
so the leading plays differ by less than their noise. Partnership auction: 85.3% of 160 pairs
against ``basic`` (bench/records/experiments.md#spread)."""
BASIC_LEAN: dict[str, float] = {"pinochle-3": 1.0}
"""Per variant: how much better a deal the search must find a move than ``basic``'s before it plays
it instead. Three-hand pays for the contract alone, so the search often tells moves apart only by
its rollouts' counters, noise beside ``basic``'s reading of the cards. Three-hand: 58.8% of 240
pairs against ``basic`` (bench/records/experiments.md#basic-lean)."""


@dataclass(frozen=True)
class Advice:
    """What ``hard`` would do now, and why in one line (naming no other seat's hidden card)."""

    action: Action
    reason: str


class HardPlayer:
    """Searches sampled worlds for every decision: ``budget`` seconds at most, ``samples`` worlds per
    candidate and ``rollouts`` per decision at most (``CAPS`` when not given). A decision is
    deterministic given the seed and the seat's view, unless the budget cuts the search short."""

    context_type: type[Context] = Context
    """Where a decision's worlds come from (a bench may put the true deal in their place)."""

    def __init__(
        self,
        seed: int | None = None,
        *,
        budget: float = DEFAULT_BUDGET,
        samples: int | None = None,
        rollouts: int | None = None,
        family: str | None = None,
    ) -> None:
        if budget <= 0 or (samples is not None and samples < 1) or (rollouts is not None and rollouts < 1):
            raise ValueError("budget must be positive and samples and rollouts at least 1")
        self.seed = random.SystemRandom().randrange(2**32) if seed is None else seed
        self.budget = budget
        self.samples = samples
        self.rollouts = rollouts
        self.family = family
        self._policies: dict[str, RolloutPolicy] = {}
        self._basic: dict[str, Player] = {}
        self._solves = SolveCache()

    # ----- the player interface ------------------------------------------------------------
    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        """Without the game to sample from, decide as ``basic`` does (``decide`` calls ``choose_for``)."""
        family = str(view.get("family") or self.family)
        basic = self._basic.get(family)
        if basic is None:
            basic = self._basic[family] = make_player(family, "basic", self.seed)
        return basic.choose(view, legal)

    def choose_for(self, game: Game, seat: int, legal: list[Action]) -> Action:
        """``seat``'s move in ``game``, by search."""
        return self.think(game, seat, legal).action

    def advise(self, game: Game, seat: int) -> Advice:
        """What this player would do for ``seat`` now, with a one-line reason (for hints); ``ValueError``
        when the seat has nothing to do (not its turn, and declaring out would not win)."""
        legal = game.legal_actions(seat)
        if seat not in game.to_act:
            declare = [a for a in legal if a.kind is Kind.DECLARE_OUT]
            legal = declare if declare and declaring_wins(game, seat, declare[0], self.seed) else []
        if not legal:
            raise ValueError(f"seat {seat + 1} has nothing to do now")
        return self.think(game, seat, legal)

    # ----- deciding ------------------------------------------------------------------------
    def caps(self, game: Game) -> tuple[int, int]:
        """Worlds per candidate and rollouts per decision at most for ``game``."""
        default = CAPS.get(game.name) or CAPS.get(game.family, DEFAULT_CAPS)
        return (self.samples or default[0], self.rollouts or default[1])

    def policy(self, family: str) -> RolloutPolicy:
        found = self._policies.get(family)
        if found is None:
            found = self._policies[family] = RolloutPolicy(family)
        return found

    def think(self, game: Game, seat: int, legal: list[Action]) -> Advice:
        # Thousands of short-lived world copies: a cyclic collection in the middle of a decision
        # could cost a good share of its budget (they are freed by reference counting anyway).
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self.search_now(game, seat, legal)
        except EngineError:
            # The engine found no world fitting what the seat saw (an engine fault): play on as
            # basic would rather than stop the table.
            return self.rule_of_thumb(game.view(seat), legal, "no deals could be sampled here")
        finally:
            if collecting:
                gc.enable()

    def search_now(self, game: Game, seat: int, legal: list[Action]) -> Advice:
        """``think`` itself."""
        clock = Clock(self.budget)
        view = game.view(seat)
        rng = random.Random(f"{self.seed}/{zlib.crc32(repr(view).encode())}")
        declare = [a for a in legal if a.kind is Kind.DECLARE_OUT]
        if declare and declaring_wins(game, seat, declare[0], self.seed):
            return Advice(declare[0], "declare out — your side's total reaches the target now")
        options = [a for a in legal if a.kind is not Kind.DECLARE_OUT] or legal
        if len(options) == 1:
            return Advice(options[0], f"{describe(options[0])} — the only legal move")
        candidates = distinct_plays(game, view, options)
        if len(candidates) == 1:
            return Advice(candidates[0], f"{describe(candidates[0])} — your legal cards are all equivalent")
        solved = solve_known(game, seat, rng, clock.start + self.budget * SOLVE_SHARE, self._solves)
        if solved is not None:
            action = next(a for a in options if a.kind is Kind.PLAY and a.cards[0] is solved.card)
            return Advice(action, solved_reason(action, solved.value))
        bidding = any(a.kind is Kind.BID for a in candidates)
        policy = self.policy(game.family)
        samples, rollouts = self.caps(game)
        spread = None if bidding or self.samples is not None else SPREAD.get(game.name)
        ctx = self.context_type(
            game,
            seat,
            view,
            # Calls keep the fast endings: exact ones cost CPU for no gain there
            # (bench/records/experiments.md#ending-cards).
            policy if bidding else exact_ending(policy, game),
            (DeclarerEdge if may_concede(game, candidates) else Evaluator)(game, seat, win_value(view)),
            clock,
            rng,
            spread or samples,
            rollouts,
            spread=spread is not None,
        )
        if bidding:
            action, reason = choose_bid(ctx, candidates)
            return Advice(action, reason)
        lean = BASIC_LEAN.get(game.name)
        basics = self.basic_candidate(view, legal, candidates) if lean is not None else None
        tallies = ctx.search(candidates, keep=basics)
        if any(not t.count for t in tallies):  # the clock ran out within the first world
            return self.rule_of_thumb(view, legal, "no time to sample deals")
        chosen = best(tallies)
        if lean is not None and basics is not None:
            chosen = lean_on(basics, tallies, chosen, lean)
        return Advice(chosen.action, play_reason(chosen, tallies, view))

    def basic_candidate(
        self, view: dict[str, Any], legal: list[Action], candidates: list[Action]
    ) -> Action | None:
        """The candidate standing for ``basic``'s choice (or a card playing alike), which the search keeps
        to the end and plays unless it finds one better by ``BASIC_LEAN``."""
        action = self.choose(view, legal)
        card = action.cards[0] if action.cards else None
        for candidate in candidates:
            if candidate == action or (
                card is not None
                and candidate.kind is action.kind
                and len(candidate.cards) == 1
                and candidate.cards[0].suit is card.suit
                and candidate.cards[0].rank is card.rank
            ):
                return candidate
        return None

    def rule_of_thumb(self, view: dict[str, Any], legal: list[Action], why: str) -> Advice:
        """``basic``'s choice, when the search cannot decide (``why``)."""
        action = self.choose(view, legal) if len(legal) > 1 else legal[0]
        return Advice(action, f"{describe(action)} — a rule of thumb ({why})")


def declaring_wins(game: Game, seat: int, declare: Action, seed: int) -> bool:
    """Whether declaring out now wins (public facts decide it, so any sampled world tells)."""
    world = sample_world(game, seat, random.Random(seed))
    world.apply(seat, declare)
    return world.outcome is not None and game.side_of[seat] in world.outcome.winning_sides


def solved_reason(action: Action, value: int) -> str:
    """``A♠ — best play with every card known: your side takes 12 counters more than the other
    from here``."""
    more = "more" if value >= 0 else "fewer"
    return (
        f"{describe(action)} — best play with every card known: your side takes {abs(value)} counters "
        f"{more} than the other from here"
    )


def win_value(view: dict[str, Any]) -> float:
    """What ending the game with a win is worth beside a deal's points: half the target."""
    target = view.get("target")
    return target / 2 if isinstance(target, int) else 0.0


def lean_on(basics: Action, tallies: list[Tally], chosen: Tally, lean: float) -> Tally:
    """``basic``'s tally (``basics``) instead of the search's ``chosen`` unless ``chosen`` was found
    better by ``lean`` a deal at least over the same worlds (``BASIC_LEAN``)."""
    kept = next(t for t in tallies if t.action == basics)
    if not kept.count or chosen.mean - kept.mean >= lean:
        return chosen
    return kept
