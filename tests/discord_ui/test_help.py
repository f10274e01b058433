"""``/help``, and the admin tools grouped under ``/admin`` (hidden from members by Discord, and
checked again when they run)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.discord_ui import limits
from tests.discord_ui.fake_discord import FakeDiscord
from tests.discord_ui.helpers import close_bot_state, server_admin
from tests.discord_ui.test_wire import CALLBACK, fake, other_user, running  # noqa: F401  (fake: fixture)
from tests.discord_ui.test_wire_answers import make_bot


@pytest.fixture
async def club(simcord_env: Any) -> AsyncIterator[tuple[Any, Any, Any]]:
    env = simcord_env
    guild = env.create_guild("Card Club")
    channel = guild.create_text_channel("general")
    member = guild.add_member(env.create_user("member"))
    admin = server_admin(env, guild)
    try:
        yield channel, member, admin
    finally:
        await close_bot_state(env)


async def test_help_explains_the_bot_a_turn_and_the_commands(club: Any) -> None:
    channel, member, admin = club
    r = await member.slash(channel, "help")
    assert r.ephemeral
    embed = r.response.embeds[0]
    text = str(embed.to_dict())
    assert "Pinochle" in text and "Pitch" in text
    assert any(f.name == "How a turn works" and "Show my hand" in f.value for f in embed.fields)
    for command in ("/table new", "/table join", "/hand", "/rules", "/meld", "/leaderboard show", "/stats",
                    "/league status", "/help"):  # fmt: skip
        assert f"`{command}" in text, command
    assert "/admin" not in text  # members do not see the admin tools, so /help does not list them
    assert limits.problems(embeds=r.response.embeds) == []
    r = await admin.slash(channel, "help")
    assert "`/admin settings`" in str(r.response.embeds[0].to_dict())


async def test_admin_subcommands_check_rights_when_they_run(fake: FakeDiscord, tmp_path: Path) -> None:  # noqa: F811
    # Bob lacks Manage Server (Alice owns the fake's server) and, unlike Discord, the fake lets him
    # call /admin anyway (as a server that changed the command's permissions would).
    bot = make_bot(tmp_path)
    async with running(bot):
        await fake.wait_for_request("PUT", rf"^/applications/{fake.app_id}/commands$")
        for sub in ("settings", "leaderboard-export", "league-end", "leaderboard-reset"):
            mark = len(fake.requests)
            options = [{"type": 1, "name": sub, "options": []}]
            await fake.dispatch(
                "INTERACTION_CREATE", fake.slash_interaction("admin", options, user=other_user())
            )
            answer = await fake.wait_for_request("POST", CALLBACK, since=mark)
            assert answer.json["data"]["flags"] & 64
            assert "Manage Server" in answer.json["data"]["content"], (sub, answer.json)
