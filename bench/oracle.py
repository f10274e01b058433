"""A bench-only level that sees every card: ``hard-sees-all`` is ``hard`` whose every sampled world is
the true deal (the hidden hands as they are), registered for every family when the duel bench runs
(``register``).

It cheats, so the bot never seats it. It measures how much of the gap between ``hard`` and a goal is
the hidden cards: the same search, the same fast rollouts, the same bidding, with nothing to guess.
Where ``hard-sees-all`` wins little more than ``hard`` against ``basic``, better guessing of the
hidden cards (inference, more worlds) cannot close the gap; only a better search or policy could.
``hard-sees-all-calls`` sees every card in its calls only (bids and passes), ``hard-sees-all-play``
in every other decision only, so the gap can be put down to the one or the other. In pitch,
``hard-sees-dealt-play`` knows in card play which cards were dealt, not who holds them
(``DealtContext``), which splits ``hard-sees-all-play``'s gain between what lies undealt and who
holds what.

Measured against ``basic`` (``bench/duel.py VARIANT --a LEVEL --b basic --seed 1``), beside ``hard``:
- 4-player pitch, 200 pairs: ``hard`` 67.2%, seeing the cards in play only 78.2%, in every decision
  83.8%. Partnership pitch: 66.5%, 85.8% and 95.8%. So in pitch the hidden cards are most of the
  gap; yet worlds that explain more of the play (``inference.PITCH_FIT``) gained little of it. Most
  of that gain is knowing which cards lie undealt, which the play seldom shows; who holds the cards
  dealt is worth little. Knowing in card play which cards were dealt (``hard-sees-dealt-play``),
  same 200 pairs: 4-player, 74.2% [67.8, 79.8] of pairs; against ``hard`` +0.27 a deal [+0.16,
  +0.38] of the +0.33 [+0.22, +0.43] that seeing the cards in play gains, who holds them adding
  +0.06 [-0.01, +0.13] (26 pairs of 41 changed). Partnership (``hard`` 69.2% with ``PITCH_FIT``):
  84.2% [78.6, 88.6], +0.71 a deal [+0.47, +0.96] of +0.92 [+0.68, +1.15], who holds them +0.20
  [+0.06, +0.34] (15 of 25). So reading who holds what could win about 4 points of pairs in
  4-player pitch and 2 in partnership pitch: from ``hard``'s 64.4% and 65.8% over 500 pairs, short
  of the 70% goal in both. The rest would take telling what lies undealt (the calls and the play
  hint at it) or a better search.
- Partnership auction, 100 pairs: 94.0% [87.5, 97.2] and +74 a deal seeing every card (``hard``
  83.5% over 500, 82.5% of these 100): there too the hidden cards are the gap, and all of it is in
  card play. Seeing them in play only, 94.5% [88.2, 97.5] and +94.6 a deal (of the pairs whose result
  changed against ``hard``, 17 went its way and 1 the other); in calls only, 72.5% [63.0, 80.3] and
  +10.2 a deal, below ``hard`` (the calls weighed in the one true world took 104 contracts of 200
  and made 82%: one world's rollouts are no estimate of a hand). Of the 160 pairs of seed 1 (``hard``
  85.0%), the 29 not won (10 of them tied) are often close: 24 had both contracts made, and 9 of
  the 19 lost by 45 points a deal or less. By who held the contract in the two plays: the same seat,
  87.1% of 101 pairs won; the other side, 84.8% of 33; partners, 76.9% of 26. Where the same seat
  named trump differently, ``hard``'s choice did better in 10 of 12. So no one decision explains the
  gap; it is points taken in card play, across the deal.
- Three-hand, 100 pairs: 65.5% [55.8, 74.1] seeing every card, 58.5% [48.7, 67.7] seeing them in
  play only (``hard`` 64.6% over 500): there the gap is not the hidden cards.
- Double-deck, 100 pairs: 54.5% and -9.6 a deal seeing every card, below ``hard`` (62.2%): with
  one world its auction bid what one fast rollout of the true deal made, and made 70% of its
  contracts (``basic`` 86%). Seeing every card is no upper bound where the rollouts mislead.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property

from bot.ai.base import register_level
from bot.ai.hard import FAMILIES, HardPlayer
from bot.ai.hard.search import Context
from bot.engine import Card, Game, Kind
from bot.engine.pitch import PitchBase
from bot.engine.pitch.worlds import revealed
from bot.engine.sampling import Dealer, Place

LEVEL = "hard-sees-all"
CALLS = frozenset({Kind.BID, Kind.PASS})


class TrueDealContext(Context):
    """A decision's search whose worlds are all the true deal (``seen``: in calls only, in every
    other decision only, or in all)."""

    seen: str = "all"

    @cached_property
    def sees(self) -> bool:
        """Whether this decision's worlds are the true deal."""
        calling = any(a.kind in CALLS for a in self.game.legal_actions(self.seat))
        return self.seen == "all" or (self.seen == "calls") == calling

    def sample(self) -> Game:
        return self.game.copy() if self.sees else super().sample()


