"""Double-deck meld (§3 of double-deck-pinochle.md) and every meld-score variation of §8, through
the shared counter, ``meld_hand`` and the ``meld`` command."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from bot.cli import main
from bot.engine import BadCard, BadOption, Card, Rank, Suit, make_deck, parse_cards
from bot.engine.meld import count_meld, meld_total
from bot.engine.pinochle import meld_hand, pinochle_variants
from bot.engine.pinochle.double_deck import RANKS_80, double_deck_table

WORKED = "AH 10H KH KH KH QH QH JH QD QD JD QC QC AS KS KS QS QS JS"
"""§3's worked example (hearts trump): 87."""

TABLE = double_deck_table()


def total(cards: str, trump: str = "H", variant: str = "double-deck", **options: object) -> int:
    return meld_hand(variant, trump, cards, {k.replace("_", "-"): v for k, v in options.items()}).total


def test_the_worked_example_scores_87_with_each_meld_named() -> None:
    result = meld_hand("double-deck", "H", WORKED)
    assert result.total == 87
    names = sorted((m.name, m.points) for m in result.melds)
    assert names == sorted(
        [
            ("run", 15),
            ("royal marriage", 4),  # the spare Q marries one spare K
            ("double marriage", 4),  # spades
            ("pinochle", 4),
            ("double queens around", 60),
        ]
    )
    # One Q♠ is in the spade marriage, the pinochle and the queens around at once (three types).
    classes = {m.klass for m in result.melds if Card.parse("QS") in m.cards}
    assert classes == {"I", "II", "III"}


@pytest.mark.parametrize("variant", ["double-deck", "double-deck-pass"])
def test_every_standard_preset_scores_the_worked_example_87(variant: str) -> None:
    assert total(WORKED, variant=variant) == 87


# (cards, trump, total): §3's table worked by hand.
STANDARD = [
    ("AH 10H KH QH JH", "H", 15),
    ("AH 10H KH KH QH QH JH", "H", 19),  # run + an extra royal marriage
    ("AH AH 10H 10H KH KH QH QH JH JH", "H", 150),
    ("AH 10H KH QH JH " * 3, "H", 225),
    ("AH 10H KH QH JH " * 4, "H", 300),
    ("KH QH", "H", 4),
    ("KH QH " * 2, "H", 8),
    ("KH QH " * 3, "H", 12),
    ("KH QH " * 4, "H", 16),
    ("KS QS", "H", 2),
    ("KS QS KS QS", "H", 4),
    ("KS QS " * 3, "H", 6),
    ("KS QS " * 4, "H", 8),
    ("KS QS QS", "H", 2),  # a K and two Qs are one marriage
    ("AC 10C KC QC JC", "H", 2),  # a run in a plain suit is only its marriage
    ("QS JD", "H", 4),
    ("QS JD " * 2, "H", 30),
    ("QS JD " * 3, "H", 60),
    ("QS JD " * 4, "H", 90),
    ("AS AH AD AC", "H", 10),
    ("AS AH AD AC " * 2, "H", 100),
    ("AS AH AD AC " * 3, "H", 150),
    ("AS AH AD AC " * 4, "H", 200),
    ("KS KH KD KC", "D", 8),  # kings around (no queen: no marriage)
    ("KS KH KD KC " * 2, "C", 80),
    ("KS KH KD KC " * 3, "C", 120),
    ("KS KH KD KC " * 4, "C", 160),
    ("QS QH QD QC", "C", 6),
    ("QS QH QD QC " * 2, "C", 60),
    ("QS QH QD QC " * 3, "C", 90),
    ("QS QH QD QC " * 4, "C", 120),
    ("JS JH JD JC", "C", 4),
    ("JS JH JD JC " * 2, "C", 40),
    ("JS JH JD JC " * 3, "C", 60),
    ("JS JH JD JC " * 4, "C", 80),
    ("10S 10H 10D 10C 10S 10H 10D 10C", "H", 0),  # tens around score nothing
    ("KS QS JD", "H", 6),  # Q♠ in a marriage (I) and a pinochle (II)
    ("KS QS JD QH QD QC", "C", 2 + 4 + 6),  # ... and queens around (III)
    ("AH 10H KH QH JH KS KD KC", "H", 15 + 8),  # K♥ in the run (I) and kings around (III)
]


