"""Discord rendering and components for tables.

- The public table message: an embed built from ``public_view()`` plus lobby buttons or a
  **Show my hand** button. Its edits are coalesced per table (``DiscordPublisher``).
- The private hand: every click of **Show my hand** (or ``/hand``) answers with a *new*
  ephemeral message holding the hand and buttons for exactly the seat's legal actions. Clicking one
  of those answers the click itself (a fresh token), never an old ephemeral.
- Every button is a ``DynamicItem`` whose custom id carries the table id (and the game version for
  actions), so buttons keep working after a restart and stale clicks are recognised.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot import render
from bot.ai import levels
from bot.engine import EngineError, find_variant
from bot.tables import StaleAction, Table, TableError

if TYPE_CHECKING:
    from bot.app import TrickNightBot

log = logging.getLogger(__name__)

MAX_BUTTONS = 25
COLOUR = discord.Colour.dark_green()


# ----- rendering ---------------------------------------------------------------------------------------
def options_text(table: Table) -> str:
    cls = find_variant(table.variant)
    parts = []
    for spec in cls.option_specs:
        value = table.options.get(spec.name, spec.default)
        shown = ("on" if value else "off") if spec.is_flag else str(value)
        parts.append(f"{spec.name} {shown}")
    return ", ".join(parts) or "none"


def table_embed(table: Table) -> discord.Embed:
    """The public picture of a table: nothing here comes from a private view."""
    embed = discord.Embed(title=f"{table.title} — table #{table.id}", colour=COLOUR)
    names = table.names()
    if table.status == "lobby":
        seats = "\n".join(f"{i + 1}. {name}" for i, name in enumerate(names))
        embed.description = (
            f"Lobby — host <@{table.host_id}>. **Join** to take a seat; empty seats get computer "
            "players when the host presses **Start**."
        )
        embed.add_field(name="Seats", value=seats, inline=False)
        embed.add_field(name="House rules", value=options_text(table), inline=False)
        return embed
    if table.game is None:
        embed.description = "This table was closed."
        return embed
    view = table.game.public_view()
    embed.description = (
        render.status_text(view, names)
        if table.status != "ended" or view.get("outcome")
        else ("This table was ended without a result.")
    )
    for heading, text in render.table_fields(view, names):
        embed.add_field(name=heading, value=text[:1024], inline=heading in ("Trump", "Bids"))
    embed.set_footer(text=f"House rules: {options_text(table)}")
    return embed


def table_content(table: Table) -> str | None:
    """The plain text above the embed: whose turn it is (a mention; edits do not ping)."""
    if table.status != "playing" or table.game is None:
        return None
    people = []
    for seat in table.game.to_act:
        sitter = table.seats[seat]
        if sitter is not None and sitter.is_human and not sitter.away:
            people.append(f"<@{sitter.user_id}>")
    return f"Your turn: {', '.join(people)}" if people else None


def table_view(table: Table) -> discord.ui.View | None:
    """The public message's components for the table's status."""
    view = discord.ui.View(timeout=None)
    if table.status == "lobby":
        view.add_item(LobbyButton(table.id, "join"))
        view.add_item(LobbyButton(table.id, "leave"))
        for level in levels(table.family):
            view.add_item(LobbyButton(table.id, f"add-{level}"))
        view.add_item(LobbyButton(table.id, "start"))
        return view
    if table.status == "playing":
        view.add_item(SeatButton(table.id, "hand"))
        if any(seat is not None and seat.away for seat in table.seats):
            view.add_item(SeatButton(table.id, "back"))
        return view
    return None


def hand_text(table: Table, seat: int, view: dict[str, Any]) -> str:
    names = table.names()
    lines = [f"**Your hand** — {table.title}, seat {seat + 1}: {render.pretty_cards(view['hand'])}"]
    lines.extend(private_lines(view, seat, names))
    if view.get("trump"):
        lines.append(f"Trump: {render.suit_name(view['trump'])}")
    if view.get("trick"):
        lines.append(f"Trick: {render.trick_text(view['trick'], names)}")
    legal = view["legal"]
    if legal and seat in view["to_act"]:
        doing = render.PHASE_DOING.get(view["phase"], "play a card")
        lines.append(f"**Your turn:** {doing}.")
        if "declare-out" in legal:
            lines.append("You may also **Declare out** now (right or wrong).")
    else:
        lines.append(render.status_text(view, names))
        if "declare-out" in legal:
            lines.append("You may **Declare out** at any moment while the cards are played (right or wrong).")
    sitter = table.seats[seat]
    if sitter is not None and sitter.away:
        lines.append("A computer is playing for you. Click **Take my seat back** to play yourself.")
    return "\n".join(lines)


def private_lines(view: dict[str, Any], seat: int, names: list[str]) -> list[str]:
    """What only this seat's view holds besides the hand (buried, passed, own meld …)."""
    lines = []
    table_cards = view.get("table")
    if isinstance(table_cards, list) and seat < len(table_cards) and table_cards[seat]:
        lines.append(
            f"Your melded cards on the table (still yours to play): {render.pretty_cards(table_cards[seat])}"
        )
    if view.get("buried"):
        lines.append(f"You buried (only you see these): {render.pretty_cards(view['buried'])}")
    if view.get("giving"):
        lines.append(f"Cards you chose to pass: {render.pretty_cards(view['giving'])}")
    if view.get("gave"):
        lines.append(f"You passed: {render.pretty_cards(view['gave'])}")
    if view.get("received"):
        lines.append(f"You received: {render.pretty_cards(view['received'])}")
    mine = view.get("my_meld")
    if isinstance(mine, dict) and mine.get("melds"):
        lines.append(f"Your meld ({mine['total']}): {render.melds_text(mine['melds'])}")
    return lines


