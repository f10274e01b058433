"""The three pictures — a hand, the trick on the table, the laid melds — as PNG bytes with alt text.

Inputs are plain data (card text, names, numbers), so the Discord layer can call these with what a
seat's view holds. Each public function normalises its inputs into a hashable key (``10♠`` and
``10S`` are the same card) and looks it up in a per-state LRU cache before drawing; drawing only
pastes cached card faces (``faces.card_face``) onto a canvas and encodes a palette PNG.

Sizes are chosen for Discord's inline preview: at most ``MAX_WIDTH`` pixels wide, so a desktop shows
the picture at its own size, and a phone, scaling it to its width, still shows each card's corner
rank about 14 points tall (24 pixels at full size) on a screen dense enough to draw it crisply.
"""

from __future__ import annotations

import io
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageChops

from bot.pictures.alt import hand_alt, melds_alt, trick_alt
from bot.pictures.cards import card_key, parse_suit
from bot.pictures.draw import RGB, label_image, pip_mask, rounded_mask, suit_colour
from bot.pictures.faces import (
    CORNER_FRACTION,
    INDEX_FRACTION,
    SIDE_PAD,
    card_face,
    card_height,
    dim_card,
    face_size,
)
from bot.pictures.melds import SeatMelds

CARD_WIDTH = 80
MELD_CARD_WIDTH = 62
MAX_WIDTH = 560
HAND_ROW_MAX = 13
"""A hand of more cards is laid out in two (or more) rows, so it stays compact on a phone."""
CARD_GAP = 6
LIFT = 12
"""How far a playable (or selected) card stands above the others."""
ROW_GAP = 6
PAD = 12
SLOT_GAP = 8
NAME_SIZE = 15
CAPTION_SIZE = 12
BADGE_SIZE = 12
LINE = 22
CAPTION_LINES = 2
SQUEEZED_FRACTION = 0.36
"""Laid cards may overlap this far (the rank still shows) to keep a seat's cards on one row."""
PANEL_RADIUS = 14
PALETTE_COLOURS = 128
SOLID_FROM = 248
RENDER_CACHE_SIZE = 256

FELT: RGB = (27, 94, 62)
FELT_RIM: RGB = (58, 130, 94)
NAME_INK: RGB = (248, 250, 249)
QUIET_INK: RGB = (190, 214, 200)
SLOT_RING: RGB = (133, 176, 155)
"""The outline of a place still to play: white at 43% over the baize, but opaque."""
EMPTY_RING = (128, 130, 136, 255)
LEAD_BADGE: tuple[RGB, RGB] = ((226, 232, 240), (28, 34, 44))
WIN_BADGE: tuple[RGB, RGB] = ((236, 166, 20), (30, 22, 0))


class Rendered(NamedTuple):
    """A picture ready to attach: PNG bytes and its alt text (≤ Discord's description limit)."""

    png: bytes
    alt_text: str


# ----- the states pictured (hashable: each is its picture's cache key) --------------------------
@dataclass(frozen=True, slots=True)
class HandState:
    """A hand as pictured: card keys in order, the playable ones (or ``None``), the selected ones."""

    cards: tuple[str, ...]
    legal: frozenset[str] | None = None
    selected: tuple[str, ...] = ()
    four_colour: bool = False
    title: str | None = None


@dataclass(frozen=True, slots=True)
class TrickState:
    """A trick as pictured: ``(name, card key)`` per play in order, the winner's index, who waits."""

    plays: tuple[tuple[str, str], ...]
    winner: int | None = None
    waiting: tuple[str, ...] = ()
    trump: str | None = None
    four_colour: bool = False
    title: str | None = None


@dataclass(frozen=True, slots=True)
class MeldsState:
    """Laid melds as pictured, per seat."""

    seats: tuple[SeatMelds, ...]
    trump: str | None = None
    four_colour: bool = False
    title: str | None = None


# ----- public API --------------------------------------------------------------------------------
def render_hand(
    cards: Iterable[object],
    *,
    legal: Iterable[object] | None = None,
    selected: Iterable[object] = (),
    four_colour: bool = False,
    title: str | None = None,
) -> Rendered:
    """A hand as a row of cards (two rows past ``HAND_ROW_MAX``), overlapped to stay compact.

    ``legal``: the cards that may be played now (the others are dimmed, these stand raised);
    ``None`` marks nothing. ``selected``: cards chosen so far (e.g. for a pass), outlined in blue;
    a card listed twice marks two copies. ``title`` replaces "Your hand" in the alt text.
    """
    state = HandState(
        tuple(card_key(card) for card in cards),
        None if legal is None else frozenset(card_key(card) for card in legal),
        tuple(card_key(card) for card in selected),
        four_colour,
        title,
    )
    return _render_hand(state)


