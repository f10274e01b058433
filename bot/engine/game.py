"""The game API shared by every front end: the Discord table, the terminal, computer players, tests.

A variant is a small ``Game`` subclass registered under its name (``find_variant``). A game is
deterministic given its variant, player count, options and seed: ``to_json`` stores exactly those
plus the log of accepted actions, and ``from_json`` replays them.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar, Self, TypeVar

from bot.engine.actions import Action, Kind, parse_action
from bot.engine.cards import Card, Suit, parse_cards
from bot.engine.errors import BadGameRecord, EngineError, IllegalAction, UnknownVariant
from bot.engine.events import Event, OutcomeJSON
from bot.engine.options import OptionSpec, resolve_options, whole_number

Policy = Callable[["Game", int, list[Action]], Action]
"""A rollout policy: ``policy(game, seat, legal) -> action`` (one of ``legal``)."""
_PLAY = Kind.PLAY  # bound once: reading an Enum member off its class is slow on Python 3.11
_copy_list = list.copy
_SEED_BITS = 53
_RECIPE = -1
"""The key of the ``copy_recipe`` among the sampling plans (seats are 0 and up)."""
_SHARED = frozenset({int, bool, float, str, tuple, frozenset, Card})
"""Types of attribute values that a copy shares (immutable: enum members too). None is not one:
an attribute None now may hold a list later."""


@dataclass(frozen=True, slots=True)
class CopyRecipe:
    """``Game.copy_recipe``: the attributes a world does not copy (set to None: rebuilt), those
    holding lists of lists (copied two levels deep), lists of anything else or dicts (copied one
    level), those that may come to hold lists (None, an empty list: their type is looked at in each
    copy), and how many attributes the game had. The rest (numbers, text, cards, tuples) are shared."""

    rebuilt: tuple[str, ...]
    nested: tuple[str, ...]
    flat: tuple[str, ...]
    other: tuple[str, ...]
    size: int


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the winning sides and seats, final scores per side, and why."""

    winning_sides: tuple[int, ...]
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    reason: str

    @property
    def places(self) -> tuple[int, ...]:
        """Each side's place, 1 for first: the winning sides first, then by score; sides with
        equal standing share a place (and the next place is skipped). Not part of ``to_json``.

        >>> Outcome((2,), (2,), (11, 7, 9, 7), "seat 3 reached 11").places
        (2, 3, 1, 3)
        """
        winning, scores = self.winning_sides, self.scores
        standing = [(side in winning, score) for side, score in enumerate(scores)]
        return tuple(1 + sum(other > mine for other in standing) for mine in standing)

    def to_json(self) -> OutcomeJSON:
        return {
            "winning_sides": list(self.winning_sides),
            "winners": list(self.winners),
            "scores": list(self.scores),
            "reason": self.reason,
        }


