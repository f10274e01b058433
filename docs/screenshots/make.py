"""Screenshots of Trick Night as a player sees it in Discord, made from the real bot, offline.

    PYTHONPATH=. python docs/screenshots/make.py [--out docs/screenshots] [--html DIR]

1. **Capture.** The real bot (``TrickNightBot``, its cogs and components) runs inside simcord, an
   offline fake of Discord; people type slash commands and click buttons as in the tests
   (``tests/discord_ui``). At a few moments of a pitch game and a partnership-auction pinochle
   game the script keeps the messages exactly as the bot sent them: text, embeds, attached PNGs
   with their alt text, and components (labels, styles, disabled).
2. **Render.** Each capture becomes a small HTML page laid out like Discord's desktop client, in
   the dark theme (#313338) and the light theme (#FFFFFF): avatar, name, BOT tag, embed colour bar,
   fields, image, buttons in rows with Discord's colours, "Only you can see this" under ephemeral
   messages. Pictures are inlined as ``data:`` URIs and fonts come from local files.
3. **Screenshot.** Headless Chromium (Debian: ``apt-get install chromium``) photographs each page,
   in a network namespace of its own where the system allows it (``unshare -rn``) and with flags
   that refuse every request; the result is cropped to the message and saved as a PNG.

Deals are seeded, so a run reproduces the same images. A developer tool, not part of the tests.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import functools
import html
import io
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest.mock import patch

import discord
import simcord
from PIL import Image, ImageChops

from bot.app import TrickNightBot
from bot.config import Settings
from bot.engine import new_game
from bot.tables import Table
from tests.discord_ui.helpers import close_bot_state, message_by_id
from tests.discord_ui.test_hand_panel import next_person, open_table
from tests.discord_ui.test_pinochle_table import controls

BOT_NAME = "Trick Night"
"""The name the application would have on a real server (simcord calls its bot user TestBot)."""

HERE = Path(__file__).resolve().parent
PITCH_SEED = 11  # Ann must follow suit to a trick two cards in, holding cards she may not play
PINOCHLE_SEED = 15  # the auction climbs past 200, and Ann melds a flush


# ----- what is captured --------------------------------------------------------------------------------
@dataclass
class Picture:
    png: bytes
    description: str


@dataclass
class Captured:
    """One message as Discord holds it, plus what the client shows around it."""

    author: str
    is_bot: bool
    content: str
    embeds: list[dict[str, Any]]
    pictures: dict[str, Picture]
    rows: list[list[dict[str, Any]]]
    ephemeral: bool = False
    header: tuple[str, str, str] | None = None
    """The line Discord shows above an interaction's answer: ("command", user, "/command") or
    ("reply", author, text of the message whose button was clicked)."""


@dataclass
class Scene:
    name: str
    message: Captured
    viewer: str
    """Whose client this is (their mentions are highlighted)."""
    names: dict[int, str]
    """User ids to display names, for mentions."""
    themes: tuple[str, ...] = ("dark", "light")
    about: str = ""


def component_rows(message: Any) -> list[list[dict[str, Any]]]:
    rows = []
    for row in message.components:
        rows.append(row["components"] if isinstance(row, dict) else [c.to_dict() for c in row.children])
    return rows


async def capture(message: Any, *, command: str = "", clicked: Any = None) -> Captured:
    """A message (from the channel, or an interaction's answer) as Discord holds it. What was done
    to get it, the ``command`` typed or the message ``clicked``, is the line the client shows above."""
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
        ephemeral=message.flags.ephemeral,
        header=header,
    )


# ----- driving the bot -----------------------------------------------------------------------------------
def seeded(seed: int) -> Any:
    """Start the tables' games with a fixed seed, so the deals (and the computers, seeded from the
    game) repeat from run to run."""
    return patch("bot.tables.new_game", functools.partial(new_game, seed=seed))


def table_message(channel: Any, table: Table) -> Any:
    assert table.message_id is not None
    return message_by_id(channel, table.message_id)


async def click_first(person: Any, panel: Any, prefer: tuple[str, ...]) -> None:
    """One decision in a panel: the first enabled button whose action ends with one of ``prefer``,
    else the first enabled button that is not irreversible, else the first menu choice."""
    buttons, selects = controls(panel)
    for wanted in prefer:
        for custom_id in buttons:
            if custom_id.endswith(wanted):
                await person.click(panel, custom_id=custom_id)
                return
    plain = [c for c in buttons if not c.endswith((":declare-out", ":concede", ":throw-in"))]
    if plain:
        await person.click(panel, custom_id=plain[0])
        return
    custom_id, values = next(iter(selects.items()))
    await person.select(panel, [values[0]], custom_id=custom_id)


def best_trump(view: dict[str, Any]) -> str:
    """The trump a person would name: the suit they hold most of (as the end of a custom id)."""
    suits = [card[-1].upper() for card in view["hand"]]
    return ":trump " + max("SHDC", key=suits.count).lower()


@dataclass
class Players:
    """The people at a table and their open hand panels."""

    people: dict[int, Any]
    panels: dict[int, Any] = field(default_factory=dict)

    async def panel(self, env: Any, channel: Any, table: Table, user_id: int) -> Any:
        if user_id not in self.panels:
            opened = await self.people[user_id].click(table_message(channel, table), label="Show my hand")
            self.panels[user_id] = opened.response
        return self.panels[user_id]


def names_of(env: Any, people: list[Any]) -> dict[int, str]:
    names = {person.id: person.name for person in people}
    names[env.bot.user.id] = BOT_NAME
    return names


async def pitch_scenes(env: Any) -> list[Scene]:
    """A four-seat pitch table: the lobby, then the moment Ann must follow to a trick."""
    guild = env.create_guild("Card Club")
    channel = guild.create_text_channel("cards")
    ann = guild.add_member(env.create_user("Ann"))
    bob = guild.add_member(env.create_user("Bob"))
    names = names_of(env, [ann, bob])
    await ann.slash(channel, "table new", game="pitch")
    lobby = channel.last_message
    await bob.click(lobby, label="Join")
    await ann.click(lobby, label="Add computer (easy)")
    await env.bot.publisher.wait_idle()
    shot = await capture(message_by_id(channel, lobby.id), command="/table new")
    about = "the lobby of a pitch table: seats, house rules and the lobby buttons"
    lobby_scene = Scene("lobby", shot, "Ann", names, ("dark",), about)
    await ann.click(lobby, label="Start")
    table = env.bot.tables.table_in(channel.id)
    assert table is not None and table.game is not None
    players = Players({ann.id: ann, bob.id: bob})
    for _ in range(300):
        seat = await next_person(env, table)
        assert seat is not None, "the game ended before the moment came"
        sitter = table.seats[seat]
        assert sitter is not None and sitter.user_id is not None
        user_id = sitter.user_id
        view = table.game.view(seat)
        plays = [a for a in view["legal"] if a.startswith("play ")]
        panel = await players.panel(env, channel, table, user_id)
        following = len(view["trick"]) >= 2 and 0 < len(plays) < len(view["hand"]) >= 4
        if user_id == ann.id and following:
            public = table_message(channel, table)
            table_shot = await capture(public, command="/table new")
            hand_shot = await capture(panel, clicked=public)
            return [
                lobby_scene,
                Scene("table", table_shot, "Ann", names,
                      about="the public table message in the middle of a trick, the trick as a picture"),
                Scene("hand", hand_shot, "Ann", names,
                      about="Ann's hand panel: the cards she may play raised, the others' buttons disabled"),
            ]  # fmt: skip
        await click_first(players.people[user_id], panel, (":pass",))
    raise AssertionError("no trick to follow in 300 decisions")


async def pinochle_scenes(env: Any) -> list[Scene]:
    """A partnership-auction pinochle table: a long auction, then the melds laid on the table."""
    guild = env.create_guild("Pinochle Night")
    channel = guild.create_text_channel("pinochle")
    ann = guild.add_member(env.create_user("Ann"))
    names = names_of(env, [ann])
    table = await open_table(env, channel, ann, "pinochle-4-auction", [], 3)
    players = Players({ann.id: ann})
    scenes: list[Scene] = []
    for _ in range(300):
        seat = await next_person(env, table)
        assert seat is not None and table.game is not None, "the game ended before the moments came"
        view = table.game.view(seat)
        panel = await players.panel(env, channel, table, ann.id)
        bids = [a for a in view["legal"] if a.startswith("bid ")]
        if bids and int(bids[0].split()[1]) >= 200 and not scenes:
            shot = await capture(panel, clicked=table_message(channel, table))
            about = "a long pinochle auction: the next bid, +10, +50 and Other bid… in one row"
            scenes.append(Scene("bid", shot, "Ann", names, ("dark",), about))
        public = table_message(channel, table)
        alt = [a.description or "" for a in public.attachments]
        if scenes and any(text.startswith("Melds") for text in alt) and len(view["hand"]) >= 6:
            shot = await capture(public, command="/table new")
            about = "the table message once the melds are laid, as a picture"
            scenes.append(Scene("melds", shot, "Ann", names, ("dark",), about))
            return scenes
        await click_first(ann, panel, (":bid " + bids[0].split()[1],) if bids else (best_trump(view),))
    raise AssertionError(f"the moments never came ({[s.name for s in scenes]} seen)")


async def capture_scenes(workdir: Path) -> list[Scene]:
    settings = Settings(token=None, database=workdir / "tricknight.db", computer_delay=0.0, shard_count=1)
    the_bot = TrickNightBot(settings, min_edit_interval=0.0)
    async with simcord.run(the_bot) as env:
        try:
            with seeded(PITCH_SEED):
                scenes = await pitch_scenes(env)
            with seeded(PINOCHLE_SEED):
                scenes += await pinochle_scenes(env)
        finally:
            await close_bot_state(env)
    return scenes


# ----- Discord's client, as HTML -------------------------------------------------------------------------
THEMES: dict[str, dict[str, str]] = {
    "dark": {
        "bg": "#313338", "text": "#dbdee1", "header": "#f2f3f5", "muted": "#949ba4",
        "embed": "#2b2d31", "footer": "#b5bac1", "code": "#2b2d31", "link": "#00a8fc",
        "mention": "rgba(88,101,242,.3)", "mention_text": "#c9cdfb",
        "mentioned": "rgba(240,178,50,.08)", "secondary": "#4e5058", "reply_line": "#4e5058",
    },
    "light": {
        "bg": "#ffffff", "text": "#313338", "header": "#060607", "muted": "#5c5e66",
        "embed": "#f2f3f5", "footer": "#4e5058", "code": "#f2f3f5", "link": "#006ce7",
        "mention": "rgba(88,101,242,.15)", "mention_text": "#505cdc",
        "mentioned": "rgba(240,178,50,.1)", "secondary": "#6d6f78", "reply_line": "#c4c9ce",
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


def markdown(text: str, scene: Scene) -> str:
    """Discord's inline markdown (the part the bot uses): code, bold, underline, italics, strike,
    mentions and emoji; line breaks kept."""
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

    out = re.sub(r"&lt;@!?(\d+)&gt;", mention, out)
    out = EMOJI.sub(lambda m: f'<span class="emoji">{m[0]}</span>', out)
    out = re.sub("\x00(\\d+)\x00", lambda m: codes[int(m[1])], out)
    return out.replace("\n", "<br>")


def data_uri(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def fitted(png: bytes, max_width: int, max_height: int) -> tuple[int, int]:
    """The size Discord shows an image at: its own, scaled down to fit the box."""
    width, height = Image.open(io.BytesIO(png)).size
    scale = min(1.0, max_width / width, max_height / height)
    return round(width * scale), round(height * scale)


def image_tag(picture: Picture, max_width: int, max_height: int, css: str) -> str:
    width, height = fitted(picture.png, max_width, max_height)
    return (
        f'<img class="{css}" src="{data_uri(picture.png)}" width="{width}" height="{height}" '
        f'alt="{html.escape(picture.description)}">'
    )


def embed_html(embed: dict[str, Any], message: Captured, scene: Scene) -> str:
    colour = f"#{int(embed.get('color') or 0x1E1F22):06x}"
    parts = []
    if embed.get("title"):
        parts.append(f'<div class="embed-title">{markdown(embed["title"], scene)}</div>')
    if embed.get("description"):
        parts.append(f'<div class="embed-description">{markdown(embed["description"], scene)}</div>')
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
                name, value = (markdown(embed_field[key], scene) for key in ("name", "value"))
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


def button_html(component: dict[str, Any]) -> str:
    if component.get("type") == 3:  # a select menu
        placeholder = html.escape(component.get("placeholder") or "Make a selection")
        return f'<div class="select"><span>{placeholder}</span><span class="chevron">⌄</span></div>'
    style = component.get("style", 2)
    colour = BUTTON_COLOURS.get(style, "var(--secondary)")
    disabled = " disabled" if component.get("disabled") else ""
    label = html.escape(component.get("label") or "")
    return f'<div class="button{disabled}" style="background:{colour}">{label}</div>'


EYE = (
    '<svg width="16" height="16" viewBox="0 0 24 24"><path fill="currentColor" d="M12 5C5.6 5 2 12 2 12s3.6 '
    "7 10 7 10-7 10-7-3.6-7-10-7Zm0 11.5A4.5 4.5 0 1 1 12 7.5a4.5 4.5 0 0 1 0 9Zm0-7a2.5 2.5 0 1 0 0 5 "
    '2.5 2.5 0 0 0 0-5Z"/></svg>'
)


def avatar(name: str, is_bot: bool, size: int) -> str:
    """A plain round avatar (a bot's picture is its own; people get Discord's default colours)."""
    colour = "#1f8b4c" if is_bot else "#5865f2"
    glyph = "♠" if is_bot else html.escape(name[:1].upper())
    style = f"width:{size}px;height:{size}px;background:{colour};font-size:{size // 2}px"
    return f'<div class="avatar" style="{style}">{glyph}</div>'


def message_html(scene: Scene) -> str:
    message = scene.message
    parts = []
    if message.header is not None:
        kind, who, what = message.header
        if kind == "command":
            said = f'<span>used</span><span class="command">{html.escape(what)}</span>'
        else:
            snippet = markdown(what, scene) or "<em>Click to see attachment</em>"
            said = f'<span class="reply-text">{snippet}</span>'
        parts.append(
            f'<div class="reply">{avatar(who, kind == "reply", 16)}<span class="reply-name">'
            f"{'@' if kind == 'reply' else ''}{html.escape(who)}</span>{said}</div>"
        )
    tag = '<span class="bot-tag">BOT</span>' if message.is_bot else ""
    parts.append(
        f'<div class="message-body">{avatar(message.author, message.is_bot, 40)}'
        f'<div class="header"><span class="name">{html.escape(message.author)}</span>{tag}'
        '<span class="time">Today at 9:41 PM</span></div>'
    )
    if message.content:
        parts.append(f'<div class="content">{markdown(message.content, scene)}</div>')
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
            f'<div class="row">{"".join(button_html(c) for c in row)}</div>' for row in message.rows
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


CSS = """
@font-face { font-family: "Noto Sans"; src: url("{sans}"); font-weight: 100 900; }
@font-face { font-family: "Noto Sans Mono"; src: url("{mono}"); }
@font-face { font-family: "Noto Color Emoji"; src: url("{emoji}"); }
:root { --secondary: {secondary}; }
* { box-sizing: border-box; }
body { margin: 0; padding: 16px 0 20px; width: {width}px; background: {bg}; color: {text};
  font: 16px/22px "Noto Sans", "DejaVu Sans", sans-serif; -webkit-font-smoothing: antialiased; }
