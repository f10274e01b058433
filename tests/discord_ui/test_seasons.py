"""Seasons through slash commands (simcord): a new season's board starts from zero while all-time
ratings and results stay; /leaderboard show picks a season (current by default); /stats shows both."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.discord_ui.helpers import close_bot_state, server_admin
from tests.discord_ui.test_leaderboard import record_game


@pytest.fixture
async def club(simcord_env: Any) -> AsyncIterator[dict[str, Any]]:
    env = simcord_env
    guild = env.create_guild("Card Club")
    world = {
        "env": env,
        "guild": guild,
        "channel": guild.create_text_channel("scores"),
        "other": env.create_guild("Other Club"),
        "admin": server_admin(env, guild),
        "players": [guild.add_member(env.create_user(f"p{i}")) for i in range(14)],
    }
    try:
        yield world
    finally:
        await close_bot_state(env)


def board(result: Any) -> str:
    embed = result.response.embeds[0]
    return f"{embed.title}\n{embed.description}\n{embed.footer.text}"


async def test_a_new_season_starts_its_board_from_zero_and_keeps_all_time(club: dict[str, Any]) -> None:
    env, guild, admin, players, channel = (
        club["env"],
        club["guild"],
        club["admin"],
        club["players"],
        club["channel"],
    )
    store = env.bot.store
    a, b, c = players[0], players[1], players[2]
    for _ in range(3):
        await record_game(store, guild.id, a.id, b.id)
    r = await a.slash(channel, "leaderboard show")
    assert "all time" not in board(r) and f"<@{a.id}>" in board(r)  # no seasons: the board as before
    assert "admin season-new" not in a.available_commands(channel)
    r = await admin.slash(channel, "admin season-new", name="Spring")
    assert not r.ephemeral and "Season **Spring** has begun" in r.response.content
    r = await a.slash(channel, "leaderboard show")  # the current season by default: empty
    assert "season Spring" in board(r) and "No finished games yet" in board(r)
    await record_game(store, guild.id, c.id, b.id)
    r = await a.slash(channel, "leaderboard show")
    text = board(r)
    assert f"<@{c.id}>" in text and f"<@{a.id}>" not in text and "1/1 game won" in text
    r = await a.slash(channel, "leaderboard show", season="all")
    text = board(r)
    assert "all time" in text and f"<@{a.id}> — rating" in text and "3/3 games won" in text
    # /stats: both, side by side.
    r = await b.slash(channel, "stats", user=a.user)
    fields = {f.name: f.value for f in r.response.embeds[0].fields}
    assert fields["Ratings (all time)"].startswith("pitch: ") and "3/3 won" in fields["Ratings (all time)"]
    assert fields["Season ratings — Spring"] == "no games this season yet"
    r = await b.slash(channel, "stats", user=c.user)
    fields = {f.name: f.value for f in r.response.embeds[0].fields}
    assert (
        "1/1 won" in fields["Season ratings — Spring"]
        and "over the last games" not in fields["Season ratings — Spring"]
    )

    # The next season: Spring's board stays, chosen by name or from the list.
    r = await admin.slash(channel, "admin season-new", name="Summer")
    assert "Season **Spring** ended" in r.response.content
    choices = await a.autocomplete(channel, "leaderboard show", "season", "")
    assert [ch["name"].split(" · ")[0] for ch in choices] == ["Summer", "All time (every season)", "Spring"]
    assert choices[0]["name"].startswith("Summer · current")
    spring = next(ch["value"] for ch in choices if ch["name"].startswith("Spring"))
    r = await a.slash(channel, "leaderboard show", season=spring)
    assert "season Spring" in board(r) and f"<@{c.id}>" in board(r)
    r = await a.slash(channel, "leaderboard show", season="spring")
    assert "season Spring" in board(r)
    r = await a.slash(channel, "leaderboard show")
    assert "season Summer" in board(r) and "No finished games yet" in board(r)
    r = await admin.slash(channel, "admin season-new", name="summer")
    assert r.ephemeral and "already called" in r.response.content
    r = await a.slash(channel, "leaderboard show", season="Autumn")
    assert r.ephemeral and "There is no season called 'Autumn'" in r.response.content
    r = await a.slash(channel, "leaderboard show", season=spring, league=True)
    assert r.ephemeral and "not both" in r.response.content
    # Another server cannot see this server's season.
    outsider = club["other"].add_member(env.create_user("outsider"))
    other_channel = club["other"].create_text_channel("scores")
    r = await outsider.slash(other_channel, "leaderboard show", season=spring)
    assert r.ephemeral and "There is no season" in r.response.content


async def test_a_season_board_pages_with_its_own_buttons(club: dict[str, Any]) -> None:
    env, guild, admin, players, channel = (
        club["env"],
        club["guild"],
        club["admin"],
        club["players"],
        club["channel"],
    )
    store = env.bot.store
    await admin.slash(channel, "admin season-new", name="Winter")
    for i, player in enumerate(players[:12]):
        await record_game(store, guild.id, player.id, players[(i + 1) % 12].id)
    r = await players[0].slash(channel, "leaderboard show", order="wins")
    assert "page 1 of 2" in board(r) and "12 players" in board(r)
    ids = [c["custom_id"] for row in r.response.components for c in row["components"]]
    assert all(cid.startswith("tn:lbs:") for cid in ids) and all(len(cid) <= 100 for cid in ids)
    r = await players[0].click(r.response, label="Next")
    assert "page 2 of 2" in board(r) and "season Winter" in board(r)
