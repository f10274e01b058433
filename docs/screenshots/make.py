"""Screenshots of Trick Night as a player sees it in Discord, made from the real bot, offline.

    PYTHONPATH=. .venv/bin/python docs/screenshots/make.py [--out DIR] [--html DIR] [--html-only]
        [--chromium PATH]

1. **Capture** (``capture_scenes``). The real bot (``TrickNightBot``, its cogs and components) runs
   inside simcord, an offline fake of Discord; people type slash commands, click buttons and choose
   from menus as in the tests (``tests/discord_ui``). One evening at the Card Club: Ann opens a
   pitch table (it gets a thread of its own), Bob joins from the channel, a league night starts,
   two pitch games are played to the end, a partnership pinochle table gets its seats from the
   seat menu; then ``/league show``, ``/history``, ``/replay``, ``/stats`` and ``/leaderboard``. At
   each moment worth showing the script keeps the messages exactly as the bot sent them: text,
   embeds, attached PNGs with their alt text, components (buttons, menus), whether only the
   viewer sees them, and the command or message that made them.
2. **Render** (``write_pages``). Each scene becomes a small HTML page laid out like Discord's desktop
   client, in the dark theme (#313338) and for some the light one (#FFFFFF): the channel's or
   thread's header bar, avatars, names, BOT tags, the "used /command" line, embeds, pictures,
   buttons and select menus (one may be shown open), thread and channel mentions, timestamps, the
   "started a thread" line with its thread card, "Only you can see this". Pictures are inlined as
   ``data:`` URIs and fonts come from local files.
3. **Screenshot** (``screenshot``). Headless Chromium (Debian: ``apt-get install chromium``)
   photographs each page, in a network namespace of its own where the system allows it (``unshare
   -rn``) and with flags that refuse every request; the result is cropped to the messages and saved
   as a PNG. ``--html-only`` stops before this step (no browser needed): tests/docs/test_screenshots.py
   runs the first two steps in the test suite, so a change to the bot's controls that the script
   can no longer find fails there.

Deals, computer players and the clock the bot reads (``time.time``) are fixed, so a run reproduces
the same images: run it again after a change to what the bot shows.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import html
import io
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from unittest.mock import patch

import discord
import simcord
from PIL import Image, ImageChops

from bot.ai import Player, decide, make_player
from bot.ai.hard import Advice, HardPlayer
from bot.app import TrickNightBot
from bot.config import Settings
from bot.engine import Game, new_game
from bot.tables import Table
from tests.discord_ui.helpers import close_bot_state, message_by_id, table_of
from tests.discord_ui.test_hand_panel import next_person
from tests.discord_ui.test_pinochle_table import controls

BOT_NAME = "Trick Night"
"""The name the application would have on a real server (simcord calls its bot user TestBot)."""

HERE = Path(__file__).resolve().parent
PITCH_SEED = 11  # Ann must follow suit to a trick two cards in, holding cards she may not play
SECOND_PITCH_SEED = 12  # Cat's table (Cat, Dan, Ann and a computer): the league's second game
PINOCHLE_SEED = 15  # the auction climbs past 200, and Ann melds a flush
EVENING = datetime(2026, 11, 27, 20, 30, tzinfo=UTC).timestamp()
"""What ``time.time`` says when the capture starts: a Friday evening (the client shows UTC)."""
THINKING_SECONDS = 20.0
"""How far the bot's clock moves for each decision a person makes (games last a plausible while)."""
SCENES: dict[str, str] = {
    "thread": "#cards after /table new: the line with Join, and the table's own thread",
    "lobby": "the lobby in its thread: seats, house rules, Join, Leave, Add computer (easy)/(hard), Start "
    "and the seat menu",
    "seats": "a partnership lobby with its seat menu open: each seat, who sits there and with whom it plays",
    "table": "the public table message in the middle of a trick, the trick as a picture",
    "hand": "Ann's hand panel: the cards she may play raised, the others' buttons disabled",
    "hint": "/hint on Ann's turn: what the hard computer would play, and why, only for her",
    "bid": "a long pinochle auction: the next bid, +10, +50 and Other bid… in one row",
    "melds": "the table message once the melds are laid, as a picture",
    "league": "/league show: a league night's final standings, in words and as a card",
    "history": "/history: Ann's finished games, with a menu to replay one",
    "replay": "/replay: a finished game trick by trick, each trick as a picture, the hands as dealt and "
    "the bidding",
    "stats": "/stats: Ann's games, wins, streaks and rating, with its trend as a chart",
    "leaderboard": "/leaderboard show: the server's pitch players by rating, also as a card",
}
"""Every scene the script makes, in the order the README lists them, and what each shows."""
HINT_BUDGET = 600.0
"""Seconds the hint's search may take: far more than it needs, so the search's caps end it rather
than the clock, and the same position gives the same hint on any machine."""


# ----- what is captured --------------------------------------------------------------------------------
@dataclass
class Picture:
    """An attached PNG and its alt text (the attachment's description)."""

    png: bytes
    description: str


@dataclass
class ThreadCard:
    """The box Discord shows under "… started a thread": the thread, its size and latest message."""

    name: str
    messages: int
    latest_author: str
    latest_text: str


@dataclass
class Captured:
    """One message as Discord holds it, plus what the client shows around it."""

    author: str
    is_bot: bool
    content: str
    embeds: list[dict[str, Any]]
    pictures: dict[str, Picture]
    rows: list[list[dict[str, Any]]]
    at: float
    """The bot's clock when it was captured: the time the client shows beside the name."""
    ephemeral: bool = False
    header: tuple[str, str, str] | None = None
    """The line Discord shows above an interaction's answer: ("command", user, "/command") or
    ("reply", author, text of the message whose button was clicked)."""
    thread: ThreadCard | None = None
    """Set for the system message "… started a thread" (whose content is the thread's name)."""


@dataclass
class Scene:
    """One screenshot: messages in a channel or thread, seen by one person."""

    name: str
    messages: list[Captured]
    viewer: str
    """Whose client this is (their mentions are highlighted)."""
    names: dict[int, str]
    """User ids to display names, for mentions."""
    channels: dict[int, tuple[str, bool]]
    """Channel and thread ids to (name, is a thread), for channel mentions."""
    place: tuple[str, ...]
    """The header bar: the channel's name, then the thread's if the scene is in one."""
    themes: tuple[str, ...] = ("dark",)
    about: str = ""
    open_menu: str = ""
    """The placeholder of a select menu shown opened (its options listed), as after a click on it."""