class DealtContext(TrueDealContext):
    """Pitch card play that knows which cards were dealt (so which lie undealt) but not who holds
    them: the other seats' hands are dealt again among them in every world, respecting the voids
    the play showed (``hard-sees-dealt-play``). The share of ``hard-sees-all-play``'s gain it keeps
    is the share that no reading of the other hands could win (what lies undealt is rarely shown)."""

    seen = "play"

    @cached_property
    def redeal(self) -> tuple[list[int], Dealer, list[list[Card]]]:
        """Made once a decision: the other seats holding cards, the dealer of their cards among
        them (keeping the voids shown), and the cards each has parted with."""
        game = self.game
        assert isinstance(game, PitchBase)
        others = [s for s in range(game.players) if s != self.seat and game.hands[s]]
        _, forbidden = revealed(game)
        pool = [card for s in others for card in game.hands[s]]
        places = [Place(len(game.hands[s]), forbidden=forbidden[s]) for s in others]
        gone = [[c for c in game.dealt[s] if c not in game.hands[s]] for s in others]
        return others, Dealer(pool, places), gone

    def sample(self) -> Game:
        game = self.game
        if not self.sees or not isinstance(game, PitchBase) or game.trumps is None:
            return Context.sample(self)  # hard's own worlds (the calls, the pitch)
        others, dealer, gone = self.redeal
        world = game.copy()
        for other, cards, parted in zip(others, dealer.deal(self.rng), gone, strict=True):
            # What the seat was dealt: the new hand with the cards it has parted with.
            world.hands[other] = world.sort_cards(cards)
            world.dealt[other] = world.sort_cards(cards + parted)
        world.invalidate()
        return world


CONTEXTS: dict[str, type[TrueDealContext]] = {
    seen: type(f"TrueDealContext_{seen}", (TrueDealContext,), {"seen": seen})
    for seen in ("all", "calls", "play")
}
"""The search of each level: every card seen in all decisions, in calls only, in play only."""
DEALT = "hard-sees-dealt-play"
"""``DealtContext``'s level (pitch only: in pinochle every card is dealt)."""


def _factory(family: str, seen: str | type[TrueDealContext]) -> Callable[[int | None], HardPlayer]:
    context = CONTEXTS[seen] if isinstance(seen, str) else seen
    player = type(f"SeesAllPlayer_{context.__name__}", (HardPlayer,), {"context_type": context})

    def make(seed: int | None) -> HardPlayer:
        made: HardPlayer = player(seed, family=family)
        return made

    return make


def register() -> None:
    """Add the three levels to every family, and ``DEALT`` to pitch (the duel bench calls it;
    importing registers nothing, so that the tests importing this module still see the bot's own
    levels)."""
    for family in FAMILIES:
        for seen in CONTEXTS:
            register_level(family, LEVEL if seen == "all" else f"{LEVEL}-{seen}", _factory(family, seen))
    register_level("pitch", DEALT, _factory("pitch", DealtContext))
