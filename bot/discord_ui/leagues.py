"""League nights in Discord: picking a league (autocomplete), its state in words, the start
announcement, and the server's timezone for the times people type (``bot.when``)."""

from __future__ import annotations

import time
from datetime import UTC, tzinfo

import discord
from discord import app_commands

from bot.discord_ui import limits
from bot.discord_ui.history import date_text
from bot.errors import Refusal
from bot.store import League, Store
from bot.when import parse_zone

FAMILY_TITLES = {"pitch": "Pitch", "pinochle": "Pinochle", "double-deck": "Double-deck"}


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


async def pick_league(store: Store, guild_id: int, given: str) -> League:
    """The league a person chose (an id from the list) or typed (its name), in this server only."""
    given = given.strip()
    league = None
    if given.isdigit() and len(given) < 19:
        league = await store.leagues.get(int(given))
        if league is not None and league.guild_id != guild_id:
            league = None
    if league is None and given:
        league = await store.leagues.named(guild_id, given)
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
