"""An exact solver for pinochle trick play when every hand is known (double dummy).

Alpha-beta minimax over the tricks left, with a transposition table keyed on the position (its best
card tried first), and equivalent cards played once (copies, and touching ranks of a suit worth the
same counters when no card of another seat or of the trick ranks between them or copies either).
The follow rules are the engine's strict ones (``PinochleGame.strict_playable``) or, with
``crawl``, double-deck's (``DoubleDeck.crawl_playable``); a tie goes to the card played first. A
position's value is the counters still to be taken (the last-trick bonus too) for the mover's side
less the other side's. Cards are ints ``suit index * 8 + strength - 1``: in a suit, larger is higher."""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from bot.engine import Card, Game
from bot.engine.events import Phase
from bot.engine.pinochle.common import LAST_TRICK, SORT_KEY, STRENGTH, SUIT_INDEX
from bot.engine.pinochle.double_deck import LAST_TRICK as DOUBLE_DECK_LAST_TRICK
from bot.engine.pinochle.double_deck import DoubleDeck

_CODE_OF: dict[Card, int] = {card: SUIT_INDEX[card.suit] * 8 + STRENGTH[card] - 1 for card in STRENGTH}
_CARD_OF: dict[int, Card] = {code: card for card, code in _CODE_OF.items()}

_EXACT, _LOWER, _UPPER = 0, 1, 2


def _encoded(
    hands: Sequence[Sequence[Card]], trick: Sequence[tuple[int, Card]]
) -> tuple[list[tuple[int, ...]], list[tuple[int, int]]]:
    """A position's hands (codes, high to low) and trick ((seat, code) in order) as the solver keeps them."""
    return (
        [tuple(sorted((_CODE_OF[c] for c in hand), reverse=True)) for hand in hands],
        [(seat, _CODE_OF[card]) for seat, card in trick],
    )


class OutOfTime(Exception):
    """The solve passed its deadline (``Solver.deadline``)."""


@dataclass(frozen=True)
class Solution:
    """A solved position: ``value`` for the side to move, and a ``card`` reaching it."""

    value: int
    card: Card
    nodes: int


