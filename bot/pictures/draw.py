"""Drawing primitives for the card pictures: suit pips as vector shapes, fitted text, colours, fonts.

Everything here is drawn once at ``SUPERSAMPLE`` times the final size and reduced (a box filter), so
edges are anti-aliased, and cached: a render only pastes ready-made masks.

Fonts: ranks and labels use Pillow's built-in font (``ImageFont.load_default(size=...)``, the Aileron
face Pillow ships, free of licence conditions), so a machine with nothing but pip draws the same
cards. Its character set is small, so for *names* the picture layer prefers DejaVu Sans Bold when
the system has it (wider Latin, Greek and Cyrillic coverage) and otherwise keeps to the built-in
face; either way a character the font cannot draw is transliterated (``é`` → ``e``) or dropped.
Suit symbols are never text: they are drawn as polygons and ellipses.
"""

from __future__ import annotations

import math
import unicodedata
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

SUPERSAMPLE = 4

RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]

BLACK_INK: RGB = (24, 24, 30)
RED_INK: RGB = (206, 22, 40)
BLUE_INK: RGB = (20, 88, 204)
GREEN_INK: RGB = (16, 128, 58)
UNKNOWN_INK: RGB = (112, 58, 172)

_TWO_COLOUR: dict[str, RGB] = {"S": BLACK_INK, "H": RED_INK, "D": RED_INK, "C": BLACK_INK}
_FOUR_COLOUR: dict[str, RGB] = {"S": BLACK_INK, "H": RED_INK, "D": BLUE_INK, "C": GREEN_INK}

# A label font bigger than this is never needed; it bounds the per-size font cache.
_MAX_FONT = 400
_SYSTEM_LABEL_FONT = "DejaVuSans-Bold.ttf"

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont | ImageFont.TransposedFont


def suit_colour(suit: str | None, four_colour: bool) -> RGB:
    """The ink of a suit: ♠♣ black and ♥♦ red, or ♦ blue and ♣ green with ``four_colour``."""
    if suit is None:
        return UNKNOWN_INK
    return (_FOUR_COLOUR if four_colour else _TWO_COLOUR)[suit]


# ----- suit pips ---------------------------------------------------------------------------------
def _heart_curve(steps: int = 120) -> list[tuple[float, float]]:
    """The classic heart curve, lobes up, as (x, y) with y growing downwards, in [-16, 16] × [-12, 17]."""
    points = []
    for i in range(steps):
        t = 2 * math.pi * i / steps
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        points.append((x, -y))
    return points


_HEART = _heart_curve()
_HEART_TOP, _HEART_BOTTOM = min(y for _, y in _HEART), max(y for _, y in _HEART)


def _flared_stem(
    cx: float, top: float, bottom: float, half_top: float, half_bottom: float
) -> list[tuple[float, float]]:
    """A stem whose sides curve outwards towards the foot, like a printed spade's or club's."""
    steps = 12
    left, right = [], []
    for i in range(steps + 1):
        f = i / steps
        half = half_top + (half_bottom - half_top) * f**2.2
        y = top + (bottom - top) * f
        left.append((cx - half, y))
        right.append((cx + half, y))
    return left + right[::-1]


