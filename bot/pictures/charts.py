"""Charts: a player's rating trend (or games and wins over time) and a compact standings card.

Plain data in (numbers, names, short texts), a ``Rendered(png, alt_text)`` out, cached per exact
input like the card pictures; call them through ``render_off_loop``. The alt text says what the
picture shows in words (first and last value, low and high; each row of a standings card), so
the picture adds to the text beside it and never replaces it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.pictures.alt import fit
from bot.pictures.draw import RGB, label_image
from bot.pictures.scenes import FELT, FELT_RIM, NAME_INK, QUIET_INK, Rendered, encode_png

CHART_WIDTH = 560
CHART_HEIGHT = 240
PAD = 12
HEADER = 26
AXIS_SIZE = 12
TITLE_SIZE = 15
ROW_HEIGHT = 24
STANDINGS_WIDTH = 480
SCALE = 2
"""Lines are drawn at twice the size and reduced, so they are smooth."""
MAX_POINTS = 500
CACHE_SIZE = 64

GRID: RGB = (58, 120, 88)
STRIPE: RGB = (33, 104, 70)
SERIES_COLOURS: tuple[RGB, ...] = ((236, 166, 20), (132, 196, 255), (255, 128, 160), (250, 250, 250))
GOLD: RGB = (236, 166, 20)


@dataclass(frozen=True, slots=True)
class Series:
    """One line of a chart: its name (the legend and alt text) and a value per game, in order;
    None where the line has no value yet (every series of a chart spans the same games)."""

    name: str
    values: tuple[float | None, ...]

    def known(self) -> list[float]:
        return [value for value in self.values if value is not None]


@dataclass(frozen=True, slots=True)
class StandingLine:
    """One row of a standings card: rank, name, and its figures as short text (``3 wins · 5 games``)."""

    rank: int
    name: str
    figures: str


def _number(value: float) -> str:
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.1f}"


# ----- the trend -----------------------------------------------------------------------------------
def render_trend(
    series: Sequence[Series],
    *,
    title: str,
    start: str | None = None,
    end: str | None = None,
) -> Rendered:
    """A line chart of each series over the same games (oldest left), the y axis spanning their
    values. ``start`` and ``end`` label the first and last game (dates). At most ``MAX_POINTS``
    values per series are drawn (the latest)."""
    shown = tuple(
        Series(s.name, tuple(None if v is None else float(v) for v in s.values[-MAX_POINTS:])) for s in series
    )
    return _render_trend(shown, title, start, end)


@lru_cache(maxsize=CACHE_SIZE)
def _render_trend(series: tuple[Series, ...], title: str, start: str | None, end: str | None) -> Rendered:
    return Rendered(encode_png(trend_image(series, title, start, end)), trend_alt(series, title, start, end))


def trend_alt(series: tuple[Series, ...], title: str, start: str | None, end: str | None) -> str:
    """``Rating trend, 12 games (3 Jan to 5 Feb): pitch from 0 to 12.3, low 0, high 13.``"""
    games = max((len(s.values) for s in series), default=0)
    when = f" ({start} to {end})" if start and end and games > 1 else (f" ({start})" if start else "")
    head = f"{title}, {games} game{'s' if games != 1 else ''}{when}"
    parts = []
    for line in series:
        known = line.known()
        if not known:
            continue
        first, last = known[0], known[-1]
        low, high = min(known), max(known)
        text = f"{line.name} from {_number(first)} to {_number(last)}"
        if len(known) > 2:
            text += f", low {_number(low)}, high {_number(high)}"
        parts.append(text)
    return fit(f"{head}: " + "; ".join(parts) + "." if parts else f"{head}: no games yet.")


def _canvas(width: int, height: int) -> Image.Image:
    canvas = Image.new("RGBA", (width, height), (*FELT_RIM, 255))
    ImageDraw.Draw(canvas).rectangle((1, 1, width - 2, height - 2), fill=(*FELT, 255))
    return canvas


def trend_image(series: tuple[Series, ...], title: str, start: str | None, end: str | None) -> Image.Image:
    canvas = _canvas(CHART_WIDTH, CHART_HEIGHT)
    canvas.alpha_composite(label_image(title, TITLE_SIZE, NAME_INK, CHART_WIDTH // 2), (PAD, PAD))
    # The legend, right-aligned on the title line.
    right = CHART_WIDTH - PAD
    for index in reversed(range(len(series))):
        colour = SERIES_COLOURS[index % len(SERIES_COLOURS)]
        label = label_image(series[index].name, AXIS_SIZE, colour, 140)
        right -= label.width
        canvas.alpha_composite(label, (right, PAD + 3))
        right -= 14
    values = [v for s in series for v in s.known()]
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    if high - low < 1e-9:
        low, high = low - 1.0, high + 1.0
    margin = (high - low) * 0.08
    low, high = low - margin, high + margin
    # The plot area: room on the left for the axis numbers, below for the dates.
    axis_w = max(label_image(_number(v), AXIS_SIZE, QUIET_INK, 80).width for v in (low, high)) + 8
    left, top = PAD + axis_w, PAD + HEADER
    bottom = CHART_HEIGHT - PAD - AXIS_SIZE - 8
    width, height = CHART_WIDTH - PAD - left, bottom - top
    draw = ImageDraw.Draw(canvas)
    for step in range(5):
        y = top + round(height * step / 4)
        draw.line((left, y, left + width, y), fill=(*GRID, 255), width=1)
        value = high - (high - low) * step / 4
        mark = label_image(_number(value), AXIS_SIZE, QUIET_INK, 80)
        canvas.alpha_composite(mark, (left - 6 - mark.width, y - mark.height // 2))
    if start:
        canvas.alpha_composite(label_image(start, AXIS_SIZE, QUIET_INK, 200), (left, bottom + 4))
    if end:
        mark = label_image(end, AXIS_SIZE, QUIET_INK, 200)
        canvas.alpha_composite(mark, (left + width - mark.width, bottom + 4))
    # The lines, drawn at SCALE on a transparent layer and reduced for smooth edges.
    layer = Image.new("RGBA", (width * SCALE, height * SCALE), (0, 0, 0, 0))
    pen = ImageDraw.Draw(layer)
    for index, line in enumerate(series):
        ink = (*SERIES_COLOURS[index % len(SERIES_COLOURS)], 255)
        count = len(line.values)
        points = [
            (
                (width - 1) * SCALE * (n / (count - 1) if count > 1 else 0.5),
                (height - 1) * SCALE * (high - value) / (high - low),
            )
            for n, value in enumerate(line.values)
            if value is not None
        ]
        if len(points) > 1:
            pen.line(points, fill=ink, width=3 * SCALE, joint="curve")
        if len(points) <= 40:  # few games: mark each one
            r = 3 * SCALE
            for px, py in points:
                pen.ellipse((px - r, py - r, px + r, py + r), fill=ink)
    canvas.alpha_composite(layer.reduce(SCALE), (left, top))
    return canvas


# ----- the standings card --------------------------------------------------------------------------
def render_standings(lines: Sequence[StandingLine], *, title: str) -> Rendered:
    """A compact card of ranked rows (rank, name, figures), the leader's rank in gold."""
    return _render_standings(tuple(lines), title)


