"""The Discord side of the table manager's ``Publisher``: table messages, announcements, pings."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

import discord

from bot import render
from bot.discord_ui import limits
from bot.discord_ui.budget import Priority, RestBudget
from bot.discord_ui.components import PanelNow, SeatButton, drawn_hand, panel_message, table_view
from bot.discord_ui.messages import announcement, table_content, table_embed
from bot.discord_ui.panels import Panel, Panels, edit_panel, untracked
from bot.discord_ui.pictures import HAND_FILE, TABLE_FILE, as_file, can_attach, table_picture
from bot.discord_ui.services import services_of
from bot.discord_ui.threads import close_thread
from bot.errors import Refusal
from bot.store import PlayerPrefs
from bot.tables import Table

log = logging.getLogger(__name__)

UNKNOWN_MESSAGE = 10008  # Discord's error code for a deleted message (10003: the channel is gone)
FIRST_MESSAGE_WAIT = 3.0  # seconds to wait for a new table's message id before posting one
READY_WAIT = 60.0  # seconds to wait at start-up for the guilds (and their channels) to arrive
TURN_PICTURE_WAIT = 0.05
"""Seconds a turn's panel edit waits for the hand picture; a slower picture follows in a second edit,
so the next player sees their turn at once also when the picture worker is busy."""


@dataclass
class _Pending:
    dirty: bool = False
    messages: list[str] = field(default_factory=list)
    turn: tuple[list[int], str] | None = None  # whose panels to bring up to date, and the ping's text
    call: tuple[list[int], str, bool] | None = None  # the ping to post: people, text, with the button
    last_ping_id: int | None = None
    pinged: set[int] = field(default_factory=set)  # who the live ping (last_ping_id) calls
    called: tuple[str, bool] | None = None  # and with what: (text, whether it has the button)
    picture: bytes | None = None  # the picture on the table message (when ``picture_known``)
    picture_known: bool = False
    told_no_pictures: bool = False
    last_edit: float = 0.0
    task: asyncio.Task[None] | None = None  # the channel lane: announcements and the turn ping
    turn_task: asyncio.Task[None] | None = None  # the turn lane: the waiting players' panels
    edit_task: asyncio.Task[None] | None = None  # the paced lane: the table message
    closed: bool = False  # the ended table's last steps are taken (once)


class DiscordPublisher:
    """Turns table changes into Discord messages, one short-lived flush task per table at a time.

    Edits of the table message are coalesced: many changes in quick succession become one edit, at
    most one per ``min_edit_interval`` seconds per table, which keeps well inside Discord's limits.
    ``on_posted(table, message_id)`` is awaited whenever the table message is posted anew, so the
    table manager can remember where the table lives; ``on_pinged(table, message_id or None)``
    when the table's live ping changes (so it is deleted also after a restart); ``on_final`` once
    an ended table's last line and final message are out; ``on_gone`` when the table's channel is
    gone or closed to the bot (NotFound or Forbidden), so the table can be ended.

    Each table has three lanes, each a short-lived task, so nothing the next player needs waits
    for anything slower: the turn lane brings the waiting players' panels up to date (through
    their interactions' webhooks, which no channel limit holds up); the channel lane posts
    announcements and the turn ping in order (Discord allows 5 messages per 5 s per channel, so
    it may wait: a ping still waiting is replaced by the next one); the paced lane edits the table
    message at most once per ``min_edit_interval``. The bot's own requests keep to a share of
    Discord's global limit (``budget``): pings and announcements go first, table edits wait and
    coalesce.

    A turn brings each waiting player's hand panel (``panels``) up to date in place and mentions
    them in one ping; a table has at most one ping, deleted once its people have acted. When a
    table ends, its panels lose their controls and its state here is dropped.

    The table message shows the trick (or the laid melds) as a picture, uploaded again only when it
    changes; where the bot may not attach files, cards stay text and the channel is told once.
    """

    def __init__(
        self,
        client: discord.Client,
        *,
        min_edit_interval: float = 1.0,
        on_posted: Callable[[Table, int], Awaitable[None]],
        on_pinged: Callable[[Table, int | None], Awaitable[None]] | None = None,
        on_final: Callable[[Table], Awaitable[None]] | None = None,
        on_gone: Callable[[Table], Awaitable[None]] | None = None,
    ) -> None:
        self.client = client
        self.min_edit_interval = min_edit_interval
        self.on_posted = on_posted
        self.on_pinged = on_pinged
        self.on_final = on_final
        self.on_gone = on_gone
        self.pending: dict[int, _Pending] = {}
        self._background: set[asyncio.Future[Any]] = set()  # deletions and pictures under way
        self.panels = Panels()
        # A share of Discord's global limit for all tables; no pacing at all when edits are unpaced
        # (tests, whose harness may run on a virtual clock).
        self.budget = RestBudget() if min_edit_interval > 0 else None

    def _paid(self, priority: Priority) -> contextlib.AbstractAsyncContextManager[None]:
        """Take the next request's token now (see ``RestBudget.paid``); nothing when unpaced."""
        return self.budget.paid(priority) if self.budget is not None else contextlib.nullcontext()

    def _state(self, table: Table) -> _Pending:
        # A ping posted before a restart is still this table's live ping: the next one replaces it.
        return self.pending.setdefault(table.id, _Pending(last_ping_id=table.ping_message_id))

    def _queue(self, table: Table) -> _Pending:
        """Make sure the table's channel lane runs."""
        state = self._state(table)
        if state.task is None or state.task.done():
            state.task = asyncio.create_task(self._flush(table, state), name=f"table-{table.id}-publish")
        return state

    def table_changed(self, table: Table) -> None:
        state = self._state(table)
        state.dirty = True
        if state.edit_task is None or state.edit_task.done():
            state.edit_task = asyncio.create_task(self._edits(table, state), name=f"table-{table.id}-edit")
        if state.last_ping_id is not None or table.status == "ended":
            self._queue(table)  # the live ping may be answered now; an ended table closes there

    def announce(self, table: Table, text: str) -> None:
        self._queue(table).messages.append(text)

    def turn_ping(self, table: Table, user_ids: list[int], text: str) -> None:
        state = self._state(table)
        state.turn = (user_ids, text)
        if state.turn_task is None or state.turn_task.done():
            state.turn_task = asyncio.create_task(self._turns(table, state), name=f"table-{table.id}-turn")

    def events(self, table: Table, events: list[dict[str, Any]]) -> None:
        """Announce the events that deserve a message of their own (``messages.ANNOUNCED``)."""
        for event in events:
            text = announcement(table, event)
            if text:
                self.announce(table, text)

    async def repost(self, table: Table) -> None:
        """Post the table message again below; the old message points to the new one."""
        channel = await self._channel(table)
        if channel is None:
            raise Refusal("This channel cannot show a table.")
        await self.render_table(table, channel, repost=True)

    async def _channel(self, table: Table) -> discord.abc.Messageable | None:
        channel = self.client.get_channel(table.channel_id)
        if channel is None and not self.client.is_ready():
            # At start-up the channels arrive with the guilds: wait for them rather than take a
            # channel not yet known for one that is gone.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.client.wait_until_ready(), READY_WAIT)
            channel = self.client.get_channel(table.channel_id)
        if channel is None:
            try:
                channel = await self.client.fetch_channel(table.channel_id)
            except (discord.NotFound, discord.Forbidden):
                log.warning("table %s: channel %s is gone", table.id, table.channel_id)
                return None
        return channel if isinstance(channel, discord.abc.Messageable) else None

    async def _flush(self, table: Table, state: _Pending) -> None:
        """The channel lane: announcements in order, then the turn ping; the live ping goes once
        the people it calls have acted."""
        await asyncio.sleep(0)  # let the change that scheduled us finish, so we see its result
        await self._first_message(table)
        channel = None
        try:
            channel = await self._channel(table)
            if channel is None:
                await self._gone(table, state)
                return
            while True:
                while state.messages:
                    text = state.messages.pop(0)
                    for part in limits.split_content(text):
                        async with self._paid(Priority.PROMPT):
                            await channel.send(part, allowed_mentions=discord.AllowedMentions.none())
                if state.call:
                    mention, text, needs_button = state.call
                    state.call = None
                    await self._ping(table, channel, state, mention, text, needs_button=needs_button)
                if not state.pinged & set(self._waiting(table)):
                    await self._delete_ping(table, channel, state)
                if not (state.messages or state.call):
                    break  # else more came while this was sent: send it too
        except Exception as err:
            await self._failed(table, state, err)
        finally:
            await self._close_if_done(table, state, channel)

    async def _turns(self, table: Table, state: _Pending) -> None:
        """The turn lane: each turn's waiting players get their panels brought up to date, then
        their ping is handed to the channel lane."""
        await asyncio.sleep(0)
        await self._first_message(table)
        channel = None
        try:
            channel = await self._channel(table)
            if channel is None:
                await self._gone(table, state)
                return
            while state.turn:
                ids, text = state.turn
                state.turn = None
                await self._turn(table, channel, state, ids, text)
        except Exception as err:
            await self._failed(table, state, err)
        finally:
            await self._close_if_done(table, state, channel)

    async def _edits(self, table: Table, state: _Pending) -> None:
        """The paced lane: the table message, edited at most once per ``min_edit_interval``; the
        changes made meanwhile coalesce into the next edit."""
        await asyncio.sleep(0)
        await self._first_message(table)
        channel = None
        try:
            channel = await self._channel(table)
            if channel is None:
                await self._gone(table, state)
                return
            while state.dirty:
                wait = state.last_edit + self.min_edit_interval - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                async with self._paid(Priority.EDIT):
                    state.dirty = False
                    await self.render_table(table, channel)
                # Counted from the edit's answer, so even a request that was slow to leave keeps
                # Discord's 5 edits per 5 s per channel.
                state.last_edit = time.monotonic()
        except Exception as err:
            await self._failed(table, state, err)
        finally:
            await self._close_if_done(table, state, channel)

    async def _failed(self, table: Table, state: _Pending, err: Exception) -> None:
        if isinstance(err, discord.NotFound | discord.Forbidden):
            log.warning("table %s: its channel cannot be used (%s)", table.id, err)
            await self._gone(table, state)
        elif isinstance(err, discord.HTTPException):
            log.warning("table %s: could not update Discord: %s", table.id, err)
        elif isinstance(err, limits.LimitExceeded):  # a bug of ours: Discord would refuse the message
            log.error("table %s: a message over Discord's limits: %s", table.id, err)
        else:
            raise err

    async def _close_if_done(
        self, table: Table, state: _Pending, channel: discord.abc.Messageable | None
    ) -> None:
        """The last lane of an ended table to finish takes its last steps, once; then the table's
        state here is dropped."""
        if (
            table.status != "ended"
            or state.dirty
            or state.messages
            or state.turn
            or state.call
            or state.closed
        ):
            return
        me = asyncio.current_task()
        lanes = (state.task, state.turn_task, state.edit_task)
        others = [lane for lane in lanes if lane is not None and lane is not me]
        if any(not lane.done() for lane in others):
            return  # the other lane is still at work: it closes the table when it is done
        state.closed = True
        try:
            if channel is not None:
                await self._ended(table, channel, state)
        except discord.HTTPException as err:
            log.warning("table %s: could not close it on Discord: %s", table.id, err)
        finally:
            self.pending.pop(table.id, None)
            self.panels.drop_table(table.id)

    @staticmethod
    async def _first_message(table: Table) -> None:
        """A new table's first message is the answer to /table new, whose id comes a moment later:
        wait for it rather than post a second table message."""
        waited = 0.0
        while table.message_id is None and table.message_coming and waited < FIRST_MESSAGE_WAIT:
            await asyncio.sleep(0.05)
            waited += 0.05

    async def _ended(self, table: Table, channel: discord.abc.Messageable, state: _Pending) -> None:
        """The table's last line and final message are out: no panel keeps controls, no ping stays,
        and a table's own thread is archived."""
        await self._close_panels(table)
        await self._delete_ping(table, channel, state)
        if self.on_final is not None:
            await self.on_final(table)
        await close_thread(table, channel, self.client.user)

    @staticmethod
    def _waiting(table: Table) -> dict[int, int]:
        """The people the game waits for now: user id → seat."""
        if table.status != "playing" or table.game is None:
            return {}
        waiting = {}
        for seat in table.game.to_act:
            sitter = table.seats[seat]
            if sitter is not None and sitter.is_human and not sitter.away and sitter.user_id is not None:
                waiting[sitter.user_id] = seat
        return waiting

    async def _turn(
        self, table: Table, channel: discord.abc.Messageable, state: _Pending, ids: list[int], text: str
    ) -> None:
        """Bring each waiting person's panel up to date, then have the channel lane replace the
        table's ping with one that mentions them; it carries **Show my hand** when someone's panel
        can no longer be edited. Someone whose own click just showed them this moment is not
        pinged."""
        waiting = self._waiting(table)
        mention: list[int] = []
        needs_button = False
        pictures: list[tuple[int, PanelNow]] = []  # uploaded once every panel shows its text
        for user_id in ids:
            seat = waiting.get(user_id)
            if seat is None:
                continue  # acted or left since the ping was asked for
            # Drawn before the panel lock is taken, so a click in the panel meanwhile is not held up;
            # a picture that takes long follows the panel's text instead of holding it up.
            ready = await self._panel_now(table, channel, seat, user_id, within=TURN_PICTURE_WAIT)
            async with self.panels.lock(table, seat):
                panel = self.panels.live(table.id, seat, user_id)
                if panel is not None and panel.seen:
                    panel.seen = False
                    if panel.version == table.version:
                        continue
                edited, due = False, None
                if panel is not None:
                    edited, due = await self._refresh(table, channel, seat, panel, ready)
                needs_button = needs_button or not edited
            if due is not None:  # drawn too slowly, or the table moved on meanwhile: it follows
                pictures.append((seat, due))
            mention.append(user_id)
        state.call = (mention, text, needs_button)
        self._queue(table)
        for seat, due in pictures:
            # Off the turn lane, so the next turn's panels never wait for this one's pictures
            # (panel_picture keeps uploads in order and skips one the panel has moved past).
            self._in_background(self.panel_picture(table, seat, due), "publisher-picture")

    async def _ping(
        self, table: Table, channel: discord.abc.Messageable, state: _Pending, mention: list[int],
        text: str, *, needs_button: bool,
    ) -> None:  # fmt: skip
        """Replace the table's ping with one that mentions ``mention`` (none: just delete it)."""
        called = (text, needs_button)
        if (
            mention
            and state.last_ping_id is not None
            and set(mention) <= state.pinged
            and state.called in (called, (text, True))
        ):
            return  # the live ping calls them already (two people to act, one of them acted)
        if not mention:
            await self._delete_ping(table, channel, state)
            return
        mentions = " ".join(f"<@{uid}>" for uid in mention)
        hint = " — click **Show my hand**" if needs_button else " — your hand panel is up to date"
        view = untracked(discord.ui.View(timeout=None))
        view.add_item(SeatButton(table.id, "hand"))
        # The one message that may notify anyone: it names exactly the people whose turn it is.
        people = [discord.Object(uid) for uid in mention]
        async with self._paid(Priority.PROMPT):
            if state.call is not None:
                return  # a newer turn came while this waited for its share: its ping goes instead
            message = await channel.send(
                limits.clip(f"{mentions} {text}{hint}", limits.CONTENT),
                view=view if needs_button else discord.utils.MISSING,
                allowed_mentions=discord.AllowedMentions(users=people, everyone=False, roles=False),
            )
        stale = state.last_ping_id
        state.last_ping_id, state.pinged, state.called = message.id, set(mention), called
        table.ping_message_id = message.id
        if self.on_pinged is not None:
            await self.on_pinged(table, message.id)
        # The previous ping goes once the new one is out (the new one must not wait for it).
        self._delete_later(channel, stale)

    async def _panel_now(
        self, table: Table, channel: discord.abc.Messageable, seat: int, user_id: int | None = None,
        *, within: float | None = None,
    ) -> PanelNow | None:  # fmt: skip
        """The seat's panel as it should show the table now, its picture drawn (waiting at most
        ``within`` seconds for it when given: 0 draws nothing, and a picture not ready in time is
        left due, to follow); None if the seat's panel needs no edit (none is live, or it shows
        this already)."""
        panel = self.panels.live(table.id, seat, user_id)
        if panel is None or panel.version == table.version or table.game is None:
            return None
        version = table.version
        view = table.game.view(seat)
        now = PanelNow(panel.message_id, panel.user_id, version, view, panel_message(table, seat, view))
        now.prefs = await self.picture_prefs(table, panel.user_id, can_attach(channel))
        if now.prefs is None:
            return now
        if within is None:
            now.message.picture = await drawn_hand(view, seat, now.prefs)
            return now
        if within > 0:
            drawing = asyncio.ensure_future(drawn_hand(view, seat, now.prefs))
            done, _ = await asyncio.wait({drawing}, timeout=within)
            if done:
                now.message.picture = drawing.result()
                return now
            # Left to finish: the picture it caches is the one the panel gets next.
            self._background.add(drawing)
            drawing.add_done_callback(self._background.discard)
        now.picture_due = True
        return now

    async def _refresh(
        self, table: Table, channel: discord.abc.Messageable, seat: int, panel: Panel, ready: PanelNow | None,
    ) -> tuple[bool, PanelNow | None]:  # fmt: skip
        """Edit the panel to show the table now (under its lock), with ``ready`` if that still shows
        the table now, else with its text and controls now and its picture to follow (nothing is
        drawn under the lock). Returns whether the panel could be edited, and the picture due."""
        if panel.version == table.version:
            return True, None  # it shows this moment already (e.g. a reminder)
        if ready is None or ready.version != table.version:
            ready = await self._panel_now(table, channel, seat, within=0)
            if ready is None:
                return True, None
        message = ready.message
        async with self.panels.picture_lock(table, seat):  # after any picture upload under way
            # Without ``attachments`` an edit keeps the message's files: a picture the panel shows
            # already, or one still to be drawn, is not sent.
            same = ready.picture_due or message.picture == panel.picture
            files = {} if same else {"attachments": message.files()}
            if await edit_panel(self.client, panel, content=message.content, view=message.view, **files):
                panel.version = ready.version
                if not ready.picture_due:
                    panel.picture = message.picture
                return True, ready if ready.picture_due else None
        self.panels.drop(table.id, seat)
        return False, None

    async def panel_picture(self, table: Table, seat: int, shown: PanelNow) -> None:
        """Upload the hand picture of ``shown`` to the seat's panel unless the panel has moved on
        meanwhile (a newer answer or turn brings its own picture) or shows that picture already:
        only the latest state is drawn and uploaded, uploads in order (the picture lock), and no
        panel lock is held (a click in the panel is never held up by a picture)."""

        def still_shown() -> Panel | None:
            panel = self.panels.live(table.id, seat, shown.user_id)
            if panel is None or panel.message_id != shown.message_id or panel.version != shown.version:
                return None
            return panel

        if still_shown() is None:
            return
        picture = await drawn_hand(shown.view, seat, shown.prefs)
        if picture is None:
            return
        async with self.panels.picture_lock(table, seat):
            panel = still_shown()
            if panel is None or panel.picture == picture:
                return
            if await edit_panel(self.client, panel, attachments=[as_file(picture, HAND_FILE)]):
                panel.picture = picture

    async def picture_prefs(self, table: Table, user_id: int, allowed: bool) -> PlayerPrefs | None:
        """The player's choices if their hand is to be a picture: they want pictures and the bot may
        attach files here (if not, the channel is told once)."""
        prefs = await services_of(self.client).store.players.prefs(user_id)
        if not prefs.pictures:
            return None
        if not allowed:
            self.pictures_refused(table)
            return None
        return prefs

    def pictures_refused(self, table: Table) -> None:
        """The bot may not attach files in the table's channel: say so once per table."""
        state = self._state(table)
        if state.told_no_pictures:
            return
        state.told_no_pictures = True
        log.warning("table %s: no Attach Files permission in channel %s; cards shown as text",
                    table.id, table.channel_id)  # fmt: skip
        self.announce(
            table,
            "Cards are shown as text at this table: Trick Night may not attach files in this channel. "
            "Someone who manages the server can give it the **Attach Files** permission here.",
        )

    async def _delete_ping(self, table: Table, channel: discord.abc.Messageable, state: _Pending) -> None:
        """Delete the table's live ping (at most one per table, also across restarts)."""
        old = state.last_ping_id
        state.last_ping_id, state.pinged, state.called = None, set(), None
        if old is None:
            return
        self._delete_later(channel, old)
        if table.ping_message_id == old:
            table.ping_message_id = None
            if self.on_pinged is not None:
                await self.on_pinged(table, None)

    def _in_background(self, work: Coroutine[Any, Any, None], name: str) -> None:
        """Run ``work`` beside the lanes (``wait_idle`` waits for it too)."""
        task = asyncio.create_task(work, name=name)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _delete_later(self, channel: discord.abc.Messageable, message_id: int | None) -> None:
        """Delete a message in the background: a deletion waits for its share of the global limit
        behind the table edits, and nothing (the next ping above all) should wait for it."""
        if message_id is None or not isinstance(channel, discord.TextChannel | discord.Thread):
            return
        self._in_background(self._delete_message(channel, message_id), "publisher-delete")

    async def _delete_message(self, channel: discord.TextChannel | discord.Thread, message_id: int) -> None:
        with contextlib.suppress(discord.HTTPException):  # already deleted by someone: fine
            async with self._paid(Priority.TIDY):
                await channel.get_partial_message(message_id).delete()

    async def _gone(self, table: Table, state: _Pending) -> None:
        """The table's channel is gone or closed to the bot: nothing can be shown there."""
        state.messages.clear()
        state.dirty, state.turn, state.call = False, None, None
        if self.on_gone is not None:
            await self.on_gone(table)

    async def _close_panels(self, table: Table) -> None:
        """The table ended: each panel that still has controls gets the outcome instead."""
        game = table.game
        outcome = "This table has ended."
        if game is not None and game.is_over:
            outcome = render.status_text(game.public_view(), table.names())
        for seat in self.panels.seats(table.id):
            async with self.panels.lock(table, seat):
                panel = self.panels.live(table.id, seat)
                if panel is not None:
                    await edit_panel(self.client, panel, content=outcome, view=None)
        self.panels.drop_table(table.id)

    async def render_table(
        self, table: Table, channel: discord.abc.Messageable, *, repost: bool = False
    ) -> None:
        """Edit the table message in place, or post it (first time, deleted, or ``repost``)."""
        embed, content, view = table_embed(table), table_content(table), table_view(table)
        picture = None
        if table.status == "playing":
            if can_attach(channel):
                try:
                    picture = await table_picture(table)
                except Exception:  # a picture is a nicety: the table goes out as text
                    log.exception("table %s: the table picture could not be drawn", table.id)
            else:
                self.pictures_refused(table)
        if picture is not None:
            embed.set_image(url=f"attachment://{TABLE_FILE}")
        state = self._state(table)
        limits.check(content=content, embed=embed, view=view)
        if (
            table.message_id is not None
            and not repost
            and isinstance(channel, discord.TextChannel | discord.Thread)
        ):
            files: dict[str, Any] = {}
            if not state.picture_known or (picture.png if picture else None) != state.picture:
                files["attachments"] = [as_file(picture, TABLE_FILE)] if picture else []
            try:
                await channel.get_partial_message(table.message_id).edit(
                    content=content, embed=embed, view=view, **files
                )
                state.picture, state.picture_known = (picture.png if picture else None), True
                return
            except discord.NotFound as err:
                if err.code != UNKNOWN_MESSAGE:
                    raise  # the channel itself is gone
                log.info("table %s: its message was deleted; posting a new one", table.id)
        old = table.message_id
        message = await channel.send(
            content=content, embed=embed, view=view or discord.utils.MISSING,
            files=[as_file(picture, TABLE_FILE)] if picture else discord.utils.MISSING,
        )  # fmt: skip
        state.picture, state.picture_known = (picture.png if picture else None), True
        await self.on_posted(table, message.id)
        if old is not None and repost and isinstance(channel, discord.TextChannel | discord.Thread):
            with contextlib.suppress(discord.HTTPException):
                moved = "This table moved to a newer message below."
                await channel.get_partial_message(old).edit(content=moved, embed=None, view=None)

    async def wait_idle(self) -> None:
        """Wait until every lane of every table and every deletion is done (tests and shutdown)."""
        while True:
            lanes = [
                lane for s in self.pending.values() for lane in (s.task, s.turn_task, s.edit_task) if lane
            ]
            tasks = [task for task in [*lanes, *self._background] if not task.done()]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)
