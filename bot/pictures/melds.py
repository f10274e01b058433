"""Laid melds as plain data for the meld picture: per seat its melds, its cards shown, its total."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from bot.pictures.cards import card_key


@dataclass(frozen=True, slots=True)
class MeldGroup:
    """One meld as laid: its name (may be empty), its cards and its points (if known).

    Cards are card text (``"10♠"``, ``"10S"`` or ``str(card)``); they are kept as canonical keys.
    """

    name: str
    cards: Sequence[str]
    points: int | None = None
    meld_class: str | None = None
    """Melds of one class never share a card (the engine's meld ``class``); default: the name."""

    def __post_init__(self) -> None:
        # Kept as canonical card keys in a tuple: hashable (the render cache's key), and "10♠" and
        # "10S" make the same meld.
        object.__setattr__(self, "cards", tuple(card_key(card) for card in self.cards))

    def label(self) -> str:
        """``run 150``: the name and the points, as far as they are known."""
        points = "" if self.points is None else str(self.points)
        return " ".join(part for part in (self.name, points) if part)


@dataclass(frozen=True, slots=True)
class SeatMelds:
    """One seat's laid melds.

    ``cards``: the cards the seat laid down. When omitted they are worked out from ``groups`` the
    way the meld count uses cards: within a meld class the melds' cards add up (two dix are two
    nines), across classes a card serves each (a king in a marriage and in kings around is laid
    once). No ``groups`` and no ``cards`` with a ``total`` means the seat scored meld
    without showing it; ``note`` replaces the default wording for that case (e.g. "meld not laid").
    """

    name: str
    groups: Sequence[MeldGroup] = ()
    total: int | None = None
    note: str | None = None
    cards: Sequence[str] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "groups", tuple(self.groups))
        object.__setattr__(self, "cards", tuple(card_key(card) for card in self.cards))

    def shown_cards(self) -> tuple[str, ...]:
        """The cards laid down, in the order the melds name them."""
        if self.cards:
            return tuple(self.cards)
        per_class: dict[str, Counter[str]] = {}
        for group in self.groups:
            per_class.setdefault(group.meld_class or group.name, Counter()).update(group.cards)
        shown: list[str] = []
        have: Counter[str] = Counter()
        for group in self.groups:
            need_in_class = per_class[group.meld_class or group.name]
            for card in group.cards:
                if need_in_class[card] > have[card]:
                    shown.extend([card] * (need_in_class[card] - have[card]))
                    have[card] = need_in_class[card]
        return tuple(shown)

    def meld_names(self) -> str:
        """``run 150 · pinochle 40``."""
        return " · ".join(label for label in (group.label() for group in self.groups) if label)

    def heading_note(self) -> str:
        """What to say for a seat that shows no cards."""
        return self.note or ("meld not shown" if self.total else "no meld")
