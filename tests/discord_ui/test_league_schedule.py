"""League nights scheduled ahead (simcord): scheduled by an admin with typed times, announced in
the chosen channel when they start, closed on time with a standings card, shown again later."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from cogs.leaderboard import end_due_leagues
from tests.discord_ui.helpers import close_bot_state, server_admin
from tests.discord_ui.test_leaderboard import record_game


class Clock:
    """``time.time`` moved forward on demand (leagues are scheduled hours ahead)."""

    def __init__(self) -> None:
        self.offset = 0.0
        self._real = time.time

    def __call__(self) -> float:
        return self._real() + self.offset

    def forward(self, seconds: float) -> None:
        self.offset += seconds


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    moved = Clock()
    monkeypatch.setattr(time, "time", moved)
    yield moved


@pytest.fixture
async def club(simcord_env: Any) -> AsyncIterator[dict[str, Any]]:
    env = simcord_env
    guild = env.create_guild("Card Club")
    world = {
        "env": env,
        "guild": guild,
        "channel": guild.create_text_channel("cards"),
        "news": guild.create_text_channel("league-news"),
        "other": env.create_guild("Other Club"),
        "admin": server_admin(env, guild),
        "players": [guild.add_member(env.create_user(f"p{i}")) for i in range(4)],
    }
    try:
        yield world
    finally:
        await close_bot_state(env)


def said(channel: Any, text: str) -> list[Any]:
    return [m for m in channel.history() if text in (m.content or "")]


async def test_a_league_is_scheduled_runs_closes_on_time_and_is_shown_again(
    club: dict[str, Any], clock: Clock
) -> None:
    env, guild, admin, players, news = (
        club["env"],
        club["guild"],
        club["admin"],
        club["players"],
        club["news"],
    )
    store = env.bot.store
    assert "admin league-schedule" not in players[0].available_commands(club["channel"])
    r = await admin.slash(club["channel"], "admin league-schedule", name="Friday Night", starts="in 1h",
                          ends="for 2h", game="pitch", channel=news)  # fmt: skip
    assert not r.ephemeral and "is scheduled" in r.response.content and news.mention in r.response.content
    league = (await store.leagues.upcoming(guild.id))[0]
    assert league.ends_at - league.started_at == pytest.approx(7200)
    await record_game(store, guild.id, players[3].id, players[0].id)  # before the start: not counted
    assert await end_due_leagues(env.bot) == 0 and not said(news, "has started")

    clock.forward(3601)  # the start: announced in the chosen channel, once
    await end_due_leagues(env.bot)
    await end_due_leagues(env.bot)
    started = said(news, "has started")
    assert len(started) == 1 and "**Friday Night** (Pitch only)" in started[0].content
    await record_game(store, guild.id, players[1].id, players[2].id)
    await record_game(store, guild.id, players[1].id, players[0].id)
    r = await players[0].slash(club["channel"], "league status")
    assert f"<@{players[1].id}> — 2 wins in 2 games" in r.response.content

    clock.forward(7200)  # past the end: closed, standings posted with their card
    assert await end_due_leagues(env.bot) == 1
    await record_game(store, guild.id, players[0].id, players[1].id)  # after the end: not counted
    over = said(news, "League over")
    assert len(over) == 1 and f"<@{players[1].id}> — 2 wins in 2 games" in over[0].content
    card = [a for a in over[0].attachments if a.filename == "standings.png"]
    assert card and "Friday Night" in card[0].description  # the picture's text alternative
    assert await store.leagues.active(guild.id) is None

    # Any time later: the league can be picked by name as one types, and shown again.
    clock.forward(30 * 86_400)
    choices = await players[2].autocomplete(club["channel"], "league show", "league", "fri")
    assert [c["value"] for c in choices] == [str(league.id)]
    assert choices[0]["name"].startswith("Friday Night · ") and choices[0]["name"].endswith("ended · pitch")
    r = await players[2].slash(club["channel"], "league show", league=str(league.id))
    assert r.ephemeral and "Final standings" in r.response.content
    assert f"<@{players[1].id}> — 2 wins in 2 games" in r.response.content
    assert f"<@{players[0].id}> — 0 wins in 1 game" in r.response.content
    assert [a.filename for a in r.response.attachments] == ["standings.png"]
    r = await players[2].slash(club["channel"], "league show", league="friday night", share=True)
    assert not r.ephemeral and "Final standings" in r.response.content
    r = await players[2].slash(club["channel"], "league show")  # none named: the latest ended one
    assert "Friday Night" in r.response.content


async def test_unclear_times_overlaps_and_other_servers_are_refused(club: dict[str, Any]) -> None:
    env, guild, admin, channel = club["env"], club["guild"], club["admin"], club["channel"]
    store = env.bot.store
    for starts, ends, why in [
        ("28/11/2026 19:00", "for 2h", "could be read two ways"),
        ("19:00", "for 2h", "Give the date with the time"),
        ("in 2h", "in 1h", "must come after the start"),
        ("in 2h", "now", "`now` is for a start"),
        ("2020-01-01 19:00", "for 2h", "already passed"),
    ]:
        r = await admin.slash(channel, "admin league-schedule", name="Bad", starts=starts, ends=ends)
        assert r.ephemeral and why in r.response.content, (starts, ends, r.response.content)
    assert await store.leagues.list(guild.id) == []  # nothing changed
    await admin.slash(channel, "admin league-schedule", name="Friday", starts="in 1h", ends="for 2h")
    r = await admin.slash(channel, "admin league-schedule", name="Clash", starts="in 2h", ends="for 2h")
    assert r.ephemeral and "cannot overlap" in r.response.content
    r = await admin.slash(channel, "admin league-start", name="Now")
    assert r.ephemeral and "'Friday' is scheduled" in r.response.content
    outsider = club["other"].add_member(env.create_user("outsider"))
    other_channel = club["other"].create_text_channel("cards")
    assert await outsider.autocomplete(other_channel, "league show", "league", "") == []
    friday = (await store.leagues.upcoming(guild.id))[0]
    r = await outsider.slash(other_channel, "league show", league=str(friday.id))
    assert r.ephemeral and "There is no league called" in r.response.content
    r = await club["players"][0].slash(channel, "league show", league=str(friday.id))
    assert "is scheduled" in r.response.content and not r.response.attachments
    # Cancelled before it starts: gone from the list.
    choices = await admin.autocomplete(channel, "admin league-cancel", "league", "")
    assert [c["value"] for c in choices] == [str(friday.id)]
    r = await admin.slash(channel, "admin league-cancel", league=str(friday.id))
    assert "was cancelled" in r.response.content and await store.leagues.list(guild.id) == []


async def test_times_are_read_in_the_servers_timezone(club: dict[str, Any]) -> None:
    env, guild, admin, channel = club["env"], club["guild"], club["admin"], club["channel"]
    r = await admin.slash(channel, "admin timezone", zone="Mars/Olympus")
    assert r.ephemeral and "do not know the timezone" in r.response.content
    r = await admin.slash(channel, "admin timezone")
    assert "**UTC**" in r.response.content
    r = await admin.slash(channel, "admin timezone", zone="UTC+2")
    assert "**UTC+2**" in r.response.content
    year = time.gmtime().tm_year + 1
    await admin.slash(channel, "admin league-schedule", name="Winter", starts=f"{year}-01-10 19:00",
                      ends=f"{year}-01-10 23:00 UTC")  # fmt: skip
    league = (await env.bot.store.leagues.upcoming(guild.id))[0]
    assert time.gmtime(league.started_at)[3:5] == (17, 0)  # 19:00 at UTC+2
    assert time.gmtime(league.ends_at)[3:5] == (23, 0)  # its own offset wins


async def test_a_league_starting_now_is_announced_in_the_chosen_channel_too(club: dict[str, Any]) -> None:
    admin, channel, news = club["admin"], club["channel"], club["news"]
    r = await admin.slash(channel, "admin league-schedule", name="Right away", starts="now", ends="for 1h",
                          channel=news)  # fmt: skip
    assert not r.ephemeral and "**Right away** has started" in r.response.content
    assert len(said(news, "**Right away** has started")) == 1
    assert await end_due_leagues(club["env"].bot) == 0 and len(said(news, "has started")) == 1


async def test_a_league_an_admin_ended_while_the_clock_looked_is_skipped(
    club: dict[str, Any], clock: Clock
) -> None:
    env, admin, channel = club["env"], club["admin"], club["channel"]
    store = env.bot.store
    await admin.slash(channel, "admin league-schedule", name="Short", starts="now", ends="for 1h")
    clock.forward(7200)
    stale = await store.leagues.due()
    r = await admin.slash(channel, "admin league-end")
    assert "League over" in r.response.content

    async def still_due(now: float | None = None) -> Any:
        return stale

    original, store.leagues.due = store.leagues.due, still_due
    try:
        assert await end_due_leagues(env.bot) == 0  # no error, nothing ended twice
    finally:
        store.leagues.due = original
    assert len(said(channel, "League over")) <= 1
