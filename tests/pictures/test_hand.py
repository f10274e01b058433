"""The hand picture: sizes, legal marking, selection, colours, unknown cards, the cache."""

from __future__ import annotations

import pytest

from bot.engine import Card, Rank, Suit, new_game
from bot.pictures import clear_render_cache, render_hand
from bot.pictures.draw import BLACK_INK, BLUE_INK, GREEN_INK, RED_INK
from bot.pictures.faces import INDEX_FRACTION, face_size
from bot.pictures.scenes import CARD_WIDTH, HAND_ROW_MAX, LIFT, MAX_WIDTH
from tests.pictures.helpers import count_near, decode, mean_brightness

FACE_W, FACE_H = face_size(CARD_WIDTH)
TWELVE = ["AS", "10S", "KS", "QH", "JH", "9H", "AD", "KD", "QD", "JD", "10C", "9C"]
TWENTY = [
    *("AS", "AS", "10S", "KS", "QS", "JS", "AH", "10H", "KH", "QH"),
    *("JH", "9H", "AD", "10D", "KD", "QD", "JD", "AC", "10C", "KC"),
]


@pytest.fixture(autouse=True)
def fresh_cache() -> None:
    clear_render_cache()


def test_png_decodes_with_transparency_and_fits_the_preview() -> None:
    png, alt = render_hand(TWELVE)
    image = decode(png)
    assert image.width <= MAX_WIDTH
    assert image.height == FACE_H  # one row, nothing raised
    assert image.getpixel((0, 0))[3] == 0  # outside the card's rounded corner: transparent
    assert alt.startswith("Your hand (12 cards): ")


@pytest.mark.parametrize("count", [1, 6, 12, 13, 14, 20, 25])
def test_hands_of_every_size_stay_compact(count: int) -> None:
    deck = [f"{rank}{suit}" for suit in "SHDC" for rank in ("A", "10", "K", "Q", "J", "9")] * 2
    image = decode(render_hand(deck[:count]).png)
    rows = 1 if count <= HAND_ROW_MAX else 2
    assert image.height == rows * FACE_H + (rows - 1) * 6
    assert image.width <= MAX_WIDTH
    # Overlapped no further than the corner index: every card's rank stays visible.
    per_row = -(-count // rows)
    if per_row > 1:
        assert (image.width - FACE_W) / (per_row - 1) >= CARD_WIDTH * INDEX_FRACTION


def test_legal_cards_stand_raised_and_the_others_are_dimmed() -> None:
    plain = decode(render_hand(TWELVE).png)
    marked = decode(render_hand(TWELVE, legal=["QH", "JH", "9H"]).png)
    assert plain.tobytes() != marked.tobytes()
    assert marked.height == plain.height + LIFT
    step = (marked.width - FACE_W) // (len(TWELVE) - 1)
    # The A♠ (not playable) sits low and grey; the Q♥ (playable) sits high and white.
    ace_paper = (4, LIFT + FACE_H - 30, step - 2, LIFT + FACE_H - 8)
    assert (
        mean_brightness(marked, ace_paper)
        < mean_brightness(plain, (4, FACE_H - 30, step - 2, FACE_H - 8)) - 100
    )
    queen = 3 * step
    assert marked.getpixel((queen + step // 2, 2))[3] == 255  # raised: opaque at the very top
    assert marked.getpixel((step // 2, 2))[3] == 0  # the A♠ is not raised


def test_all_cards_legal_marks_nothing() -> None:
    assert (
        decode(render_hand(TWELVE).png).tobytes() == decode(render_hand(TWELVE, legal=TWELVE).png).tobytes()
    )
    assert render_hand(TWELVE, legal=TWELVE).alt_text.endswith("playable: all.")


def test_selection_marks_as_many_copies_as_listed() -> None:
    one = decode(render_hand(TWENTY, selected=["AS"]).png)
    two = decode(render_hand(TWENTY, selected=["AS", "AS"]).png)
    none = decode(render_hand(TWENTY).png)
    assert len({one.tobytes(), two.tobytes(), none.tobytes()}) == 3
    assert render_hand(TWENTY, selected=["AS", "AS"]).alt_text.endswith("selected: A♠ A♠.")


def test_four_colour_suits_turn_diamonds_blue_and_clubs_green() -> None:
    two_colour = decode(render_hand(["AD", "KC"]).png)
    four_colour = decode(render_hand(["AD", "KC"], four_colour=True).png)
    assert count_near(two_colour, RED_INK) > 300 and count_near(two_colour, BLUE_INK) == 0
    assert count_near(four_colour, BLUE_INK) > 300 and count_near(four_colour, RED_INK) == 0
    assert count_near(four_colour, GREEN_INK) > 300 and count_near(two_colour, GREEN_INK) == 0
    # Spades and hearts keep their colours in both schemes.
    for scheme in (False, True):
        image = decode(render_hand(["AS", "AH"], four_colour=scheme).png)
        assert count_near(image, BLACK_INK) > 300 and count_near(image, RED_INK) > 300


def test_notations_and_engine_cards_are_the_same_card_and_hit_the_cache() -> None:
    first = render_hand(["10S", "KH"], legal=["10S"])
    assert render_hand(["10S", "KH"], legal=["10S"]) is first
    assert render_hand(["10♠", "K♥"], legal=["T♠"]) is first
    cards = [Card(Suit.SPADES, Rank.TEN), Card(Suit.HEARTS, Rank.KING)]
    assert render_hand(cards, legal=cards[:1]) is first
    clear_render_cache()
    again = render_hand(["10S", "KH"], legal=["10S"])
    assert again is not first and again.png == first.png  # deterministic


def test_unknown_cards_are_drawn_with_their_label() -> None:
    png, alt = render_hand(["JK", "AS", "11♠", "joker", "🃏", "王"])
    image = decode(png)
    assert image.width > 3 * FACE_W // 2
    assert alt == "Your hand (6 cards): Joker A♠ 11♠ joker 🃏 王."


def test_an_empty_hand_is_an_empty_place() -> None:
    png, alt = render_hand([])
    assert decode(png).size == (FACE_W, FACE_H)
    assert alt == "Your hand: no cards."


def test_alt_text_names_every_card_of_real_deals() -> None:
    for variant, players in (("pinochle-4", 4), ("double-deck", 4), ("pitch", 6), ("pinochle-3", 3)):
        game = new_game(variant, players=players, seed=11)
        for seat in range(players):
            view = game.view(seat)
            hand = view["hand"]
            alt = render_hand(hand, legal=hand[:3]).alt_text
            listed = alt.split(": ", 1)[1].split("; ")[0].split()
            assert listed == [Card.parse(code).pretty for code in hand]
            assert len(alt) <= 1024
