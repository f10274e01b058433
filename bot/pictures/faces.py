"""Card faces, drawn once per (card, width, colour scheme, mark) and cached.

A face is a white card with a grey edge and a soft shadow below it, so it stands out on Discord's
dark theme (white on grey) and on the light theme (edge and shadow on white). The top-left corner
carries a large rank with the suit under it — the part that stays visible where cards overlap —
and a big suit symbol fills the rest of the face.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Literal

from PIL import Image, ImageFilter

from bot.pictures.cards import parse_card
from bot.pictures.draw import RGB, pip_mask, rank_mask, rounded_mask, suit_colour

Mark = Literal["selected", "winner"] | None

CARD_RATIO = 1.4
SHADOW_DROP = 3
"""Pixels the face image extends below the card for its shadow (plus one each side)."""
SIDE_PAD = 1
CORNER_FRACTION = 0.085
FACE_CACHE_SIZE = 384
"""Faces kept: 52 cards × 2 colour schemes × 3 marks at hand size, plus the meld size's 24 cards."""
INDEX_FRACTION = 0.44
"""The share of a card's width that must stay visible for its corner index to be read."""

PAPER: RGB = (255, 255, 255)
EDGE: RGB = (112, 115, 122)
DIM_TO: RGB = (128, 130, 136)
DIM_AMOUNT = 0.5
MARK_COLOURS: dict[str, RGB] = {"selected": (56, 110, 235), "winner": (228, 152, 0)}


def card_height(width: int) -> int:
    return round(width * CARD_RATIO)


def face_size(width: int) -> tuple[int, int]:
    """The size of a face image (card plus shadow) for a card ``width`` pixels wide."""
    return width + 2 * SIDE_PAD, card_height(width) + SHADOW_DROP


@lru_cache(maxsize=FACE_CACHE_SIZE)
def card_face(code: str, width: int, four_colour: bool, mark: Mark = None) -> Image.Image:
    """The RGBA face of one card (``code`` as from ``card_key``); the card's top-left is (1, 0).

    Every face of one width has the same shape, whatever the card (so ``dim_mask`` fits them all).
    """
    spec = parse_card(code)
    height = card_height(width)
    radius = width * CORNER_FRACTION
    image = Image.new("RGBA", face_size(width), (0, 0, 0, 0))

    shadow = Image.new("L", image.size, 0)
    shadow.paste(rounded_mask(width, height, radius), (SIDE_PAD, SHADOW_DROP - 1))
    shadow = shadow.filter(ImageFilter.GaussianBlur(1.2)).point(lambda v: v * 45 // 100)
    image.paste((0, 0, 0, 255), (0, 0), shadow)

    edge_colour = MARK_COLOURS[mark] if mark else EDGE
    edge_width = max(3.0, width * 0.045) if mark else max(1.0, width / 64)
    image.paste((*edge_colour, 255), (SIDE_PAD, 0), rounded_mask(width, height, radius))
    image.paste((*PAPER, 255), (SIDE_PAD, 0), rounded_mask(width, height, radius, edge_width))

    ink = (*suit_colour(spec.suit, four_colour), 255)
    column_left = width * 0.06
    column_width = width * 0.34
    column_centre = SIDE_PAD + column_left + column_width / 2
    rank = rank_mask(spec.rank, round(height * 0.21), round(column_width))
    rank_top = round(height * 0.055)
    image.paste(ink, (round(column_centre - rank.width / 2), rank_top), rank)
    if spec.suit is None:
        label = rank_mask(spec.rank, round(height * 0.3), round(width * 0.7))
        label_top = round(height * 0.6 - label.height / 2)
        image.paste(ink, (SIDE_PAD + (width - label.width) // 2, label_top), label)
        return image

    small = pip_mask(spec.suit, round(width * 0.24))
    small_top = rank_top + rank.height + round(height * 0.035)
    image.paste(ink, (round(column_centre - small.width / 2), small_top), small)
    # The big symbol starts right of the corner index, so overlapped cards show no slivers of it.
    big = pip_mask(spec.suit, round(width * 0.48))
    big_left = SIDE_PAD + math.ceil(width * INDEX_FRACTION) + 1
    image.paste(ink, (big_left, round(height * 0.66 - big.height / 2)), big)
    return image


@lru_cache(maxsize=8)
def dim_mask(width: int) -> Image.Image:
    """Where and how strongly to grey a card out: its body (not its shadow) at ``DIM_AMOUNT``."""
    mask = Image.new("L", face_size(width), 0)
    body = rounded_mask(width, card_height(width), width * CORNER_FRACTION)
    mask.paste(body.point(lambda v: round(v * DIM_AMOUNT)), (SIDE_PAD, 0))
    return mask


def dim_card(canvas: Image.Image, at: tuple[int, int], width: int) -> None:
    """Grey out the card just drawn at ``at`` (one that may not be played now).

    One shared mask for every card, so no greyed copy of each face is kept.
    """
    canvas.paste((*DIM_TO, 255), at, dim_mask(width))
