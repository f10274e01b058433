"""The hand panel over the wire (the real ``bot.start()`` against the loopback fake of Discord): a
whole pitch game and a two-hand pinochle game where, after the panel is opened, each decision is
one component interaction answered by editing the panel (``UPDATE_MESSAGE``) and the REST log shows
no new ephemeral message; the panel is edited through the interaction webhook when the turn comes
back, and once its token has run out the bot leaves it alone and the turn ping carries **Show my
hand**."""

from __future__ import annotations

import asyncio
import logging
import re
import time
from pathlib import Path
from typing import Any

import pytest

from bot.app import TrickNightBot
from bot.config import Settings
from bot.discord_ui.pictures import hand_picture
from bot.tables import Table
from tests.discord_ui.fake_discord import FakeDiscord, RecordedRequest
from tests.discord_ui.helpers import view_timeout_tasks
from tests.discord_ui.test_wire import CALLBACK, fake, running  # noqa: F401  (fake is a fixture)

PANEL_EDIT = r"^/webhooks/\d+/[^/]+/messages/\d+$"
GIVE_UP = (":declare-out", ":concede", ":throw-in")


def new_ephemerals(requests: list[RecordedRequest]) -> int:
    """Ephemeral messages created: interaction answers that post a message, and followups."""
    count = 0
    for r in requests:
        body = r.json if isinstance(r.json, dict) else {}
        if r.method != "POST":
            continue
        if re.search(CALLBACK, r.path) and body.get("type") == 4:
            count += bool(int((body.get("data") or {}).get("flags") or 0) & 64)
        elif re.fullmatch(r"/webhooks/\d+/[^/]+", r.path):
            count += bool(int(body.get("flags") or 0) & 64)
    return count


def components(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for row in message.get("components") or [] for c in row["components"]]


class Player:
    """Alice at the other end of the wire: she clicks what the fake shows her."""

    def __init__(self, server: FakeDiscord, bot: TrickNightBot, table: Table) -> None:
        self.fake, self.bot, self.table = server, bot, table
        self.panel_id: str | None = None

    async def my_turn(self) -> bool:
        """Wait until the game waits for Alice and Discord shows it; False once the game is over."""
        for _ in range(4000):
            game = self.table.game
            if self.table.status != "playing" or game is None:
                await self.bot.publisher.wait_idle()
                return False
            if 0 in game.to_act:
                await self.bot.publisher.wait_idle()
                return True
            await asyncio.sleep(0.005)
        raise AssertionError("the computer never handed the turn back")

    async def click(self, custom_id: str, message: dict[str, Any], **kwargs: Any) -> RecordedRequest:
        mark = len(self.fake.requests)
        payload = self.fake.component_interaction(custom_id, message, **kwargs)
        await self.fake.dispatch("INTERACTION_CREATE", payload)
        answer = await self.fake.wait_for_request("POST", rf"^/interactions/{payload['id']}/", since=mark)
        if answer.json["type"] in (4, 7) and "Your hand" in str(answer.json):
            # The hand picture follows the answer, in an edit of the panel (Alice wants pictures),
            # or in the edit that brings the turn back to her; or in none, when she acts again at
            # once and her hand looks as it did (she played a 9♠, won the trick, drew the other).
            await self.handled(custom_id)

            webhook = f"/{payload['token']}/"

            def edited() -> bool:
                return any(r.method == "PATCH" and webhook in r.path for r in self.fake.requests[mark:])

            if not edited():
                await self.my_turn()
            if not edited():  # nothing was due: the panel shows this moment and its picture already
                panel = self.bot.publisher.panels.live(self.table.id, 0)
                game = self.table.game
                assert panel is not None and game is not None and panel.version == self.table.version
                assert panel.picture == await hand_picture(game.view(0), 0, four_colour=False)
        return answer

    @staticmethod
    async def handled(custom_id: str) -> None:
        """Wait until the bot has finished with a click on ``custom_id`` that it has answered: its
        follow-up too (discord.py runs each component's callback in a task named after its id)."""
        running = [t for t in asyncio.all_tasks() if t.get_name().endswith(f"-{custom_id}")]
        if running:
            await asyncio.wait(running, timeout=5.0)

    async def open_panel(self, message: dict[str, Any]) -> None:
        answer = await self.click(f"tn:hand:{self.table.id}", message)
        assert answer.json["type"] == 4 and answer.json["data"]["flags"] & 64
        self.panel_id = self.fake.original_responses[answer.path.split("/")[3]]["id"]

    def panel(self) -> dict[str, Any]:
        assert self.panel_id is not None
        return self.fake.messages[self.panel_id]

    async def decide(self) -> RecordedRequest:
        """One decision in the panel: pass when offered, else the first enabled control."""
        panel = self.panel()
        assert "Your turn" in panel["content"], panel["content"]
        version = str(self.table.version)
        live = [c for c in components(panel) if not c.get("disabled") and c["custom_id"].startswith("tn:")]
        assert live and all(c["custom_id"].split(":")[3] == version for c in live), (live, version)
        buttons = [c["custom_id"] for c in live if c["type"] == 2 and not c["custom_id"].endswith(GIVE_UP)]
        choice = next((cid for cid in buttons if cid.endswith(":pass")), buttons[0] if buttons else None)
        if choice is not None:
            answer = await self.click(choice, panel)
        else:
            menu = live[0]
            answer = await self.click(
                menu["custom_id"], panel, component_type=3, values=[menu["options"][0]["value"]]
            )
        assert answer.json["type"] == 7, answer.json  # UPDATE_MESSAGE: the panel itself is edited
        assert answer.json["data"]["content"].startswith("You: ")
        return answer


