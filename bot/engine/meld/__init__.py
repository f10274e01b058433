"""Pinochle meld: ONE counter shared by every pinochle variant, with the meld tables as data.

A ``MeldTable`` lists the meld kinds a game scores (flush, royal marriage, marriage, dix, the four
"arounds", pinochle) with their *tiers*: the points for 1, 2, 3 or 4 copies of the combination held
at once (``{1: 150, 2: 1500}`` is a flush and a double flush). A number of copies with no tier of its
own is scored as the best split into tiers (two flushes in a table without a double flush are two
flushes of 150 each).

Each kind belongs to a *class* (single deck: A, B, C; double deck: types I, II, III). When meld is
shown all at once (``count_meld``) a card may count in melds of different classes but in only one
meld of the same class, except that a flush contains its royal marriage (a flush counts 150, not
150 + 40; an extra K Q of trump beside it is a royal marriage of its own). Classes are independent,
so the best total is the sum of the best total of each class, and within a class each suit (and
each rank, for the arounds) is independent too.

Two-hand pinochle melds one combination at a time onto the table; ``Combination``,
``combinations`` and ``plan_meld`` implement its limits (one combination, at least one new card
from the hand, a card already melded is reused only in another class or in a higher-scoring meld
of the same class).

Double-deck pinochle reuses all of this with its own table (``flush_contains_royal``, its tiers,
type names I/II/III) and three trump-suit house rules the counter weighs together with the runs:
``run_lends_royal`` (the Toby Thomas table: beside a run, the royal marriages count the run's own
K Q too, and each run's K or Q marries one spare Q or K), ``roundhouse``/``double_roundhouse``
(a K and a Q of every suit scored at a set value in place of its parts) and
``roundhouse_run_royal`` (a roundhouse's royal marriage counts even inside a run: 24 + 15 = 39).

The package: ``model`` (the data model), ``tables`` (every meld table as data), ``counter`` (a whole
hand at once) and ``plan`` (two-hand melding); this module is its face.
"""

from __future__ import annotations

from bot.engine.meld.counter import (
    card_counts,
    count_meld,
    count_meld_counts,
    meld_total,
    meld_total_counts,
    meld_totaller,
)
from bot.engine.meld.model import (
    AROUND_RANKS,
    DIAMOND_JACK,
    FLUSH_RANKS,
    MAX_COPIES,
    SPADE_QUEEN,
    ExtraRule,
    Meld,
    MeldKind,
    MeldResult,
    MeldTable,
)
from bot.engine.meld.plan import Combination, LaidCard, canonical_cards, combinations, identify, plan_meld
from bot.engine.meld.tables import (
    FOUR_HAND,
    MELD_VALUES,
    NINETY_SIX,
    SINGLE_DECK,
    SINGLE_DECK_64,
    STANDARD_VALUES,
    Values,
    describe_tables,
    double_deck_table,
)

__all__ = [
    "AROUND_RANKS",
    "DIAMOND_JACK",
    "FLUSH_RANKS",
    "FOUR_HAND",
    "MAX_COPIES",
    "MELD_VALUES",
    "NINETY_SIX",
    "SINGLE_DECK",
    "SINGLE_DECK_64",
    "SPADE_QUEEN",
    "STANDARD_VALUES",
    "Combination",
    "ExtraRule",
    "LaidCard",
    "Meld",
    "MeldKind",
    "MeldResult",
    "MeldTable",
    "Values",
    "canonical_cards",
    "card_counts",
    "combinations",
    "count_meld",
    "count_meld_counts",
    "describe_tables",
    "double_deck_table",
    "identify",
    "meld_total",
    "meld_total_counts",
    "meld_totaller",
    "plan_meld",
]