CARD_KINDS = ("meld", "bury", "give", "exchange")
ROWS = 5
SELECT_MAX = 25


def hand_view(table: Table, seat: int, view: dict[str, Any]) -> discord.ui.View:
    """Controls for the seat's legal actions: cards (buttons, illegal ones disabled, or a select of
    the legal plays), then bids, card actions (meld, bury, give, exchange) and simple choices,
    each as buttons when they fit in one row, else as a select."""
    ui = discord.ui.View(timeout=None)
    version = table.version
    sitter = table.seats[seat]
    if sitter is not None and sitter.away:
        ui.add_item(SeatButton(table.id, "back"))
        return ui
    legal: list[str] = view["legal"]

    def label(action: str) -> str:
        return render.action_label(view, action)

    plays = [a for a in legal if a.startswith("play ")]
    bids = [a for a in legal if a.startswith("bid ")]
    card_actions = [a for a in legal if a.split(" ", 1)[0] in CARD_KINDS]
    simple = [a for a in legal if a not in plays and a not in bids and a not in card_actions]
    groups = [
        (name, group) for name, group in (("bid", bids), ("card", card_actions), ("do", simple)) if group
    ]
    card_rows = ROWS - len(groups)
    own_cards = list(view["hand"])
    table_cards = view.get("table")
    if isinstance(table_cards, list) and seat < len(table_cards):
        own_cards += table_cards[seat]
    counts: dict[str, int] = {}
    for code in own_cards:
        counts[code] = counts.get(code, 0) + 1
    cards = list(counts) + [a[5:] for a in plays if a[5:] not in counts]
    if cards and len(cards) <= card_rows * 5:
        for code in cards:
            action = f"play {code}"
            text = render.pretty(code) + (f" ×{counts[code]}" if counts.get(code, 0) > 1 else "")
            ui.add_item(ActButton(table.id, version, action, label=text, disabled=action not in legal))
    elif plays:
        ui.add_item(ActSelect(table.id, version, plays, render_label=label, group="play"))
    for name, group in groups:
        if len(group) <= 5:
            for action in group:
                ui.add_item(ActButton(table.id, version, action, label=label(action)))
        else:
            ui.add_item(ActSelect(table.id, version, group[:SELECT_MAX], render_label=label, group=name))
    return ui


# ----- interaction helpers ----------------------------------------------------------------------------
def bot_of(interaction: discord.Interaction) -> TrickNightBot:
    return interaction.client  # type: ignore[return-value]


def friendly(table: Table | None, err: Exception) -> str:
    text = str(err)
    if table is not None:
        text = render.name_seats(text, table.names())
    return text[:1900]