def _draw_pip(draw: ImageDraw.ImageDraw, suit: str, size: float) -> None:
    c = size / 2
    if suit == "H":
        k = size / 32
        offset = c - (_HEART_TOP + _HEART_BOTTOM) / 2 * k
        draw.polygon([(c + x * k, offset + y * k) for x, y in _HEART], fill=255)
    elif suit == "S":
        k = size * 0.9 / 32
        top = size * 0.02
        # The heart upside down: its tip is the spade's point.
        body = [(c + x * k, top + (_HEART_BOTTOM - y) * k) for x, y in _HEART]
        draw.polygon(body, fill=255)
        draw.polygon(_flared_stem(c, size * 0.55, size * 0.99, size * 0.035, size * 0.2), fill=255)
    elif suit == "D":
        half_w, inset = size * 0.39, size * 0.035
        top, bottom = size * 0.01, size * 0.99
        draw.polygon(
            [
                (c, top),
                (c + half_w / 2 - inset, (top + c) / 2 - inset),
                (c + half_w, c),
                (c + half_w / 2 - inset, (bottom + c) / 2 + inset),
                (c, bottom),
                (c - half_w / 2 + inset, (bottom + c) / 2 + inset),
                (c - half_w, c),
                (c - half_w / 2 + inset, (top + c) / 2 - inset),
            ],
            fill=255,
        )
    elif suit == "C":
        r = size * 0.215
        for lx, ly in ((c, size * 0.235), (c - size * 0.255, size * 0.52), (c + size * 0.255, size * 0.52)):
            draw.ellipse((lx - r, ly - r, lx + r, ly + r), fill=255)
        draw.ellipse((c - size * 0.12, size * 0.36, c + size * 0.12, size * 0.6), fill=255)
        draw.polygon(_flared_stem(c, size * 0.45, size * 0.99, size * 0.04, size * 0.19), fill=255)
    else:
        raise ValueError(f"no pip for suit {suit!r}")


@lru_cache(maxsize=256)
def pip_mask(suit: str, size: int) -> Image.Image:
    """An anti-aliased ``size``×``size`` coverage mask (mode L) of one suit symbol."""
    big = size * SUPERSAMPLE
    image = Image.new("L", (big, big), 0)
    _draw_pip(ImageDraw.Draw(image), suit, big)
    return image.reduce(SUPERSAMPLE)


# ----- shapes ------------------------------------------------------------------------------------
@lru_cache(maxsize=32)
def rounded_mask(width: int, height: int, radius: float, inset: float = 0.0) -> Image.Image:
    """An anti-aliased rounded rectangle filling ``width``×``height`` less ``inset`` on each side."""
    s = SUPERSAMPLE
    image = Image.new("L", (width * s, height * s), 0)
    ImageDraw.Draw(image).rounded_rectangle(
        (inset * s, inset * s, (width - inset) * s - 1, (height - inset) * s - 1),
        radius=max(0.0, radius - inset) * s,
        fill=255,
    )
    return image.reduce(s)


# ----- text --------------------------------------------------------------------------------------
@lru_cache(maxsize=64)
def builtin_font(size: int) -> Font:
    """Pillow's own font at ``size`` pixels (works on any machine with Pillow ≥ 10.1)."""
    return ImageFont.load_default(size=min(size, _MAX_FONT))


@lru_cache(maxsize=1)
def _system_label_font_available() -> bool:
    try:
        ImageFont.truetype(_SYSTEM_LABEL_FONT, 12)
    except OSError:
        return False
    return True


PREFER_SYSTEM_FONT = True
"""Names use DejaVu Sans Bold when installed (see ``use_builtin_font``)."""


def use_builtin_font() -> None:
    """Draw names with Pillow's built-in font even where DejaVu is installed, so every machine
    makes byte-identical pictures (sample images, tests)."""
    global PREFER_SYSTEM_FONT  # noqa: PLW0603 (one process-wide switch, read at every label)
    PREFER_SYSTEM_FONT = False


def label_font(size: int) -> Font:
    """The font for names and captions: DejaVu Sans Bold when present, else the built-in face."""
    return _system_font(size) if _use_system_font() else builtin_font(size)


def _use_system_font() -> bool:
    return PREFER_SYSTEM_FONT and _system_label_font_available()


@lru_cache(maxsize=32)
def _system_font(size: int) -> Font:
    return ImageFont.truetype(_SYSTEM_LABEL_FONT, min(size, _MAX_FONT))


@lru_cache(maxsize=32)
def _missing_glyph(font: Font) -> bytes:
    # A private-use code point no text font draws: its mask is the font's "missing" box.
    return bytes(font.getmask("\ue000"))


