"""Charts: the rating trend and the standings card are PNGs with alt text that says what they show."""

from __future__ import annotations

from bot.pictures import ATTACHMENT_DESCRIPTION_LIMIT
from bot.pictures.charts import (
    CHART_HEIGHT,
    CHART_WIDTH,
    GOLD,
    MAX_POINTS,
    Series,
    StandingLine,
    render_standings,
    render_trend,
)
from tests.pictures.helpers import count_near, decode


def test_a_trend_is_a_chart_whose_alt_text_gives_first_last_low_and_high() -> None:
    rating = Series("pitch", (0.0, 2.5, -1.0, 4.0))
    rendered = render_trend([rating], title="Rating — Ann", start="3 Jan", end="5 Feb")
    image = decode(rendered.png)
    assert image.size == (CHART_WIDTH, CHART_HEIGHT)
    assert count_near(image, (236, 166, 20), 30) > 100  # the line is drawn in the first colour
    assert rendered.alt_text == "Rating — Ann, 4 games (3 Jan to 5 Feb): pitch from 0 to 4, low -1, high 4."


def test_series_without_values_yet_start_later_and_say_so() -> None:
    games = Series("games", (1, 2, 3))
    late = Series("pinochle", (None, None, 7.5))
    rendered = render_trend([games, late], title="Games")
    assert "games from 1 to 3" in rendered.alt_text and "pinochle from 7.5 to 7.5" in rendered.alt_text
    decode(rendered.png)
    empty = render_trend([Series("pitch", ())], title="Rating")
    assert empty.alt_text == "Rating, 0 games: no games yet."
    decode(empty.png)


def test_a_long_trend_draws_the_latest_points_only_and_keeps_alt_text_short() -> None:
    many = Series("pitch " * 50, tuple(float(n % 17) for n in range(MAX_POINTS + 300)))
    rendered = render_trend([many] * 4, title="Rating")
    assert f"{MAX_POINTS} games" in rendered.alt_text
    assert len(rendered.alt_text) <= ATTACHMENT_DESCRIPTION_LIMIT


def test_standings_card_lists_every_row_in_order() -> None:
    lines = [StandingLine(n, f"Player {n}", f"{10 - n} wins in 10 games") for n in range(1, 11)]
    rendered = render_standings(lines, title="Leaderboard")
    image = decode(rendered.png)
    assert image.height > 10 * 20
    assert count_near(image, GOLD, 30) > 10  # the leader's rank
    assert rendered.alt_text.startswith("Leaderboard: 1. Player 1, 9 wins in 10 games; 2. Player 2")
    assert rendered.alt_text.endswith("10. Player 10, 0 wins in 10 games.")
    assert render_standings([], title="League").alt_text == "League: nobody yet."
    long = [StandingLine(n, "N" * 80, "x" * 80) for n in range(1, 26)]
    assert len(render_standings(long, title="Big").alt_text) <= ATTACHMENT_DESCRIPTION_LIMIT