def component_rows(message: Any) -> list[list[dict[str, Any]]]:
    """A message's components, row by row, as Discord's JSON (buttons and menus alike)."""
    rows = []
    for row in message.components:
        rows.append(row["components"] if isinstance(row, dict) else [c.to_dict() for c in row.children])
    return rows


async def capture(message: Any, at: float, *, command: str = "", clicked: Any = None) -> Captured:
    """A message (from a channel or thread, or an interaction's answer) as Discord holds it. What
    was done to get it, the ``command`` typed or the message ``clicked``, is the line the client
    shows above it."""
    pictures = {}
    for attachment in message.attachments:
        pictures[attachment.filename] = Picture(await attachment.read(), attachment.description or "")
    origin = getattr(message, "message", message).interaction_metadata
    header = None
    if origin is not None and origin.type == discord.InteractionType.application_command:
        assert command, "which command made this message?"
        header = ("command", origin.user.name, command)
    elif origin is not None and origin.type == discord.InteractionType.component:
        assert clicked is not None, "which message's button made this message?"
        header = ("reply", BOT_NAME, clicked.content or "")
    return Captured(
        author=BOT_NAME,
        is_bot=True,
        content=message.content or "",
        embeds=[embed.to_dict() for embed in message.embeds],
        pictures=pictures,
        rows=component_rows(message),
        at=at,
        ephemeral=message.flags.ephemeral,
        header=header,
    )


def capture_thread_started(message: Any, thread: Any, at: float) -> Captured:
    """The channel's system message for a new thread, with the thread's card."""
    assert message.type == discord.MessageType.thread_created, message.type
    inside = sorted(thread.history(), key=lambda m: m.id)
    latest = inside[-1]
    text = latest.content or (latest.embeds[0].title if latest.embeds else "") or ""
    card = ThreadCard(thread.name, len(inside), BOT_NAME if latest.author.bot else latest.author.name, text)
    return Captured(BOT_NAME, True, message.content or "", [], {}, [], at, thread=card)


# ----- driving the bot -----------------------------------------------------------------------------------
class WallClock:
    """``time.time`` while the bot runs: ``EVENING``, moved a millisecond at each reading (so stored
    moments keep their order) and as far as the script moves it (people take time to decide)."""

    def __init__(self, start: float) -> None:
        self.now = start

    def __call__(self) -> float:
        """What ``time.time()`` returns now."""
        self.now += 0.001
        return self.now

    def advance(self, seconds: float) -> None:
        """Move the clock on, as time passes at the table."""
        self.now += seconds


@contextmanager
def seeded(seed: int) -> Iterator[None]:
    """Start the tables' games with a fixed seed, so the deals (and the computers, seeded from the
    game) repeat from run to run. The manager passes ``seed=None`` for a table without a seed of
    its own (a duplicate event's table has one): that is the call this fills in."""

    def fixed(variant: str, **kwargs: Any) -> Game:
        if kwargs.get("seed") is None:
            kwargs["seed"] = seed
        return new_game(variant, **kwargs)

    with patch("bot.tables.new_game", fixed):
        yield


async def advise_here(game: Game, seat: int, *, family: str, seed: int) -> Advice:
    """``/hint``'s search (the real ``hard`` player) in this process, under ``HINT_BUDGET``: the bot
    runs it in its worker pool under a one-second budget, which a busy machine may cut short."""
    player = HardPlayer(seed, family=family, budget=HINT_BUDGET)
    return await asyncio.to_thread(player.advise, game, seat)


def named(message: Any, kind: int, text: str) -> dict[str, Any]:
    """The component of ``kind`` (2 button, 3 select menu) whose label or placeholder starts with
    ``text``: what a person looks for on the screen. Fails, naming what there is, if it is gone."""
    found = [c for row in component_rows(message) for c in row if c.get("type") == kind]
    for component in found:
        if str(component.get("label") or component.get("placeholder") or "").startswith(text):
            return component
    shown = [c.get("label") or c.get("placeholder") for c in found]
    raise AssertionError(f"no {'menu' if kind == 3 else 'button'} {text!r} on the message (it has {shown})")


@dataclass
class Opened:
    """A table opened by ``/table new``: its own thread, the channel's line about it, the table."""

    thread: Any
    line: Any
    table: Table
    place: tuple[str, str]

    def message(self) -> Any:
        """The table's message in its thread, as it is now."""
        assert self.table.message_id is not None, "the table message was never posted"
        return message_by_id(self.thread, self.table.message_id)


@dataclass
class World:
    """The Card Club on a Friday evening: its #cards channel, its members, the bot's clock, and
    the scenes kept so far."""

    env: Any
    clock: WallClock
    channel: Any
    people: dict[str, Any]
    names: dict[int, str]
    channels: dict[int, tuple[str, bool]]
    scenes: list[Scene] = field(default_factory=list)

    async def shot(self, message: Any, *, command: str = "", clicked: Any = None) -> Captured:
        """A message once the bot has shown everything it was about to."""
        await self.env.bot.publisher.wait_idle()
        return await capture(message, self.clock.now, command=command, clicked=clicked)

    def keep(
        self,
        name: str,
        messages: list[Captured],
        *,
        viewer: str = "Ann",
        place: tuple[str, ...] = (),
        themes: tuple[str, ...] = ("dark",),
        open_menu: str = "",
    ) -> None:
        """Keep a scene (``SCENES`` says what it shows); in #cards unless ``place`` says where."""
        place = place or (self.channel.name,)
        scene = Scene(
            name, messages, viewer, self.names, self.channels, place, themes, SCENES[name], open_menu
        )
        self.scenes.append(scene)

    async def open_table(self, host: str, game: str) -> Opened:
        """``/table new`` in #cards: a thread for the table, and a line with **Join** in the channel."""
        channel = self.channel
        before = {thread.id for thread in channel.threads}
        result = await self.people[host].slash(channel, "table new", game=game)
        assert result.acknowledged and not result.ephemeral, "the table was not opened"
        (thread,) = [t for t in channel.threads if t.id not in before]
        await self.env.bot.publisher.wait_idle()
        self.channels[thread.id] = (thread.name, True)
        line = message_by_id(channel, result.response.id)
        assert thread.mention in line.content, line.content
        return Opened(thread, line, table_of(self.env.bot, thread.id), (channel.name, thread.name))

    async def join(self, who: str, opened: Opened) -> None:
        """``who`` clicks **Join** on the channel's line about the table."""
        person = self.people[who]
        joined = await person.click(opened.line, label=named(opened.line, 2, "Join")["label"])
        assert joined.ephemeral and "You took seat" in joined.response.content, joined.response.content

    async def click(self, who: str, message: Any, label: str) -> Any:
        """``who`` clicks the button whose label starts with ``label``; the click's result."""
        return await self.people[who].click(message, label=named(message, 2, label)["label"])

    async def start(self, host: str, opened: Opened, seed: int) -> None:
        """The host clicks **Start**: the game is dealt from ``seed``."""
        with seeded(seed):
            await self.click(host, opened.message(), "Start")
        assert opened.table.status == "playing" and opened.table.game is not None

    async def admin(self, command: str, **options: Any) -> Any:
        """Ann (a moderator here) uses ``/admin command`` in #cards; the answer."""
        result = await self.people["Ann"].slash(self.channel, f"admin {command}", **options)
        assert result.acknowledged, command
        return result.response