class Solver:
    """Solves trick play from one position (build one per position; ``solve`` it)."""

    CHECK_EVERY = 2048
    """Nodes searched between looks at the clock."""

    def __init__(
        self,
        hands: Sequence[Sequence[Card]],
        trick: Sequence[tuple[int, Card]],
        to_play: int,
        *,
        trump_index: int,
        points: Mapping[Card, int],
        side_of: Sequence[int],
        last_trick: int = LAST_TRICK,
        crawl: bool = False,
        deadline: float | None = None,
        table: dict[tuple[object, ...], tuple[int, int, int]] | None = None,
    ) -> None:
        self.players = len(hands)
        self.trump = trump_index
        self.side_of = tuple(side_of)
        self.last_bonus = last_trick
        self.crawl = crawl
        self.value_of = [0] * 32
        for card, code in _CODE_OF.items():
            self.value_of[code] = points.get(card, 0)
        self.hands, self.trick = _encoded(hands, trick)
        self.to_play = to_play
        self.table: dict[tuple[object, ...], tuple[int, int, int]] = {} if table is None else table
        """Positions searched: (bound kind, value, best card). Only the position is in the key, so a
        table may be shared by solves with the same trump, counter values and sides."""
        self.nodes = 0
        self.deadline = deadline
        self.next_check = self.CHECK_EVERY

    # ----- the rules -------------------------------------------------------------------------
    def legal(self, hand: tuple[int, ...], trick: list[tuple[int, int]], win: int) -> list[int]:
        """The distinct cards of ``hand`` that may be played to ``trick`` (``win``: its best card)."""
        if trick:
            led = trick[0][1] >> 3
            cards = [c for c in hand if c >> 3 == led]
            trump = self.trump
            if cards:
                if led == trump or (self.crawl and win >> 3 == led):
                    higher = [c for c in cards if c > win]
                    if higher:
                        cards = higher
            else:
                cards = [c for c in hand if c >> 3 == trump]
                if not cards:
                    cards = list(hand)
                elif self.crawl and win >> 3 == trump:
                    cards = [c for c in cards if c > win] or cards
        else:
            cards = list(hand)
        out: list[int] = []
        prev = -1
        for c in cards:  # hands are sorted high to low, so copies are neighbours
            if c != prev:
                out.append(c)
                prev = c
        return out

    def collapse(
        self, cards: list[int], seat: int, hands: list[tuple[int, ...]], trick: list[tuple[int, int]]
    ) -> list[int]:
        """``cards`` (distinct, high to low) without those equivalent to a higher one kept (same suit and
        counters, no card of another seat or of the trick between them or the same as either)."""
        if len(cards) < 2:
            return cards
        blockers = {c for s, hand in enumerate(hands) if s != seat for c in hand}
        blockers.update(c for _, c in trick)
        value_of = self.value_of
        out = [cards[0]]
        last = cards[0]
        for c in cards[1:]:
            kept = out[-1]
            # ``kept`` stands for a run down to ``last``: ``c`` joins it when no other seat's card
            # lies between or ties either (a tie goes to the card played first).
            same = c >> 3 == last >> 3 and value_of[c] == value_of[kept]
            if not (same and not any(b in blockers for b in range(c, last + 1))):
                out.append(c)
            last = c
        return out

    # ----- the search ------------------------------------------------------------------------
    def best_line(
        self, hands: Sequence[Sequence[Card]], trick: Sequence[tuple[int, Card]], to_play: int
    ) -> list[Card]:
        """Every card still to be played from a position, each seat playing a best card (a world played
        perfectly); the table is kept, so positions already searched are not searched again."""
        players = self.players = len(hands)
        left, played = _encoded(hands, trick)
        value_of = self.value_of
        bound = sum(value_of[c] for hand in left for c in hand) + sum(value_of[c] for _, c in played)
        bound += self.last_bonus + 1
        win = self.best_of(played)
        seat = to_play
        line: list[Card] = []
        while left[seat]:
            # A full window each time: the table answers at once where the search was exact.
            _, card = self.search(left, played, win, seat, -bound, bound)
            line.append(_CARD_OF[card])
            hand = left[seat]
            index = hand.index(card)
            left[seat] = hand[:index] + hand[index + 1 :]
            win = card if not played else self.beats(card, win)
            played = [*played, (seat, card)]
            if len(played) < players:
                seat = (seat + 1) % players
            else:
                seat = self.winner_of(played, win)
                played, win = [], -1
        return line

    def solve(self) -> Solution:
        """The value of the position for the side to move, and a best card."""
        hands = list(self.hands)
        trick = list(self.trick)
        win = self.best_of(trick)
        value_of = self.value_of
        bound = sum(value_of[c] for hand in hands for c in hand) + sum(value_of[c] for _, c in trick)
        bound += self.last_bonus
        value, card = self.search(hands, trick, win, self.to_play, -bound - 1, bound + 1)
        mover_side = self.side_of[self.to_play]
        side_value = value if mover_side == 0 else -value
        return Solution(side_value, _CARD_OF[card], self.nodes)

    def best_of(self, trick: list[tuple[int, int]]) -> int:
        win = -1
        for _, c in trick:
            win = c if win < 0 else self.beats(c, win)
        return win

    def beats(self, card: int, win: int) -> int:
        """The best card after ``card`` is played onto a trick whose best is ``win``."""
        if card >> 3 == win >> 3:
            return card if card > win else win
        if card >> 3 == self.trump:
            return card
        return win

    def search(  # noqa: C901, PLR0917 - the hot loop, kept in one frame
        self,
        hands: list[tuple[int, ...]],
        trick: list[tuple[int, int]],
        win: int,
        seat: int,
        alpha: int,
        beta: int,
    ) -> tuple[int, int]:
        """Minimax value (side 0's counters minus side 1's, from here) and best card of ``seat``
        to play, within (alpha, beta) (fail-soft)."""
        self.nodes += 1
        if self.nodes >= self.next_check:
            self.next_check += self.CHECK_EVERY
            if self.deadline is not None and time.perf_counter() > self.deadline:
                raise OutOfTime
        key = (*hands, seat, *trick)
        entry = self.table.get(key)
        hint = -1
        if entry is not None:
            kind, stored, hint = entry
            if kind == _EXACT:
                return stored, hint
            if kind == _LOWER:
                if stored >= beta:
                    return stored, hint
                alpha = max(alpha, stored)
            elif stored <= alpha:
                return stored, hint
            else:
                beta = min(beta, stored)
        hand = hands[seat]
        cards = self.collapse(self.legal(hand, trick, win), seat, hands, trick)
        cards = self.order(cards, hands, trick, win, seat, hint)
        maximizing = self.side_of[seat] == 0
        best = -10_000 if maximizing else 10_000
        best_card = cards[0]
        a, b = alpha, beta
        players = self.players
        value_of = self.value_of
        for c in cards:
            index = hand.index(c)
            hands[seat] = hand[:index] + hand[index + 1 :]
            new_win = c if not trick else self.beats(c, win)
            if len(trick) + 1 < players:
                value, _ = self.search(hands, [*trick, (seat, c)], new_win, (seat + 1) % players, a, b)
            else:
                winner = seat
                for s, played in trick:
                    if played == new_win:
                        winner = s
                        break
                points = value_of[c] + sum(value_of[p] for _, p in trick)
                if not hands[seat]:
                    points += self.last_bonus
                    rest = 0
                else:
                    gain = self.signed(points, winner)
                    rest, _ = self.search(hands, [], -1, winner, a - gain, b - gain)
                value = self.signed(points, winner) + rest
            hands[seat] = hand
            if maximizing:
                if value > best:
                    best, best_card = value, c
                    a = max(a, value)
            elif value < best:
                best, best_card = value, c
                b = min(b, value)
            if a >= b:
                break
        if best <= alpha:
            kind = _UPPER
        elif best >= beta:
            kind = _LOWER
        else:
            kind = _EXACT
        self.table[key] = (kind, best, best_card)
        return best, best_card

    def signed(self, points: int, winner: int) -> int:
        return points if self.side_of[winner] == 0 else -points

    def order(  # noqa: PLR0917 - the search's state, as the search holds it
        self,
        cards: list[int],
        hands: list[tuple[int, ...]],
        trick: list[tuple[int, int]],
        win: int,
        seat: int,
        hint: int,
    ) -> list[int]:
        """Likely best first: the table's card, then cheap winners (following) or high cards (leading)."""
        if trick:
            value_of = self.value_of
            partner_wins = self.side_of[self.winner_of(trick, win)] == self.side_of[seat]

            def key(c: int) -> tuple[int, int]:
                takes = self.beats(c, win) == c and c != win
                if partner_wins:
                    return (0, -value_of[c]) if not takes else (1, value_of[c])
                return (0, c & 7) if takes else (1, value_of[c])

            cards = sorted(cards, key=key)
        elif len(cards) > 1:
            cards = self.order_leads(cards, hands, seat)
        if hint in cards and cards[0] != hint:
            cards.remove(hint)
            cards.insert(0, hint)
        return cards

    def order_leads(self, cards: list[int], hands: list[tuple[int, ...]], seat: int) -> list[int]:
        """Leads: sure winners (no higher card of the suit against, and no trump against when the
        suit is short) richest first, then the rest cheapest first."""
        side = self.side_of[seat]
        against = [c for s, hand in enumerate(hands) if self.side_of[s] != side for c in hand]
        top = [-1, -1, -1, -1]
        for c in against:
            top[c >> 3] = max(top[c >> 3], c)
        trump = self.trump
        value_of = self.value_of

        def key(c: int) -> tuple[int, int]:
            suit = c >> 3
            sure = c >= top[suit] and (suit == trump or top[suit] >= 0 or top[trump] < 0)
            return (0, -value_of[c]) if sure else (1, value_of[c] * 8 + (c & 7))

        return sorted(cards, key=key)

    @staticmethod
    def winner_of(trick: list[tuple[int, int]], win: int) -> int:
        for seat, c in trick:
            if c == win:
                return seat
        raise AssertionError("the best card is not in the trick")


