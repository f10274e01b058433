"""The ``hard`` computer level: determinized search over sampled worlds for every decision.

Card play, trump, passing, burying, meld turns and give-ups try each candidate in the same sampled
worlds and play them out with the fast policy (``search``); the auction estimates what each bid is
worth the same way (``bidding``). The player sees only what its seat may see: ``game.view(seat)``,
``game.legal_actions(seat)`` and worlds from ``game.sample_world(seat, rng)``.
"""

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
"""Per variant, else per family: sampled worlds per candidate at most, and rollouts per decision at
most (fewer worlds per candidate when there are many candidates). Pitch deals are six tricks, cheap
to play out (~0.4 ms), so pitch samples more (its calls compare values closer than the noise of 48
worlds); more than that measured no better, same pairs (seed 1): twice the worlds and rollouts in
card play alone, 200 pairs, 4-player 67.2% -> 67.2% of pairs (+0.05 a deal [-0.01, +0.11]) and
partnership 66.5% -> 66.8% (-0.03 [-0.14, +0.09]) at a CPU p99 of 0.6 s instead of 0.37 s; four
times in every decision (4 s budget), 100 pairs, 67.0% -> 58.5% (-0.04 [-0.14, +0.05]: its calls
took more contracts and made 75% instead of 82%) and 68.5% -> 69.5% (+0.12 [-0.09, +0.34]).
Partnership pinochle and double-deck sample as many worlds as stay well inside the budget: on the
same 300 pinochle-4 deals 24 worlds won 77.5% of pairs against ``basic``, 64 won 85.8% and 160 won
88.2% (CPU p99 0.32 s a decision). Pinochle-4 itself, whose card play is the whole game, samples 240
(with the exact endings): 85.5% of 500 pairs (seed 1) where 160 won 84.8%, the margin level at +28 a
deal, CPU p99 0.46 s a decision; the auction's card play too (``ENDING_CARDS``). Double-deck's 64
worlds took 58.5% of 100 pairs where 12 took 48.5% (CPU p99 0.25 s); once its rollouts counted
double-deck's counters (``policy._TEN``), 160 worlds took 62.2% of 500 pairs (seeds 1-3) and +7.6 a
deal where 64 took 59.6% and +6.3 (CPU p99 0.47 s, at most 0.94 s); its card play alone (bidding as
``basic``), 67.5% of 200 pairs (seeds 1-2) where 64 worlds took 59.2%. (Those rollouts played this
package's pinochle card play; they now play ``basic``'s, ``policy.DoubleDeckPlay``, and the budget's
clock ends the first searches of a deal before the caps. That costs little: twice the budget, 2 s,
changed 4 of the same 100 pairs (seed 1, two jobs), 70.0% -> 71.0%, +0.02 a deal [-0.29, +0.33], at
a CPU p99 of 1.27 s a decision.) Two-hand's stock order is a guess in every world, and a two-seat
deal is cheap to play out (CPU p99 about 0.4 s a decision at its caps). Three-hand has up to 18
cards to choose from, and keeps ``basic``'s move unless the search finds a better one
(``BASIC_LEAN``), which takes enough worlds to tell: 64 worlds (600 rollouts) instead of 24 (200)
won 60.8% of 60 pairs (seed 8) instead of 59.2%, +1.6 chips a deal instead of +1.2, CPU p99 0.12 s.
The partnership auction's card play gained nothing from the budget its caps leave unused: 3,000
rollouts a decision instead of 1,800, same 160 pairs (seed 1), 85.0% -> 84.1% of pairs, -0.6 a deal
[-8.0, +6.9] (6 pairs changed, 2 its way), at a CPU p99 of 0.97 s instead of 0.68 s. Its calls (the
only decisions its first cap binds: card play takes ``SPREAD``'s worlds) weigh 240 worlds in about
0.38 s; 400 measured no better, against the first 100 pairs of its record of 51c3a27 (seed 1,
partners counted out of the calls): 79.0% -> 78.5% of pairs, -4.3 a deal [-11.7, +3.1] (6 pairs
changed, 3 its way)."""
DEFAULT_CAPS = (16, 120)
SPREAD: dict[str, int] = {"pinochle-4-auction": 600}
"""Variants whose card play (every decision but the auction's calls) gives the rollouts of
candidates dropped early to the others (``Context.spread``), each up to this many worlds, within
the same rollouts a decision (``CAPS``). A contract's set swings a deal by hundreds of points, so
the leading plays differ by less than their noise (a first lead tried with ten seeds picked A♣ 5
times, J♦ 3 and A♦ 2; over 200 worlds J♦ - A♦ had a spread of 118 points a world). Measured with
``hard``'s card play against ``basic``'s (both bidding as ``basic``), the same deals with and
without: seed 1, 82.5% -> 85.3% of 160 pairs, +4.6 a deal [-5.3, +14.5]; seed 2, 85.9% -> 88.1%,
+2.1 a deal [-6.9, +11.1] (of the pairs whose result changed, 29 went its way and 17 the other).
Double-deck, whose contracts swing a deal too, measured worse with 600, same 100 pairs against the
same code without: seed 1, 70.0% -> 68.5% of pairs, -3.1 a deal [-6.6, +0.4] (7 of 16 changed pairs
its way); seed 2, 67.5% -> 64.5%, -0.9 [-4.1, +2.3] (5 of 14); CPU p99 0.96 and 0.91 -> 0.97 s."""
BASIC_LEAN: dict[str, float] = {"pinochle-3": 1.0}
"""Per variant: how much better a deal (in its score units) the search must find a move than
``basic``'s before it plays it instead. Three-hand pays for the contract alone: where the sampled
deals agree it is made (or set) whatever is played, the search tells moves apart only by the counters
its fast rollouts take, which is noise beside ``basic``'s reading of the cards. ``basic``'s move is
never dropped from the search early (``evaluate``'s ``keep``), so it is weighed over all the worlds:
before, once dropped after a few worlds, the search's own choice stood. Same deals with and without
(80 pairs each of seeds 1-3, 240 in all): 57.3% -> 58.8% of pairs, +0.22 chips a deal [+0.03,
+0.41] (of the 11 pairs whose result changed, 7 went its way). Pitch, where the search's rollouts
play ``basic``'s own card play, measured worse with a lean of 0.2 points, same 200 pairs (seed 1):
4-player 67.2% -> 64.2% of pairs, -0.02 a deal [-0.09, +0.04] (85 pairs tied instead of 73);
partnership 66.5% -> 65.2%, -0.04 [-0.17, +0.09]. Nor did a lean help where the search's own
rollouts are noisy: double-deck, 1.0 point, same 100 pairs (seed 1), 70.0% -> 70.5% of pairs, -1.2 a
deal [-5.1, +2.7] (21 pairs changed, 11 its way); partnership auction, 5 points, same 160 pairs (seed
1), 85.0% -> 82.5%, -1.2 a deal [-11.8, +9.4] (29 changed, 12 its way)."""