@dataclass
class Seats:
    """The people at a table, and each one's hand panel once opened (one click opens it, then
    the bot keeps it up to date)."""

    world: World
    opened: Opened
    panels: dict[int, Any] = field(default_factory=dict)
    players: dict[int, Player] = field(default_factory=dict)
    """The easy computer that would decide for each seat (``decide``)."""

    async def next(self) -> tuple[int, str, dict[str, Any], Any] | None:
        """The next person's turn: their seat, name, view and panel (None: the game is over)."""
        table = self.opened.table
        seat = await next_person(self.world.env, table)
        if seat is None:
            return None
        sitter = table.seats[seat]
        assert sitter is not None and sitter.user_id is not None and table.game is not None
        if sitter.user_id not in self.panels:
            who = self.world.names[sitter.user_id]
            shown = await self.world.click(who, self.opened.message(), "Show my hand")
            assert shown.ephemeral
            self.panels[sitter.user_id] = shown.response
        return seat, self.world.names[sitter.user_id], table.game.view(seat), self.panels[sitter.user_id]

    async def decide(self, who: str, panel: Any, prefer: tuple[str, ...] = ()) -> None:
        """One decision in a panel: the first enabled button whose action ends with one of
        ``prefer``; else what the easy computer would do in the seat (people here play sensibly);
        else the first button that can be undone."""
        person = self.world.people[who]
        table = self.opened.table
        self.world.clock.advance(THINKING_SECONDS)
        buttons, selects = controls(panel)
        for wanted in prefer:
            for custom_id in buttons:
                if custom_id.endswith(wanted):
                    await person.click(panel, custom_id=custom_id)
                    return
        assert table.game is not None
        seat = table.seat_of(person.id)
        assert seat is not None
        player = self.players.setdefault(seat, make_player(table.family, "basic", seed=seat))
        action = str(decide(player, table.game, seat)).lower()
        for custom_id in buttons:
            if custom_id.endswith(":" + action):
                await person.click(panel, custom_id=custom_id)
                return
        for custom_id, values in selects.items():
            for value in values:
                if value.lower() == action:
                    await person.select(panel, [value], custom_id=custom_id)
                    return
        # A bid with no button of its own (it would be typed after **Other bid…**): pass instead.
        passing = [c for c in buttons if c.endswith(":pass")]
        assert passing, f"no control for {action!r} in {who}'s panel: {panel.content}"
        await person.click(panel, custom_id=passing[0])

    async def play_out(self) -> None:
        """Everyone plays as the easy computer would, until the game ends."""
        for _ in range(1000):
            turn = await self.next()
            if turn is None:
                finals = [m for m in self.opened.thread.history() if "Final scores" in (m.content or "")]
                assert finals, "the game ended without its final scores"
                return
            _, who, _, panel = turn
            await self.decide(who, panel)
        raise AssertionError("the game did not end in 1000 decisions")


def best_trump(view: dict[str, Any]) -> str:
    """The trump a person would name: the suit they hold most of (as the end of a custom id)."""
    suits = [card[-1].upper() for card in view["hand"]]
    return ":trump " + max("SHDC", key=suits.count).lower()


def thread_started(channel: Any, thread: Any) -> Any:
    """The channel's system message saying the bot started ``thread``."""
    for message in channel.history():
        if message.type == discord.MessageType.thread_created and message.content == thread.name:
            return message
    raise AssertionError(f"no 'started a thread' message for {thread.name!r}")


async def first_table(world: World) -> Opened:
    """Ann's pitch table: its thread and lobby, the table mid-trick, Ann's hand and a hint."""
    opened = await world.open_table("Ann", "pitch")
    await world.join("Bob", opened)
    await world.click("Ann", opened.message(), "Add computer (easy)")
    lobby = opened.message()
    named(lobby, 2, "Add computer (hard)")  # both levels are offered
    named(lobby, 3, "Choose a seat")
    line = await world.shot(message_by_id(world.channel, opened.line.id), command="/table new")
    started = capture_thread_started(
        thread_started(world.channel, opened.thread), opened.thread, world.clock.now
    )
    world.keep("thread", [line, started], themes=("dark", "light"))
    world.keep("lobby", [await world.shot(lobby)], place=opened.place)
    await world.start("Ann", opened, PITCH_SEED)
    seats = Seats(world, opened)
    for _ in range(300):
        turn = await seats.next()
        assert turn is not None, "the game ended before the moment came"
        _, who, view, panel = turn
        plays = [a for a in view["legal"] if a.startswith("play ")]
        following = len(view["trick"]) >= 2 and 0 < len(plays) < len(view["hand"]) >= 4
        if who == "Ann" and following:
            public = opened.message()
            world.keep("table", [await world.shot(public)], place=opened.place, themes=("dark", "light"))
            world.keep(
                "hand",
                [await world.shot(panel, clicked=public)],
                place=opened.place,
                themes=("dark", "light"),
            )
            hint = await world.people["Ann"].slash(opened.thread, "hint")
            assert hint.ephemeral and hint.response.content.startswith("💡 Hint"), hint.response.content
            world.keep("hint", [await world.shot(hint.response, command="/hint")], place=opened.place)
            return opened
        await seats.decide(who, panel)
    raise AssertionError("no trick to follow in 300 decisions")