def render_trick(
    plays: Sequence[tuple[str, object]],
    *,
    winner: int | None = None,
    waiting: Sequence[str] = (),
    trump: object = None,
    four_colour: bool = False,
    title: str | None = None,
) -> Rendered:
    """The table centre: each ``(name, card)`` played so far, in order, the name under the card.

    The first play is marked as the lead; ``winner`` (an index into ``plays``) is outlined and
    marked as winning. ``waiting`` names the seats still to play (drawn as empty places);
    ``trump`` (``H``, ``♥``, ``hearts``…) and ``title`` go in a header line.
    """
    if winner is not None and not 0 <= winner < len(plays):
        raise ValueError(f"winner must index one of the {len(plays)} plays, not {winner}")
    state = TrickState(
        tuple((str(name), card_key(card)) for name, card in plays),
        winner,
        tuple(str(name) for name in waiting),
        parse_suit(trump),
        four_colour,
        title,
    )
    return _render_trick(state)


def render_melds(
    seats: Sequence[SeatMelds],
    *,
    trump: object = None,
    four_colour: bool = False,
    title: str | None = None,
) -> Rendered:
    """Laid melds: per seat a labelled row of its melds, each meld's cards with its name and points."""
    return _render_melds(MeldsState(tuple(seats), parse_suit(trump), four_colour, title))


def clear_render_cache() -> None:
    """Forget every cached picture (card faces stay cached: they depend on nothing but the card)."""
    _render_hand.cache_clear()
    _render_trick.cache_clear()
    _render_melds.cache_clear()


# ----- cached renders ----------------------------------------------------------------------------
@lru_cache(maxsize=RENDER_CACHE_SIZE)
def _render_hand(state: HandState) -> Rendered:
    return Rendered(
        encode_png(hand_image(state)), hand_alt(state.cards, state.legal, state.selected, state.title)
    )


@lru_cache(maxsize=RENDER_CACHE_SIZE)
def _render_trick(state: TrickState) -> Rendered:
    alt = trick_alt(state.plays, state.winner, state.waiting, state.trump, state.title)
    return Rendered(encode_png(trick_image(state)), alt)


@lru_cache(maxsize=RENDER_CACHE_SIZE)
def _render_melds(state: MeldsState) -> Rendered:
    return Rendered(encode_png(melds_image(state)), melds_alt(state.seats, state.trump, state.title))


