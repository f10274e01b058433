"""Decoding and pixel counting for the picture tests."""

from __future__ import annotations

import io

from PIL import Image

from bot.pictures.draw import RGB


def decode(png: bytes) -> Image.Image:
    """The PNG as RGBA pixels (raises if the bytes are not a valid PNG)."""
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    image.load()
    return image.convert("RGBA")


def pixels(image: Image.Image) -> list[tuple[int, int, int, int]]:
    """Every pixel of an RGBA image as (r, g, b, a), row by row."""
    raw = image.convert("RGBA").tobytes()
    return [(raw[i], raw[i + 1], raw[i + 2], raw[i + 3]) for i in range(0, len(raw), 4)]


def count_near(image: Image.Image, colour: RGB, tolerance: int = 40) -> int:
    """How many opaque pixels are within ``tolerance`` of ``colour`` on every channel."""
    r0, g0, b0 = colour
    return sum(
        1
        for r, g, b, a in pixels(image)
        if a > 200 and abs(r - r0) <= tolerance and abs(g - g0) <= tolerance and abs(b - b0) <= tolerance
    )


def mean_brightness(image: Image.Image, box: tuple[int, int, int, int]) -> float:
    """The mean of R+G+B over the opaque pixels of ``box``."""
    values = [(r + g + b) for r, g, b, a in pixels(image.crop(box)) if a > 200]
    assert values, f"no opaque pixel in {box}"
    return sum(values) / len(values)