.message { position: relative; padding: 2px 48px 2px 72px; }
.message.mentioned { background: {mentioned}; box-shadow: inset 2px 0 0 #f0b232; }
.emoji { font-family: "Noto Color Emoji"; font-size: 1.1em; line-height: 1; }
.avatar { display: flex; align-items: center; justify-content: center; border-radius: 50%; color: #fff;
  font-weight: 600; line-height: 1; font-family: "DejaVu Sans", sans-serif; flex: none; }
.message-body > .avatar { position: absolute; left: 16px; margin-top: 2px; }
.header { display: flex; align-items: baseline; gap: 4px; line-height: 22px; }
.name { color: {header}; font-weight: 500; font-size: 16px; }
.bot-tag { background: #5865f2; color: #fff; font-size: 10px; font-weight: 600; line-height: 15px;
  height: 15px; padding: 0 4px; border-radius: 3px; position: relative; top: -2px; margin-left: 2px; }
.time { color: {muted}; font-size: 12px; margin-left: 4px; }
.content { white-space: normal; overflow-wrap: anywhere; }
.content strong, .embed strong { font-weight: 700; }
code { font-family: "Noto Sans Mono", monospace; font-size: 85%; background: {code}; padding: 0 .2em;
  border-radius: 3px; }
.mention { background: {mention}; color: {mention_text}; border-radius: 3px; padding: 0 2px;
  font-weight: 500; }
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
  background: {embed}; border: 1px solid rgba(0,0,0,.2); display: flex; align-items: center;
  justify-content: space-between; color: {muted}; font-size: 14px; }