@pytest.mark.parametrize(("cards", "trump", "points"), STANDARD)
def test_standard_meld_table(cards: str, trump: str, points: int) -> None:
    result = count_meld(parse_cards(cards), Suit.parse(trump), TABLE)
    assert result.total == points == sum(m.points for m in result.melds)
    assert meld_total(parse_cards(cards), Suit.parse(trump), TABLE) == points


def test_a_card_counts_in_one_meld_of_each_type_only() -> None:
    # Three K♠ and one Q♠: one marriage; two jacks around need two J♦, one is not shared.
    assert total("KS KS KS QS", "H") == 2
    assert total("JS JH JD JC JS JH JC QS", "H") == 4 + 4  # jacks around + pinochle, one J♦ each


# ----- the meld-score variations of §8 ------------------------------------------------------------
@pytest.mark.parametrize(
    ("cards", "standard", "book"),
    [
        ("QS JD " * 3, 60, 45),  # triple pinochle 45
        ("QS JD " * 4, 90, 300),  # quadruple pinochle 300
        ("AH 10H KH QH JH " * 2, 150, 30),  # runs without bonus
        ("AH 10H KH QH JH " * 3, 225, 45),
        ("AH 10H KH QH JH " * 4, 300, 60),
        ("QS JD", 4, 4),
        ("AH 10H KH QH JH", 15, 15),
    ],
)
def test_book_scores(cards: str, standard: int, book: int) -> None:
    assert total(cards) == standard
    assert total(cards, meld="book") == book


@pytest.mark.parametrize(
    ("cards", "standard", "npa"),
    [
        ("AH 10H KH QH JH", 15, 25),  # run 25
        ("QS JD", 4, 15),  # single pinochle 15
        ("QS JD QS JD", 30, 30),
        ("AH AH 10H 10H KH KH QH QH JH JH", 150, 150),
        (WORKED, 87, 87 + 10 + 11),
    ],
)
def test_npa_scores_and_preset(cards: str, standard: int, npa: int) -> None:
    assert total(cards) == standard
    assert total(cards, meld="npa") == npa
    assert total(cards, variant="double-deck-npa") == npa


def test_pinochle_14() -> None:
    assert total("QS JD", pinochle_14=True) == 14
    assert total("QS JD " * 2, pinochle_14=True) == 30
    assert total("QS JD " * 3, pinochle_14=True) == 60
    assert total("QS JD " * 4, pinochle_14=True) == 90
    assert total("QS JD " * 3, pinochle_14=True, meld="book") == 45
    with pytest.raises(BadOption, match="pinochle-14 and meld=npa"):
        total("QS JD", pinochle_14=True, meld="npa")


ROUNDHOUSE = "KS QS KH QH KD QD KC QC"


def test_roundhouse_is_24_by_default_32_or_39_with_a_run() -> None:
    # Royal marriage 4 + three marriages 6 + kings around 8 + queens around 6.
    assert total(ROUNDHOUSE) == 24
    assert total(ROUNDHOUSE, roundhouse=32) == 32
    assert total(ROUNDHOUSE, roundhouse=39) == 24  # no run
    with_run = ROUNDHOUSE + " AH 10H JH"
    # Normally the run takes the royal marriage's K Q: run 15 + 6 + 8 + 6 = 35.
    assert total(with_run) == 35
    assert total(with_run, roundhouse=39) == 39  # 24 + 15: the royal marriage counts in the run too
    assert total(with_run, roundhouse=32) == 35  # 32 needs the royal marriage outside the run
    assert total(with_run + " KH QH", roundhouse=32) == 15 + 32
    result = meld_hand("double-deck", "H", ROUNDHOUSE, {"roundhouse": 32})
    assert any(m.name == "roundhouse bonus (32 in all)" and m.points == 8 for m in result.melds)


def test_double_roundhouse_160_or_240() -> None:
    double = ROUNDHOUSE + " " + ROUNDHOUSE
    assert total(double) == 160  # 8 + 3 x 4 + 80 + 60
    assert total(double, double_roundhouse=240) == 240
    assert total(double, double_roundhouse=240, roundhouse=32) == 240
    assert total(double, roundhouse=32) == 160 + 2 * 8  # each roundhouse 8 over its parts [gap]
    assert total(ROUNDHOUSE, double_roundhouse=240) == 24