async def partnership_table(world: World) -> None:
    """Ann's partnership-auction pinochle table: Bob picks his seat (and so Ann as his partner)
    from the seat menu; then a long auction, and the melds laid on the table."""
    opened = await world.open_table("Ann", "pinochle-4-auction")
    await world.join("Bob", opened)
    lobby = opened.message()
    menu = named(lobby, 3, "Choose a seat")
    world.keep(
        "seats", [await world.shot(lobby)], viewer="Bob", place=opened.place, open_menu=menu["placeholder"]
    )
    opposite = next(o for o in menu["options"] if "(Ann)" in o.get("description", ""))
    moved = await world.people["Bob"].select(lobby, [opposite["value"]], custom_id=menu["custom_id"])
    assert moved.ephemeral and "You moved to seat 3" in moved.response.content, moved.response.content
    await world.start("Ann", opened, PINOCHLE_SEED)
    seats = Seats(world, opened)
    bid_shown = False
    for _ in range(300):
        turn = await seats.next()
        assert turn is not None, "the game ended before the moments came"
        _, who, view, panel = turn
        if who != "Ann":
            await seats.decide(who, panel)
            continue
        bids = [a for a in view["legal"] if a.startswith("bid ")]
        if bids and int(bids[0].split()[1]) >= 200 and not bid_shown:
            world.keep("bid", [await world.shot(panel, clicked=opened.message())], place=opened.place)
            bid_shown = True
        public = opened.message()
        alt = [a.description or "" for a in public.attachments]
        if bid_shown and any(text.startswith("Melds") for text in alt) and len(view["hand"]) >= 6:
            world.keep("melds", [await world.shot(public)], place=opened.place)
            return
        await seats.decide(who, panel, (":bid " + bids[0].split()[1],) if bids else (best_trump(view),))
    raise AssertionError(f"the moments never came (the bid panel {'was' if bid_shown else 'was not'} seen)")


async def the_evening(world: World) -> None:
    """Everything, in order: the scenes are kept in ``world.scenes``."""
    ann, channel = world.people["Ann"], world.channel
    first = await first_table(world)
    started = await world.admin("league-start", name="Friday Night", game="pitch")
    assert "has started" in started.content, started.content
    await Seats(world, first).play_out()
    second = await world.open_table("Cat", "pitch")
    await world.join("Dan", second)
    await world.join("Ann", second)
    await world.start("Cat", second, SECOND_PITCH_SEED)
    await Seats(world, second).play_out()
    await partnership_table(world)
    world.clock.advance(10 * 60)
    ended = await world.admin("league-end")
    assert "League over" in ended.content, ended.content
    shown = await ann.slash(channel, "league show")
    assert shown.ephemeral and "Final standings" in shown.response.content, shown.response.content
    world.keep("league", [await world.shot(shown.response, command="/league show")])
    history = await ann.slash(channel, "history")
    named(history.response, 3, "Replay one of these games")
    world.keep("history", [await world.shot(history.response, command="/history")])
    replay = await ann.slash(channel, "replay", game=first.table.id)
    page = replay.response
    for _ in range(3):
        page = (await world.click("Ann", page, "Next")).response
    assert page.attachments, f"no trick picture on the replay's page: {page.embeds[0].description}"
    world.keep("replay", [await world.shot(page, command="/replay")])
    stats = await ann.slash(channel, "stats")
    world.keep("stats", [await world.shot(stats.response, command="/stats")])
    board = await ann.slash(channel, "leaderboard show", game="pitch")
    world.keep("leaderboard", [await world.shot(board.response, command="/leaderboard show")])


async def card_club(env: Any, clock: WallClock) -> World:
    """The server: #cards, Ann (a moderator: Manage Server), Bob, Cat and Dan. Ann sets it up as
    a server would be: each table in a public thread of its own, games with computers rated."""
    guild = env.create_guild("Card Club")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    people = {"Ann": guild.add_member(env.create_user("Ann"), roles=(mods,))}
    for name in ("Bob", "Cat", "Dan"):
        people[name] = guild.add_member(env.create_user(name))
    channel = guild.create_text_channel("cards")
    names = {person.id: name for name, person in people.items()}
    names[env.bot.user.id] = BOT_NAME
    world = World(env, clock, channel, people, names, {channel.id: (str(channel.name), False)})
    answer = await world.admin("settings", table_threads="public", rate_computer_games=True)
    assert "each in a public thread" in answer.content, answer.content
    return world


async def capture_scenes(workdir: Path) -> list[Scene]:
    """Run the evening in simcord (the bot's database in ``workdir``) and return its scenes."""
    settings = Settings(token=None, database=workdir / "tricknight.db", computer_delay=0.0, shard_count=1)
    the_bot = TrickNightBot(settings, min_edit_interval=0.0)
    clock = WallClock(EVENING)
    with patch("time.time", clock):
        async with simcord.run(the_bot) as env:
            try:
                world = await card_club(env, clock)
                with patch.object(the_bot.tables.thinker, "advise", advise_here):
                    await the_evening(world)
            finally:
                await close_bot_state(env)
    return world.scenes


# ----- Discord's client, as HTML -------------------------------------------------------------------------
THEMES: dict[str, dict[str, str]] = {
    "dark": {
        "bg": "#313338", "text": "#dbdee1", "header": "#f2f3f5", "muted": "#949ba4",
        "embed": "#2b2d31", "footer": "#b5bac1", "code": "#2b2d31", "link": "#00a8fc",
        "mention": "rgba(88,101,242,.3)", "mention_text": "#c9cdfb",
        "mentioned": "rgba(240,178,50,.08)", "secondary": "#4e5058", "reply_line": "#4e5058",
        "menu": "#2b2d31", "menu_border": "#1e1f22", "menu_hover": "#35373c", "card": "#2b2d31",
        "bar_shadow": "rgba(2,2,2,.2)", "stamp": "rgba(255,255,255,.06)",
    },
    "light": {
        "bg": "#ffffff", "text": "#313338", "header": "#060607", "muted": "#5c5e66",
        "embed": "#f2f3f5", "footer": "#4e5058", "code": "#f2f3f5", "link": "#006ce7",
        "mention": "rgba(88,101,242,.15)", "mention_text": "#505cdc",
        "mentioned": "rgba(240,178,50,.1)", "secondary": "#6d6f78", "reply_line": "#c4c9ce",
        "menu": "#ffffff", "menu_border": "#e3e5e8", "menu_hover": "#ebedef", "card": "#f2f3f5",
        "bar_shadow": "rgba(6,6,7,.08)", "stamp": "rgba(6,6,7,.06)",
    },
}  # fmt: skip
BUTTON_COLOURS = {1: "#5865f2", 3: "#248046", 4: "#da373c"}  # primary, success, danger; else secondary

FONT_DIR = Path(simcord.__file__).resolve().parent / "preview" / "static" / "fonts"
FONTS = {  # simcord ships these (SIL Open Font License): no font is fetched from the network
    "Noto Sans": "noto-sans-latin-v2.015.ttf",
    "Noto Sans Mono": "noto-sans-mono-v2.014.ttf",
    "Noto Color Emoji": "noto-color-emoji-v2.051.ttf",
}

# Discord shows these code points as Twemoji pictures when they stand alone (no variation
# selector): the suits among them, which are dark on a dark theme.
EMOJI = re.compile("[\u2600-\u27bf\u25b6\u25c0\u2b50\u2b06\u2b07\u2b05\u27a1\U0001f000-\U0001faff]\ufe0f?")