@lru_cache(maxsize=4096)
def _can_draw(font: Font, char: str) -> bool:
    if char.isspace():
        return True
    return bytes(font.getmask(char)) != _missing_glyph(font)


_PLAIN_PUNCTUATION = {"—": "-", "–": "-", "‘": "'", "’": "'", "“": '"', "”": '"', "…": "..."}


def drawable(text: str, font: Font) -> str:
    """``text`` with what ``font`` cannot draw transliterated (``é`` → ``e``, ``—`` → ``-``) or dropped."""
    out = []
    for char in text:
        if _can_draw(font, char):
            out.append(char)
            continue
        plain = _PLAIN_PUNCTUATION.get(char, char)
        base = "".join(c for c in unicodedata.normalize("NFKD", plain) if not unicodedata.combining(c))
        out.extend(c for c in base if _can_draw(font, c))
    return " ".join("".join(out).split())


def fit_text(text: str, font: Font, max_width: float) -> str:
    """``text`` shortened with an ellipsis so that it is at most ``max_width`` pixels wide."""
    if font.getlength(text) <= max_width:
        return text
    ellipsis = "…" if _can_draw(font, "…") else "..."
    while text and font.getlength(text + ellipsis) > max_width:
        text = text[:-1]
    return text.rstrip() + ellipsis


def label_image(text: str, size: int, colour: RGB, max_width: int) -> Image.Image:
    """A name or caption as an RGBA image, semi-bold, fitted to ``max_width`` (drawn as ``?`` when
    the font can draw none of it)."""
    return _label_image(text, size, colour, max_width, _use_system_font())


@lru_cache(maxsize=256)
def _label_image(text: str, size: int, colour: RGB, max_width: int, system_font: bool) -> Image.Image:
    font = _system_font(size * 2) if system_font else builtin_font(size * 2)
    shown = fit_text(drawable(text, font), font, max_width * 2) or "?"
    left, _, right, _ = font.getbbox(shown, stroke_width=1)
    ascent, descent = font.getmetrics() if isinstance(font, ImageFont.FreeTypeFont) else (size * 2, 0)
    width = max(2, int(right - left) + 2)
    height = ascent + descent + 2
    mask = Image.new("L", (width + width % 2, height + height % 2), 0)
    ImageDraw.Draw(mask).text((1 - left, 1), shown, font=font, fill=255, stroke_width=1, stroke_fill=255)
    mask = mask.reduce(2)
    image = Image.new("RGBA", mask.size, (*colour, 0))
    image.putalpha(mask)
    return image


@lru_cache(maxsize=512)
def rank_mask(text: str, height: int, max_width: int) -> Image.Image:
    """A card rank (``10``, ``Q``, ``JK``) as a bold coverage mask ``height`` pixels tall at most.

    Wide labels are first condensed (down to 70% of their natural width, as printed cards do with
    the ten), then shrunk evenly if they still do not fit ``max_width``.
    """
    s = SUPERSAMPLE
    font = builtin_font(round(height * s * 1.45))
    text = drawable(text, font) or "?"
    stroke = max(1, round(height * s * 0.06))
    left, top, right, bottom = font.getbbox(text, stroke_width=stroke)
    big = Image.new("L", (int(right - left) + 2, int(bottom - top) + 2), 0)
    ImageDraw.Draw(big).text(
        (1 - left, 1 - top), text, font=font, fill=255, stroke_width=stroke, stroke_fill=255
    )
    box = big.getbbox() or (0, 0, 1, 1)
    big = big.crop(box)
    natural = big.width * height / big.height
    if natural <= max_width:
        size = (max(1, round(natural)), height)
    elif natural * 0.7 <= max_width:
        size = (max_width, height)
    else:
        shrink = max_width / (natural * 0.7)
        size = (max_width, max(1, round(height * shrink)))
    return big.resize(size, Image.Resampling.LANCZOS)
