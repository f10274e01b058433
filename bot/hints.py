"""``/hint``: what the ``hard`` computer would do now for the person asking, and why, in one line.

A hint is for a seated person on their own turn, at a table whose host has not turned hints off,
and never in a game that counts for a running league. The search runs in the table manager's worker
pool (``bot.thinking``), or in a ``tricknight worker`` over NATS (``bot.remote``), from the seat's
own position only, so it cannot know another seat's hidden
cards; the line is still checked for them before it is shown. One hint at a time per person, and
asking again in the same position gives the same hint at once.
"""

from __future__ import annotations

import json
import logging
import re
import time
from typing import TYPE_CHECKING, Any

from bot.ai import levels
from bot.ai.hard import Advice
from bot.engine import ALL_CARDS, Game
from bot.errors import Refusal
from bot.store import League
from bot.thinking import HINT_LEVEL

if TYPE_CHECKING:
    from bot.tables import Table, TableManager

log = logging.getLogger(__name__)

MAX_REASON = 300  # one line; the whole answer stays far below Discord's 2,000 characters


class HintRefused(Refusal):
    """A hint that cannot be given now; the message says why."""


class Hints:
    """Hints at the manager's tables, and the host's switch for them."""

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager
        self._thinking: set[tuple[int, int]] = set()  # (table id, user id) with a hint under way
        self._last: dict[tuple[int, int], tuple[int, Advice]] = {}  # (table id, seat) -> (version, hint)

    async def set_enabled(self, table: Table, user_id: int, enabled: bool) -> None:
        """The host turns hints on or off while the table is a lobby (everyone sits down knowing)."""
        async with table.lock:
            self.manager._refuse_while_closing()
            if user_id != table.host_id:
                raise HintRefused("Only the table's host can turn hints on or off.")
            if table.status != "lobby":
                raise HintRefused("Hints are set in the lobby: the game has already started.")
            await self.manager.store.games.update(table.id, hints=enabled)
            table.hints = enabled
        self.manager.publisher.table_changed(table)

    async def hint(self, table: Table, user_id: int) -> Advice:
        """What ``hard`` would do for this person now; ``HintRefused`` (or ``TableError``) says why not."""
        manager = self.manager
        async with table.lock:
            manager._refuse_while_closing()
            seat = manager._playing_seat(table, user_id)
            game = table.game
            assert game is not None
            person = table.seats[seat]
            if person is not None and person.away:
                raise HintRefused("A computer is playing your seat: take it back first (/table back).")
            if not table.hints:
                raise HintRefused("The host turned hints off at this table.")
            if seat not in game.to_act:
                raise HintRefused("It is not your turn: hints are for your own decisions.")
            if HINT_LEVEL not in levels(table.family):
                raise HintRefused("Hints are not available for this game yet.")
            version, snapshot = table.version, game.copy()
        league = await manager.store.leagues.active(table.guild_id)
        if counts_for(league, table.family):
            assert league is not None
            raise HintRefused(f"No hints in league games: this game counts for the league **{league.name}**.")
        key = (table.id, user_id)
        last = self._last.get((table.id, seat))
        if last is not None and last[0] == version:
            return last[1]
        if key in self._thinking:
            raise HintRefused("Your hint is still being worked out: it comes in a moment.")
        self._thinking.add(key)
        try:
            seed = ((table.seed or 0) * 31 + seat) * 100_003 + version
            hint = await manager.thinker.advise(snapshot, seat, family=table.family, seed=seed)
        except Exception:
            log.exception("table %s: no hint for seat %s", table.id, seat)
            raise HintRefused("I could not work out a hint this time. Nothing was changed.") from None
        finally:
            self._thinking.discard(key)
        hint = Advice(hint.action, safe_reason(hint, snapshot, seat))
        self._last[(table.id, seat)] = (version, hint)
        return hint

    def forget(self, table: Table) -> None:
        """Drop a table's remembered hints (it has ended)."""
        for key in [k for k in self._last if k[0] == table.id]:
            del self._last[key]


def counts_for(league: League | None, family: str, now: float | None = None) -> bool:
    """Whether a game of ``family`` finishing now would count for ``league`` (as results.finish
    decides: running, started, not past its planned end, and of its family if it has one)."""
    if league is None or not league.running:
        return False
    now = time.time() if now is None else now
    in_time = league.started_at <= now and (league.ends_at is None or league.ends_at > now)
    return in_time and league.family in (None, family)


def safe_reason(hint: Advice, game: Game, seat: int) -> str:
    """The hint's one line, or just its action if the line names a card the seat cannot see in
    another seat's hand (the search works from the seat's view, so this is a safety net)."""
    reason = " ".join(hint.reason.split())[:MAX_REASON]
    hidden = hidden_cards(game, seat)
    named = [c for c in hidden if re.search(rf"(?<![0-9A-Za-z]){re.escape(c)}(?![0-9A-Za-z])", reason)]
    if named:
        log.error("a hint named cards hidden from seat %s (%s); showing the action only", seat, named)
        return str(hint.action)
    return reason or str(hint.action)


def hidden_cards(game: Game, seat: int) -> set[str]:
    """Codes and symbols of the cards in other seats' hands that ``seat``'s view does not show."""
    visible = set(json.dumps(game.view(seat), ensure_ascii=False).replace('"', " ").split())
    hands: Any = getattr(game, "hands", None) or []
    others = [card for index, hand in enumerate(hands) if index != seat for card in hand]
    if not all(hasattr(card, "code") for card in others) or not others:
        others = list(ALL_CARDS)  # hands kept some other way: check every card the view does not show
    return {
        text
        for card in others
        if card.code not in visible and card.pretty not in visible
        for text in (card.code, card.pretty)
    }
