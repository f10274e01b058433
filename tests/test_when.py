"""Times typed for scheduled leagues: what is read, and what is refused (and why)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.errors import Refusal
from bot.when import parse_when, parse_zone, zone_name

NOW = datetime(2026, 11, 23, 14, 0, tzinfo=UTC).timestamp()


def at(text: str, **kwargs: object) -> float:
    return parse_when(text, now=NOW, **kwargs)  # type: ignore[arg-type]


def utc(*fields: int) -> float:
    return datetime(*fields, tzinfo=UTC).timestamp()  # type: ignore[misc]


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("in 2h", 7200), ("in 90m", 5400), ("in 1d 3h", 97_200), ("in 45 minutes", 2700),
     ("in 2 hours", 7200), ("IN 1.5h", 5400), ("in 2h30m", 9000), ("in 3 days", 259_200)],
)  # fmt: skip
def test_lengths_from_now(text: str, seconds: float) -> None:
    assert at(text) == NOW + seconds


def test_dates_in_the_servers_zone_or_their_own_offset() -> None:
    assert at("2026-11-28 19:00") == utc(2026, 11, 28, 19, 0)
    assert at("2026-11-28T19:00") == utc(2026, 11, 28, 19, 0)
    assert at("2026-11-28 19:00", zone=parse_zone("Europe/Berlin")) == utc(2026, 11, 28, 18, 0)
    assert at("2026-11-28 19:00", zone=parse_zone("UTC+2")) == utc(2026, 11, 28, 17, 0)
    assert at("2026-11-28 19:00 UTC-5", zone=parse_zone("Europe/Berlin")) == utc(2026, 11, 29, 0, 0)
    assert at("2026-11-28 19:00 +05:30") == utc(2026, 11, 28, 13, 30)
    assert at("2026-11-28 19:00 Z") == utc(2026, 11, 28, 19, 0)
    assert at("2026-12-01 08:00 America/New_York") == utc(2026, 12, 1, 13, 0)


def test_now_and_for_after_the_start() -> None:
    assert at("now", allow_now=True) == NOW
    start = NOW + 3600
    assert at("for 3h", start=start) == start + 3 * 3600
    assert at("in 5h", start=start) == NOW + 5 * 3600
    with pytest.raises(Refusal, match="for a start"):
        at("now")
    with pytest.raises(Refusal, match="for the end only"):
        at("for 3h")


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("28/11/2026 19:00", "two ways"),
        ("11.28 19:00", "two ways"),
        ("19:00", "date with the time"),
        ("tomorrow 7pm", "date with the time"),
        ("next friday", "could not read"),
        ("in two hours", "length of time"),
        ("in 2 potatoes", "length of time"),
        ("in 0h", "length of time"),
        ("2026-02-30 19:00", "exists"),
        ("2026-11-28 25:00", "exists"),
        ("2026-11-20 19:00", "already passed"),
        ("2028-01-01 19:00", "more than a year"),
        ("2026-11-28 19:00 Mars/Olympus", "do not know the timezone"),
        ("2026-11-28 19:00 UTC+15", "offsets run"),
        ("", "Give a time"),
        ("x" * 61, "too long"),
    ],
)
def test_unclear_or_impossible_times_are_refused_with_the_reason(text: str, why: str) -> None:
    with pytest.raises(Refusal, match=why):
        at(text)


def test_an_end_must_come_after_the_start() -> None:
    with pytest.raises(Refusal, match="after the start"):
        at("2026-11-28 18:00", start=utc(2026, 11, 28, 19, 0))


def test_clock_changes_are_refused_where_a_time_is_unclear() -> None:
    berlin = parse_zone("Europe/Berlin")
    now = utc(2026, 10, 1, 0, 0)
    with pytest.raises(Refusal, match="happens twice"):  # 25 Oct 2026: 02:00-03:00 twice
        parse_when("2026-10-25 02:30", now=now, zone=berlin)
    assert parse_when("2026-10-25 02:30 UTC+1", now=now, zone=berlin) == utc(2026, 10, 25, 1, 30)
    with pytest.raises(Refusal, match="does not exist"):  # 29 Mar 2026 was before now: use 2027
        parse_when("2027-03-28 02:30", now=utc(2027, 3, 1, 0, 0), zone=berlin)


def test_zone_names() -> None:
    assert zone_name(parse_zone(" Europe/Berlin ")) == "Europe/Berlin"
    assert zone_name(parse_zone("UTC")) == "UTC"
    assert zone_name(parse_zone("utc+2")) == "UTC+2"
    assert zone_name(parse_zone("-05:30")) == "UTC-5:30"
    assert zone_name(parse_zone("+0")) == "UTC"
    for bad in ("Nowhere/City", "../../etc/passwd", "a b"):
        with pytest.raises(Refusal):
            parse_zone(bad)


def test_a_clock_pace_skips_the_ticks_of_a_catch_up_burst() -> None:
    from bot.discord_ui.leagues import Pace

    pace = Pace(20)
    assert pace.due() and not pace.due() and not pace.due()  # back to back: once
    pace._last = (pace._last or 0) - 11  # more than half an interval of real time later
    assert pace.due()