def test_100_aces_multiplies_every_meld_by_ten() -> None:
    assert total(WORKED, **{"100-aces": True}) == 870
    assert total("AS AH AD AC", **{"100-aces": True}) == 100  # "a single aces around is 100"
    assert total("QS JD", **{"100-aces": True}, meld="npa") == 150


# ----- Toby Thomas ------------------------------------------------------------------------------
TOBY = "double-deck-toby-thomas"


@pytest.mark.parametrize(
    ("cards", "points"),
    [
        ("AH 10H KH KH QH QH JH", 45),  # 15 + 30, as printed
        ("AH 10H KH KH KH QH QH QH JH", 75),  # 15 + 60 (printed with one Q too few)
        ("AH AH 10H 10H KH KH KH QH QH QH JH JH", 210),  # 150 + 60 (idem)
        ("AH 10H KH KH QH JH", 15),  # a lone spare K is no marriage
        ("AH 10H KH KH KH QH QH JH", 45),  # two K-Q pairs: 15 + 30
        ("AH AH 10H 10H KH KH KH QH QH JH JH", 150),  # no K-Q pair to spare beside two runs
    ],
)
def test_the_toby_thomas_examples_as_the_spec_reads_them(cards: str, points: int) -> None:
    """Spec §8: "when a player holds a spare trump K and Q beyond the run(s), the royal marriages
    are counted over all K-Q pairs, the run's included ... So A-10-K-K-Q-J (a lone spare K) = 15,
    and A-10-K-K-K-Q-Q-J (two K-Q pairs) = 45"."""
    assert total(cards, variant=TOBY) == points
    assert total(cards, meld="toby-thomas") == points
    assert meld_total(parse_cards(cards), Suit.HEARTS, double_deck_table("toby-thomas")) == points


def test_the_issue_13_meld_command_gives_15_for_a_lone_spare_king(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["meld", "double-deck-toby-thomas", "--trump", "H", "AH", "10H", "KH", "KH", "QH", "JH"]
    assert main([*argv, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 15


def test_toby_thomas_example_melds_are_named_and_show_every_card_they_count() -> None:
    result = meld_hand(TOBY, "H", "AH 10H KH KH KH QH QH QH JH")
    assert sorted((m.name, m.points, " ".join(c.code for c in m.cards)) for m in result.melds) == [
        ("run", 15, "AH 10H KH QH JH"),
        ("triple royal marriage (with the run's K Q)", 60, "KH QH KH QH KH QH"),
    ]


@pytest.mark.parametrize(
    ("cards", "points"),
    [
        ("AH 10H KH QH JH", 15),  # a lone run is only the run
        ("KH QH KH QH", 30),  # double royal marriage
        ("KH QH " * 3, 60),
        ("KH QH " * 4, 240),
        ("AH 10H KH QH JH " * 3, 500),  # triple run
        # Four runs' worth: a quadruple run is 500 ("—": the highest listed, above 300), but shown as a
        # triple run with the fourth K Q to spare it is 500 + quadruple royal 240 (the best).
        ("AH 10H KH QH JH " * 4, 740),
        ("AH 10H QH JH " * 4 + "KH KH KH", 500),  # the fourth Q has no K: a triple run
        ("AH 10H KH QH JH " * 4, 740),
        ("QS JD " * 3, 90),
        ("QS JD " * 4, 360),
        ("AS AH AD AC " * 2, 100),
        # "—": the standard value or the highest listed, whichever is more.
        ("AS AH AD AC " * 3, 150),
        ("AS AH AD AC " * 4, 200),
        ("KS KH KD KC " * 4, 400),
        ("KS KH KD KC " * 3, 400),
        ("QS QH QD QC " * 3, 300),
        ("JS JH JD JC " * 3, 200),
        ("JS JH JD JC " * 4, 200),
        ("KS QS KS QS", 4),
    ],
)
def test_toby_thomas_table(cards: str, points: int) -> None:
    assert total(cards, "H", variant=TOBY) == points


def test_meld_counter_matches_brute_force_on_random_double_deck_hands() -> None:
    rng = random.Random(80)
    deck = make_deck(RANKS_80, 4)
    for _ in range(300):
        rng.shuffle(deck)
        hand = deck[:20]
        trump = rng.choice(list(Suit))
        assert count_meld(hand, trump, TABLE).total == _brute(hand, trump)


def _brute(hand: list[Card], trump: Suit) -> int:
    counts = Counter(hand)
    run = {0: 0, 1: 15, 2: 150, 3: 225, 4: 300}
    total = 0
    for suit in Suit:
        pairs = min(counts[Card(suit, Rank.KING)], counts[Card(suit, Rank.QUEEN)])
        if suit is trump:
            runs = min(counts[Card(suit, r)] for r in RANKS_80)
            total += max(run[f] + 4 * (pairs - f) for f in range(runs + 1))
        else:
            total += 2 * pairs
    for rank, values in (
        (Rank.ACE, (0, 10, 100, 150, 200)),
        (Rank.KING, (0, 8, 80, 120, 160)),
        (Rank.QUEEN, (0, 6, 60, 90, 120)),
        (Rank.JACK, (0, 4, 40, 60, 80)),
    ):
        total += values[min(counts[Card(s, rank)] for s in Suit)]
    return total + (0, 4, 30, 60, 90)[min(counts[Card.parse("QS")], counts[Card.parse("JD")])]


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"meld": "toby-thomas"},
        {"roundhouse": 32, "double-roundhouse": 240},
        {"roundhouse": 39, "meld": "book"},
        {"meld": "toby-thomas", "roundhouse": 39, "pinochle-14": True, "100-aces": True},
    ],
)
def test_fast_total_agrees_with_the_listed_melds(options: dict[str, object]) -> None:
    table = double_deck_table(
        str(options.get("meld", "standard")),
        bool(options.get("pinochle-14")),
        int(options.get("roundhouse", 24)),  # type: ignore[call-overload]
        int(options.get("double-roundhouse", 160)),  # type: ignore[call-overload]
        10 if options.get("100-aces") else 1,
    )
    rng = random.Random(3)
    deck = make_deck(RANKS_80, 4)
    for _ in range(300):
        rng.shuffle(deck)
        hand, trump = deck[: rng.choice((20, 23, 40))], rng.choice(list(Suit))
        result = count_meld(hand, trump, table)
        assert meld_total(hand, trump, table) == result.total == sum(m.points for m in result.melds)
        need = Counter(result.used_cards())
        have = Counter(hand)
        assert all(have[c] >= n for c, n in need.items()), (result.melds, hand)