@pytest.mark.parametrize(("game", "house_rules"), [("pitch", "target=7"), ("pinochle-2", "match=deal")])
async def test_a_game_over_the_wire_is_one_interaction_per_decision(
    game: str,
    house_rules: str,
    fake: FakeDiscord,  # noqa: F811
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING)
    settings = Settings(token="fake-token", database=tmp_path / "wire.db", computer_delay=0.0)
    bot = TrickNightBot(settings, min_edit_interval=0.0, guild_ready_timeout=0.05)
    offset = [0.0]
    async with running(bot):
        bot.publisher.panels.clock = lambda: time.monotonic() + offset[0]
        await fake.wait_for_request("PUT", rf"^/applications/{fake.app_id}/commands$")
        await bot.tables.update_settings(int(fake.guild_id), turn_timeout_seconds=0)
        options = [{"type": 1, "name": "new", "options": [
            {"type": 3, "name": "game", "value": game}, {"type": 4, "name": "players", "value": 2},
            {"type": 3, "name": "options", "value": house_rules},
        ]}]  # fmt: skip
        mark = len(fake.requests)
        await fake.dispatch("INTERACTION_CREATE", fake.slash_interaction("table", options))
        callback = await fake.wait_for_request("POST", CALLBACK, since=mark)
        lobby = fake.original_responses[callback.path.split("/")[3]]
        table = bot.tables.table_in(int(fake.channel_id))
        assert table is not None
        alice = Player(fake, bot, table)
        await alice.click(f"tn:lobby:{table.id}:add-basic", lobby)
        await alice.click(f"tn:lobby:{table.id}:start", lobby)

        assert await alice.my_turn()
        table_message = fake.messages[str(table.message_id)]
        await alice.open_panel(table_message)
        opened_at = len(fake.requests)
        decisions = interactions = 0
        expired_tested = False
        while await alice.my_turn():
            testing = not expired_tested
            if testing:  # give the computer time to think after this decision
                await bot.tables.update_settings(table.guild_id, computer_delay_seconds=0.3)
            await alice.decide()
            decisions += 1
            interactions += 1
            assert new_ephemerals(fake.requests[opened_at:]) == 0
            if not testing:
                continue
            await bot.tables.update_settings(table.guild_id, computer_delay_seconds=0.0)
            if table.status != "playing" or table.game is None or list(table.game.to_act) != [1]:
                continue  # Alice acts again at once (or the computer already moved): next time
            # While the computer thinks, a quarter of an hour passes: every token runs out.
            fake.expire_tokens()
            offset[0] += 15 * 60
            expired_at = len(fake.requests)
            assert await alice.my_turn()
            tried = [r for r in fake.requests[expired_at:] if r.method == "PATCH" and "/webhooks/" in r.path]
            assert tried == []  # the expired panel is left alone
            ping = next(
                m for m in reversed(fake.messages.values()) if "your turn" in m["content"] and not m["flags"]
            )
            assert f"<@{fake.user_id}>" in ping["content"]
            assert any(c["custom_id"] == f"tn:hand:{table.id}" for c in components(ping))
            await alice.open_panel(ping)  # a fresh panel from the ping's button
            interactions += 1
            assert new_ephemerals(fake.requests[opened_at:]) == 1
            opened_at = len(fake.requests)
            expired_tested = True
        assert expired_tested and table.status == "ended"
        assert decisions >= 10 and interactions == decisions + 1
        # Every edit through a webhook went to one of Alice's panels; the pings showed no card.
        panels = {m["id"] for m in fake.messages.values() if m["flags"] & 64}
        edits = [r for r in fake.requests if r.method == "PATCH" and re.search(PANEL_EDIT, r.path)]
        assert edits and all(r.path.rsplit("/", 1)[1] in panels for r in edits)
        pings = [r for r in fake.requests if r.method == "POST" and "your turn" in str(r.json)]
        assert pings and not any(re.search(r"\d[♠♥♦♣]|[AKQJ][♠♥♦♣]", str(r.json)) for r in pings)
        # Pictures went up as multipart uploads, each with its alt text as the description.
        uploads = [r for r in fake.requests if isinstance(r.json, dict) and r.json.get("_files")]
        described = {a["filename"]: a["description"] for r in uploads for a in r.json.get("attachments", [])}
        assert described["hand.png"].startswith("Your hand") and described["table.png"]
        assert all(f["size"] > 0 for r in uploads for f in r.json["_files"])
        assert len(bot.publisher.panels) == 0 and not bot.publisher.pending
        assert view_timeout_tasks() == []
    problems = [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.levelno >= logging.WARNING]
    assert problems == []
    assert fake.errors == [] and fake.unknown_routes == []