def encode_png(image: Image.Image) -> bytes:
    """A palette PNG (with transparency) of ``image``: a few KiB, quick to encode."""
    palette = image.quantize(PALETTE_COLOURS - 1, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    # The octree averages alpha too, so clear pixels could come out faintly grey on a light theme:
    # give every fully clear pixel a palette entry of its own that is fully clear.
    # Likewise nearly solid entries are made solid, so the baize stays opaque everywhere.
    colours = palette.getpalette("RGBA") or []
    colours[3::4] = [255 if alpha >= SOLID_FROM else alpha for alpha in colours[3::4]]
    clear = len(colours) // 4
    palette.putpalette([*colours, 0, 0, 0, 0], "RGBA")
    palette.paste(clear, (0, 0, *image.size), image.getchannel("A").point(_CLEAR_MASK))
    out = io.BytesIO()
    palette.save(out, format="PNG", compress_level=3)
    return out.getvalue()


_CLEAR_MASK = [255] + [0] * 255


# ----- the hand ----------------------------------------------------------------------------------
def hand_image(state: HandState) -> Image.Image:
    """The hand on a transparent background; see ``render_hand``."""
    hand, legal, selected, four_colour = state.cards, state.legal, state.selected, state.four_colour
    width = CARD_WIDTH
    face_w, face_h = face_size(width)
    if not hand:
        return _empty_place(width)
    # Marking every card as playable says nothing: draw the hand plain instead.
    marking = legal is not None and any(code not in legal for code in hand)
    rows = math.ceil(len(hand) / HAND_ROW_MAX)
    per_row = math.ceil(len(hand) / rows)
    step = _step(per_row, face_w, math.ceil(width * INDEX_FRACTION))
    lift = LIFT if marking or selected else 0
    canvas = Image.new(
        "RGBA", ((per_row - 1) * step + face_w, rows * (face_h + lift) + (rows - 1) * ROW_GAP), (0, 0, 0, 0)
    )
    to_select = Counter(selected)
    for index, code in enumerate(hand):
        row, column = divmod(index, per_row)
        chosen = to_select[code] > 0
        if chosen:
            to_select[code] -= 1
        playable = not marking or (legal is not None and code in legal)
        raised = chosen or (marking and playable)
        at = (column * step, row * (face_h + lift + ROW_GAP) + (0 if raised else lift))
        canvas.alpha_composite(card_face(code, width, four_colour, "selected" if chosen else None), at)
        if not playable:
            dim_card(canvas, at, width)
    return canvas


def _step(count: int, face_w: int, least: int) -> int:
    """Horizontal distance between cards: side by side when they all fit, else overlapped down to
    the corner index (a narrower picture is scaled down less on a phone, so its cards look bigger)."""
    if (count - 1) * (face_w + CARD_GAP) + face_w <= MAX_WIDTH:
        return face_w + CARD_GAP
    return least


def _empty_place(width: int) -> Image.Image:
    canvas = Image.new("RGBA", face_size(width), (0, 0, 0, 0))
    canvas.paste(EMPTY_RING, (SIDE_PAD, 0), _ring(width, card_height(width), 2.0))
    return canvas


@lru_cache(maxsize=16)
def _ring(width: int, height: int, thickness: float) -> Image.Image:
    radius = width * CORNER_FRACTION
    outer = rounded_mask(width, height, radius)
    return ImageChops.subtract(outer, rounded_mask(width, height, radius, thickness))


# ----- shared pieces of the table pictures -------------------------------------------------------
def _panel(width: int, height: int) -> Image.Image:
    """A fresh canvas: the green baize the table pictures are drawn on (white text reads on it).

    Built from a small cached tile, nine-slice fashion (corners copied, edges stretched), so a
    picture of any size costs one small drawing, and nothing per size is kept.
    """
    tile, r = _panel_tile(), PANEL_RADIUS
    end = tile.width - r
    canvas = Image.new("RGBA", (width, height), (*FELT, 255))
    for box, at in (
        ((0, 0, r, r), (0, 0)),
        ((end, 0, tile.width, r), (width - r, 0)),
        ((0, end, r, tile.height), (0, height - r)),
        ((end, end, tile.width, tile.height), (width - r, height - r)),
    ):
        canvas.paste(tile.crop(box), at)
    canvas.paste(tile.crop((r, 0, r + 1, r)).resize((width - 2 * r, r)), (r, 0))
    canvas.paste(tile.crop((r, end, r + 1, tile.height)).resize((width - 2 * r, r)), (r, height - r))
    canvas.paste(tile.crop((0, r, r, r + 1)).resize((r, height - 2 * r)), (0, r))
    canvas.paste(tile.crop((end, r, tile.width, r + 1)).resize((r, height - 2 * r)), (width - r, r))
    return canvas


@lru_cache(maxsize=1)
def _panel_tile() -> Image.Image:
    side = 2 * PANEL_RADIUS + 1
    tile = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    tile.paste((*FELT_RIM, 255), (0, 0), rounded_mask(side, side, PANEL_RADIUS))
    tile.paste((*FELT, 255), (0, 0), rounded_mask(side, side, PANEL_RADIUS, 1.5))
    return tile


def _finish_panel(canvas: Image.Image, alpha: Image.Image) -> Image.Image:
    """Give the finished baize back the alpha it started with: masked pastes of the card faces
    blend alpha too, which would leave the baize faintly see-through around each card."""
    canvas.putalpha(alpha)
    return canvas


@lru_cache(maxsize=64)
def _badge(text: str, colours: tuple[RGB, RGB]) -> Image.Image:
    background, ink = colours
    label = label_image(text, BADGE_SIZE, ink, 200)
    width, height = label.width + 12, label.height + 2
    badge = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    badge.paste((*background, 255), (0, 0), rounded_mask(width, height, height / 2))
    badge.alpha_composite(label, (6, 1))
    return badge


@lru_cache(maxsize=8)
def _trump_chip(trump: str, four_colour: bool) -> Image.Image:
    """``TRUMP`` and a white chip with the trump suit's symbol, for a header line."""
    label = label_image("TRUMP", BADGE_SIZE, QUIET_INK, 100)
    side = LINE - 2
    chip = Image.new("RGBA", (label.width + 6 + side, side), (0, 0, 0, 0))
    chip.alpha_composite(label, (0, (side - label.height) // 2))
    chip.paste((255, 255, 255, 255), (label.width + 6, 0), rounded_mask(side, side, 5))
    pip = pip_mask(trump, side - 6)
    chip.paste((*suit_colour(trump, four_colour), 255), (label.width + 9, 3), pip)
    return chip


def _header(canvas: Image.Image, title: str | None, trump: str | None, four_colour: bool) -> None:
    right = canvas.width - PAD
    if trump:
        chip = _trump_chip(trump, four_colour)
        right -= chip.width
        canvas.alpha_composite(chip, (right, PAD))
    if title:
        label = label_image(title, NAME_SIZE, NAME_INK, max(1, right - PAD - 8))
        canvas.alpha_composite(label, (PAD, PAD + (LINE - label.height) // 2))


def _put(canvas: Image.Image, face: Image.Image, at: tuple[int, int]) -> None:
    """A card face onto the baize: a masked paste, about three times quicker than
    ``alpha_composite`` and the same colours on an opaque canvas (see ``_finish_panel``)."""
    canvas.paste(face, at, face)


def _centred(canvas: Image.Image, image: Image.Image, centre_x: int, top: int) -> None:
    canvas.alpha_composite(image, (centre_x - image.width // 2, top))


# ----- the trick ---------------------------------------------------------------------------------
def trick_image(state: TrickState) -> Image.Image:
    """The trick on the baize; see ``render_trick``."""
    plays, winner, four_colour = state.plays, state.winner, state.four_colour
    width = CARD_WIDTH
    face_w, face_h = face_size(width)
    places: list[tuple[str, str | None]] = [*plays, *((name, None) for name in state.waiting)]
    count = max(1, len(places))
    per_row = count if count <= 5 else math.ceil(count / 2)
    rows = math.ceil(count / per_row)
    slot_w = face_w + 20
    slot_h = LINE + face_h + LINE
    header = LINE + ROW_GAP if state.title or state.trump else 0
    canvas = _panel(
        2 * PAD + per_row * slot_w + (per_row - 1) * SLOT_GAP,
        2 * PAD + header + rows * slot_h + (rows - 1) * ROW_GAP,
    )
    alpha = canvas.getchannel("A")
    _header(canvas, state.title, state.trump, four_colour)
    if not places:
        places = [("", None)]
    for index, (name, code) in enumerate(places):
        row, column = divmod(index, per_row)
        left = PAD + column * (slot_w + SLOT_GAP)
        top = PAD + header + row * (slot_h + ROW_GAP)
        centre = left + slot_w // 2
        card_left = centre - face_w // 2
        if code is None:
            ring = _ring(width, card_height(width), 2.0)
            canvas.paste((*SLOT_RING, 255), (card_left + SIDE_PAD, top + LINE), ring)
        else:
            mark = "winner" if index == winner else None
            _put(canvas, card_face(code, width, four_colour, mark), (card_left, top + LINE))
            _trick_badges(canvas, index == 0, index == winner, centre, top)
        if name:
            ink = QUIET_INK if code is None else NAME_INK
            label = label_image(name, NAME_SIZE, ink, slot_w)
            _centred(canvas, label, centre, top + LINE + face_h + (LINE - label.height) // 2)
    return _finish_panel(canvas, alpha)


def _trick_badges(canvas: Image.Image, lead: bool, winning: bool, centre: int, top: int) -> None:
    badges = []
    if lead:
        badges.append(_badge("LEAD", LEAD_BADGE))
    if winning:
        badges.append(_badge("WINNING", WIN_BADGE))
    if not badges:
        return
    gap = 4
    total = sum(badge.width for badge in badges) + gap * (len(badges) - 1)
    x = centre - total // 2
    for badge in badges:
        canvas.alpha_composite(badge, (x, top + (LINE - 2 - badge.height) // 2))
        x += badge.width + gap


# ----- the melds ---------------------------------------------------------------------------------
def melds_image(state: MeldsState) -> Image.Image:
    """Every seat's laid melds on the baize; see ``render_melds``.

    Each seat is a block: its name and total, the melds' names, then one overlapped row of the cards
    it laid. Three or more seats whose rows are short go in two columns to keep the picture low.
    """
    inner = MAX_WIDTH - 2 * PAD
    half = (inner - 2 * SLOT_GAP) // 2
    face_w = face_size(MELD_CARD_WIDTH)[0]
    nominal = math.ceil(MELD_CARD_WIDTH * INDEX_FRACTION)
    narrow = len(state.seats) >= 3 and all(
        (len(seat.shown_cards()) - 1) * nominal + face_w <= half for seat in state.seats
    )
    columns = 2 if narrow else 1
    column_w = half if narrow else inner
    captions = [
        _wrap([group.label() for group in seat.groups if group.label()], column_w) for seat in state.seats
    ]
    rows = [list(range(i, min(i + columns, len(state.seats)))) for i in range(0, len(state.seats), columns)]
    blocks: list[_SeatBlock] = []
    for row in rows:
        # Seats side by side reserve the same room for text, so their cards line up.
        text_lines = 1 + max(len(captions[i]) for i in row)
        blocks.extend(_seat_block(state.seats[i], captions[i], text_lines, column_w) for i in row)
    header = LINE + ROW_GAP if state.title or state.trump else 0
    widths = [
        max((blocks[i].width for row in rows for i in row[c : c + 1]), default=0) for c in range(columns)
    ]
    heights = [max(blocks[i].height for i in row) for row in rows]
    width = 2 * PAD + max(sum(widths) + 2 * SLOT_GAP * (columns - 1), 260)
    height = 2 * PAD + header + sum(heights) + ROW_GAP * 2 * max(0, len(rows) - 1)
    canvas = _panel(width, height)
    alpha = canvas.getchannel("A")
    _header(canvas, state.title, state.trump, state.four_colour)
    top = PAD + header
    for row, row_h in zip(rows, heights, strict=True):
        left = PAD
        for column, index in enumerate(row):
            _draw_seat_block(canvas, blocks[index], (left, top), state.four_colour)
            left += widths[column] + 2 * SLOT_GAP
        top += row_h + 2 * ROW_GAP
    return _finish_panel(canvas, alpha)


class _SeatBlock(NamedTuple):
    """Where one seat's heading, meld names and laid cards go, relative to the block's corner."""

    lines: list[Image.Image]
    cards: tuple[str, ...]
    per_row: int
    step: int
    text_h: int
    width: int
    height: int


def _seat_block(seat: SeatMelds, captions: list[Image.Image], text_lines: int, column_w: int) -> _SeatBlock:
    """Lay out one seat at most ``column_w`` wide, its cards below ``text_lines`` lines of text."""
    cards = seat.shown_cards()
    heading = f"{seat.name} · {seat.total}" if seat.total else seat.name
    if not cards:
        heading = f"{heading} — {seat.heading_note()}"
    lines = [label_image(heading, NAME_SIZE, NAME_INK, column_w), *(captions if cards else [])]
    face_h = face_size(MELD_CARD_WIDTH)[1]
    row_w, per_row, step = _meld_row(len(cards), column_w)
    card_rows = math.ceil(len(cards) / per_row) if cards else 0
    text_h = LINE * (text_lines if cards else len(lines))
    width = max(row_w if cards else 1, *(line.width for line in lines))
    return _SeatBlock(lines, cards, per_row, step, text_h, width, text_h + card_rows * (face_h + ROW_GAP))


def _draw_seat_block(canvas: Image.Image, block: _SeatBlock, at: tuple[int, int], four_colour: bool) -> None:
    left, top = at
    for index, line in enumerate(block.lines):
        canvas.alpha_composite(line, (left, top + index * LINE + (LINE - line.height) // 2))
    face_h = face_size(MELD_CARD_WIDTH)[1]
    for index, code in enumerate(block.cards):
        row, column = divmod(index, block.per_row)
        face = card_face(code, MELD_CARD_WIDTH, four_colour)
        _put(canvas, face, (left + column * block.step, top + block.text_h + row * (face_h + ROW_GAP)))


def _meld_row(count: int, column_w: int) -> tuple[int, int, int]:
    """(row width, cards per row, step) for ``count`` laid cards in ``column_w``: overlapped to the
    corner index, squeezed a little more when that keeps them on one row, wrapped otherwise."""
    face_w = face_size(MELD_CARD_WIDTH)[0]
    step = math.ceil(MELD_CARD_WIDTH * INDEX_FRACTION)
    if count <= 1:
        return face_w, 1, step
    if (count - 1) * step + face_w > column_w:
        step = max(math.ceil(MELD_CARD_WIDTH * SQUEEZED_FRACTION), (column_w - face_w) // (count - 1))
    per_row = min(count, 1 + (column_w - face_w) // step)
    return (per_row - 1) * step + face_w, per_row, step


def _wrap(parts: list[str], max_width: int) -> list[Image.Image]:
    """Meld names joined by `` · `` into caption lines no wider than ``max_width`` (at most two)."""
    lines: list[str] = []
    for part in parts:
        if lines and label_image(f"{lines[-1]} · {part}", CAPTION_SIZE, QUIET_INK, 10_000).width <= max_width:
            lines[-1] = f"{lines[-1]} · {part}"
        else:
            lines.append(part)
    if len(lines) > CAPTION_LINES:
        lines = [*lines[: CAPTION_LINES - 1], " · ".join(lines[CAPTION_LINES - 1 :])]
    return [label_image(line, CAPTION_SIZE, QUIET_INK, max_width) for line in lines]
