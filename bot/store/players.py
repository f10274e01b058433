"""Each player's own choices: ``store.players``.

Read on every hand-panel update, so the repository keeps the most recently used players' choices
in memory (it is the only writer of its table); a player who never chose gets the defaults.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass, replace

from bot.store.database import Database
from bot.store.errors import StoreRefusal

CARD_STYLES = ("pictures", "text")
CACHED_PLAYERS = 4096


@dataclass(frozen=True)
class PlayerPrefs:
    """How a player wants their cards shown."""

    user_id: int
    card_style: str = "pictures"
    four_colour: bool = False

    @property
    def pictures(self) -> bool:
        return self.card_style == "pictures"


class Players:
    """Read and change players' choices."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._recent: OrderedDict[int, PlayerPrefs] = OrderedDict()

    def _remember(self, prefs: PlayerPrefs) -> PlayerPrefs:
        self._recent[prefs.user_id] = prefs
        self._recent.move_to_end(prefs.user_id)
        while len(self._recent) > CACHED_PLAYERS:
            self._recent.popitem(last=False)
        return prefs

    async def prefs(self, user_id: int) -> PlayerPrefs:
        """The player's choices (the defaults if they never chose)."""
        known = self._recent.get(user_id)
        if known is not None:
            self._recent.move_to_end(user_id)
            return known
        async with self._db.read() as tx:
            row = await tx.one(
                "SELECT card_style, four_colour FROM player_prefs WHERE user_id = ?", (user_id,)
            )
        if row is None:
            return self._remember(PlayerPrefs(user_id))
        return self._remember(PlayerPrefs(user_id, row["card_style"], bool(row["four_colour"])))

    async def update(
        self, user_id: int, *, card_style: str | None = None, four_colour: bool | None = None
    ) -> PlayerPrefs:
        """Change some of a player's choices and return them all. Raises ``StoreRefusal`` for a
        style other than ``pictures`` or ``text``."""
        if card_style is not None and card_style not in CARD_STYLES:
            raise StoreRefusal(f"cards are shown as {' or '.join(CARD_STYLES)}, not {card_style!r}")
        current = await self.prefs(user_id)
        changed = replace(
            current,
            card_style=current.card_style if card_style is None else card_style,
            four_colour=current.four_colour if four_colour is None else bool(four_colour),
        )
        async with self._db.write() as tx:
            await tx.run(
                "INSERT INTO player_prefs (user_id, card_style, four_colour, updated_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET card_style = excluded.card_style,"
                " four_colour = excluded.four_colour, updated_at = excluded.updated_at",
                (user_id, changed.card_style, int(changed.four_colour), time.time()),
            )
        return self._remember(changed)