.ephemeral { display: flex; align-items: center; gap: 4px; margin-top: 4px; font-size: 12px;
  line-height: 16px; color: {muted}; }
.dismiss, .command { color: {link}; }
"""


def page(scene: Scene, theme: str, width: int) -> str:
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
    document = (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><style>{css}</style></head>'
        f"<body>{message_html(scene)}</body></html>"
    )
    remote = re.findall(r"""(?:src|href)=["']?(?!data:|file:)[a-z]+://""", document)
    assert not remote, f"the page would fetch {remote}"
    return document


# ----- the screenshots -------------------------------------------------------------------------------------
WIDTH = 720
HEIGHT = 2000  # taller than any message; the picture is cropped to the message
MAX_BYTES = 300_000
OFFLINE_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--allow-file-access-from-files",
    "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=http://127.0.0.1:9",
    "--proxy-bypass-list=<-loopback>",
    "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
    "--disable-default-apps", "--disable-domain-reliability", "--no-pings", "--force-device-scale-factor=1",
    "--virtual-time-budget=3000", "--default-background-color=00000000",
]  # fmt: skip


def without_network() -> list[str]:
    """A prefix that runs a command in a network namespace of its own (no interface but loopback)
    where the system allows it; the flags above refuse every request in any case."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return []
    probe = subprocess.run([unshare, "-rn", "true"], check=False, capture_output=True)  # noqa: S603
    return [unshare, "-rn"] if probe.returncode == 0 else []


def screenshot(chromium: str, page_path: Path, png_path: Path, background: str) -> None:
    """Photograph the page, then crop it to the message and keep it small."""
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=HERE, help="where the PNGs go (default: this folder)")
    parser.add_argument("--html", type=Path, help="also keep the HTML pages in this folder")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        scenes = asyncio.run(capture_scenes(workdir))
        pages = args.html or workdir
        pages.mkdir(parents=True, exist_ok=True)
        args.out.mkdir(parents=True, exist_ok=True)
        for scene in scenes:
            for theme in scene.themes:
                name = f"{scene.name}-{theme}"
                page_path = pages / f"{name}.html"
                page_path.write_text(page(scene, theme, WIDTH), encoding="utf-8")
                png_path = args.out / f"{name}.png"
                screenshot(args.chromium, page_path, png_path, THEMES[theme]["bg"])
                size = png_path.stat().st_size
                print(f"{png_path} ({size // 1024} KiB): {scene.about}")  # noqa: T201


if __name__ == "__main__":
    main()
