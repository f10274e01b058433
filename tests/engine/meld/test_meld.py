"""The meld counter shared by every pinochle variant: §3 of pinochle.md, its class rule, the 4-hand
doubles and the 96-card extras, and the two-hand one-combination-at-a-time rules."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.engine import Card, Rank, Suit, make_deck, parse_cards
from bot.engine.meld import (
    FOUR_HAND,
    NINETY_SIX,
    SINGLE_DECK,
    SINGLE_DECK_64,
    LaidCard,
    MeldKind,
    MeldTable,
    combinations,
    count_meld,
    identify,
    meld_total,
    plan_meld,
)
from bot.engine.pinochle import meld_hand

# (cards, trump, total, meld names) — each total worked out by hand from §3.
FOUR_HAND_CASES = [
    ("AH 10H KH QH JH", "H", 150, ["flush"]),
    ("AH 10H KH KH QH QH JH", "H", 190, ["flush", "royal marriage"]),  # flush + extra royal marriage
    ("AH 10H KH QH JH 9H 9H", "H", 170, ["flush", "dix", "dix"]),  # each dix counted
    ("QS JD QS JD", "H", 300, ["double pinochle"]),
    ("QS JD", "C", 40, ["pinochle"]),
    ("AS AH AD AC AS AH AD AC", "H", 1000, ["8 aces"]),
    ("AS AH AD AC AS", "H", 100, ["100 aces"]),
    ("AS AH AD AC AS AH AD", "D", 100, ["100 aces"]),  # 7 aces are only 100 aces
    # K and Q of every suit: kings 80 + queens 60 + royal marriage 40 + three marriages 60.
    (
        "KS KH KD KC QS QH QD QC",
        "H",
        240,
        ["marriage", "royal marriage", "marriage", "marriage", "80 kings", "60 queens"],
    ),
    ("KS QS KS QS", "H", 40, ["marriage", "marriage"]),
    ("KH QH KH QH", "H", 80, ["royal marriage", "royal marriage"]),
    ("AH 10H KH QH JH AH 10H KH QH JH", "H", 1500, ["double flush"]),
    ("AH 10H KH QH JH AH 10H KH QH JH 9H 9H", "H", 1520, ["double flush", "dix", "dix"]),
    ("9H", "H", 10, ["dix"]),
    ("9H 9S", "S", 10, ["dix"]),  # only the 9 of trump is a dix
    ("JS JH JD JC QS", "H", 80, ["40 jacks", "pinochle"]),  # J♦ in two classes
    ("JS JH JD JC JS JH JD JC QS QS", "H", 700, ["8 jacks", "double pinochle"]),
    ("KS QS JD", "H", 60, ["marriage", "pinochle"]),  # shown at once: Q♠ in classes A and C
    ("QS QH QD QC QS QH QD QC KS KH", "H", 660, ["marriage", "royal marriage", "8 queens"]),
    ("AH 10H KH QH JH KS KH KD KC", "H", 230, ["flush", "80 kings"]),  # K♥ in classes A and B
    ("AH AH 10H 10H KH KH QH QH JH", "H", 190, ["flush", "royal marriage"]),  # one jack: one flush
    ("KD QD KD QD KC QC", "S", 60, ["marriage", "marriage", "marriage"]),
    ("AS 10S 9C", "H", 0, []),
    (
        "AS AH AD AC KS KH KD KC QS QH QD QC JS JH JD JC",
        "S",
        420,  # 100 + 80 + 60 + 40 + royal 40 + 3 marriages 60 + pinochle 40
        [
            "royal marriage",
            "marriage",
            "marriage",
            "marriage",
            "100 aces",
            "80 kings",
            "60 queens",
            "40 jacks",
            "pinochle",
        ],
    ),
    (
        "KS KH KD KC KS KH KD KC QS QH QD QC QS QH QD QC",
        "D",
        1600,  # 8 kings 800 + 8 queens 600 + 2 royal marriages 80 + 6 marriages 120
        [
            "marriage",
            "marriage",
            "marriage",
            "marriage",
            "royal marriage",
            "royal marriage",
            "marriage",
            "marriage",
            "8 kings",
            "8 queens",
        ],
    ),
    ("AS 10S KS QS JS 9S AH AD AC", "S", 260, ["flush", "dix", "100 aces"]),
    ("KH QH JH 10H", "H", 40, ["royal marriage"]),  # no ace: no flush
    ("AC 10C KC QC JC", "H", 20, ["marriage"]),  # a run in a plain suit is only its marriage
]


@pytest.mark.parametrize(("cards", "trump", "total", "names"), FOUR_HAND_CASES)
def test_four_hand_meld_totals_worked_by_hand(cards: str, trump: str, total: int, names: list[str]) -> None:
    result = count_meld(parse_cards(cards), Suit.parse(trump), FOUR_HAND)
    assert result.total == total
    assert sorted(m.name for m in result.melds) == sorted(names)
    assert sum(m.points for m in result.melds) == total
    assert meld_total(parse_cards(cards), Suit.parse(trump), FOUR_HAND) == total
    assert meld_hand("pinochle-4", trump, cards).total == total


def test_each_meld_lists_the_cards_it_uses() -> None:
    result = count_meld(parse_cards("AH 10H KH KH QH QH JH QS JD 9H"), Suit.HEARTS, FOUR_HAND)
    by_name = {m.name: [c.code for c in m.cards] for m in result.melds}
    assert by_name == {
        "flush": ["AH", "10H", "KH", "QH", "JH"],
        "royal marriage": ["KH", "QH"],
        "pinochle": ["QS", "JD"],
        "dix": ["9H"],
    }
    expected = ["AH", "10H", "KH", "KH", "QH", "QH", "JH", "QS", "JD", "9H"]
    assert Counter(c.code for c in result.used_cards()) == Counter(expected)
    assert result.to_json()["total"] == 240


def test_used_cards_counts_a_card_shared_by_two_classes_once() -> None:
    result = count_meld(parse_cards("KS QS JD 9C"), Suit.HEARTS, FOUR_HAND)
    assert sorted(c.code for c in result.used_cards()) == ["JD", "KS", "QS"]


@pytest.mark.parametrize(
    ("cards", "trump", "total"),
    [
        ("AS AH AD AC AS AH AD AC", "H", 200),  # no 8-aces meld: two 100 aces
        ("AH 10H KH QH JH AH 10H KH QH JH", "H", 300),  # no double flush: two flushes
        ("QS JD QS JD", "S", 300),  # double pinochle is a single-deck meld
        ("KS QS JD", "H", 60),
        ("AH 10H KH QH JH 9H", "H", 160),
    ],
)
def test_single_deck_table_has_no_four_hand_doubles(cards: str, trump: str, total: int) -> None:
    assert count_meld(parse_cards(cards), Suit.parse(trump), SINGLE_DECK).total == total


def test_deck64_dix_is_the_seven_of_trump() -> None:
    assert count_meld(parse_cards("7H 9H"), Suit.HEARTS, SINGLE_DECK_64).total == 10
    assert [m.cards[0].code for m in count_meld(parse_cards("7H 7H"), Suit.HEARTS, SINGLE_DECK_64).melds] == [
        "7H",
        "7H",
    ]


@pytest.mark.parametrize(
    ("cards", "trump", "total"),
    [
        ("KS QS KS QS", "H", 300),  # two marriages in one suit
        ("KS QS KS QS KS QS", "H", 600),  # three
        ("KS QS KS QS KS QS KS QS", "H", 3000),  # every quadruple is 3000
        ("QS JD QS JD QS JD", "H", 600),  # triple pinochle
        ("QS JD QS JD QS JD QS JD", "H", 1200),  # quadruple pinochle
        ("AS AH AD AC " * 3, "H", 2000),  # a triple is twice its double
        ("AS AH AD AC " * 4, "H", 3000),
        ("KS KH KD KC " * 3, "C", 1600),
        ("JS JH JD JC " * 3, "C", 800),
        ("AH 10H KH QH JH " * 3, "H", 3000),  # triple flush = twice the double flush
        # A quadruple flush is 3000, but shown as a triple flush (3000) and a royal marriage it
        # makes 3040: the counter always shows the best arrangement.
        ("AH 10H KH QH JH " * 4, "H", 3040),
        ("AH 10H KH QH JH " * 2, "H", 1500),
        ("9H 9H 9H 9H", "H", 40),
        # three royal marriages (600) beat a flush + two royal marriages (150 + 300).
        ("AH 10H JH KH KH KH QH QH QH", "H", 600),
        ("AH 10H JH KH KH QH QH", "H", 300),  # 2 royal marriages 300 > flush + royal 190
    ],
)
def test_ninety_six_card_extras(cards: str, trump: str, total: int) -> None:
    assert count_meld(parse_cards(cards), Suit.parse(trump), NINETY_SIX).total == total


def test_tiers_without_an_exact_entry_split_into_the_best_tiers() -> None:
    kind = MeldKind("x", "A", {1: (10, "one"), 3: (50, "three")})
    assert kind.values[:5] == (0, 10, 20, 50, 60)
    assert kind.parts[4] == (3, 1)


def test_a_double_deck_style_table_fits_the_same_counter() -> None:
    """Issue 6 reuses the counter: type I/II/III, runs contain their royal marriage, no dix."""

    def tiers(name: str, *values: int) -> dict[int, tuple[int, str]]:
        return {i + 1: (v, f"{name} x{i + 1}") for i, v in enumerate(values)}

    table = MeldTable(
        name="double-deck-test",
        flush=MeldKind("flush", "I", tiers("run", 15, 150, 225, 300)),
        royal_marriage=MeldKind("royal-marriage", "I", tiers("royal marriage", 4, 8, 12, 16)),
        marriage=MeldKind("marriage", "I", tiers("marriage", 2, 4, 6, 8)),
        arounds=(
            (Rank.ACE, MeldKind("aces", "III", tiers("aces around", 10, 100, 150, 200))),
            (Rank.KING, MeldKind("kings", "III", tiers("kings around", 8, 80, 120, 160))),
            (Rank.QUEEN, MeldKind("queens", "III", tiers("queens around", 6, 60, 90, 120))),
            (Rank.JACK, MeldKind("jacks", "III", tiers("jacks around", 4, 40, 60, 80))),
        ),
        pinochle=MeldKind("pinochle", "II", tiers("pinochle", 4, 30, 60, 90)),
        dix=None,
        copies=4,
    )
    hand = parse_cards("AH 10H KH KH KH QH QH JH QD QD JD QC QC AS KS KS QS QS JS")
    # The worked example of double-deck-pinochle.md: run 15 + royal marriage 4 + double marriage
    # in spades 4 + pinochle 4 + double queens around 60 = 87.
    assert count_meld(hand, Suit.HEARTS, table).total == 87


def test_two_hand_combinations_and_identify() -> None:
    combos = combinations(SINGLE_DECK, Suit.HEARTS)
    names = sorted({c.name for c in combos})
    assert names == sorted(
        [
            "flush",
            "royal marriage",
            "marriage",
            "dix",
            "100 aces",
            "80 kings",
            "60 queens",
            "40 jacks",
            "pinochle",
            "double pinochle",
        ]
    )
    assert identify(parse_cards("JD QS"), Suit.HEARTS, SINGLE_DECK).name == "pinochle"  # type: ignore[union-attr]
    # K♠ Q♠ J♦ is not one combination (marriage and pinochle cannot be laid together).
    assert identify(parse_cards("KS QS JD"), Suit.HEARTS, SINGLE_DECK) is None
    assert identify(parse_cards("KH QH"), Suit.HEARTS, SINGLE_DECK).points == 40  # type: ignore[union-attr]
    assert identify(parse_cards("KS QS"), Suit.HEARTS, SINGLE_DECK).points == 20  # type: ignore[union-attr]


def _combo(cards: str, trump: Suit = Suit.HEARTS):  # type: ignore[no-untyped-def]
    combo = identify(parse_cards(cards), trump, SINGLE_DECK)
    assert combo is not None
    return combo


SLOT = SINGLE_DECK.class_slots


def _laid(*items: tuple[str, dict[str, int]]) -> list[LaidCard]:
    out: list[LaidCard] = []
    for code, used in items:
        usage = [0] * len(SLOT)
        for klass, points in used.items():
            usage[SLOT[klass]] = points
        out.append((Card.parse(code), tuple(usage)))
    return out


def test_pinochle_now_and_the_marriage_later_reuses_the_queen() -> None:
    laid = _laid(("QS", {"C": 40}), ("JD", {"C": 40}))
    marriage = _combo("KS QS")
    plan = plan_meld(marriage, parse_cards("KS 9C"), laid, SLOT["A"])
    assert plan == ([Card.parse("KS")], [0])


def test_a_melded_card_is_not_reused_in_an_equal_meld_of_its_class() -> None:
    laid = _laid(("KS", {"A": 20}), ("QS", {"A": 20}))
    plan = plan_meld(_combo("KS QS"), parse_cards("KS 9C"), laid, SLOT["A"])
    assert isinstance(plan, str) and "higher-scoring meld of the same class" in plan


def test_royal_marriage_grows_into_a_flush_but_not_back() -> None:
    laid = _laid(("KH", {"A": 40}), ("QH", {"A": 40}))
    plan = plan_meld(_combo("AH 10H KH QH JH"), parse_cards("AH 10H JH"), laid, SLOT["A"])
    assert plan == (parse_cards("AH 10H JH"), [0, 1])
    after = _laid(*[(c, {"A": 150}) for c in ("AH", "10H", "KH", "QH", "JH")])
    plan = plan_meld(_combo("KH QH"), parse_cards("9C"), after, SLOT["A"])
    assert isinstance(plan, str)


def test_pinochle_grows_into_double_pinochle() -> None:
    laid = _laid(("QS", {"C": 40}), ("JD", {"C": 40}))
    plan = plan_meld(_combo("QS JD QS JD"), parse_cards("QS JD"), laid, SLOT["C"])
    assert plan == (parse_cards("QS JD"), [0, 1])


def test_every_meld_needs_a_new_card_from_the_hand() -> None:
    laid = _laid(("KS", {"B": 80}), ("QS", {"B": 60}))
    plan = plan_meld(_combo("KS QS"), parse_cards("9C"), laid, SLOT["A"])
    assert isinstance(plan, str) and "new card" in plan
    # With a spare K♠ in hand, that one is laid instead.
    plan = plan_meld(_combo("KS QS"), parse_cards("KS"), laid, SLOT["A"])
    assert plan == ([Card.parse("KS")], [1])


def test_missing_cards_are_named() -> None:
    plan = plan_meld(_combo("AS AH AD AC"), parse_cards("AS AH AD"), [], SLOT["B"])
    assert plan == "You do not hold A♣ for the 100 aces."


def test_meld_counter_agrees_with_brute_force_on_random_four_hand_deals() -> None:
    """Brute force over every way to split each class into disjoint melds (small hands)."""
    rng = random.Random(5)
    deck = make_deck((Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE), 2)
    for _ in range(300):
        rng.shuffle(deck)
        hand = deck[:12]
        trump = rng.choice(list(Suit))
        assert count_meld(hand, trump, FOUR_HAND).total == _brute(hand, trump)


def _brute(hand: list[Card], trump: Suit) -> int:
    counts = Counter(hand)
    total = 0
    # class A per suit: try every number of flushes; extra K-Q pairs are (royal) marriages.
    for suit in Suit:
        k, q = counts[Card(suit, Rank.KING)], counts[Card(suit, Rank.QUEEN)]
        if suit is trump:
            best = 0
            flushes = min(
                counts[Card(suit, r)] for r in (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK)
            )
            for f in range(flushes + 1):
                value = {0: 0, 1: 150, 2: 1500}[f] + 40 * (min(k, q) - f)
                best = max(best, value)
            total += best + 10 * counts[Card(suit, Rank.NINE)]
        else:
            total += 20 * min(k, q)
    for rank, single in ((Rank.ACE, 100), (Rank.KING, 80), (Rank.QUEEN, 60), (Rank.JACK, 40)):
        n = min(counts[Card(s, rank)] for s in Suit)
        total += {0: 0, 1: single, 2: single * 10}[n]
    n = min(counts[Card.parse("QS")], counts[Card.parse("JD")])
    total += {0: 0, 1: 40, 2: 300}[n]
    return total


@pytest.mark.parametrize(
    ("table", "copies", "size"),
    [
        (SINGLE_DECK, 2, 18),
        (SINGLE_DECK_64, 2, 12),
        (FOUR_HAND, 2, 12),
        (NINETY_SIX, 4, 16),
        (NINETY_SIX, 4, 40),
    ],
)
def test_fast_total_agrees_with_the_listed_melds(table: MeldTable, copies: int, size: int) -> None:
    ranks = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE, Rank.EIGHT, Rank.SEVEN)
    deck = make_deck(ranks, copies)
    rng = random.Random(size)
    for _ in range(400):
        rng.shuffle(deck)
        hand, trump = deck[:size], rng.choice(list(Suit))
        result = count_meld(hand, trump, table)
        assert meld_total(hand, trump, table) == result.total == sum(m.points for m in result.melds)


@pytest.mark.parametrize("variant", ["pinochle-6", "pinochle-8"])
def test_the_rules_say_how_four_flushes_score_and_the_counter_agrees(variant: str) -> None:
    """Spec §3 (96 cards): "every other quadruple is a flat 3000", so a quadruple flush is worth no
    more than a triple flush (2 x 1500); the rules text must say how four flushes score, and the
    counter must score them so."""
    from bot.engine.prose import rules_prose

    text = rules_prose(variant)
    assert "Four flushes" in text and "3000 + 40 = 3040" in text
    four = count_meld(parse_cards("AH 10H KH QH JH " * 4), Suit.HEARTS, NINETY_SIX)
    three_and_spare = count_meld(parse_cards("AH 10H KH QH JH " * 3 + "KH QH"), Suit.HEARTS, NINETY_SIX)
    assert four.total == three_and_spare.total == 3040
    assert sorted(m.name for m in four.melds) == ["royal marriage", "triple flush"]
