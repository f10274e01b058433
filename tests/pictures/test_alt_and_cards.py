"""Alt text limits and the lenient card reading."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.pictures import (
    ATTACHMENT_DESCRIPTION_LIMIT,
    MeldGroup,
    SeatMelds,
    render_hand,
    render_melds,
    render_trick,
)
from bot.pictures.alt import fit
from bot.pictures.cards import card_key, parse_card

CARDS = [f"{rank}{suit}" for suit in "SHDC" for rank in ("A", "10", "K", "Q", "J", "9")]


def test_the_limit_is_discords() -> None:
    assert ATTACHMENT_DESCRIPTION_LIMIT == 1024


def test_fit_prefers_a_shorter_wording_then_cuts_at_a_word() -> None:
    assert fit("short") == "short"
    assert fit("x " * 600, "fits") == "fits"
    cut = fit("word " * 300)
    assert len(cut) <= ATTACHMENT_DESCRIPTION_LIMIT and cut.endswith("word…")


@settings(deadline=None, max_examples=60)  # renders draw new card faces: no per-example deadline
@given(
    names=st.lists(st.text(min_size=1, max_size=40), min_size=1, max_size=8),
    cards=st.lists(st.sampled_from([*CARDS, "JK", "11♠"]), min_size=1, max_size=30),
)
def test_every_alt_text_fits_the_limit(names: list[str], cards: list[str]) -> None:
    assert len(render_hand(cards * 3, legal=cards[:5], selected=cards[:2]).alt_text) <= 1024
    plays = [(name, cards[i % len(cards)]) for i, name in enumerate(names)]
    assert len(render_trick(plays * 4, waiting=names, trump="S", title=names[0]).alt_text) <= 1024
    seats = [SeatMelds(name, [MeldGroup(name, cards, 10)] * 3, 30) for name in names]
    assert len(render_melds(seats).alt_text) <= 1024


def test_long_melds_fall_back_to_the_cards_laid() -> None:
    seats = [
        SeatMelds(f"Seat {n}", [MeldGroup(f"a long meld name {k}", CARDS[:12], 100) for k in range(6)], 600)
        for n in range(4)
    ]
    alt = render_melds(seats).alt_text
    assert len(alt) <= 1024
    # Every group listed with its cards would be ~1,900 characters: the cards laid, once, instead.
    assert alt.startswith(
        "Melds: Seat 0 600: A♠ 10♠ K♠ Q♠ J♠ 9♠ A♥ 10♥ K♥ Q♥ J♥ 9♥ (a long meld name 0 100 · "
    )
    assert "; Seat 3 600: " in alt


def test_card_text_in_every_notation() -> None:
    assert parse_card("10♠") == parse_card("10S") == parse_card("ts") == parse_card(" 10s ")
    assert parse_card("10S").text == "10♠"
    assert card_key("q♡") == "QH"
    joker = parse_card("Joker")
    assert (joker.rank, joker.suit, joker.known, joker.text) == ("JK", None, False, "Joker")
    odd = parse_card("11♣")
    assert (odd.rank, odd.suit, odd.known) == ("11", "C", False)
    assert parse_card("").rank == "?"