THREAD_ICON = (
    '<svg class="icon" width="{size}" height="{size}" viewBox="0 0 24 24"><path fill="currentColor" '
    'd="M12 2.8c-5.3 0-9.5 3.7-9.5 8.3 0 2.3 1 4.3 2.7 5.8L4.4 21l4.5-2.3c1 .3 2 .4 3.1.4 5.3 0 9.5-3.7 '
    "9.5-8.3S17.3 2.8 12 2.8Zm0 14.4c-1 0-2-.2-2.9-.5l-.5-.2-1.8.9.4-1.6-.5-.4C5.3 14.2 4.5 12.7 4.5 "
    '11.1 4.5 7.6 7.9 4.8 12 4.8s7.5 2.8 7.5 6.3-3.4 6.1-7.5 6.1Z"/><path fill="currentColor" '
    'd="M8 9.5h8v1.6H8zm0 3h5.5v1.6H8z"/></svg>'
)
"""Discord's thread icon, as near as a plain outline gets: a speech bubble with two lines."""
EYE = (
    '<svg width="16" height="16" viewBox="0 0 24 24"><path fill="currentColor" d="M12 5C5.6 5 2 12 2 12s3.6 '
    "7 10 7 10-7 10-7-3.6-7-10-7Zm0 11.5A4.5 4.5 0 1 1 12 7.5a4.5 4.5 0 0 1 0 9Zm0-7a2.5 2.5 0 1 0 0 5 "
    '2.5 2.5 0 0 0 0-5Z"/></svg>'
)


def thread_icon(size: int) -> str:
    """The thread icon as inline SVG, ``size`` pixels square."""
    return THREAD_ICON.replace("{size}", str(size))


def clock_time(moment: float) -> str:
    """``8:41 PM``: how the client writes a time (in UTC here, the capture's timezone)."""
    day = datetime.fromtimestamp(moment, UTC)
    return f"{day.hour % 12 or 12}:{day:%M} {'AM' if day.hour < 12 else 'PM'}"


def relative_time(moment: float, now: float) -> str:
    """``12 minutes ago``, ``in 2 hours``: a ``<t:…:R>`` timestamp as the client words it."""
    seconds = abs(now - moment)
    steps = [(45, "a few seconds", ""), (90, "a minute", ""), (45 * 60, "", "minute"),
             (90 * 60, "an hour", ""), (22 * 3600, "", "hour"), (36 * 3600, "a day", "")]  # fmt: skip
    words = f"{round(seconds / 86400)} days"
    for limit, fixed, unit in steps:
        if seconds < limit:
            size = {"minute": 60, "hour": 3600}.get(unit, 1)
            words = fixed or f"{round(seconds / size)} {unit}s"
            break
    return f"in {words}" if moment > now else f"{words} ago"


def timestamp(moment: float, style: str, now: float) -> str:
    """A ``<t:moment:style>`` timestamp as the client shows it (en-US, UTC)."""
    if style == "R":
        return relative_time(moment, now)
    day = datetime.fromtimestamp(moment, UTC)
    date = f"{day:%B} {day.day}, {day.year}"
    return {
        "t": clock_time(moment),
        "T": f"{clock_time(moment)[:-3]}:{day:%S} {clock_time(moment)[-2:]}",
        "d": f"{day.month}/{day.day}/{day.year}",
        "D": date,
        "F": f"{day:%A}, {date} {clock_time(moment)}",
    }.get(style, f"{date} {clock_time(moment)}")


def markdown(text: str, scene: Scene, now: float) -> str:
    """Discord's inline markdown (the part the bot uses): code, bold, underline, italics, strike,
    user and channel mentions, timestamps and emoji; line breaks kept. ``now``: when it is read
    (for relative timestamps)."""
    codes: list[str] = []

    def keep_code(match: re.Match[str]) -> str:
        codes.append(f"<code>{html.escape(match[1])}</code>")
        return f"\x00{len(codes) - 1}\x00"

    text = re.sub(r"`([^`]+)`", keep_code, text)
    out = html.escape(text, quote=False)
    out = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", out)
    out = re.sub(r"__(.+?)__", r"<u>\1</u>", out)
    out = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"<em>\1</em>", out)
    out = re.sub(r"(?<!\w)_(?!\s)(.+?)(?<!\s)_(?!\w)", r"<em>\1</em>", out)
    out = re.sub(r"~~(.+?)~~", r"<s>\1</s>", out)

    def mention(match: re.Match[str]) -> str:
        name = scene.names.get(int(match[1]), "unknown-user")
        return f'<span class="mention">@{html.escape(name)}</span>'

    def channel(match: re.Match[str]) -> str:
        name, is_thread = scene.channels.get(int(match[1]), ("unknown", False))
        icon = thread_icon(16) if is_thread else '<span class="hash-small">#</span>'
        return f'<span class="mention channel">{icon}{html.escape(name)}</span>'

    def stamp(match: re.Match[str]) -> str:
        return f'<span class="timestamp">{timestamp(int(match[1]), match[2] or "f", now)}</span>'

    out = re.sub(r"&lt;@!?(\d+)&gt;", mention, out)
    out = re.sub(r"&lt;#(\d+)&gt;", channel, out)
    out = re.sub(r"&lt;t:(-?\d+)(?::([tTdDfFR]))?&gt;", stamp, out)
    out = EMOJI.sub(lambda m: f'<span class="emoji">{m[0]}</span>', out)
    out = re.sub("\x00(\\d+)\x00", lambda m: codes[int(m[1])], out)
    return out.replace("\n", "<br>")


def data_uri(png: bytes) -> str:
    """The picture inlined in the page (nothing is fetched)."""
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def fitted(png: bytes, max_width: int, max_height: int) -> tuple[int, int]:
    """The size Discord shows an image at: its own, scaled down to fit the box."""
    width, height = Image.open(io.BytesIO(png)).size
    scale = min(1.0, max_width / width, max_height / height)
    return round(width * scale), round(height * scale)


def image_tag(picture: Picture, max_width: int, max_height: int, css: str) -> str:
    """An ``<img>`` of the picture at the size Discord would show it, with its alt text."""
    width, height = fitted(picture.png, max_width, max_height)
    return (
        f'<img class="{css}" src="{data_uri(picture.png)}" width="{width}" height="{height}" '
        f'alt="{html.escape(picture.description)}">'
    )