@lru_cache(maxsize=CACHE_SIZE)
def _render_standings(lines: tuple[StandingLine, ...], title: str) -> Rendered:
    return Rendered(encode_png(standings_image(lines, title)), standings_alt(lines, title))


def standings_alt(lines: tuple[StandingLine, ...], title: str) -> str:
    """``Leaderboard: 1. Ann, 5 wins in 6 games; 2. Bob, …``."""
    if not lines:
        return fit(f"{title}: nobody yet.")
    rows = "; ".join(f"{line.rank}. {line.name}, {line.figures}" for line in lines)
    short = "; ".join(f"{line.rank}. {line.name}" for line in lines)
    return fit(f"{title}: {rows}.", f"{title}: {short}.")


def standings_image(lines: tuple[StandingLine, ...], title: str) -> Image.Image:
    rows = max(1, len(lines))
    height = 2 * PAD + HEADER + rows * ROW_HEIGHT
    canvas = _canvas(STANDINGS_WIDTH, height)
    canvas.alpha_composite(label_image(title, TITLE_SIZE, NAME_INK, STANDINGS_WIDTH - 2 * PAD), (PAD, PAD))
    draw = ImageDraw.Draw(canvas)
    rank_w, figures_w = 40, 190
    name_w = STANDINGS_WIDTH - 2 * PAD - rank_w - figures_w - 8
    if not lines:
        canvas.alpha_composite(
            label_image("Nobody yet.", TITLE_SIZE, QUIET_INK, 300), (PAD, PAD + HEADER + 3)
        )
    for index, line in enumerate(lines):
        top = PAD + HEADER + index * ROW_HEIGHT
        if index % 2 == 0:
            draw.rectangle(
                (PAD // 2, top, STANDINGS_WIDTH - PAD // 2, top + ROW_HEIGHT - 1), fill=(*STRIPE, 255)
            )
        rank = label_image(f"{line.rank}.", TITLE_SIZE, GOLD if line.rank == 1 else QUIET_INK, rank_w)
        name = label_image(line.name, TITLE_SIZE, NAME_INK, name_w)
        figures = label_image(line.figures, AXIS_SIZE + 1, QUIET_INK, figures_w)
        middle = top + ROW_HEIGHT // 2
        canvas.alpha_composite(rank, (PAD + rank_w - 6 - rank.width, middle - rank.height // 2))
        canvas.alpha_composite(name, (PAD + rank_w, middle - name.height // 2))
        right = STANDINGS_WIDTH - PAD - figures.width
        canvas.alpha_composite(figures, (right, middle - figures.height // 2))
    return canvas


def clear_chart_cache() -> None:
    """Forget every cached chart (for benches and tests)."""
    _render_trend.cache_clear()
    _render_standings.cache_clear()
