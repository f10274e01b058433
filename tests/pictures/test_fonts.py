"""The pictures draw on a machine with nothing but pip: Pillow's built-in font for every text."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PIL import ImageFont

from bot.pictures import clear_render_cache, render_melds, render_trick
from bot.pictures import draw as draw_module
from bot.pictures.draw import builtin_font, drawable, label_font, rank_mask
from bot.pictures.melds import MeldGroup, SeatMelds
from tests.pictures.helpers import decode


@pytest.fixture
def builtin_only(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(draw_module, "PREFER_SYSTEM_FONT", False)
    clear_render_cache()
    yield
    clear_render_cache()


def test_builtin_font_draws_every_rank_at_card_sizes() -> None:
    font = builtin_font(30)
    assert isinstance(font, ImageFont.FreeTypeFont)
    for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "JK"):
        mask = rank_mask(rank, 19, 27)
        assert mask.height >= 15 and 4 <= mask.width <= 27
        assert mask.getbbox() is not None
        assert drawable(rank, font) == rank


def test_pictures_render_with_the_builtin_font_alone(builtin_only: None) -> None:
    assert label_font(15) is builtin_font(15)
    png, alt = render_trick(
        [("Élodie", "AS"), ("Дмитрий", "KS")], winner=0, waiting=["Bob"], trump="S", title="T"
    )
    decode(png)
    assert "Élodie" in alt and "Дмитрий" in alt
    decode(render_melds([SeatMelds("Élodie", [MeldGroup("Pinochle", ["QS", "JD"], 40)], 40)]).png)


def test_undrawable_characters_are_transliterated_or_dropped() -> None:
    font = builtin_font(15)
    assert drawable("Élodie 🃏", font) == "Elodie"
    assert drawable("王", font) == ""
    assert drawable("Bob — no meld", font) == "Bob - no meld"
