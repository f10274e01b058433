"""The panel registry on its own: one record per seat, expiry a minute before Discord's 15 minutes,
a hand only for its owner, and nothing kept once the table ends."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.discord_ui.panels import PANEL_LIFETIME, Panels
from bot.tables import Seat, Table


def interaction(user_id: int, token: str) -> Any:
    return SimpleNamespace(application_id=99, token=token, user=SimpleNamespace(id=user_id))


def table(status: str = "playing") -> Table:
    seats: list[Seat | None] = [Seat("human", "Ann", 1), Seat("human", "Bob", 2)]
    return Table(7, 1, 5, 1, "pitch", {}, 2, seats, status=status)


def test_a_panel_is_kept_per_seat_and_expires_before_its_token() -> None:
    now = [1000.0]
    panels = Panels(clock=lambda: now[0])
    t = table()
    assert panels.put(t, 0, interaction(1, "a"), 500, version=3) is None
    first = panels.live(7, 0)
    assert first is not None and (first.token, first.message_id, first.version) == ("a", 500, 3)
    # A click in the same panel renews the token; a new panel replaces it and is returned to delete.
    assert panels.put(t, 0, interaction(1, "b"), 500, version=4) is None
    replaced = panels.put(t, 0, interaction(1, "c"), 501, version=4)
    assert replaced is not None and replaced.message_id == 500 and len(panels) == 1
    now[0] += PANEL_LIFETIME - 1
    assert panels.live(7, 0) is not None
    now[0] += 1
    assert panels.live(7, 0) is None and len(panels) == 0  # expired: forgotten, never edited


def test_a_panel_answers_only_its_owner() -> None:
    panels = Panels(clock=lambda: 0.0)
    panels.put(table(), 1, interaction(2, "t"), 600, version=1)
    assert panels.live(7, 1, user_id=1) is None and len(panels) == 0


def test_nothing_is_kept_once_the_table_ends() -> None:
    panels = Panels(clock=lambda: 0.0)
    t = table()
    panels.put(t, 0, interaction(1, "a"), 500, version=1)
    held = panels.lock(t, 0)
    assert panels.lock(t, 0) is held and panels.tables() == 1
    t.status = "ended"
    assert panels.lock(t, 0) is held  # a change in flight keeps its order until the table is closed
    panels.drop_table(7)
    assert len(panels) == 0 and panels.tables() == 0
    assert panels.lock(t, 0) is not held and panels.tables() == 0  # a late click keeps nothing
    assert panels.put(t, 0, interaction(1, "b"), 502, version=2) is None and len(panels) == 0
