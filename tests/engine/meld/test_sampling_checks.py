"""The meld checks the world sampler relies on: ``meld_total_counts`` is the general counter's
total, a meld total only grows as cards are added (``Place.monotone``), and where the table says
so (``MeldTable.total_fixes_melds``) an unchanged total means unchanged melds (so the sampler
compares totals only)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import Card, Suit, make_deck
from bot.engine.meld import (
    FOUR_HAND,
    NINETY_SIX,
    SINGLE_DECK,
    SINGLE_DECK_64,
    MeldTable,
    card_counts,
    count_meld,
    meld_total,
    meld_total_counts,
    meld_totaller,
)
from bot.engine.pinochle.common import RANKS_48, RANKS_64
from bot.engine.pinochle.double_deck import RANKS_80, double_deck_table

TABLES: list[tuple[MeldTable, list[Card]]] = [
    (SINGLE_DECK, make_deck(RANKS_48, 2)),
    (SINGLE_DECK_64, make_deck(RANKS_64, 2)),
    (FOUR_HAND, make_deck(RANKS_48, 2)),
    (NINETY_SIX, make_deck(RANKS_48, 4)),
    (double_deck_table(), make_deck(RANKS_80, 4)),
    (double_deck_table("npa"), make_deck(RANKS_80, 4)),
    (double_deck_table("toby-thomas", roundhouse=32), make_deck(RANKS_80, 4)),
    (double_deck_table(roundhouse=39), make_deck(RANKS_80, 4)),
    (double_deck_table(double_roundhouse=240), make_deck(RANKS_80, 4)),
]


@st.composite
def hand_and_more(draw: st.DrawFn) -> tuple[MeldTable, list[Card], list[Card], Suit | None]:
    """A table, a hand from its pack, more cards from the rest of the pack, and trump (or None)."""
    table, pack = draw(st.sampled_from(TABLES))
    order = draw(st.permutations(range(len(pack))))
    size = draw(st.integers(0, 20))
    more = draw(st.integers(0, 8))
    hand = [pack[i] for i in order[:size]]
    extra = [pack[i] for i in order[size : size + more]]
    trump = draw(st.sampled_from([*Suit, None]))
    return table, hand, extra, trump


@settings(max_examples=600, deadline=None)
@given(hand_and_more())
def test_the_total_from_counts_is_the_general_counters(
    case: tuple[MeldTable, list[Card], list[Card], Suit | None],
) -> None:
    table, hand, extra, trump = case
    cards = hand + extra
    assert meld_total_counts(card_counts(cards), trump, table) == count_meld(cards, trump, table).total
    assert meld_total(cards, trump, table) == count_meld(cards, trump, table).total
    assert meld_totaller(trump, table)(card_counts(cards)) == count_meld(cards, trump, table).total


@settings(max_examples=600, deadline=None)
@given(hand_and_more())
def test_a_meld_total_only_grows_as_cards_are_added(
    case: tuple[MeldTable, list[Card], list[Card], Suit | None],
) -> None:
    table, hand, extra, trump = case
    assert meld_total(hand + extra, trump, table) >= meld_total(hand, trump, table)


@settings(max_examples=600, deadline=None)
@given(hand_and_more())
def test_where_the_table_says_so_an_unchanged_total_keeps_the_melds(
    case: tuple[MeldTable, list[Card], list[Card], Suit | None],
) -> None:
    table, hand, extra, trump = case
    if not table.total_fixes_melds:
        return
    before = count_meld(hand, trump, table)
    after = count_meld(hand + extra, trump, table)
    if after.total == before.total:
        assert after == before


def test_the_tables_that_need_the_melds_compared() -> None:
    """The 96-card table (a quadruple flush scores as much as a triple, 3000) and the trump-suit
    house rules of the double-deck tables do not let the total tell the melds."""
    assert (
        FOUR_HAND.total_fixes_melds
        and SINGLE_DECK.total_fixes_melds
        and double_deck_table().total_fixes_melds
    )
    assert not NINETY_SIX.total_fixes_melds
    assert not double_deck_table("toby-thomas", roundhouse=32).total_fixes_melds
