"""The turn handing over between two people, over the wire (the real ``bot.start()`` against the
loopback fake of Discord) with the table message paced as in production (one edit a second): the
next person's panel and ping must not wait for that pacing, while the table message keeps it."""

from __future__ import annotations

import itertools
import re
import time
from pathlib import Path
from typing import Any

from bot.app import TrickNightBot
from bot.config import Settings
from bot.tables import Table
from tests.discord_ui.fake_discord import FakeDiscord, RecordedRequest
from tests.discord_ui.test_wire import CALLBACK, fake, other_user, running  # noqa: F401  (fake: a fixture)

PACING = 1.0  # the bot's production pacing of table-message edits, seconds
PROMPT = 0.5  # the next person's panel must be edited this soon after the click is answered
GIVE_UP = (":declare-out", ":concede", ":throw-in")
DECISIONS = 12


def components(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for row in message.get("components") or [] for c in row["components"]]


class Person:
    """Someone at the table who clicks in their own hand panel as the fake shows it."""

    def __init__(self, server: FakeDiscord, user: dict[str, Any]) -> None:
        self.fake, self.user = server, user
        self.uid = int(user["id"])
        self.panel_id = ""

    async def click(self, custom_id: str, message: dict[str, Any], **kwargs: Any) -> RecordedRequest:
        mark = len(self.fake.requests)
        payload = self.fake.component_interaction(custom_id, message, user=self.user, **kwargs)
        await self.fake.dispatch("INTERACTION_CREATE", payload)
        return await self.fake.wait_for_request("POST", rf"^/interactions/{payload['id']}/", since=mark)

    async def open_panel(self, table: Table, message: dict[str, Any]) -> None:
        answer = await self.click(f"tn:hand:{table.id}", message)
        assert answer.json["type"] == 4 and answer.json["data"]["flags"] & 64
        self.panel_id = self.fake.original_responses[answer.path.split("/")[3]]["id"]

    def panel(self) -> dict[str, Any]:
        return self.fake.messages[self.panel_id]

    async def decide(self) -> RecordedRequest:
        """Pass where offered, else the first enabled control of the panel."""
        panel = self.panel()
        assert "Your turn" in panel["content"], panel["content"]
        live = [c for c in components(panel) if not c.get("disabled") and c["custom_id"].startswith("tn:")]
        buttons = [c["custom_id"] for c in live if c["type"] == 2 and not c["custom_id"].endswith(GIVE_UP)]
        choice = next((cid for cid in buttons if cid.endswith(":pass")), buttons[0] if buttons else None)
        if choice is not None:
            answer = await self.click(choice, panel)
        else:
            menu = live[0]
            answer = await self.click(
                menu["custom_id"], panel, component_type=3, values=[menu["options"][0]["value"]]
            )
        assert answer.json["type"] == 7, answer.json  # the panel itself is updated: accepted
        return answer


async def your_turn_edit(server: FakeDiscord, panel_id: str, since: int) -> RecordedRequest:
    """The bot's next edit of the panel ``panel_id`` that tells its owner it is their turn."""
    while True:
        edit = await server.wait_for_request(
            "PATCH", rf"^/webhooks/\d+/[^/]+/messages/{panel_id}$", since=since
        )
        if "**Your turn:**" in ((edit.json or {}).get("content") or ""):
            return edit
        since = server.requests.index(edit) + 1


async def test_the_next_person_does_not_wait_for_the_table_messages_pacing(
    fake: FakeDiscord,  # noqa: F811
    tmp_path: Path,
) -> None:
    settings = Settings(token="fake-token", database=tmp_path / "wire.db", computer_delay=0.0)
    bot = TrickNightBot(settings, min_edit_interval=PACING, guild_ready_timeout=0.05)
    async with running(bot):
        await fake.wait_for_request("PUT", rf"^/applications/{fake.app_id}/commands$")
        guild = int(fake.guild_id)
        await bot.tables.update_settings(guild, turn_timeout_seconds=0, table_threads="off")
        options = [{"type": 1, "name": "new", "options": [
            {"type": 3, "name": "game", "value": "pinochle-2"},
            {"type": 3, "name": "options", "value": "match=deal"},
        ]}]  # fmt: skip
        mark = len(fake.requests)
        await fake.dispatch("INTERACTION_CREATE", fake.slash_interaction("table", options))
        callback = await fake.wait_for_request("POST", CALLBACK, since=mark)
        lobby = fake.original_responses[callback.path.split("/")[3]]
        table = bot.tables.table_in(int(fake.channel_id))
        assert table is not None
        ann, bob = Person(fake, fake.human_user()), Person(fake, other_user())
        await bob.click(f"tn:lobby:{table.id}:join", lobby)
        await ann.click(f"tn:lobby:{table.id}:start", lobby)
        await bot.publisher.wait_idle()
        table_message = fake.messages[str(table.message_id)]
        for person in (ann, bob):
            await person.open_panel(table, table_message)
        await bot.publisher.wait_idle()
        people = {ann.uid: ann, bob.uid: bob}
        seats = {table.seat_of(uid): person for uid, person in people.items()}

        started = len(fake.requests)
        handoffs: list[float] = []
        for _ in range(DECISIONS):
            game = table.game
            assert game is not None and not game.is_over and len(game.to_act) == 1
            acting = seats[game.to_act[0]]
            mark = len(fake.requests)
            answer = await acting.decide()
            if table.game is None or table.game.is_over:
                break
            following = seats[table.game.to_act[0]]
            if following is acting:
                continue  # the same person acts again: nothing hands over
            edit = await your_turn_edit(fake, following.panel_id, since=mark)
            handoffs.append(max(0.0, edit.at - answer.at))
        await bot.publisher.wait_idle()

        table_edits = [
            r.at
            for r in fake.requests[started:]
            if r.method == "PATCH" and re.fullmatch(rf"/channels/\d+/messages/{table.message_id}", r.path)
        ]
        elapsed = time.monotonic() - fake.requests[started].at
    # The clicks came faster than the pacing, so most table-message edits waited their turn; the
    # panels did not wait with them.
    assert len(handoffs) >= DECISIONS // 3, handoffs
    assert max(handoffs) < PROMPT, [round(h, 3) for h in handoffs]
    assert len(table_edits) < len(handoffs), (table_edits, handoffs)
    gaps = [b - a for a, b in itertools.pairwise(table_edits)]
    assert all(gap >= PACING * 0.9 for gap in gaps), gaps  # the table message kept its pacing
    assert elapsed < DECISIONS * PACING  # the game did not move at the table message's pace