# ----- the meld command ---------------------------------------------------------------------------
def test_meld_command_counts_the_worked_example(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["meld", "double-deck", "--trump", "H", *WORKED.split(), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["total"] == 87
    assert main(["meld", "double-deck", "--trump", "H", *WORKED.split()]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1].split() == ["total", "87"]
    assert any(line.startswith("double queens around") for line in lines)


@pytest.mark.parametrize(
    ("argv", "points"),
    [
        (["meld", "double-deck-toby-thomas", "--trump", "H", "AH", "10H", "KH", "KH", "QH", "QH", "JH"], 45),
        (["meld", "double-deck-npa", "--trump", "C", "QS", "JD"], 15),
        (["meld", "double-deck", "--trump", "C", "QS", "JD", "--option", "pinochle-14=on"], 14),
        (["meld", "double-deck", "--trump", "H", *ROUNDHOUSE.split(), "--option", "roundhouse=32"], 32),
        (["meld", "double-deck-npa", "--trump", "C", "QS", "JD", "--option", "meld=standard"], 4),
        (["meld", "double-deck", "--trump", "C", "QS", "JD", "--option", "100-aces=on"], 40),
    ],
)
def test_meld_command_with_presets_and_meld_options(
    argv: list[str], points: int, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*argv, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == points


def test_meld_command_refuses_cards_outside_the_pack(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["meld", "double-deck", "--trump", "H", "9H"]) == 2
    assert "not in the double-deck pack" in capsys.readouterr().err
    with pytest.raises(BadCard, match="4 of each card"):
        meld_hand("double-deck", "H", "AH AH AH AH AH")
    assert (
        main(
            [
                "meld",
                "double-deck",
                "--trump",
                "H",
                "QS",
                "--option",
                "pinochle-14=on",
                "--option",
                "meld=npa",
            ]
        )
        == 2
    )
    assert "pinochle-14 and meld=npa" in capsys.readouterr().err


def test_double_deck_variants_are_pinochle_meld_variants() -> None:
    assert {"double-deck", "double-deck-npa", "double-deck-toby-thomas", "double-deck-pass"} <= set(
        pinochle_variants()
    )