def embed_html(embed: dict[str, Any], message: Captured, scene: Scene) -> str:
    """An embed: colour bar, title, description, fields (inline ones three to a row), image, footer."""
    colour = f"#{int(embed.get('color') or 0x1E1F22):06x}"
    parts = []
    if embed.get("title"):
        parts.append(f'<div class="embed-title">{markdown(embed["title"], scene, message.at)}</div>')
    if embed.get("description"):
        parts.append(
            f'<div class="embed-description">{markdown(embed["description"], scene, message.at)}</div>'
        )
    rows: list[list[dict[str, Any]]] = []
    for embed_field in embed.get("fields", []):
        if embed_field.get("inline") and rows and rows[-1][-1].get("inline") and len(rows[-1]) < 3:
            rows[-1].append(embed_field)
        else:
            rows.append([embed_field])
    if rows:
        cells = []
        for row in rows:
            span = 12 // len(row)
            for column, embed_field in enumerate(row):
                name, value = (markdown(embed_field[key], scene, message.at) for key in ("name", "value"))
                columns = f"{column * span + 1}/{(column + 1) * span + 1}"
                cells.append(
                    f'<div class="embed-field" style="grid-column:{columns}"><div class="embed-field-name">'
                    f'{name}</div><div class="embed-field-value">{value}</div></div>'
                )
        parts.append(f'<div class="embed-fields">{"".join(cells)}</div>')
    image_url = (embed.get("image") or {}).get("url", "")
    if image_url.startswith("attachment://"):
        picture = message.pictures[image_url.removeprefix("attachment://")]
        parts.append(f'<div class="embed-image">{image_tag(picture, 400, 300, "embed-img")}</div>')
    if (embed.get("footer") or {}).get("text"):
        parts.append(f'<div class="embed-footer">{html.escape(embed["footer"]["text"])}</div>')
    return f'<div class="embed" style="border-left-color:{colour}">{"".join(parts)}</div>'


def select_html(component: dict[str, Any], opened: bool) -> str:
    """A select menu as the client shows it: closed (its placeholder), or opened by a click, its
    options listed under it with their descriptions."""
    placeholder = html.escape(component.get("placeholder") or "Make a selection")
    disabled = " disabled" if component.get("disabled") else ""
    if not opened:
        return f'<div class="select{disabled}"><span>{placeholder}</span><span class="chevron">⌄</span></div>'
    options = []
    for option in component.get("options", []):
        description = option.get("description")
        below = f'<div class="option-description">{html.escape(description)}</div>' if description else ""
        options.append(
            f'<div class="option"><div class="option-label">{html.escape(option["label"])}</div>{below}</div>'
        )
    return (
        f'<div class="select open"><span>{placeholder}</span><span class="chevron up">⌄</span></div>'
        f'<div class="menu">{"".join(options)}</div>'
    )


def component_html(component: dict[str, Any], scene: Scene) -> str:
    """A button in its style's colour (faded when disabled), or a select menu."""
    if component.get("type") == 3:  # a select menu
        return select_html(
            component, bool(scene.open_menu) and component.get("placeholder") == scene.open_menu
        )
    style = component.get("style", 2)
    colour = BUTTON_COLOURS.get(style, "var(--secondary)")
    disabled = " disabled" if component.get("disabled") else ""
    label = html.escape(component.get("label") or "")
    return f'<div class="button{disabled}" style="background:{colour}">{label}</div>'


def avatar(name: str, is_bot: bool, size: int) -> str:
    """A plain round avatar (a bot's picture is its own; people get Discord's default colours)."""
    colour = "#1f8b4c" if is_bot else "#5865f2"
    glyph = "♠" if is_bot else html.escape(name[:1].upper())
    style = f"width:{size}px;height:{size}px;background:{colour};font-size:{size // 2}px"
    return f'<div class="avatar" style="{style}">{glyph}</div>'


def thread_started_html(message: Captured, scene: Scene) -> str:
    """The system line "… started a thread: name. See all threads." and the thread's card."""
    card = message.thread
    assert card is not None
    count = f"{card.messages} Message{'s' if card.messages != 1 else ''}"
    latest = markdown(card.latest_text, scene, message.at)
    return (
        f'<div class="message system"><div class="system-icon">{thread_icon(20)}</div>'
        f'<div class="system-line"><span class="name">{html.escape(message.author)}</span> started a thread: '
        f"<strong>{html.escape(message.content)}</strong>. See all <strong>threads</strong>."
        f'<span class="time">Today at {clock_time(message.at)}</span></div>'
        f'<div class="thread-card"><div class="thread-card-top"><span class="thread-card-name">'
        f'{html.escape(card.name)}</span><span class="thread-card-count">{count} ›</span></div>'
        f'<div class="thread-card-latest">{avatar(card.latest_author, True, 16)}<span class="latest-name">'
        f'{html.escape(card.latest_author)}</span><span class="latest-text">{latest}</span></div></div></div>'
    )


def message_html(message: Captured, scene: Scene) -> str:
    """One message as the client lays it out: the line above an answer, avatar, name, BOT tag and
    time, text, embeds, pictures, components, and "Only you can see this" for an ephemeral one."""
    if message.thread is not None:
        return thread_started_html(message, scene)
    parts = []
    if message.header is not None:
        kind, who, what = message.header
        if kind == "command":
            said = f'<span>used</span><span class="command">{html.escape(what)}</span>'
        else:
            snippet = markdown(what, scene, message.at) or "<em>Click to see attachment</em>"
            said = f'<span class="reply-text">{snippet}</span>'
        parts.append(
            f'<div class="reply">{avatar(who, kind == "reply", 16)}<span class="reply-name">'
            f"{'@' if kind == 'reply' else ''}{html.escape(who)}</span>{said}</div>"
        )
    tag = '<span class="bot-tag">BOT</span>' if message.is_bot else ""
    parts.append(
        f'<div class="message-body">{avatar(message.author, message.is_bot, 40)}'
        f'<div class="header"><span class="name">{html.escape(message.author)}</span>{tag}'
        f'<span class="time">Today at {clock_time(message.at)}</span></div>'
    )
    if message.content:
        parts.append(f'<div class="content">{markdown(message.content, scene, message.at)}</div>')
    for embed in message.embeds:
        parts.append(embed_html(embed, message, scene))
    shown_in_embeds = {
        (embed.get("image") or {}).get("url", "").removeprefix("attachment://") for embed in message.embeds
    }
    for filename, picture in message.pictures.items():
        if filename not in shown_in_embeds:
            parts.append(f'<div class="attachment">{image_tag(picture, 550, 350, "attached")}</div>')
    if message.rows:
        rows = "".join(
            f'<div class="row">{"".join(component_html(c, scene) for c in row)}</div>' for row in message.rows
        )
        parts.append(f'<div class="components">{rows}</div>')
    if message.ephemeral:
        parts.append(
            f'<div class="ephemeral">{EYE}<span>Only you can see this</span><span>•</span>'
            '<span class="dismiss">Dismiss message</span></div>'
        )
    parts.append("</div>")
    viewer_ids = [user_id for user_id, name in scene.names.items() if name == scene.viewer]
    mentioned = any(f"<@{user_id}>" in message.content for user_id in viewer_ids) and not message.ephemeral
    return f'<div class="message{" mentioned" if mentioned else ""}">{"".join(parts)}</div>'