async def reply(interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
    """An ephemeral answer, whether or not the interaction was already answered."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(text, ephemeral=True, **kwargs)


async def refuse(interaction: discord.Interaction, err: Exception, table: Table | None = None) -> None:
    """Answer a refused action (``TableError``/``EngineError``) ephemerally, with player names."""
    if table is None:
        tables = getattr(interaction.client, "tables", None)
        table = tables.table_in(interaction.channel_id or 0) if tables else None
    await reply(interaction, friendly(table, err))


async def on_table(
    interaction: discord.Interaction, table_id: int, work: Callable[[Table], Awaitable[None]]
) -> None:
    """Run a component's handler for its table. Refusals get a clear ephemeral reply and change
    nothing; anything unexpected is logged and answered too (discord.py only logs DynamicItem
    errors, which would leave the click unanswered)."""
    manager = bot_of(interaction).tables
    try:
        await work(manager.get(table_id))
    except (TableError, EngineError) as err:
        await refuse(interaction, err, manager.by_id.get(table_id))
    except Exception:
        log.exception("interaction failed")
        await reply(interaction, "Something went wrong on our side; nothing was changed. Try again.")


def answers_refusals(func: Callable[..., Awaitable[None]]) -> Callable[..., Awaitable[None]]:
    """Decorate a slash command so a refusal (``TableError``/``EngineError``) becomes an ephemeral
    reply instead of an error; anything unexpected still reaches the tree's error handler."""

    @functools.wraps(func)
    async def wrapper(self: Any, interaction: discord.Interaction, *args: Any, **kwargs: Any) -> None:
        try:
            await func(self, interaction, *args, **kwargs)
        except (TableError, EngineError) as err:
            await refuse(interaction, err)

    # discord.py reads the parameters from the signature; give it the resolved annotations.
    wrapper.__signature__ = inspect.signature(func, eval_str=True)  # type: ignore[attr-defined]
    return wrapper


def display_name(interaction: discord.Interaction) -> str:
    user = interaction.user
    return getattr(user, "display_name", None) or user.name


def is_admin(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


async def send_hand(interaction: discord.Interaction, table: Table) -> None:
    """A new ephemeral message with the user's hand and controls (never an edit of an old one)."""
    seat, view = bot_of(interaction).tables.view_for(table, interaction.user.id)
    await reply(interaction, hand_text(table, seat, view), view=hand_view(table, seat, view))


async def act_and_answer(
    interaction: discord.Interaction, table: Table, action: str, version: int | None
) -> None:
    """Take the action; answer the click by updating the ephemeral it came from with the new hand."""
    manager = bot_of(interaction).tables
    try:
        result = await manager.act(table, interaction.user.id, action, version)
    except StaleAction as err:
        seat, view = manager.view_for(table, interaction.user.id)
        await reply(
            interaction, f"{err}\n\n{hand_text(table, seat, view)}", view=hand_view(table, seat, view)
        )
        return
    if table.status != "playing" or table.game is None:
        shown = render.action_label(table.game.public_view() if table.game else {}, action)
        await interaction.response.edit_message(content=f"You: {shown}. The game is over.", view=None)
        return
    seat, view = manager.view_for(table, interaction.user.id)
    label = render.action_label(view, str(result.action))
    content = f"You: {label}.\n\n{hand_text(table, seat, view)}"
    if interaction.message is not None and interaction.message.flags.ephemeral:
        await interaction.response.edit_message(content=content, view=hand_view(table, seat, view))
    else:
        await reply(interaction, content, view=hand_view(table, seat, view))


# ----- components ------------------------------------------------------------------------------------
LOBBY_LABELS = {
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.primary),
}


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tn:lobby:(?P<tid>\d+):(?P<op>[a-z-]+)"
):
    """Join / Leave / Add computer / Start on a lobby message."""

    def __init__(self, table_id: int, op: str) -> None:
        if op.startswith("add-"):
            level = op[4:]
            label, style = f"Add computer ({level})", discord.ButtonStyle.secondary
        else:
            label, style = LOBBY_LABELS[op]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"tn:lobby:{table_id}:{op}"))
        self.table_id = table_id
        self.op = op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LobbyButton:
        return cls(int(match["tid"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work(table: Table) -> None:
            manager = bot_of(interaction).tables
            user = interaction.user.id
            if self.op == "join":
                seat = await manager.join(table, user, display_name(interaction))
                await reply(interaction, f"You took seat {seat + 1} at the {table.title} table.")
            elif self.op == "leave":
                await manager.leave(table, user)
                await reply(interaction, "You left the table.")
            elif self.op == "start":
                await manager.start(table, user, is_admin=is_admin(interaction))
                await reply(interaction, "The game has started. Click **Show my hand** to see your cards.")
            else:
                seat = await manager.add_computer(table, user, self.op[4:])
                await reply(interaction, f"A computer player ({self.op[4:]}) sits in seat {seat + 1}.")

        await on_table(interaction, self.table_id, work)


SEAT_BUTTONS = {
    "hand": ("Show my hand", discord.ButtonStyle.primary),
    "back": ("Take my seat back", discord.ButtonStyle.success),
}


class SeatButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tn:(?P<op>hand|back):(?P<tid>\d+)"
):
    """**Show my hand** (each click answers with a new ephemeral message) and **Take my seat back**
    (for a player whose seat a computer took over after the turn timer ran out)."""

    def __init__(self, table_id: int, op: str) -> None:
        label, style = SEAT_BUTTONS[op]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"tn:{op}:{table_id}"))
        self.table_id = table_id
        self.op = op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> SeatButton:
        return cls(int(match["tid"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work(table: Table) -> None:
            if self.op == "back":
                await bot_of(interaction).tables.take_back(table, interaction.user.id)
            await send_hand(interaction, table)

        await on_table(interaction, self.table_id, work)


class ActButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tn:act:(?P<tid>\d+):(?P<ver>\d+):(?P<action>[a-z0-9 -]+)",
):
    """One legal action (a card, a bid, pass…) for the game state with this version."""

    def __init__(self, table_id: int, version: int, action: str, *, label: str | None = None,
                 disabled: bool = False) -> None:  # fmt: skip
        style = discord.ButtonStyle.secondary if action.startswith("play ") else discord.ButtonStyle.primary
        if action in ("declare-out", "concede", "throw-in"):
            style = discord.ButtonStyle.danger
        super().__init__(
            discord.ui.Button(
                label=label or action, style=style, disabled=disabled,
                custom_id=f"tn:act:{table_id}:{version}:{action.lower()}",
            )
        )  # fmt: skip
        self.table_id = table_id
        self.version = version
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActButton:
        return cls(int(match["tid"]), int(match["ver"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work(table: Table) -> None:
            await act_and_answer(interaction, table, self.action, self.version)

        await on_table(interaction, self.table_id, work)


SELECT_PLACEHOLDER = {
    "play": "Play a card…",
    "bid": "Bid…",
    "card": "Choose cards…",
    "do": "Choose…",
}


class ActSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"tn:sel:(?P<tid>\d+):(?P<ver>\d+)(?::(?P<group>[a-z]+))?",
):
    """A menu of legal actions, for when there are too many for buttons. ``group`` keeps the custom
    ids of several menus on one message apart (``play``, ``bid``, ``card``, ``do``)."""

    def __init__(
        self,
        table_id: int,
        version: int,
        actions: list[str] | None = None,
        render_label: Callable[[str], str] | None = None,
        group: str | None = None,
    ) -> None:
        options = [
            discord.SelectOption(label=(render_label or str)(a)[:100], value=a) for a in (actions or [])[:25]
        ]
        super().__init__(
            discord.ui.Select(custom_id=f"tn:sel:{table_id}:{version}" + (f":{group}" if group else ""),
                              placeholder=SELECT_PLACEHOLDER.get(group or "", "Choose…"),
                              options=options or [discord.SelectOption(label="—", value="-")])
        )  # fmt: skip
        self.table_id = table_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActSelect:
        return cls(int(match["tid"]), int(match["ver"]), group=match["group"])

    async def callback(self, interaction: discord.Interaction) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        values: list[str] = list(data.get("values") or [])

        async def work(table: Table) -> None:
            if not values:
                raise TableError("Choose one option from the menu.")
            await act_and_answer(interaction, table, str(values[0]), self.version)

        await on_table(interaction, self.table_id, work)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    LobbyButton, SeatButton, ActButton, ActSelect,
)  # fmt: skip


# ----- the publisher -------------------------------------------------------------------------------------
@dataclass
class _Pending:
    dirty: bool = False
    messages: list[str] = field(default_factory=list)
    ping: tuple[list[int], str] | None = None
    last_ping_id: int | None = None
    last_edit: float = 0.0
    task: asyncio.Task[None] | None = None


class DiscordPublisher:
    """Turns table changes into Discord messages, one short-lived flush task per table at a time.

    Edits of the table message are coalesced: many changes in quick succession become one edit, at
    most one per ``min_edit_interval`` seconds per table, which keeps well inside Discord's limits.
    """

    def __init__(self, bot: TrickNightBot, *, min_edit_interval: float = 1.0) -> None:
        self.bot = bot
        self.min_edit_interval = min_edit_interval
        self.pending: dict[int, _Pending] = {}

    def _queue(self, table: Table) -> _Pending:
        state = self.pending.setdefault(table.id, _Pending())
        if state.task is None or state.task.done():
            state.task = asyncio.create_task(self._flush(table, state), name=f"table-{table.id}-publish")
        return state

    def table_changed(self, table: Table) -> None:
        self._queue(table).dirty = True

    def announce(self, table: Table, text: str) -> None:
        self._queue(table).messages.append(text)

    def turn_ping(self, table: Table, user_ids: list[int], text: str) -> None:
        self._queue(table).ping = (user_ids, text)

    async def _channel(self, table: Table) -> discord.abc.Messageable | None:
        channel = self.bot.get_channel(table.channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(table.channel_id)
            except discord.HTTPException:
                log.warning("table %s: channel %s is gone", table.id, table.channel_id)
                return None
        return channel if isinstance(channel, discord.abc.Messageable) else None

    async def _flush(self, table: Table, state: _Pending) -> None:
        await asyncio.sleep(0)  # let the change that scheduled us finish, so we see its result
        try:
            channel = await self._channel(table)
            if channel is None:
                return
            while state.dirty or state.messages or state.ping:
                while state.messages:
                    text = state.messages.pop(0)
                    await channel.send(text[:2000], allowed_mentions=discord.AllowedMentions.none())
                if state.ping:
                    ids, text = state.ping
                    state.ping = None
                    await self._ping(channel, state, ids, text)
                if state.dirty:
                    wait = state.last_edit + self.min_edit_interval - time.monotonic()
                    if wait > 0:
                        await asyncio.sleep(wait)
                    state.dirty = False
                    state.last_edit = time.monotonic()
                    await self.render_table(table, channel)
        except discord.HTTPException as err:
            log.warning("table %s: could not update Discord: %s", table.id, err)
        finally:
            if table.status == "ended" and not (state.dirty or state.messages or state.ping):
                self.pending.pop(table.id, None)

    async def _ping(
        self, channel: discord.abc.Messageable, state: _Pending, ids: list[int], text: str
    ) -> None:
        if state.last_ping_id is not None and isinstance(channel, discord.TextChannel | discord.Thread):
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(state.last_ping_id).delete()
        mentions = " ".join(f"<@{uid}>" for uid in ids)
        message = await channel.send(
            f"{mentions} {text}",
            allowed_mentions=discord.AllowedMentions(users=True, everyone=False, roles=False),
        )
        state.last_ping_id = message.id

    async def render_table(
        self, table: Table, channel: discord.abc.Messageable, *, repost: bool = False
    ) -> None:
        """Edit the table message in place, or post it (first time, deleted, or ``repost``)."""
        embed, content, view = table_embed(table), table_content(table), table_view(table)
        if (
            table.message_id is not None
            and not repost
            and isinstance(channel, discord.TextChannel | discord.Thread)
        ):
            try:
                await channel.get_partial_message(table.message_id).edit(
                    content=content, embed=embed, view=view
                )
                return
            except discord.NotFound:
                log.info("table %s: its message was deleted; posting a new one", table.id)
        old = table.message_id
        message = await channel.send(content=content, embed=embed, view=view or discord.utils.MISSING)
        await self.bot.tables.set_message(table, message.id)
        if old is not None and repost and isinstance(channel, discord.TextChannel | discord.Thread):
            with contextlib.suppress(discord.HTTPException):
                moved = "This table moved to a newer message below."
                await channel.get_partial_message(old).edit(content=moved, embed=None, view=None)

    async def wait_idle(self) -> None:
        """Wait until every pending flush is done (tests and shutdown)."""
        while True:
            tasks = [s.task for s in self.pending.values() if s.task and not s.task.done()]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)
