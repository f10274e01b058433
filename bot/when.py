"""Times people type for scheduled leagues, read one way only (anything unclear is refused).

Accepted, for a start or an end:

- ``in 2h``, ``in 90m``, ``in 1d 3h``, ``in 45 minutes``: that long from now;
- ``2026-11-28 19:00`` (or ``2026-11-28T19:00``): in the server's timezone (``/admin timezone``,
  UTC until one is set), or with its own offset: ``2026-11-28 19:00 UTC+1``, ``… +05:30``, ``… Z``;
- ``now`` (a start only), and for an end ``for 3h``: that long after the start.

Everything else is refused with a sentence saying why: dates like ``28/11`` (day or month first?),
a time without a date, an hour that does not exist or happens twice in the timezone (clocks
changing), times in the past, more than a year ahead. Pure: no Discord, no store, no clock (the
caller passes ``now``).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.errors import Refusal

MAX_AHEAD = 366 * 86_400  # schedules reach a year ahead at most
MAX_TEXT = 60
EXAMPLE = "2026-11-28 19:00"

_UNITS = {"d": 86_400, "day": 86_400, "h": 3600, "hr": 3600, "hour": 3600, "m": 60, "min": 60, "minute": 60}
_SPAN_PART = re.compile(r"(\d+(?:\.\d+)?)\s*([a-z]+?)s?(?=\d|\s|$)")
_DATE_TIME = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})[ t]+(\d{1,2}):(\d{2})(?:\s*(.*))?$", re.IGNORECASE)
_OFFSET = re.compile(r"^(?:utc|gmt)?\s*([+-])\s*(\d{1,2})(?::?(\d{2}))?$")
_SLASHED = re.compile(r"\d{1,4}[/.]\d{1,2}(?:[/.]\d{1,4})?")


def _span(text: str, said: str) -> float:
    """Seconds in ``2h``, ``1d 3h``, ``90 minutes``; a refusal naming what was not understood."""
    text = text.strip()
    total, at = 0.0, 0
    for match in _SPAN_PART.finditer(text):
        if text[at : match.start()].strip(" ,") or match[2] not in _UNITS:
            break
        total += float(match[1]) * _UNITS[match[2]]
        at = match.end()
    else:
        if at and not text[at:].strip() and total > 0:
            return total
    raise Refusal(
        f"I could not read {said!r} as a length of time: write it like `in 2h`, `in 90m` or `in 1d 3h`."
    )


def parse_zone(text: str) -> tzinfo:
    """A timezone as people name it: ``Europe/Berlin`` (IANA), ``UTC``, ``UTC+2``, ``-05:30``."""
    said = text.strip()
    lowered = said.lower()
    if lowered in ("utc", "gmt", "z"):
        return UTC
    match = _OFFSET.match(lowered)
    if match:
        hours, minutes = int(match[2]), int(match[3] or 0)
        if hours > 14 or minutes >= 60:
            raise Refusal(f"{said!r} is not a UTC offset: offsets run from UTC-12 to UTC+14.")
        delta = timedelta(hours=hours, minutes=minutes)
        return timezone(-delta if match[1] == "-" else delta)
    if len(said) > MAX_TEXT or not re.fullmatch(r"[A-Za-z0-9_+\-/]+", said or "?"):
        raise Refusal(f"{said[:MAX_TEXT]!r} is not a timezone: use a name like `Europe/Berlin` or `UTC+1`.")
    try:
        return ZoneInfo(said)
    except (ZoneInfoNotFoundError, ValueError):
        raise Refusal(
            f"I do not know the timezone {said!r}: use a name like `Europe/Berlin` or "
            "`America/New_York`, or an offset like `UTC+1`."
        ) from None


def zone_name(zone: tzinfo) -> str:
    """How a timezone is shown and stored: ``Europe/Berlin``, ``UTC``, ``UTC+05:30``."""
    if isinstance(zone, ZoneInfo):
        return zone.key
    offset = zone.utcoffset(None) or timedelta(0)
    if not offset:
        return "UTC"
    minutes = int(offset.total_seconds()) // 60
    sign = "+" if minutes > 0 else "-"
    hours, rest = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours}" + (f":{rest:02d}" if rest else "")


def _local(fields: tuple[int, int, int, int, int], zone: tzinfo, said: str) -> float:
    """The moment a wall-clock time names in ``zone``, refused where clocks change."""
    year, month, day, hour, minute = fields
    try:
        naive = datetime(year, month, day, hour, minute)  # the zone is attached just below
    except ValueError:
        raise Refusal(f"{said!r} is not a date and time that exists: write it like `{EXAMPLE}`.") from None
    first, second = naive.replace(tzinfo=zone, fold=0), naive.replace(tzinfo=zone, fold=1)
    name = zone_name(zone)
    if first.astimezone(UTC).astimezone(zone).replace(tzinfo=None) != naive:
        raise Refusal(f"{said!r} does not exist in {name} (the clocks go forward that night).")
    if first.utcoffset() != second.utcoffset():
        raise Refusal(
            f"{said!r} happens twice in {name} (the clocks go back that night): add the offset you "
            f"mean, e.g. `{said} UTC+1`."
        )
    return first.timestamp()


def parse_when(
    text: str, *, now: float, zone: tzinfo = UTC, start: float | None = None, allow_now: bool = False
) -> float:
    """The moment ``text`` names, as a Unix time (see the module docstring for what is accepted).

    ``start``: for an end, the league's start (``for 3h`` counts from it, and the end must come
    after it). ``allow_now``: whether ``now`` is accepted. Raises ``Refusal`` with a sentence for
    the person.
    """
    said = " ".join(text.split())
    lowered = said.lower()
    if not said:
        raise Refusal(f"Give a time, like `{EXAMPLE}` or `in 2h`.")
    if len(said) > MAX_TEXT:
        raise Refusal(f"That time is too long to be one ({len(said)} characters): write it like `{EXAMPLE}`.")
    if lowered == "now":
        if not allow_now:
            raise Refusal("`now` is for a start: give the end as a time, like `in 3h` or `for 3h`.")
        return now
    if lowered.startswith("in "):
        moment = now + _span(lowered[3:], said)
    elif lowered.startswith("for "):
        if start is None:
            raise Refusal("`for …` gives a length after the start, so it is for the end only.")
        moment = start + _span(lowered[4:], said)
    elif match := _DATE_TIME.match(said):
        fields = (int(match[1]), int(match[2]), int(match[3]), int(match[4]), int(match[5]))
        rest = (match[6] or "").strip()
        moment = _local(fields, parse_zone(rest) if rest else zone, said)
    elif _SLASHED.search(lowered):
        raise Refusal(
            f"{said!r} could be read two ways (day or month first?): write the date as "
            f"year-month-day, like `{EXAMPLE}`."
        )
    elif re.fullmatch(r"\d{1,2}:\d{2}(\s*(am|pm))?", lowered) or re.search(r"\b(today|tomorrow)\b", lowered):
        raise Refusal(f"Give the date with the time, like `{EXAMPLE}` (or a length: `in 2h`).")
    else:
        raise Refusal(
            f"I could not read {said!r} as a time: write it like `{EXAMPLE}` (your server's "
            "timezone, see /admin timezone), `2026-11-28 19:00 UTC+1`, or `in 2h`."
        )
    if moment < now - 60:  # a minute's grace for a time typed as the clock turned
        raise Refusal(f"{said!r} has already passed: give a time in the future.")
    if moment > now + MAX_AHEAD:
        raise Refusal(f"{said!r} is more than a year ahead: schedule closer to the day.")
    if start is not None and moment <= start:
        raise Refusal(f"The end ({said!r}) must come after the start.")
    return moment