def top_bar(scene: Scene) -> str:
    """The header bar over the messages: ``# cards``, or ``# cards › (thread) thread name``."""
    channel, *thread = scene.place
    parts = [f'<span class="hash">#</span><span class="top-name">{html.escape(channel)}</span>']
    for name in thread:
        name_html = f'<span class="top-name">{html.escape(name)}</span>'
        parts.append(f'<span class="top-sep">›</span>{thread_icon(22)}{name_html}')
    return f'<div class="top-bar">{"".join(parts)}</div>'


CSS = """
@font-face { font-family: "Noto Sans"; src: url("{sans}"); font-weight: 100 900; }
@font-face { font-family: "Noto Sans Mono"; src: url("{mono}"); }
@font-face { font-family: "Noto Color Emoji"; src: url("{emoji}"); }
:root { --secondary: {secondary}; }
* { box-sizing: border-box; }
body { margin: 0; padding: 0 0 20px; width: {width}px; background: {bg}; color: {text};
  font: 16px/22px "Noto Sans", "DejaVu Sans", sans-serif; -webkit-font-smoothing: antialiased; }
.top-bar { height: 48px; display: flex; align-items: center; gap: 8px; padding: 0 16px; margin-bottom: 16px;
  box-shadow: 0 1px 0 {bar_shadow}, 0 2px 0 {bar_shadow}; color: {muted}; font-size: 16px; }
.top-name { color: {header}; font-weight: 600; white-space: nowrap; overflow: hidden;
  text-overflow: ellipsis; }
.hash { font-size: 24px; font-weight: 400; line-height: 1; }
.top-sep { font-size: 20px; }
.icon { flex: none; vertical-align: -3px; }
.message { position: relative; padding: 2px 48px 2px 72px; }
.message + .message { margin-top: 17px; }
.message.mentioned { background: {mentioned}; box-shadow: inset 2px 0 0 #f0b232; }
.emoji { font-family: "Noto Color Emoji"; font-size: 1.1em; line-height: 1; }
.avatar { display: flex; align-items: center; justify-content: center; border-radius: 50%; color: #fff;
  font-weight: 600; line-height: 1; font-family: "DejaVu Sans", sans-serif; flex: none; }
.message-body > .avatar { position: absolute; left: 16px; margin-top: 2px; }
.header { display: flex; align-items: baseline; gap: 4px; line-height: 22px; }
.name { color: {header}; font-weight: 500; font-size: 16px; }
.bot-tag { background: #5865f2; color: #fff; font-size: 10px; font-weight: 600; line-height: 15px;
  height: 15px; padding: 0 4px; border-radius: 3px; position: relative; top: -2px; margin-left: 2px; }
.time { color: {muted}; font-size: 12px; margin-left: 4px; font-weight: 400; }
.content { white-space: normal; overflow-wrap: anywhere; }
.content strong, .embed strong { font-weight: 700; }
code { font-family: "Noto Sans Mono", monospace; font-size: 85%; background: {code}; padding: 0 .2em;
  border-radius: 3px; }
.mention { background: {mention}; color: {mention_text}; border-radius: 3px; padding: 0 2px;
  font-weight: 500; }
.mention.channel .icon { margin-right: 2px; }
.hash-small { margin-right: 1px; }
.timestamp { background: {stamp}; border-radius: 3px; padding: 0 2px; }
.reply { display: flex; align-items: center; gap: 4px; font-size: 14px; line-height: 18px; color: {muted};
  margin: 0 0 4px; position: relative; }
.reply::before { content: ""; position: absolute; left: -36px; top: 8px; width: 30px; height: 10px;
  border-left: 2px solid {reply_line}; border-top: 2px solid {reply_line}; border-top-left-radius: 6px; }
.reply .avatar { font-size: 9px; }
.reply-name { color: {header}; font-weight: 500; opacity: .9; }
.reply-text { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 520px; }
.embed { max-width: 516px; margin-top: 4px; background: {embed}; border-left: 4px solid; border-radius: 4px;
  padding: 8px 16px 16px 12px; font-size: 14px; line-height: 18px; }
.embed-title { color: {header}; font-size: 16px; font-weight: 600; line-height: 22px; margin-top: 8px; }
.embed-description { margin-top: 8px; }
.embed-fields { display: grid; grid-template-columns: repeat(12, 1fr); gap: 8px; margin-top: 8px; }
.embed-field-name { color: {header}; font-weight: 600; margin-bottom: 2px; }
.embed-image { margin-top: 16px; }
.embed-img, .attached { display: block; border-radius: 4px; }
.attachment { margin-top: 4px; }
.attached { border-radius: 8px; }
.embed-footer { margin-top: 8px; font-size: 12px; line-height: 16px; color: {footer}; font-weight: 500; }
.components { margin-top: 4px; }
.row { display: flex; flex-wrap: wrap; }
.button { height: 32px; min-width: 60px; margin: 4px 8px 4px 0; padding: 2px 16px; border-radius: 3px;
  color: #fff; font-size: 14px; font-weight: 500; display: flex; align-items: center; justify-content: center;
  font-family: "Noto Sans", "DejaVu Sans", sans-serif; white-space: nowrap; }
.button.disabled { opacity: .5; }
.select { width: 400px; height: 40px; margin: 4px 0; padding: 0 8px 0 12px; border-radius: 4px;
  background: {menu}; border: 1px solid {menu_border}; display: flex; align-items: center;
  justify-content: space-between; color: {muted}; font-size: 14px; }
.select.disabled { opacity: .5; }
.select.open { border-radius: 4px 4px 0 0; margin-bottom: 0; border-color: #5865f2; }
.chevron.up { transform: rotate(180deg); }
.menu { width: 400px; margin: 0 0 4px; background: {menu}; border: 1px solid {menu_border}; border-top: 0;
  border-radius: 0 0 4px 4px; padding: 4px 0; box-shadow: 0 8px 16px rgba(0,0,0,.24); }
.option { padding: 8px 12px; font-size: 14px; line-height: 18px; }
.option:first-child { background: {menu_hover}; }
.option-label { color: {header}; font-weight: 500; }
.option-description { color: {muted}; font-size: 12px; line-height: 16px; margin-top: 2px; }
.ephemeral { display: flex; align-items: center; gap: 4px; margin-top: 4px; font-size: 12px;
  line-height: 16px; color: {muted}; }
.dismiss, .command { color: {link}; }
.system { color: {muted}; }
.system-icon { position: absolute; left: 26px; top: 3px; color: {muted}; }
.system-line { font-size: 16px; line-height: 22px; }
.system-line strong { color: {header}; font-weight: 500; }
.thread-card { width: 440px; margin-top: 6px; background: {card}; border-radius: 4px; padding: 8px 12px; }
.thread-card-top { display: flex; align-items: baseline; gap: 8px; font-size: 14px; line-height: 18px; }
.thread-card-name { color: {header}; font-weight: 600; }
.thread-card-count { color: {link}; font-weight: 600; font-size: 12px; }
.thread-card-latest { display: flex; align-items: center; gap: 6px; margin-top: 4px; font-size: 14px;
  line-height: 18px; white-space: nowrap; overflow: hidden; }
.thread-card-latest .avatar { font-size: 9px; }
.latest-name { color: {header}; font-weight: 500; opacity: .8; }
.latest-text { color: {muted}; overflow: hidden; text-overflow: ellipsis; }
"""