def solver_for(
    game: Game,
    world: Game,
    seat: int,
    deadline: float | None = None,
    table: dict[tuple[object, ...], tuple[int, int, int]] | None = None,
) -> Solver:
    """A solver for ``seat``'s move in ``world`` (a world of ``game`` whose hands are all known)."""
    trump = world.trump_suit()
    assert trump is not None
    last_trick, crawl = trick_rules(game)
    return Solver(
        [world.hand(s) for s in range(world.players)],
        world.trick_plays(),
        seat,
        trump_index=SUIT_INDEX[trump],
        points=game.points,  # type: ignore[attr-defined]
        side_of=[world.side_of[s] for s in range(world.players)],
        last_trick=last_trick,
        crawl=crawl,
        deadline=deadline,
        table=table,
    )


def trick_rules(game: Game) -> tuple[int, bool]:
    """The solver's rules for ``game``: what the last trick adds to its taker's counters, and
    whether the crawl rules apply (double-deck: 2 a deal, 20 with its 100-aces scoring)."""
    if isinstance(game, DoubleDeck):
        return DOUBLE_DECK_LAST_TRICK * game.scale, True
    return LAST_TRICK, False


SOLVE_SHARE = 0.5
"""Share of the decision's budget an exact solve may take before the sampled search takes over."""


