"""The trick and meld pictures: marks, places still to play, layout, alt text, bad input."""

from __future__ import annotations

import pytest

from bot.pictures import MeldGroup, SeatMelds, clear_render_cache, render_melds, render_trick
from bot.pictures.faces import MARK_COLOURS
from bot.pictures.scenes import MAX_WIDTH
from tests.pictures.helpers import count_near, decode

PLAYS = [("Alice", "10S"), ("Bob", "KS"), ("Computer 3", "AS")]


@pytest.fixture(autouse=True)
def fresh_cache() -> None:
    clear_render_cache()


def test_trick_marks_the_winner_and_names_everyone() -> None:
    png, alt = render_trick(PLAYS, winner=2, waiting=["Dmitri"], trump="H", title="Trick 4")
    image = decode(png)
    assert image.width <= MAX_WIDTH
    assert count_near(image, MARK_COLOURS["winner"], 20) > 200  # the winner's outline and badge
    assert alt == "Trick 4: Alice led 10♠, Bob K♠, Computer 3 A♠ (winning); waiting for Dmitri; trump ♥."


def test_moving_the_winner_changes_the_picture() -> None:
    first = decode(render_trick(PLAYS, winner=0).png)
    last = decode(render_trick(PLAYS, winner=2).png)
    nobody = decode(render_trick(PLAYS).png)
    assert len({first.tobytes(), last.tobytes(), nobody.tobytes()}) == 3
    assert count_near(nobody, MARK_COLOURS["winner"], 20) == 0


def test_eight_places_go_in_two_rows() -> None:
    plays = [(f"P{n}", card) for n, card in enumerate(["AS", "KS", "QS", "JS", "10S", "9S", "AH"])]
    one_row = decode(render_trick(plays[:4], waiting=["P4"]).png)
    two_rows = decode(render_trick(plays, winner=0, waiting=["P7"]).png)
    assert two_rows.height > 1.6 * one_row.height
    assert two_rows.width <= MAX_WIDTH


def test_an_empty_trick_still_renders() -> None:
    png, alt = render_trick([], waiting=["Alice", "Bob"])
    decode(png)
    assert alt == "Trick: no cards played yet; waiting for Alice, Bob."


def test_bad_winner_and_bad_trump_are_refused_clearly() -> None:
    with pytest.raises(ValueError, match="winner must index one of the 3 plays, not 3"):
        render_trick(PLAYS, winner=3)
    with pytest.raises(ValueError, match="trump must be a suit"):
        render_trick(PLAYS, trump="X")


def test_names_the_font_cannot_draw_do_not_break_the_picture() -> None:
    plays = [("🂡 Élodie", "AS"), ("Дмитрий", "KS"), ("王", "QS"), ("x" * 200, "JS")]
    png, alt = render_trick(plays, winner=0)
    decode(png)
    for name, _ in plays:
        assert name in alt


def test_melds_show_each_seat_and_name_every_card() -> None:
    seats = [
        SeatMelds(
            "Alice",
            [MeldGroup("Run", ["AH", "10H", "KH", "QH", "JH"], 150), MeldGroup("Pinochle", ["QS", "JD"], 40)],
            190,
        ),
        SeatMelds("Bob", total=0),
        SeatMelds("Carol", [MeldGroup("Aces around", ["AS", "AH", "AD", "AC"], 100)], 100),
        SeatMelds("Dee", total=40, note="meld not laid"),
    ]
    png, alt = render_melds(seats, trump="hearts")
    decode(png)
    assert alt == (
        "Melds (trump ♥): Alice 190: Run A♥ 10♥ K♥ Q♥ J♥ = 150, Pinochle Q♠ J♦ = 40; Bob (no meld); "
        "Carol 100: Aces around A♠ A♥ A♦ A♣ = 100; Dee 40 (meld not laid)."
    )


def test_cards_laid_count_shared_cards_once_across_classes_and_twice_within_one() -> None:
    seat = SeatMelds(
        "Alice",
        [
            MeldGroup("dix", ["9S"], 10),
            MeldGroup("dix", ["9S"], 10),
            MeldGroup("marriage", ["KS", "QS"], 20, meld_class="A"),
            MeldGroup("kings around", ["KS", "KH", "KD", "KC"], 80, meld_class="B"),
        ],
    )
    assert seat.shown_cards() == ("9S", "9S", "KS", "QS", "KH", "KD", "KC")
    assert SeatMelds("Bob", cards=["K♠", "Q♠"]).shown_cards() == ("KS", "QS")


def test_many_seats_with_long_melds_stay_within_the_width() -> None:
    run = ["AS", "AS", "10S", "10S", "KS", "KS", "QS", "QS", "JS", "JS"]
    seats = [
        SeatMelds(
            f"Seat {n}",
            [MeldGroup("double run", run, 1500), MeldGroup("aces", ["AH", "AD", "AC", "AS"], 100)],
        )
        for n in range(4)
    ]
    image = decode(render_melds(seats, trump="S", title="Melds").png)
    assert image.width <= MAX_WIDTH


def test_melds_cache_on_equal_content() -> None:
    make = lambda: [SeatMelds("Alice", [MeldGroup("Pinochle", ["QS", "JD"], 40)], 40)]  # noqa: E731
    assert render_melds(make()) is render_melds(make())
    assert render_melds([SeatMelds("Alice", [MeldGroup("Pinochle", ["Q♠", "J♦"], 40)], 40)]) is render_melds(
        make()
    )


def test_table_pictures_are_opaque_inside_the_baize() -> None:
    trick = decode(render_trick(PLAYS, winner=1, waiting=["Dmitri"], trump="C", title="Trick 1").png)
    melds = decode(render_melds([SeatMelds("Alice", [MeldGroup("Pinochle", ["QS", "JD"], 40)], 40)]).png)
    for image in (trick, melds):
        inside = image.getchannel("A").crop((16, 16, image.width - 16, image.height - 16))
        assert inside.getextrema() == (255, 255)
        assert image.getpixel((0, 0))[3] == 0  # outside the rounded corner