def page(scene: Scene, theme: str, width: int) -> str:
    """The scene as one HTML page in ``theme``: only local fonts and inlined pictures."""
    colours = dict(THEMES[theme])
    missing = [name for name, file in FONTS.items() if not (FONT_DIR / file).is_file()]
    assert not missing, f"simcord's preview fonts are missing ({missing}): pip install 'simcord[preview]'"
    fonts = {
        "sans": (FONT_DIR / FONTS["Noto Sans"]).as_uri(),
        "mono": (FONT_DIR / FONTS["Noto Sans Mono"]).as_uri(),
        "emoji": (FONT_DIR / FONTS["Noto Color Emoji"]).as_uri(),
    }
    css = CSS
    for key, value in {**colours, **fonts, "width": str(width)}.items():
        css = css.replace("{" + key + "}", value)
    messages = "".join(message_html(message, scene) for message in scene.messages)
    document = (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(scene.about)}</title><style>{css}</style></head><body>{top_bar(scene)}{messages}</body></html>"
    )
    remote = re.findall(r"""(?:src|href)=["']?(?!data:|file:)[a-z]+://""", document)
    assert not remote, f"the page would fetch {remote}"
    return document


# ----- the pages and the screenshots ---------------------------------------------------------------------
WIDTH = 720
HEIGHT = 2000  # taller than any scene; the picture is cropped to the messages
MAX_BYTES = 300_000
OFFLINE_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--allow-file-access-from-files",
    "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=http://127.0.0.1:9",
    "--proxy-bypass-list=<-loopback>", "--disable-quic",
    "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
    "--disable-default-apps", "--disable-domain-reliability", "--no-pings", "--force-device-scale-factor=1",
    "--virtual-time-budget=3000", "--default-background-color=00000000",
]  # fmt: skip


@dataclass
class Page:
    """One scene in one theme, written as HTML: ``name`` is the PNG's name without ``.png``."""

    name: str
    theme: str
    path: Path
    about: str


def write_pages(scenes: list[Scene], folder: Path) -> list[Page]:
    """Each scene's page in each of its themes, as ``folder/<scene>-<theme>.html``."""
    folder.mkdir(parents=True, exist_ok=True)
    pages = []
    for scene in scenes:
        for theme in scene.themes:
            name = f"{scene.name}-{theme}"
            path = folder / f"{name}.html"
            path.write_text(page(scene, theme, WIDTH), encoding="utf-8")
            pages.append(Page(name, theme, path, scene.about))
    return pages


def without_network() -> list[str]:
    """A prefix that runs a command in a network namespace of its own (no interface but loopback)
    where the system allows it; the flags above refuse every request in any case."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return []
    probe = subprocess.run([unshare, "-rn", "true"], check=False, capture_output=True)  # noqa: S603
    return [unshare, "-rn"] if probe.returncode == 0 else []


def screenshot(chromium: str, page_path: Path, png_path: Path, background: str) -> None:
    """Photograph the page, then crop it to the messages and keep it small."""
    raw = page_path.with_suffix(".raw.png")
    with tempfile.TemporaryDirectory() as profile:
        command = [
            *without_network(), chromium, *OFFLINE_FLAGS, f"--user-data-dir={profile}",
            f"--screenshot={raw}", f"--window-size={WIDTH},{HEIGHT}", page_path.as_uri(),
        ]  # fmt: skip
        subprocess.run(command, check=True, capture_output=True, timeout=120)  # noqa: S603
    image = Image.open(raw).convert("RGB")
    raw.unlink()
    ground = Image.new("RGB", image.size, background)
    box = ImageChops.difference(image, ground).getbbox()
    assert box is not None, f"{page_path.name} came out empty"
    assert box[3] < image.height - 16, f"{page_path.name} is taller than {HEIGHT} pixels: raise HEIGHT"
    image = image.crop((0, 0, WIDTH, min(image.height, box[3] + 16)))
    image.save(png_path, optimize=True)
    if png_path.stat().st_size > MAX_BYTES:  # photographs of text stay sharp in 256 colours
        image.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(
            png_path, optimize=True
        )


def main(argv: list[str] | None = None) -> None:
    """The command line: capture, write the pages, and (unless ``--html-only``) photograph them."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=HERE, help="where the PNGs go (default: this folder)")
    parser.add_argument("--html", type=Path, help="also keep the HTML pages in this folder")
    parser.add_argument(
        "--html-only", action="store_true", help="write the HTML pages (to --html) without a browser: no PNGs"
    )
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    args = parser.parse_args(argv)
    if args.html_only and args.html is None:
        parser.error("--html-only writes only the HTML pages: say where with --html DIR")
    if not args.html_only and shutil.which(args.chromium) is None:
        parser.error(f"no Chromium at {args.chromium!r} (apt-get install chromium), or use --html-only")
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        scenes = asyncio.run(capture_scenes(workdir))
        pages = write_pages(scenes, args.html or workdir / "pages")
        if args.html_only:
            for made in pages:
                print(f"{made.path}: {made.about}")  # noqa: T201
            return
        args.out.mkdir(parents=True, exist_ok=True)
        for made in pages:
            png_path = args.out / f"{made.name}.png"
            screenshot(args.chromium, made.path, png_path, THEMES[made.theme]["bg"])
            size = png_path.stat().st_size
            print(f"{png_path} ({size // 1024} KiB): {made.about}")  # noqa: T201


if __name__ == "__main__":
    main()