class Game(ABC):
    """One game (a match of deals) of one variant. Seats are numbered 0..players-1 clockwise."""

    name: ClassVar[str]
    title: ClassVar[str]
    family: ClassVar[str]
    player_counts: ClassVar[tuple[int, ...]]
    default_players: ClassVar[int]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    rules_text: ClassVar[str] = ""

    def __init__(
        self,
        players: int | str,
        options: Mapping[str, Any] | None = None,
        seed: int | str | None = None,
        *,
        decks: Sequence[Sequence[Card]] | None = None,
        dealer: int | None = None,
    ) -> None:
        players = self.players = self.check_players(players)
        self.options: dict[str, Any] = resolve_options(self.option_specs, options, self.name)
        self.seed = random.SystemRandom().randrange(2**53) if seed is None else whole_number("seed", seed)
        self.decks: tuple[tuple[Card, ...], ...] = self.check_decks(decks or ())
        if dealer is not None:
            seats = f"a seat number from 0 to {players - 1}"
            dealer = whole_number("dealer", dealer, seats)
            if not 0 <= dealer < players:
                raise EngineError(f"dealer must be {seats} at this {players}-player table; got {dealer}")
        self.first_dealer: int | None = dealer
        self.log: list[tuple[int, Action]] = []
        self.outcome: Outcome | None = None
        self._legal: list[Action] | None = None  # legal_actions(self._legal_seat), until an action
        self._legal_seat = -1
        self.sides: tuple[tuple[int, ...], ...] = self.make_sides()
        side_of = [-1] * players
        for index in range(len(self.sides) - 1, -1, -1):  # backwards: a seat's first side wins
            for seat in self.sides[index]:
                side_of[seat] = index
        assert -1 not in side_of, "every seat plays on a side"
        self.side_of: tuple[int, ...] = tuple(side_of)
        self.start()

    @classmethod
    def check_players(cls, raw: int | str) -> int:
        """``raw`` as a player count this variant is played by (text such as ``"4"`` is read as a
        number), or ``EngineError`` naming what is allowed.

        >>> find_variant("pitch").check_players(4.0)
        Traceback (most recent call last):
        bot.engine.errors.EngineError: players must be a whole number from 2 to 7 for pitch; got 4.0
        """
        counts = cls.player_counts
        if type(raw) is int and raw in counts:  # the usual case, without building the message
            return raw
        if len(counts) == 1:
            allowed = str(counts[0])
        elif counts == tuple(range(counts[0], counts[-1] + 1)):
            allowed = f"a whole number from {counts[0]} to {counts[-1]}"
        else:
            allowed = ", ".join(str(n) for n in counts[:-1]) + f" or {counts[-1]}"
        allowed += f" for {cls.name}"
        count = whole_number("players", raw, allowed)
        if count not in counts:
            raise EngineError(f"players must be {allowed}; got {count}")
        return count

    # ----- what a variant provides -------------------------------------------------------------
    def make_sides(self) -> tuple[tuple[int, ...], ...]:
        """The sides (teams) as tuples of seats; by default everyone plays alone."""
        return tuple((seat,) for seat in range(self.players))

    @abstractmethod
    def pack(self) -> list[Card]:
        """Every card of this variant's pack (with its options), in a fixed order."""

    @abstractmethod
    def start(self) -> None:
        """Set up the first deal (called once by ``__init__``)."""

    @property
    @abstractmethod
    def to_act(self) -> tuple[int, ...]:
        """The seats whose decision the game is waiting for (usually one; empty when over)."""

    @abstractmethod
    def _legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now, the game not being over (possibly non-empty for a
        seat not in ``to_act``), as the interned objects of ``bot.engine.actions``."""

    @abstractmethod
    def explain_illegal(self, seat: int, action: Action) -> str:
        """Why ``action`` is not legal for ``seat`` now, in words a player understands."""

    @abstractmethod
    def _perform(self, seat: int, action: Action) -> list[Event]:
        """Carry out an action other than a card play, already known to be legal for ``seat``, and
        return what happened."""

    @abstractmethod
    def play_card(self, seat: int, card: Card) -> list[Event]:
        """Play ``card`` for ``seat`` (known to be legal) and return what happened. Card play is
        most of a game, so ``apply`` hands every ``play`` action straight here."""

    def _canonical(self, action: Action) -> Action:
        """The one spelling of ``action`` that ``_legal_actions`` lists (by default ``action``)."""
        return action

    @abstractmethod
    def public_view(self) -> dict[str, Any]:
        """Everything every seat (and every onlooker) may see, JSON-able."""

    @abstractmethod
    def private_view(self, seat: int) -> dict[str, Any]:
        """What only ``seat`` may see (its hand, buried cards, …), JSON-able."""

    # ----- the shared API --------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def can_apply(self, seat: int, action: Action) -> bool:
        """Whether ``seat`` may take ``action`` now."""
        return 0 <= seat < self.players and action in self.legal_actions(seat)

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (possibly some for a seat not in ``to_act``, e.g.
        declaring out; none once the game is over). Kept until the next action, so asking again
        is free.

        >>> game = new_game("pitch", players=3, seed=7)
        >>> [str(action) for action in game.legal_actions(game.to_act[0])]
        ['pass', 'bid 1', 'bid 2', 'bid 3', 'bid 4']
        """
        legal = self._legal
        if legal is None or self._legal_seat != seat:
            legal = self._legal = self._legal_actions(seat) if self.outcome is None else []
            self._legal_seat = seat
        return legal[:]

    def invalidate(self) -> None:
        """Forget the kept legal actions and sampling plans (after changing the state other than
        by ``apply``)."""
        self._legal = None
        self._plans = None

    def verify_action(self, seat: int, action: Action) -> None:
        """Raise ``IllegalAction`` with a player-facing reason unless the action is legal."""
        if not 0 <= seat < self.players:
            raise IllegalAction(f"there is no seat {seat} at this {self.players}-player table")
        if self.outcome is not None:
            raise IllegalAction("the game is over")
        legal = self._legal
        if legal is None or self._legal_seat != seat:
            self.legal_actions(seat)
            legal = self._legal
            assert legal is not None
        for candidate in legal:
            if candidate is action:
                return
        if action not in legal:
            raise IllegalAction(self.explain_illegal(seat, action))

    def apply(self, seat: int, action: Action | str) -> list[Event]:
        """Take ``action`` (or its text) for ``seat`` and return what happened; raises
        ``IllegalAction`` with a player-facing reason, changing nothing, if it is not legal.

        >>> game = new_game("pitch", players=3, seed=7)
        >>> game.apply(game.to_act[0], "bid 2")
        [{'type': 'bid', 'seat': 2, 'amount': 2}]
        >>> game.apply(game.to_act[0], "bid 1")
        Traceback (most recent call last):
        bot.engine.errors.IllegalAction: Your bid must be higher than 2.
        """
        legal = self._legal
        if legal is not None and seat == self._legal_seat:
            # Fast path: the very object ``legal_actions`` just listed (actions are interned).
            for candidate in legal:
                if candidate is action:
                    self.log.append((seat, candidate))
                    self._legal = None
                    self._plans = None
                    if candidate.kind is _PLAY:
                        return self.play_card(seat, candidate.cards[0])
                    return self._perform(seat, candidate)
        if isinstance(action, str):
            action = parse_action(action)
        action = self._canonical(action)
        self.verify_action(seat, action)
        self.log.append((seat, action))
        self._legal = None
        self._plans = None
        if action.kind is _PLAY:
            return self.play_card(seat, action.cards[0])
        return self._perform(seat, action)

    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see: the public view, its private information and its legal actions."""
        if not 0 <= seat < self.players:
            raise IllegalAction(f"there is no seat {seat} at this {self.players}-player table")
        out = self.public_view()
        out["seat"] = seat
        out.update(self.private_view(seat))
        out["legal"] = [str(action) for action in self.legal_actions(seat)]
        return out

    def header_view(self) -> dict[str, Any]:
        """The keys every public view starts with: the variant, its title and family, players, sides."""
        return {
            "variant": self.name,
            "title": self.title,
            "family": self.family,
            "players": self.players,
            "sides": [list(side) for side in self.sides],
        }

    def deal_rng(self, deal_no: int) -> random.Random:
        """The random source for one deal, derived from the seed (so copies need no RNG state)."""
        return random.Random(f"{self.name}/{self.seed}/{deal_no}")

    # ----- a chosen position (tests, puzzles, duplicate deals) ---------------------------------
    def check_decks(self, decks: Sequence[Sequence[Card]]) -> tuple[tuple[Card, ...], ...]:
        """``decks`` as tuples, each checked to be this variant's whole pack (``EngineError``)."""
        out = tuple(tuple(deck) for deck in decks)
        if out:
            pack = Counter(self.pack())
            for number, deck in enumerate(out, 1):
                if Counter(deck) != pack:
                    raise EngineError(
                        f"stacked pack {number} is not a {self.name} pack of {sum(pack.values())} cards"
                    )
        return out

    def stacked_pack(self, deal_no: int) -> list[Card] | None:
        """The pack stacked for deal ``deal_no`` by ``new_game(decks=...)`` (first deal: the first
        pack), in the order the variant's shuffle would have left it; None when the seed shuffles."""
        if deal_no <= len(self.decks):
            return list(self.decks[deal_no - 1])
        return None

    def copy(self, rebuilt: tuple[str, ...] = ()) -> Self:
        """A cheap independent copy (lists copied two levels deep; cards are immutable).

        A list attribute holds either lists (hands, a suit index) or no lists at all (cards,
        tricks as tuples, the log), so its first item says which copy it needs. Search copies
        games millions of times: this is kept to exact type tests and slices. The attributes
        named in ``rebuilt`` are not copied but set to None: the caller sets them anew."""
        new = object.__new__(type(self))
        state = self.__dict__.copy()
        for key in rebuilt:
            state[key] = None
        _copy_values(state, list(state))
        new.__dict__ = state
        return new

    # ----- search: sampled worlds ---------------------------------------------------------------
    def sample_world(self, seat: int, rng: random.Random) -> Self:
        """An independent copy of this game in which every card ``seat`` cannot see is dealt again
        at random among the places ``seat`` cannot see, consistently with all it has seen (its
        hand, the cards played, meld shown, cards passed to or from it, voids revealed, cards
        turned up or drawn in view). For search: the result depends only on ``view(seat)`` and
        ``rng`` (the same view and ``rng`` state give the same world), and can be played on with
        ``legal_actions``/``apply`` to the end of the deal (later deals are shuffled from a seed
        drawn from ``rng``).

        A sampled world is not a record of a real game: its ``log`` is empty (``to_json`` does not
        replay it) and its seed and stacked packs are not the real game's."""
        if not 0 <= seat < self.players:
            raise IllegalAction(f"there is no seat {seat} at this {self.players}-player table")
        if self.outcome is None:
            self.sampling_plan(seat)  # kept on this game: the world below starts with it
            world = self.copy_by(self.copy_recipe())
        else:
            world = self.copy(self.world_rebuilt())
        world.log = []
        world.decks = ()
        # ``rng.randrange(2**53)`` written out (its Python layers cost a µs a world): the same draws.
        seed = rng.getrandbits(_SEED_BITS + 1)
        while seed >> _SEED_BITS:
            seed = rng.getrandbits(_SEED_BITS + 1)
        world.seed = seed
        world._legal = None
        world._legal_seat = -1
        if world.outcome is None:
            world.redeal_unseen(seat, rng)
        world._plans = None
        return world

    def world_rebuilt(self) -> tuple[str, ...]:
        """The attributes ``sample_world`` sets anew in a world (``redeal_unseen`` rebuilds them
        from the dealt hands), so that its copy need not copy them: the log, and a variant's own."""
        return ("log",)

    _plans: dict[int, object] | None = None
    """``sampling_plan`` by seat, kept until the next action (like the legal actions); under
    ``_RECIPE`` (not a seat) the ``copy_recipe``."""

    def copy_recipe(self) -> CopyRecipe:
        """How ``sample_world`` copies this game (``copy_by``), worked out once and kept with the
        sampling plans until the next action: a search copies one position many times, and most
        attributes hold numbers, text, cards or tuples, which a copy shares as they are."""
        plans = self._plans
        if plans is None:
            plans = self._plans = {}
        recipe = plans.get(_RECIPE)
        if recipe is None:
            rebuilt = self.world_rebuilt()
            nested: list[str] = []
            flat: list[str] = []
            other: list[str] = []
            for key, value in self.__dict__.items():
                kind = type(value)
                if key in rebuilt or kind in _SHARED or isinstance(value, Enum):
                    continue
                if kind is list and value:
                    (nested if type(value[0]) is list else flat).append(key)
                elif kind is dict:
                    flat.append(key)
                else:  # an empty list, None, …: looked at again at each copy
                    other.append(key)
            recipe = CopyRecipe(rebuilt, tuple(nested), tuple(flat), tuple(other), len(self.__dict__))
            plans[_RECIPE] = recipe
        assert isinstance(recipe, CopyRecipe)
        return recipe

    def copy_by(self, recipe: CopyRecipe) -> Self:
        """``copy(recipe.rebuilt)`` from a ``copy_recipe`` of this game: only the attributes that
        may hold lists or dicts are looked at, those that held a list or a dict when the recipe was
        made copied as they were then (the recipe is dropped at the next action; a game that gained
        attributes since it was made is copied the long way)."""
        state = self.__dict__.copy()
        if len(state) != recipe.size:
            return self.copy(recipe.rebuilt)
        new = object.__new__(type(self))
        for key in recipe.rebuilt:
            state[key] = None
        for key in recipe.nested:
            state[key] = list(map(_copy_list, state[key]))
        for key in recipe.flat:
            state[key] = state[key].copy()
        _copy_values(state, recipe.other)
        new.__dict__ = state
        return new

    def sampling_plan(self, seat: int) -> object:
        """What ``seat`` has seen, prepared for dealing many worlds (``plan_sampling``), worked out
        once and kept until the next action: a search samples one position many times. It is
        made only from what ``seat`` may see (so it is safe to keep on the real game)."""
        plans = self._plans
        if plans is None:
            plans = self._plans = {}
        if seat not in plans:
            plans[seat] = self.plan_sampling(seat)
        return plans[seat]

    def plan_sampling(self, seat: int) -> object:
        """``sampling_plan``'s variant part (None: the variant redeals from the state each time)."""
        return None

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the sampling plans (they hold functions; they are made again)."""
        state = self.__dict__.copy()
        state.pop("_plans", None)
        return state

    # Read-only accessors for search on sampled worlds (``sample_world``). They read the state
    # directly, without building views, so that a search can afford millions of calls. A real
    # game's hidden hands are not for players: a computer player calls these on a world it sampled
    # (or for its own seat), never to peek at another seat of the real game.
    hands: list[list[Card]]
    trick: list[tuple[int, Card]]
    leader: int
    trump: Suit | None
    scores: list[int]
    deal_no: int

    def hand(self, seat: int) -> list[Card]:
        """``seat``'s cards (the game's own list: do not change it). For search on sampled worlds."""
        return self.hands[seat]

    def trick_plays(self) -> list[tuple[int, Card]]:
        """The trick under way as (seat, card) in play order (the game's own list: read only)."""
        return self.trick

    def trick_leader(self) -> int:
        """The seat that led (or is to lead) the trick under way (-1 before play starts)."""
        return self.leader

    def trump_suit(self) -> Suit | None:
        """The trump suit (None while it is not known)."""
        return self.trump

    def led_suit(self) -> Suit | None:
        """The suit the trick under way follows (a trump's effective suit in pitch), None before
        its first card."""
        return self.trick[0][1].suit if self.trick else None

    def is_trump(self, card: Card) -> bool:
        """Whether ``card`` is a trump now (pitch's off-jack and jokers too)."""
        return card.suit is self.trump

    def winning_play(self) -> tuple[int, Card] | None:
        """The (seat, card) winning the trick under way so far (None before its first card)."""
        raise NotImplementedError

    def teammates(self, seat: int) -> tuple[int, ...]:
        """The other seats on ``seat``'s side (empty when it plays alone)."""
        return tuple(other for other in self.sides[self.side_of[seat]] if other != seat)

    def declarer(self) -> int | None:
        """The seat that won the auction (pitcher or bidder) this deal, None if none (yet)."""
        return None

    def deal_points(self) -> list[int]:
        """Per side, what its tricks are worth so far this deal: pinochle counters taken (the
        last-trick bonus included once taken), pitch the values toward the Game point."""
        raise NotImplementedError

    rolling_out = False
    """True during ``rollout``: the deal's end does not deal the next one (``deal_again``)."""

    def deal_again(self) -> bool:
        """Whether to deal the next deal now that one is over: yes, except in a ``rollout``, which
        stops at the end of its deal (the deal number still moves on, marking the deal over)."""
        if self.rolling_out:
            self.deal_no += 1
            return False
        return True

    def rollout(self, policy: Policy) -> list[int]:
        """Play the current deal to its end, in place, choosing every action with
        ``policy(game, seat, legal)``; return each side's score change from now to the end of
        the deal (points scored earlier in the deal, such as two-hand meld laid, are not in it).

        The deal is over when it has been scored (the next deal is then dealt at once) or the
        game ends in it (a declare-out, a concession); a redeal after everyone passed ends it too,
        with no change. The fast path for search on sampled worlds: no views are built, no
        ``log`` is kept, and the action ``policy`` returns is not checked (it must be one of
        ``legal``, the list ``legal_actions`` would give, which ``policy`` may keep). The next deal
        is not dealt: the world is spent afterwards (copy it first to play on)."""
        deal = self.deal_no
        before = self.scores[:]
        self._plans = None
        perform = self._perform
        play_card = self.rollout_play()
        legal_actions = self._legal_actions
        # A variant's fused trick loop, where it has one (``rollout_tricks``).
        tricks = None if type(self).rollout_tricks is Game.rollout_tricks else self.rollout_tricks
        self.rolling_out = True
        try:
            while self.outcome is None and self.deal_no == deal:
                if tricks is not None and tricks(policy):
                    continue
                seat = self.to_act[0]
                action = policy(self, seat, legal_actions(seat))
                self._legal = None
                if action.kind is _PLAY:
                    play_card(seat, action.cards[0])
                else:
                    perform(seat, action)
        finally:
            self.rolling_out = False
        return [after - was for after, was in zip(self.scores, before, strict=True)]

    def rollout_tricks(self, policy: Policy) -> bool:
        """``rollout``'s fast path for card play, where a variant has one: play on with ``policy``
        (the same choices from the same ``legal`` lists, the same state after every step as
        ``rollout``'s own loop) while the state allows it; False when it played nothing."""
        return False

    def rollout_play(self) -> Callable[[int, Card], object]:
        """The card play ``rollout`` uses: ``play_card``, or a variant's own that builds no
        events (nothing reads them in a rollout)."""
        return self.play_card

    def redeal_unseen(self, seat: int, rng: random.Random) -> None:
        """Deal again, in place, the cards ``seat`` cannot see (``sample_world``'s variant part;
        called on a fresh copy only)."""
        raise NotImplementedError(f"{self.name} cannot sample worlds yet")

    def to_json(self) -> dict[str, Any]:
        """Exactly what is needed to rebuild this game: variant, players, options, seed, log (and
        the stacked packs and first dealer of a game set up with them)."""
        out: dict[str, Any] = {
            "variant": self.name,
            "players": self.players,
            "options": dict(self.options),
            "seed": self.seed,
            "log": [[seat, str(action)] for seat, action in self.log],
        }
        if self.decks or self.first_dealer is not None:
            out["setup"] = {
                "decks": [[card.code for card in deck] for deck in self.decks],
                "dealer": self.first_dealer,
            }
        return out

    @classmethod
    def from_json(cls, record: Mapping[str, Any]) -> Game:
        """Rebuild a game from ``to_json`` output by replaying its log.

        >>> game = new_game("pinochle-2", seed=5)
        >>> events = game.apply(game.to_act[0], game.legal_actions(game.to_act[0])[0])
        >>> Game.from_json(game.to_json()).view(0) == game.view(0)
        True
        """
        try:
            setup = record.get("setup") or {}
            game = new_game(
                record["variant"],
                players=record["players"],
                options=record["options"],
                seed=record["seed"],
                decks=[parse_cards(deck) for deck in setup.get("decks", ())],
                dealer=setup.get("dealer"),
            )
            for seat, text in record["log"]:
                game.apply(int(seat), text)
        except (KeyError, TypeError) as err:
            raise BadGameRecord(f"not a saved game: missing or bad field {err}") from None
        except EngineError as err:
            raise BadGameRecord(f"saved game does not replay: {err}") from None
        return game

    def side_name(self, side: int) -> str:
        seats = self.sides[side]
        if len(seats) == 1:
            return f"seat {seats[0] + 1}"
        return "seats " + " & ".join(str(seat + 1) for seat in seats)


_REGISTRY: dict[str, type[Game]] = {}
G = TypeVar("G", bound=type[Game])


def _copy_values(state: dict[str, Any], keys: Sequence[str]) -> None:
    """Copy the lists and dicts among ``state[key]`` for ``keys`` in place, a list of lists two
    levels deep (one call per game copy, not per attribute: this is search's hot path)."""
    for key in keys:
        value = state[key]
        kind = type(value)
        if kind is list:
            if value and type(value[0]) is list:
                state[key] = list(map(_copy_list, value))
            else:
                state[key] = value[:]
        elif kind is dict:
            state[key] = value.copy()


def register(cls: G) -> G:
    """Class decorator adding a variant to the registry under ``cls.name``."""
    _REGISTRY[cls.name] = cls
    return cls


def find_variant(name: str) -> type[Game]:
    """The variant class called ``name`` (case-insensitive); raises ``UnknownVariant``."""
    found = _REGISTRY.get(name.strip().lower())
    if found is None:
        raise UnknownVariant(f"no variant {name!r}; choose one of: {', '.join(sorted(_REGISTRY))}")
    return found


def variant_names() -> list[str]:
    """Every registered variant name, sorted."""
    return sorted(_REGISTRY)


def new_game(
    variant: str,
    *,
    players: int | str | None = None,
    options: Mapping[str, Any] | None = None,
    seed: int | str | None = None,
    decks: Sequence[Sequence[Card]] | None = None,
    dealer: int | None = None,
) -> Game:
    """Start a game of ``variant`` (default player count unless given) with house-rule ``options``.

    A chosen position: ``decks`` stacks the packs of the first deals (one whole pack per deal, in
    the order the variant's shuffle would leave it; later deals are shuffled from the seed), and
    ``dealer`` names the first dealer instead of drawing one. ``to_json`` keeps both, so such a
    game replays like any other.

    Every value is checked here, once, and a bad one raises ``EngineError`` naming the field, the
    value and what is allowed: ``players`` and ``seed`` are whole numbers (or text spelling one, as
    typed on a command line; never rounded), option names and values are case-insensitive.

    >>> game = new_game("pinochle-4", seed=1)
    >>> game.players, game.to_act, str(game.public_view()["phase"])
    (4, (2,), 'exchange')
    >>> [str(action) for action in game.legal_actions(2)]
    ['exchange 9H', 'pass']
    >>> new_game("pitch", players=9)
    Traceback (most recent call last):
    bot.engine.errors.EngineError: players must be a whole number from 2 to 7 for pitch; got 9
    >>> pack = new_game("pitch", seed=1).pack()  # unshuffled: the deal pops cards off the end
    >>> game = new_game("pitch", players=2, seed=1, decks=[pack], dealer=0)
    >>> game.view(1)["hand"], game.to_json()["setup"]["dealer"]
    (['AC', 'KC', 'QC', '8C', '7C', '6C'], 0)
    """
    cls = find_variant(variant)
    return cls(cls.default_players if players is None else players, options, seed, decks=decks, dealer=dealer)
