"""docs/screenshots/make.py against today's bot, without a browser: its capture (the real bot in
simcord, driven by clicks on buttons and menus found by their labels, as a person finds them) and
its HTML pages. A control the script looks for that is renamed or gone fails here, in the test
suite, rather than on the next person to regenerate the screenshots; so does a scene that no longer
shows what the README says it does."""

from __future__ import annotations

import asyncio
import html
import importlib.util
import logging
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

MAKE = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "make.py"


def load_make() -> ModuleType:
    """docs/screenshots/make.py as a module (it is a script, not part of a package)."""
    spec = importlib.util.spec_from_file_location("screenshots_make", MAKE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


class Errors(logging.Handler):
    """Errors the bot or discord.py log (a component callback that fails is only logged)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.startswith(("discord", "bot")):
            self.records.append(record)


@dataclass
class Made:
    """What one run of the script made: the module, its scenes by name, its pages, the errors logged."""

    make: ModuleType
    scenes: dict[str, Any]
    pages: dict[str, str]
    """Page name (``lobby-dark``) → its HTML."""
    errors: list[logging.LogRecord]


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Made]:
    """One run of the script's capture and HTML steps for the whole module (about 20 seconds)."""
    make = load_make()
    workdir = tmp_path_factory.mktemp("screenshots")
    errors = Errors()
    logging.getLogger().addHandler(errors)
    try:
        scenes = asyncio.run(make.capture_scenes(workdir))
    finally:
        logging.getLogger().removeHandler(errors)
    pages = make.write_pages(scenes, workdir / "pages")
    yield Made(
        make,
        {scene.name: scene for scene in scenes},
        {page.name: page.path.read_text(encoding="utf-8") for page in pages},
        errors.records,
    )
    sys.modules.pop("screenshots_make", None)


def labels(message: Any) -> list[list[str]]:
    """Each row's button labels and menu placeholders."""
    return [[c.get("label") or c.get("placeholder") or "" for c in row] for row in message.rows]


def shown(page: str) -> str:
    """A page's visible text, roughly: tags dropped, entities read."""
    return html.unescape(re.sub(r"<[^>]+>", "", page))


def test_every_scene_is_made_with_its_pages_and_nothing_went_wrong(made: Made) -> None:
    assert list(made.scenes) and set(made.scenes) == set(made.make.SCENES)
    expected = {f"{name}-{theme}" for name, scene in made.scenes.items() for theme in scene.themes}
    assert set(made.pages) == expected
    assert {"thread-light", "table-light", "hand-light"} <= expected
    assert made.errors == [], [r.getMessage() for r in made.errors]
    for name, page in made.pages.items():
        assert re.search(r"""(?:src|href)=["']?https?:""", page) is None, name  # nothing from the network
        assert 'class="message' in page and 'class="top-bar"' in page, name


def test_the_thread_scene_shows_the_channels_line_and_the_tables_thread(made: Made) -> None:
    line, started = made.scenes["thread"].messages
    assert line.header == ("command", "Ann", "/table new")
    assert labels(line) == [["Join"]]
    assert "Auction Pitch" in line.content and re.search(r"<#\d+>", line.content)
    assert started.thread is not None and started.thread.name == "Auction Pitch — Ann's table"
    assert started.thread.messages >= 1 and started.thread.latest_text.startswith("Auction Pitch — table #1")
    page = shown(made.pages["thread-dark"])
    assert "in Auction Pitch — Ann's table. Click Join" in page  # the thread's mention, by its name
    assert "Trick Night started a thread: Auction Pitch — Ann's table. See all threads." in page


def test_the_lobby_is_todays_with_both_levels_and_the_seat_menu(made: Made) -> None:
    scene = made.scenes["lobby"]
    (lobby,) = scene.messages
    assert scene.place == ("cards", "Auction Pitch — Ann's table")  # in the table's thread
    buttons, menus = labels(lobby)
    assert buttons == ["Join", "Leave", "Add computer (easy)", "Add computer (hard)", "Start"]
    assert menus == ["Choose a seat (and so a partner)…"]
    seats = next(f["value"] for f in lobby.embeds[0]["fields"] if f["name"] == "Seats")
    assert seats.split("\n")[:2] == ["1. Ann", "2. Bob"] and seats.split("\n")[2].startswith(
        "3. Computer 3 ("
    )
    page = made.pages["lobby-dark"]
    for label in buttons:
        assert f">{label}</div>" in page, label
    assert 'class="select"' in page and 'class="menu"' not in page  # the menu is closed here


def test_the_seat_menu_is_shown_open_with_partners(made: Made) -> None:
    scene = made.scenes["seats"]
    assert scene.viewer == "Bob" and scene.open_menu.startswith("Choose a seat")
    page = made.pages["seats-dark"]
    assert 'class="select open"' in page and 'class="menu"' in page
    text = shown(page)
    assert "Seat 2: BobPartner: seat 4 (free)" in text
    assert "Seat 3: freePartner: seat 1 (Ann)" in text


def test_the_game_scenes_show_their_moments(made: Made) -> None:
    (table,) = made.scenes["table"].messages
    assert "table.png" in table.pictures and labels(table) == [["Show my hand"]]
    (hand,) = made.scenes["hand"].messages
    assert hand.ephemeral and hand.header is not None and hand.header[0] == "reply"
    cards = [c for row in hand.rows for c in row]
    assert any(c.get("disabled") for c in cards) and not all(c.get("disabled") for c in cards)
    (bid,) = made.scenes["bid"].messages
    assert "Other bid…" in [label for row in labels(bid) for label in row]
    (melds,) = made.scenes["melds"].messages
    assert any(p.description.startswith("Melds") for p in melds.pictures.values())
    assert 'alt="Melds' in made.pages["melds-dark"]


def test_the_newest_features_are_shown(made: Made) -> None:
    (hint,) = made.scenes["hint"].messages
    assert hint.ephemeral and hint.header == ("command", "Ann", "/hint")
    assert hint.content.startswith("💡 Hint (what the hard computer would do): ")
    assert "Only you can see this" in made.pages["hint-dark"]
    (league,) = made.scenes["league"].messages
    assert "**Friday Night** standings:" in league.content and "standings.png" in league.pictures
    assert "Final standings — it ran from November 27, 2026" in shown(made.pages["league-dark"])
    (history,) = made.scenes["history"].messages
    assert history.embeds[0]["title"] == "Game history"
    assert labels(history)[-1] == ["Replay one of these games…"]
    (replay,) = made.scenes["replay"].messages
    assert replay.embeds[0]["title"].startswith("Replay — game 1") and "trick.png" in replay.pictures
    (stats,) = made.scenes["stats"].messages
    assert stats.embeds[0]["title"] == "Stats — Ann" and "chart.png" in stats.pictures
    (board,) = made.scenes["leaderboard"].messages
    assert board.embeds[0]["title"] == "Leaderboard — Pitch" and "standings.png" in board.pictures


def test_timestamps_and_channel_mentions_read_as_the_client_shows_them() -> None:
    make = load_make()
    evening = make.EVENING
    assert make.timestamp(evening, "f", evening) == "November 27, 2026 8:30 PM"
    assert make.timestamp(evening, "d", evening) == "11/27/2026"
    assert make.timestamp(evening, "t", evening) == "8:30 PM"
    assert make.timestamp(evening - 18 * 60, "R", evening) == "18 minutes ago"
    assert make.timestamp(evening + 2 * 3600, "R", evening) == "in 2 hours"
    scene = make.Scene(
        "x", [], "Ann", {1: "Ann"}, {7: ("Ann's table", True), 8: ("cards", False)}, ("cards",)
    )
    out = make.markdown(f"<@1> in <#7> and <#8> since <t:{int(evening)}:t>", scene, evening)
    assert '<span class="mention">@Ann</span>' in out
    assert "<svg" in out.split("Ann&#x27;s table")[0] and '<span class="hash-small">#</span>cards' in out
    assert '<span class="timestamp">8:30 PM</span>' in out


def test_the_command_line_says_what_is_missing() -> None:
    make = load_make()
    with pytest.raises(SystemExit):
        make.main(["--html-only"])  # where should the pages go?
    with pytest.raises(SystemExit):
        make.main(["--chromium", "/nonexistent/chromium"])


def test_the_readme_lists_every_screenshot_the_script_makes(made: Made) -> None:
    readme = (MAKE.parents[2] / "README.md").read_text(encoding="utf-8")
    listed = re.findall(r"\(docs/screenshots/([a-z-]+)\.png\)", readme)
    assert sorted(listed) == sorted(made.pages)
    assert "PYTHONPATH=. .venv/bin/python docs/screenshots/make.py" in readme