@dataclass(frozen=True)
class Advice:
    """What ``hard`` would do now, and why in one line (naming no other seat's hidden card)."""

    action: Action
    reason: str


class HardPlayer:
    """Searches sampled worlds for every decision.

    ``budget``: seconds per decision (the search stops in time to keep it); ``samples``: sampled
    worlds per candidate at most; ``rollouts``: rollouts per decision at most (``CAPS`` by family
    when not given). A decision is deterministic given the seed and the seat's view (its random
    source is seeded from both), as long as the budget does not cut the search short.
    """

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
        """Without the game to sample from, decide as ``basic`` does (``decide`` calls
        ``choose_for`` instead)."""
        family = str(view.get("family") or self.family)
        basic = self._basic.get(family)
        if basic is None:
            basic = self._basic[family] = make_player(family, "basic", self.seed)
        return basic.choose(view, legal)

    def choose_for(self, game: Game, seat: int, legal: list[Action]) -> Action:
        """``seat``'s move in ``game``, by search."""
        return self.think(game, seat, legal).action

    def advise(self, game: Game, seat: int) -> Advice:
        """What this player would do for ``seat`` now, with a one-line reason (for hints). Raises
        ``ValueError`` when the seat has nothing to do (not its turn, and declaring out, which a
        seat may do out of turn, would not win)."""
        legal = game.legal_actions(seat)
        if seat not in game.to_act:
            declare = [a for a in legal if a.kind is Kind.DECLARE_OUT]
            legal = declare if declare and declaring_wins(game, seat, declare[0], self.seed) else []
        if not legal:
            raise ValueError(f"seat {seat + 1} has nothing to do now")
        return self.think(game, seat, legal)

    # ----- deciding ------------------------------------------------------------------------
    def caps(self, game: Game) -> tuple[int, int]:
        """Worlds per candidate and rollouts per decision at most for ``game`` (``CAPS`` unless
        given to the constructor)."""
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
            # Calls keep the fast endings: with exact ones the auction's CPU p99 rose from 0.39 to
            # 0.49 s a decision (100 pairs, seed 8) with no gain to show for it.
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
        """The candidate that stands for ``basic``'s choice (a card of the same suit and rank when
        ``basic`` chose one that plays alike), which the search keeps to the end and plays unless
        it finds a move better by ``BASIC_LEAN`` a deal at least."""
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
    """Whether declaring out now wins (what decides it is public: scores, meld, counters taken;
    so any sampled world tells)."""
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
    """The tally of ``basic``'s move (``basics``, one of the candidates searched) instead of the
    search's ``chosen`` unless ``chosen`` was found better by ``lean`` a deal at least over the same
    worlds (``BASIC_LEAN``)."""
    kept = next(t for t in tallies if t.action == basics)
    if not kept.count or chosen.mean - kept.mean >= lean:
        return chosen
    return kept
