"""League nights and seasons in Discord: picking a league or a season (autocomplete), a league's
state in words, its start announcement, and the server's timezone for the times people type
(``bot.when``)."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from datetime import UTC, tzinfo
from typing import Protocol, TypeVar

import discord
from discord import app_commands

from bot.discord_ui import limits
from bot.discord_ui.history import date_text
from bot.errors import Refusal
from bot.store import League, Season, Store
from bot.when import parse_zone

FAMILY_TITLES = {"pitch": "Pitch", "pinochle": "Pinochle", "double-deck": "Double-deck"}


class Pace:
    """Lets a clock's tick through at most about once per ``seconds`` of real time: a
    ``tasks.loop`` whose clock jumped (a suspended host, a test moving time) runs every missed tick
    back to back, which would only repeat the same work."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._last: float | None = None

    def due(self) -> bool:
        now = time.perf_counter()  # real time, whatever the event loop's clock says
        if self._last is not None and now - self._last < self.seconds / 2:
            return False
        self._last = now
        return True


async def guild_zone(store: Store, guild_id: int) -> tzinfo:
    """The timezone typed times are read in: the one an admin set, else UTC."""
    name = await store.leagues.timezone(guild_id)
    if name is None:
        return UTC
    try:
        return parse_zone(name)
    except Refusal:  # stored by an older tz database that since dropped the name: say UTC
        return UTC


def league_state(league: League, now: float | None = None) -> str:
    """``scheduled``, ``running`` or ``ended``."""
    now = time.time() if now is None else now
    if league.ended_at is not None:
        return "ended"
    return "running" if league.started_at <= now else "scheduled"


def league_times(league: League) -> str:
    """When it runs, in each reader's own time: ``from <t:…:f> until <t:…:f>``."""
    start = f"<t:{int(league.started_at)}:f>"
    end_at = league.ended_at if league.ended_at is not None else league.ends_at
    state = league_state(league)
    if end_at is None:
        return f"from {start}, until an admin ends it"
    word = "ended" if state == "ended" else "until"
    return f"from {start}, {word} <t:{int(end_at)}:f>"


def league_label(league: League) -> str:
    """A choice's name (≤ 100 characters): ``Friday night · 28 Nov 2026 · ended``."""
    state = league_state(league)
    when = date_text(league.started_at)
    tail = f" · {when} · {state}" + (f" · {league.family}" if league.family else "")
    return limits.clip(league.name, limits.OPTION_TEXT - len(tail)) + tail


async def league_choices(
    store: Store, guild_id: int, typed: str, *, scheduled_only: bool = False
) -> list[app_commands.Choice[str]]:
    """Autocomplete over the server's leagues whose names contain what was typed, newest first
    (at most 25); the value is the league's id."""
    found = (
        [lg for lg in await store.leagues.upcoming(guild_id) if typed.lower() in lg.name.lower()]
        if scheduled_only
        else await store.leagues.list(guild_id, limit=limits.SELECT_OPTIONS, matching=typed[:100])
    )
    return [
        app_commands.Choice(name=league_label(lg), value=str(lg.id)) for lg in found[: limits.SELECT_OPTIONS]
    ]


class _GuildOwned(Protocol):
    guild_id: int


Owned = TypeVar("Owned", bound=_GuildOwned)


async def _by_id_or_name(
    given: str,
    guild_id: int,
    by_id: Callable[[int], Awaitable[Owned | None]],
    by_name: Callable[[int, str], Awaitable[Owned | None]],
) -> Owned | None:
    """What an autocomplete option picked (its id) or a person typed (its name), in this server
    only: another server's id finds nothing."""
    found = None
    if given.isdigit() and len(given) < 19:  # an id from the list (fits SQLite's integer)
        found = await by_id(int(given))
        if found is not None and found.guild_id != guild_id:
            found = None
    if found is None and given:
        found = await by_name(guild_id, given)
    return found


async def pick_league(store: Store, guild_id: int, given: str) -> League:
    """The league a person chose (an id from the list) or typed (its name), in this server only."""
    given = given.strip()
    league = await _by_id_or_name(given, guild_id, store.leagues.get, store.leagues.named)
    if league is None:
        raise Refusal(
            f"There is no league called {limits.clip(given, 100)!r} in this server: "
            "pick one from the list as you type."
        )
    return league


def start_announcement(league: League) -> str:
    """What the channel is told when a league starts."""
    scope = f" ({FAMILY_TITLES.get(league.family, league.family)} only)" if league.family else ""
    return limits.clip(
        f"📣 League **{league.name}**{scope} has started: it runs {league_times(league)}. "
        "Every game finished in this server meanwhile counts; /league status shows the standings.",
        limits.CONTENT,
    )


def schedule_confirmation(league: League, channel: discord.abc.GuildChannel | None) -> str:
    """What the admin who scheduled a league is told (publicly: the club should know)."""
    scope = f" ({FAMILY_TITLES.get(league.family, league.family)} only)" if league.family else ""
    where = f" in {channel.mention}" if channel is not None else ""
    return limits.clip(
        f"🗓️ League **{league.name}**{scope} is scheduled: it runs {league_times(league)} "
        f"(starts <t:{int(league.started_at)}:R>). Its start and its final standings will be "
        f"announced{where}.",
        limits.CONTENT,
    )


ALL_TIME = "all"


def season_label(season: Season, *, current: bool) -> str:
    """``Spring · current`` or ``Winter · 3 Jan 2026 – 2 Apr 2026`` (≤ 100 characters)."""
    if current:
        tail = f" · current, since {date_text(season.started_at)}"
    else:
        tail = f" · {date_text(season.started_at)} – {date_text(season.ended_at or season.started_at)}"
    return limits.clip(season.name, limits.OPTION_TEXT - len(tail)) + tail


async def season_choices(store: Store, guild_id: int, typed: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for a leaderboard's season: the current one, all time, then past seasons."""
    seasons = await store.seasons.list(guild_id, limit=limits.SELECT_OPTIONS - 1, matching=typed[:100])
    choices = [
        app_commands.Choice(name=season_label(s, current=s.ended_at is None), value=str(s.id))
        for s in seasons
    ]
    if typed.lower() in "all time":
        at = 1 if seasons and seasons[0].ended_at is None else 0
        choices.insert(at, app_commands.Choice(name="All time (every season)", value=ALL_TIME))
    return choices[: limits.SELECT_OPTIONS]


async def pick_season(store: Store, guild_id: int, given: str | None) -> Season | None:
    """The season a leaderboard shows: the one chosen (an id from the list, or its name), None
    for all time; not given: the current season, or all time if none was ever started."""
    if given is None:
        return await store.seasons.current(guild_id)
    given = given.strip()
    if given.lower() in (ALL_TIME, "all time", "all-time"):
        return None
    season = await _by_id_or_name(given, guild_id, store.seasons.get, store.seasons.named)
    if season is None:
        raise Refusal(
            f"There is no season called {limits.clip(given, 100)!r} in this server: pick one from the "
            "list as you type (or `all` for all time)."
        )
    return season
