"""Leaderboards, stats, leagues and settings through slash commands (simcord)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.discord_ui.helpers import close_bot_state, server_admin


@pytest.fixture
async def club(simcord_env: Any) -> AsyncIterator[dict[str, Any]]:
    env = simcord_env
    guild = env.create_guild("Card Club")
    other = env.create_guild("Other Club")
    world = {
        "env": env,
        "guild": guild,
        "other": other,
        "channel": guild.create_text_channel("scores"),
        "other_channel": other.create_text_channel("scores"),
        "admin": server_admin(env, guild),
        "players": [guild.add_member(env.create_user(f"p{i}")) for i in range(12)],
    }
    try:
        yield world
    finally:
        await close_bot_state(env)


async def record_game(store: Any, guild_id: int, winner: int, loser: int, variant: str = "pitch") -> None:
    seats = [
        {"kind": "human", "user_id": winner, "name": "w"},
        {"kind": "human", "user_id": loser, "name": "l"},
    ]
    game_id = await store.games.create(guild_id=guild_id, channel_id=1, host_id=winner, variant=variant,
                                      family="pitch", options={}, seed=1, players=2, seats=seats,
                                      status="playing")  # fmt: skip
    await store.results.finish(game_id, guild_id=guild_id, family="pitch", rated=True, results=[
        {"seat": 0, "user_id": winner, "side": 0, "score": 11, "place": 1},
        {"seat": 1, "user_id": loser, "side": 1, "score": 5, "place": 2},
    ])  # fmt: skip


async def test_leaderboard_is_per_guild_and_pages(club: dict[str, Any]) -> None:
    env, guild, players = club["env"], club["guild"], club["players"]
    store = env.bot.store
    for i, player in enumerate(players):
        for _ in range(i % 3 + 1):
            await record_game(store, guild.id, player.id, players[(i + 1) % len(players)].id)
    await record_game(store, club["other"].id, 999, 998)
    r = await players[0].slash(club["channel"], "leaderboard show", order="wins")
    assert not r.ephemeral
    embed = r.response.embeds[0]
    assert "page 1 of 2" in embed.footer.text and "12 players" in embed.footer.text
    assert "<@999>" not in embed.description
    first_page = embed.description
    r = await players[0].click(r.response, label="Next")
    second = r.response.embeds[0]
    assert "page 2 of 2" in second.footer.text
    assert second.description != first_page
    # The other guild sees only its own players.
    outsider = club["other"].add_member(env.create_user("outsider"))
    r = await outsider.slash(club["other_channel"], "leaderboard show")
    assert "<@999>" in r.response.embeds[0].description
    assert str(players[0].id) not in r.response.embeds[0].description


async def test_stats_shows_a_players_record(club: dict[str, Any]) -> None:
    env, guild, players = club["env"], club["guild"], club["players"]
    await record_game(env.bot.store, guild.id, players[0].id, players[1].id)
    r = await players[1].slash(club["channel"], "stats", user=players[0].user)
    assert r.ephemeral
    text = str(r.response.embeds[0].to_dict())
    assert "1 game played, 1 won (100%)" in text


async def test_league_night_needs_manage_server_and_posts_standings(club: dict[str, Any]) -> None:
    env, guild, admin, players = club["env"], club["guild"], club["admin"], club["players"]
    assert "admin league-start" not in players[0].available_commands(club["channel"])
    r = await admin.slash(club["channel"], "admin league-start", name="Friday", game="pitch")
    assert not r.ephemeral and "Friday" in r.response.content
    await record_game(env.bot.store, guild.id, players[2].id, players[3].id)
    r = await players[0].slash(club["channel"], "league status")
    assert f"<@{players[2].id}> — 1 win in 1 game" in r.response.content
    r = await admin.slash(club["channel"], "admin league-end")
    assert not r.ephemeral and "League over" in r.response.content
    r = await players[0].slash(club["channel"], "league status")
    assert r.ephemeral and "No league is running" in r.response.content


async def test_settings_and_reset_are_for_admins(club: dict[str, Any]) -> None:
    env, guild, admin, players = club["env"], club["guild"], club["admin"], club["players"]
    # /admin is hidden from members without Manage Server (Discord hides whole top-level commands).
    member_sees = players[0].available_commands(club["channel"])
    assert not [name for name in member_sees if name.startswith("admin")]
    assert {"admin settings", "admin leaderboard-reset", "admin leaderboard-export", "admin league-start",
            "admin league-end"} <= set(admin.available_commands(club["channel"]))  # fmt: skip
    assert not {"settings", "leaderboard reset", "leaderboard export", "league start", "league end"} & set(
        admin.available_commands(club["channel"])
    )
    r = await admin.slash(club["channel"], "admin settings", turn_timer_minutes=2, game="pitch",
                          house_rules="smudge=on target=21")  # fmt: skip
    assert "Turn timer: 2 min" in r.response.content
    assert "smudge=on" in str(r.response.embeds[0].to_dict())
    settings = await env.bot.store.settings.get(guild.id)
    assert settings.turn_timeout_seconds == 120
    # A new pitch table takes the server's default house rules.
    await players[0].slash(club["channel"], "table new", game="pitch")
    table = env.bot.tables.table_in(club["channel"].id)
    assert table is not None and table.options["smudge"] is True and table.options["target"] == 21
    r = await admin.slash(club["channel"], "admin settings", game="pitch", house_rules="smudge=maybe")
    assert r.ephemeral and "on or off" in r.response.content
    await record_game(env.bot.store, guild.id, players[0].id, players[1].id)
    r = await admin.slash(club["channel"], "admin leaderboard-reset")
    assert r.ephemeral and "cannot be undone" in r.response.content
    done = await admin.click(r.response, label="Yes, reset it")
    assert "was reset" in done.response.content
    assert await env.bot.store.boards.count(guild.id) == 0
    r = await admin.slash(club["channel"], "admin leaderboard-export")
    assert r.ephemeral and r.response.attachments


async def test_a_league_past_its_planned_end_is_closed_and_posted(club: dict[str, Any]) -> None:
    from cogs.leaderboard import end_due_leagues

    env, guild, admin, players = club["env"], club["guild"], club["admin"], club["players"]
    r = await admin.slash(club["channel"], "admin league-start", name="Tuesday", hours=1.0)
    assert "Tuesday" in r.response.content
    await record_game(env.bot.store, guild.id, players[4].id, players[5].id)
    assert await end_due_leagues(env.bot) == 0  # not due yet
    league = await env.bot.store.leagues.active(guild.id)
    assert league is not None and league.channel_id == club["channel"].id
    import time

    assert await end_due_leagues_at(env.bot, time.time() + 2 * 3600) == 1
    posted = [m.content for m in club["channel"].history() if "League over" in (m.content or "")]
    assert posted and "Tuesday" in posted[-1] and f"<@{players[4].id}>" in posted[-1]
    assert await env.bot.store.leagues.active(guild.id) is None


async def end_due_leagues_at(bot: Any, now: float) -> int:
    """end_due_leagues with the clock moved forward (the store's due check takes ``now``)."""
    from unittest import mock

    from cogs import leaderboard

    real = bot.store.leagues.due

    async def due_later(now_: float | None = None) -> Any:
        return await real(now)

    with mock.patch.object(bot.store.leagues, "due", due_later):
        return await leaderboard.end_due_leagues(bot)


async def test_unrated_games_rank_by_wins_and_show_no_rating(club: dict[str, Any]) -> None:
    env, guild, players = club["env"], club["guild"], club["players"]
    store = env.bot.store
    for winner, loser in ((0, 1), (0, 2), (3, 1)):
        game_id = await store.games.create(guild_id=guild.id, channel_id=1, host_id=1, variant="pitch",
                                           family="pitch", options={}, seed=1, players=2, seats=[],
                                           status="playing")  # fmt: skip
        await store.results.finish(game_id, guild_id=guild.id, family="pitch", rated=False, results=[
            {"seat": 0, "user_id": players[winner].id, "side": 0, "score": 11, "place": 1},
            {"seat": 1, "user_id": players[loser].id, "side": 1, "score": 5, "place": 2},
        ])  # fmt: skip
    r = await players[5].slash(club["channel"], "leaderboard show")
    embed = r.response.embeds[0]
    assert "rating" not in embed.description
    assert embed.description.startswith(f"**1.** <@{players[0].id}> — 2/2 games won")
    assert embed.footer.text.startswith("By Wins (no rated games here yet")
    r = await players[5].slash(club["channel"], "stats", user=players[0].user)
    assert "not rated yet" in str(r.response.embeds[0].to_dict())
    await record_game(store, guild.id, players[3].id, players[1].id)  # a rated game
    r = await players[5].slash(club["channel"], "leaderboard show")
    embed = r.response.embeds[0]
    assert "rating " in embed.description and embed.footer.text.startswith("By Rating ·")


async def test_boards_and_stats_fit_discords_limits(club: dict[str, Any]) -> None:
    from bot.discord_ui import limits

    env, guild, players = club["env"], club["guild"], club["players"]
    store = env.bot.store
    for i, player in enumerate(players):
        for variant in ("pitch", "pinochle-2", "double-deck"):
            await record_game(store, guild.id, player.id, players[(i + 1) % 12].id, variant=variant)
    for order in ("rating", "wins", "games", "winpct"):
        for game in (None, "pitch"):
            options = {"order": order} | ({"game": game} if game else {})
            r = await players[0].slash(club["channel"], "leaderboard show", **options)
            assert limits.problems(embeds=r.response.embeds) == []
    r = await players[0].slash(club["channel"], "stats", user=players[0].user)
    assert limits.problems(embeds=r.response.embeds) == []
