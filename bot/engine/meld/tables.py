"""Every meld table as data: the single-deck tables (two/three-hand, the four-hand doubles, the
96-card extras, the 64-card pack) and the double-deck tables built from their value rows."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import cache

from bot.engine.cards import Rank
from bot.engine.meld.model import AROUND_RANKS, MeldKind, MeldTable


def _kind(key: str, klass: str, tiers: Mapping[int, tuple[int, str]]) -> MeldKind:
    return MeldKind(key, klass, dict(tiers))


def _single_deck(extra_doubles: bool, ninety_six: bool) -> MeldTable:
    flush: dict[int, tuple[int, str]] = {1: (150, "flush")}
    royal: dict[int, tuple[int, str]] = {1: (40, "royal marriage")}
    marriage: dict[int, tuple[int, str]] = {1: (20, "marriage")}
    pinochle: dict[int, tuple[int, str]] = {1: (40, "pinochle"), 2: (300, "double pinochle")}
    arounds: dict[Rank, dict[int, tuple[int, str]]] = {
        Rank.ACE: {1: (100, "100 aces")},
        Rank.KING: {1: (80, "80 kings")},
        Rank.QUEEN: {1: (60, "60 queens")},
        Rank.JACK: {1: (40, "40 jacks")},
    }
    plural = {Rank.ACE: "aces", Rank.KING: "kings", Rank.QUEEN: "queens", Rank.JACK: "jacks"}
    if extra_doubles:
        flush[2] = (1500, "double flush")
        for rank, value in ((Rank.ACE, 1000), (Rank.KING, 800), (Rank.QUEEN, 600), (Rank.JACK, 400)):
            arounds[rank][2] = (value, f"8 {plural[rank]}")
    if ninety_six:
        # Two pinochle packs: two/three marriages in one suit 300/600, triple pinochle 600,
        # quadruple 1200, every other triple twice its double, every other quadruple 3000.
        for tiers, word in ((marriage, "marriages"), (royal, "royal marriages")):
            tiers[2] = (300, f"2 {word}")
            tiers[3] = (600, f"3 {word}")
            tiers[4] = (3000, f"4 {word}")
        pinochle[3] = (600, "triple pinochle")
        pinochle[4] = (1200, "quadruple pinochle")
        flush[3] = (2 * flush[2][0], "triple flush")
        flush[4] = (3000, "quadruple flush")
        for rank in AROUND_RANKS:
            arounds[rank][3] = (2 * arounds[rank][2][0], f"12 {plural[rank]}")
            arounds[rank][4] = (3000, f"16 {plural[rank]}")
    return MeldTable(
        name="single-deck" if not extra_doubles else ("96-card" if ninety_six else "four-hand"),
        flush=_kind("flush", "A", flush),
        royal_marriage=_kind("royal-marriage", "A", royal),
        marriage=_kind("marriage", "A", marriage),
        arounds=tuple((rank, _kind(plural[rank], "B", arounds[rank])) for rank in AROUND_RANKS),
        pinochle=_kind("pinochle", "C", pinochle),
        dix=_kind("dix", "A", {1: (10, "dix")}),
        copies=4 if ninety_six else 2,
    )


SINGLE_DECK = _single_deck(extra_doubles=False, ninety_six=False)
"""§3 meld table: the two- and three-hand games."""
FOUR_HAND = _single_deck(extra_doubles=True, ninety_six=False)
"""§3 with the double melds of the four-hand games (double flush 1500, 8 aces 1000, …)."""
NINETY_SIX = _single_deck(extra_doubles=True, ninety_six=True)
"""§3 with every extra of the 6- and 8-player games (96 cards)."""
SINGLE_DECK_64 = replace(SINGLE_DECK, name="single-deck-64", dix_rank=Rank.SEVEN)
"""§3 with the 64-card pack (option ``deck64``): the dix is the 7 of trump."""


def describe_tables() -> dict[str, MeldTable]:
    """The built-in tables by name (for the CLI and /rules)."""
    return {table.name: table for table in (SINGLE_DECK, SINGLE_DECK_64, FOUR_HAND, NINETY_SIX)}


# ----- double deck (types I, II, III) -------------------------------------------------------------
_WORDS = ("", "double ", "triple ", "quadruple ")
_AROUND_KEYS = {Rank.ACE: "aces", Rank.KING: "kings", Rank.QUEEN: "queens", Rank.JACK: "jacks"}
Values = tuple[int | None, int | None, int | None, int | None]

STANDARD_VALUES: dict[str, Values] = {
    "run": (15, 150, 225, 300),
    "royal": (4, 8, 12, 16),
    "marriage": (2, 4, 6, 8),
    "pinochle": (4, 30, 60, 90),
    "aces": (10, 100, 150, 200),
    "kings": (8, 80, 120, 160),
    "queens": (6, 60, 90, 120),
    "jacks": (4, 40, 60, 80),
}
MELD_VALUES: dict[str, dict[str, Values]] = {
    "standard": STANDARD_VALUES,
    "book": {**STANDARD_VALUES, "run": (15, 30, 45, 60), "pinochle": (4, 30, 45, 300)},
    "npa": {**STANDARD_VALUES, "run": (25, 150, 225, 300), "pinochle": (15, 30, 60, 90)},
    # None: "—" in the source, scored as the standard value or the highest listed, whichever is more.
    "toby-thomas": {
        "run": (15, 150, 500, None),
        "royal": (4, 30, 60, 240),
        "marriage": (2, 4, 6, 8),
        "pinochle": (4, 30, 90, 360),
        "aces": (10, 100, None, None),
        "kings": (8, 80, 400, None),
        "queens": (6, 60, 300, None),
        "jacks": (4, 40, 200, None),
    },
}


def _tiers(name: str, values: Values, scale: int, standard: Values) -> dict[int, tuple[int, str]]:
    """The tiers of one row; a "—" (None) takes the standard table's value or the highest value
    listed in the row, whichever is more (the Toby Thomas table says its values are increased)."""
    out: dict[int, tuple[int, str]] = {}
    highest = max(value for value in values if value is not None)
    for index, value in enumerate(values):
        if value is None:
            value = max(highest, standard[index] or 0)
        out[index + 1] = (value * scale, f"{_WORDS[index]}{name}")
    return out


@cache
def double_deck_table(
    meld: str = "standard",
    pinochle14: bool = False,
    roundhouse: int = 24,
    double_roundhouse: int = 160,
    scale: int = 1,
) -> MeldTable:
    """The double-deck meld table (types I, II, III) for the meld options (see ``DoubleDeck``)."""
    values = dict(MELD_VALUES[meld])
    if pinochle14:
        values["pinochle"] = (14, *values["pinochle"][1:])
    toby = meld == "toby-thomas"
    parts = [meld]
    if pinochle14:
        parts.append("pinochle-14")
    if roundhouse != 24:
        parts.append(f"roundhouse-{roundhouse}")
    if double_roundhouse != 160:
        parts.append(f"double-roundhouse-{double_roundhouse}")
    if scale != 1:
        parts.append("100-aces")

    def tiers(row: str, label: str) -> dict[int, tuple[int, str]]:
        return _tiers(label, values[row], scale, STANDARD_VALUES[row])

    return MeldTable(
        name="double-deck/" + "+".join(parts),
        flush=MeldKind("flush", "I", tiers("run", "run")),
        royal_marriage=MeldKind("royal-marriage", "I", tiers("royal", "royal marriage")),
        marriage=MeldKind("marriage", "I", tiers("marriage", "marriage")),
        arounds=tuple(
            (rank, MeldKind(key, "III", tiers(key, f"{key} around")))
            for rank in AROUND_RANKS
            for key in (_AROUND_KEYS[rank],)
        ),
        pinochle=MeldKind("pinochle", "II", tiers("pinochle", "pinochle")),
        dix=None,
        flush_contains_royal=not toby,
        run_lends_royal=toby,
        roundhouse=32 * scale if roundhouse == 32 else 0,
        double_roundhouse=240 * scale if double_roundhouse == 240 else 0,
        roundhouse_run_royal=roundhouse == 39,
        copies=4,
        description=f"double-deck meld: {meld}",
    )