def known_world(game: Game, seat: int, rng: random.Random, tries: int = 2) -> Game | None:
    """A world of ``game`` when every hand in it is known to ``seat`` (two-hand's playoff), else None;
    checked, not assumed: worlds sampled with different draws must agree."""
    if game.name != "pinochle-2" or getattr(game, "phase", None) is not Phase.PLAYOFF:
        return None
    world = game.sample_world(seat, rng)
    hands = [sorted(world.hand(s), key=SORT_KEY.__getitem__) for s in range(world.players)]
    for _ in range(tries - 1):
        other = game.sample_world(seat, rng)
        if [sorted(other.hand(s), key=SORT_KEY.__getitem__) for s in range(other.players)] != hands:
            return None
    return world


SOLVE_CARDS = 21
"""Cards left in the hands at most for an exact solve: from the second trick's second card (all
twelve tricks take seconds: bench/records/experiments.md#solve-cards); before, the sampled search plays."""


@dataclass
class SolveCache:
    """A seat's transposition table kept between its decisions in one deal's playoff."""

    key: tuple[object, ...] = ()
    cards: int = 0
    table: dict[tuple[object, ...], tuple[int, int, int]] = field(default_factory=dict)

    def for_position(
        self, key: tuple[object, ...], cards: int
    ) -> dict[tuple[object, ...], tuple[int, int, int]]:
        """The table for a position with ``cards`` left (a fresh one for another deal, trump or count)."""
        if key != self.key or cards >= self.cards:
            self.table = {}
            self.key = key
        self.cards = cards
        return self.table


def solve_known(
    game: Game, seat: int, rng: random.Random, deadline: float, cache: SolveCache | None = None
) -> Solution | None:
    """The exact best card for ``seat`` when every hand is known (``known_world``) and at most
    ``SOLVE_CARDS`` are left, else None (also when the solve would end after ``deadline``). Counters
    are all a two-hand playoff has left to decide (meld was scored as laid), and the deal margin never
    falls as the side's raw counters rise: the best card for the raw counters is best for the score."""
    world = known_world(game, seat, rng)
    if world is None:
        return None
    cards = sum(len(world.hand(s)) for s in range(world.players))
    if cards > SOLVE_CARDS:
        return None
    table = None
    if cache is not None:
        table = cache.for_position((world.trump_suit(), id(game.points)), cards)  # type: ignore[attr-defined]
    try:
        return solver_for(game, world, seat, deadline, table).solve()
    except OutOfTime:
        return None
