"""What every pinochle variant shares: the pack, rank order, counters, rounding, the trick machinery
and follow rules, the match target (1000, then 1250, 1500, … when several sides pass it), declaring
out, and a cached ``legal_actions`` (computer players simulate many deals).

Spec: ``docs/rules/pinochle.md``.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, ClassVar

from bot.engine.actions import Action, Kind, play
from bot.engine.cards import Card, Rank, Suit, make_deck
from bot.engine.events import Event, MeldJSON, Phase, SeatMeldJSON
from bot.engine.game import Game, Outcome
from bot.engine.meld import MeldResult, MeldTable, canonical_cards
from bot.engine.options import OptionSpec

# Phase members bound once: reading a member off an Enum class costs ~0.15 µs on Python 3.11.
_PLAYING, _OVER = Phase.PLAY, Phase.OVER

RANKS_48: tuple[Rank, ...] = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE)
RANKS_64: tuple[Rank, ...] = (*RANKS_48, Rank.EIGHT, Rank.SEVEN)
RANK_STRENGTH: dict[Rank, int] = {rank: 8 - i for i, rank in enumerate(RANKS_64)}  # A 8 ... 7 1
STRENGTH: dict[Card, int] = {Card(suit, rank): RANK_STRENGTH[rank] for suit in Suit for rank in RANKS_64}
"""Rank order A 10 K Q J 9 (8 7) by card (higher wins)."""
SORT_KEY: dict[Card, int] = {card: card.suit.index * 16 - STRENGTH[card] for card in STRENGTH}
LAST_TRICK = 10

COUNTING: dict[str, dict[Rank, int]] = {
    "standard": {Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2},
    "tens-fives": {Rank.ACE: 10, Rank.TEN: 10, Rank.KING: 5, Rank.QUEEN: 5},
    "tens": {Rank.ACE: 10, Rank.TEN: 10, Rank.KING: 10},
}
POINTS: dict[str, dict[Card, int]] = {
    name: {card: values.get(card.rank, 0) for card in STRENGTH} for name, values in COUNTING.items()
}
"""Counter value per card for each counting option."""

_MELD = Kind.MELD
_PLAY_KIND = Kind.PLAY
SUIT_INDEX: dict[Suit, int] = {suit: i for i, suit in enumerate(Suit)}
SUIT_OF_CARD: dict[Card, int] = {card: SUIT_INDEX[card.suit] for card in STRENGTH}
"""``SUIT_INDEX`` of each card's suit (one lookup)."""
PLAY_OF: dict[Card, Action] = {card: play(card) for card in STRENGTH}
"""The interned ``play`` action of every pinochle card."""

MATCH_OPTION = OptionSpec(
    "match",
    1000,
    "Game target (raised by 250 whenever several sides pass it in one deal), or one deal only",
    (1000, "deal"),
)
COUNT_OPTION = OptionSpec(
    "count",
    "standard",
    "Counters: standard A11 10:10 K4 Q3 J2; tens-fives A,10=10 K,Q=5; tens A,10,K=10",
    ("standard", "tens-fives", "tens"),
)


@cache
def partners_of(sides: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    """Each seat's partner with these ``sides``: opposite, or with three to a side the next
    partner clockwise (the seat itself when it plays alone). Kept: every deal of a table asks."""
    side_of = {seat: side for side in sides for seat in side}
    return tuple(
        side[(side.index(seat) + len(side) // 2) % len(side)]
        for seat in sorted(side_of)
        for side in (side_of[seat],)
    )


def unique_plays(cards: list[Card]) -> list[Action]:
    """``play`` actions for ``cards`` (sorted, so identical copies are neighbours) without repeats."""
    out: list[Action] = []
    play_of = PLAY_OF
    prev: Card | None = None
    for card in cards:
        if card is not prev:
            out.append(play_of[card])
            prev = card
    return out


def plays_above(cards: list[Card], best: int) -> list[Action]:
    """``unique_plays`` of the leading ``cards`` (one suit, highest first) stronger than ``best``."""
    out: list[Action] = []
    play_of = PLAY_OF
    strength = STRENGTH
    prev: Card | None = None
    for card in cards:
        if strength[card] <= best:
            break
        if card is not prev:
            out.append(play_of[card])
            prev = card
    return out


def strict_follow(hand: list[Card], led: Suit, win: Card, trump: Suit | None) -> list[Card]:
    """``PinochleGame.strict_playable`` onto a trick led in ``led`` whose best card is ``win``."""
    follow = []
    trumps = []
    for card in hand:
        suit = card.suit
        if suit is led:
            follow.append(card)
        elif suit is trump:
            trumps.append(card)
    if follow:
        if led is trump:
            best = STRENGTH[win]
            higher = [card for card in follow if STRENGTH[card] > best]
            return higher or follow
        return follow
    return trumps or hand


def round_counters(points: int) -> int:
    """Counters rounded to tens: a units digit of 7 or more rounds up (87 → 90), else dropped."""
    units = points % 10
    return points - units + (10 if units >= 7 else 0)


def counted_counters(points: int, count: str = "standard") -> int:
    """What counters add to a score: rounded to tens (``round_counters``) under the standard count,
    whose card values make odd totals; the simplified counts (``tens-fives``, ``tens``) are always
    multiples of 5 and count as taken, so two sides of 125 score 125 each, not 120."""
    return round_counters(points) if count == "standard" else points


def codes(cards: list[Card] | tuple[Card, ...]) -> list[str]:
    return [card.code for card in cards]


def suit_word(suit: Suit) -> str:
    """``heart`` for hearts (for "you hold a heart")."""
    return suit.label[:-1].lower()


def meld_json(seat: int, result: MeldResult, extra: list[MeldJSON] | None = None) -> SeatMeldJSON:
    """``seat``'s meld as shown (with ``extra`` melds outside the counter, e.g. an exchanged dix)."""
    melds = [meld.to_json() for meld in result.melds]
    total = result.total
    for item in extra or []:
        melds.append(item)
        total += item["points"]
    return {"seat": seat, "melds": melds, "total": total}


class PinochleGame(Game):
    """The shared machinery of every pinochle variant (the trick, follow rules and match logic)."""

    family: ClassVar[str] = "pinochle"
    meld_table: ClassVar[MeldTable]
    ranks: ClassVar[tuple[Rank, ...]] = RANKS_48
    copies: ClassVar[int] = 2

    trump: Suit | None
    hands: list[list[Card]]
    phase: Phase
    turn: int

    @classmethod
    def meld_table_for(cls, options: Mapping[str, Any]) -> MeldTable:
        """The meld table this variant uses with ``options`` (resolved)."""
        return cls.meld_table

    @classmethod
    def pack_for(cls, options: Mapping[str, Any]) -> tuple[tuple[Rank, ...], int]:
        """The ranks in the pack and the copies of each card, with ``options`` (resolved)."""
        return cls.ranks, cls.copies

    # ----- set-up ---------------------------------------------------------------------------
    def start(self) -> None:
        self.partners: tuple[int, ...] = partners_of(self.sides)
        self.check_options()
        self.points: dict[Card, int] = self.counter_values()
        self.count_mode = str(self.options.get("count", "standard"))
        self.scores: list[int] = [0] * len(self.sides)
        self.deal_no = 0
        self.target: int | None = self.match_target()
        self.dealer = -1  # drawn from the first deal's random source (``new_deck``)
        self.last_deal: dict[str, Any] | None = None
        self.history: list[dict[str, Any]] = []
        self.acting: tuple[int, ...] = ()
        self.can_declare = self.declaring_out_allowed() and self.target is not None
        self.deal_cards()

    def check_options(self) -> None:
        """Refuse option combinations that make no sense (``BadOption``)."""

    def counter_values(self) -> dict[Card, int]:
        """What each card counts in tricks (the ``count`` option)."""
        return POINTS[self.options.get("count", "standard")]

    def match_target(self) -> int | None:
        """The game's first target (None: a single deal, ``match=deal``)."""
        return None if self.options.get("match") == "deal" else 1000

    def pack(self) -> list[Card]:
        ranks, copies = self.pack_for(self.options)
        return make_deck(ranks, copies)

    def new_deck(self) -> list[Card]:
        """The pack shuffled for this deal by ``deal_rng`` (which also picks the first dealer), or
        the pack stacked for it (``new_game(decks=...)``)."""
        rand = self.deal_rng(self.deal_no).random
        if self.dealer < 0:
            drawn = int(rand() * self.players)
            self.dealer = drawn if self.first_dealer is None else self.first_dealer
        stacked = self.stacked_pack(self.deal_no)
        if stacked is not None:
            return stacked
        deck = self.pack()
        order = range(len(deck))
        keys = [rand() for _ in order]
        return [deck[i] for i in sorted(order, key=keys.__getitem__)]

    @abstractmethod
    def deal_cards(self) -> list[Event]:
        """Shuffle and deal the next deal; return what happened at once (e.g. meld shown)."""

    def reset_trick_state(self, leader: int) -> None:
        self.trick: list[tuple[int, Card]] = []
        self.leader = leader
        self.turn = leader
        self.acting = (leader,)
        self.win_seat = -1
        self.win_card: Card | None = None
        self.last_trick: tuple[list[tuple[int, Card]], int] | None = None
        self.tricks: list[tuple[list[tuple[int, Card]], int]] = []
        self.taken: list[int] = [0] * len(self.sides)
        self.tricks_won: list[int] = [0] * len(self.sides)
        self.last_trick_side = -1

    # ----- whose turn --------------------------------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        return self.acting

    def set_turn(self, seat: int) -> None:
        """``seat`` alone is to act."""
        self.turn = seat
        self.acting = (seat,)

    def partner(self, seat: int) -> int:
        """``seat``'s partner: opposite, or with three to a side the next partner clockwise (the
        seat itself when it plays alone)."""
        return self.partners[seat]

    # ----- the auction (three-hand, partnership auction, double-deck) ----------------------------
    bids: list[tuple[int, int | None]]
    passed: list[bool]
    high_bid: int
    bidder: int | None

    def record_bid(self, seat: int, amount: int | None) -> list[Event]:
        """A call of the auction: ``seat`` bids ``amount`` or passes (None, the amount of ``pass``;
        a pass is final)."""
        self.bids.append((seat, amount))
        if amount is None:
            self.passed[seat] = True
        else:
            self.high_bid = amount
            self.bidder = seat
        return [{"type": "bid", "seat": seat, "amount": amount}]

    def dealer_stuck(self, seat: int) -> bool:
        """Whether ``seat`` is the dealer and everyone else passed: the dealer must bid."""
        return seat == self.dealer and self.bidder is None and sum(self.passed) == self.players - 1

    def _canonical(self, action: Action) -> Action:
        """Meld cards may be named in any order (``meld JD QS`` is ``meld QS JD``)."""
        if action.kind is _MELD and len(action.cards) > 1:
            return Action(Kind.MELD, cards=canonical_cards(action.cards))
        return action

    # ----- tricks ---------------------------------------------------------------------------
    def strict_playable(self, hand: list[Card]) -> list[Card]:
        """The follow rules of the playoff and the 3+ player games: follow suit; on a trump lead
        beat the best trump if able; void in the led suit, trump if able (no duty to over-trump a
        plain trick already trumped); otherwise anything."""
        trick = self.trick
        if not trick:
            return hand
        assert self.win_card is not None
        return strict_follow(hand, trick[0][1].suit, self.win_card, self.trump)

    def follow_rules(self, hand: list[Card], led: Suit, win: Card) -> list[Card]:
        """The cards of ``hand`` this deal's follow rules allow onto a trick led in ``led`` whose
        best card so far is ``win``: for search reading a play made earlier with the hand a seat
        held then (the strict rules; double-deck's crawl rules are its own)."""
        return strict_follow(hand, led, win, self.trump)

    def start_strict_play(self) -> None:
        """Index every hand by suit for the strict follow rules (kept in step by ``play_card``).

        ``by_suit[seat * 4 + suit index]`` is that seat's cards of that suit, highest first (a flat
        list of lists, so ``Game.copy`` copies it fully)."""
        sort_key = SORT_KEY.__getitem__
        for hand in self.hands:
            hand.sort(key=sort_key)
        self.index_suits()

    def index_suits(self) -> None:
        """``start_strict_play``'s suit index of hands already sorted."""
        by_suit: list[list[Card]] = []
        suit_at = SUIT_OF_CARD
        for hand in self.hands:
            suits: list[list[Card]] = [[], [], [], []]
            for card in hand:
                suits[suit_at[card]].append(card)
            by_suit.extend(suits)
        self.by_suit = by_suit

    def strict_play_actions(self, seat: int) -> list[Action]:
        """``strict_playable`` as ``play`` actions without repeats, from the suit index (fast path).

        Hands are sorted by suit, highest first, so each suit list is in falling order and
        identical cards are neighbours."""
        trick = self.trick
        if not trick:
            return unique_plays(self.hands[seat])
        led = trick[0][1].suit
        base = seat * 4
        cards = self.by_suit[base + SUIT_INDEX[led]]
        if cards:
            if led is self.trump:
                out = plays_above(cards, STRENGTH[self.win_card])  # type: ignore[index]
                if out:
                    return out
        else:
            cards = self.by_suit[base + SUIT_INDEX[self.trump]] or self.hands[seat]  # type: ignore[index]
        return unique_plays(cards)

    def play_actions(self, cards: list[Card]) -> list[Action]:
        """``play`` actions for ``cards`` without repeats (identical copies play the same)."""
        seen: set[Card] = set()
        out: list[Action] = []
        for card in cards:
            if card not in seen:
                seen.add(card)
                out.append(PLAY_OF[card])
        return out

    def explain_play(self, seat: int, card: Card, hand: list[Card]) -> str:
        """Why ``card`` may not be played under the strict follow rules."""
        if card not in hand:
            return f"You do not hold {card.pretty}."
        led = self.trick[0][1].suit
        trump = self.trump
        assert trump is not None
        if card.suit is not led and any(c.suit is led for c in hand):
            return f"You must follow suit: you hold a {suit_word(led)}."
        if led is trump and card.suit is trump:
            assert self.win_card is not None
            return f"Trump was led: you must beat {self.win_card.pretty} when you can, and you can."
        if card.suit is not trump and any(c.suit is trump for c in hand):
            return f"You have no {suit_word(led)}: you must play a trump ({trump.symbol})."
        return f"You may not play {card.pretty} now."

    def play_card(self, seat: int, card: Card) -> list[Event]:
        """Play ``card`` (known to be legal) from ``seat``'s hand to the trick (strict phases)."""
        self.hands[seat].remove(card)
        self.by_suit[seat * 4 + SUIT_INDEX[card.suit]].remove(card)
        # ``add_to_trick`` inlined: one call less on the hottest path of a deal.
        value = self.put_on_trick(seat, card)
        if value < 0:
            return [{"type": "play", "seat": seat, "card": card.code}]
        return self.trick_taken(seat, card, value)

    def quiet_play(self, seat: int, card: Card) -> None:
        """``play_card`` without building events (``rollout``'s card play)."""
        self.hands[seat].remove(card)
        self.by_suit[seat * 4 + SUIT_INDEX[card.suit]].remove(card)
        value = self.put_on_trick(seat, card)
        if value >= 0:
            self.after_trick(self.leader, value)

    def rollout_play(self) -> Callable[[int, Card], object]:
        # Variants with a play of their own (two-hand's stock, double-deck) keep it.
        return self.quiet_play if type(self).play_card is PinochleGame.play_card else self.play_card

    def rollout_extra(self) -> tuple[Action, ...] | None:
        """The actions ``_legal_actions`` lists after the card plays of the seat to act in the play
        phase now (declaring out, …); None where ``rollout_tricks`` must not play (by default)."""
        return None

    def rollout_tricks(  # noqa: C901  (one loop on purpose: every call saved counts in search)
        self, policy: Callable[[Game, int, list[Action]], Action]
    ) -> bool:
        """``Game.rollout_tricks`` for the strict follow rules: ``strict_play_actions`` (with
        ``rollout_extra``), ``quiet_play`` and ``put_on_trick`` fused into one loop, each step
        leaving the state ``rollout``'s own loop would (search spends most of its time here)."""
        if self.phase is not _PLAYING or type(self).play_card is not PinochleGame.play_card:
            return False
        extra = self.rollout_extra()
        if extra is None:
            return False
        trump = self.trump
        assert trump is not None
        hands = self.hands
        by_suit = self.by_suit
        strength = STRENGTH
        play_of = PLAY_OF
        suit_index = SUIT_INDEX
        suit_of_card = SUIT_OF_CARD
        players = self.players
        alone = [(seat,) for seat in range(players)]  # ``acting`` of each seat
        trumps_at = suit_index[trump]
        deal = self.deal_no
        while True:
            seat = self.turn
            hand = hands[seat]
            trick = self.trick
            cards = hand
            legal: list[Action] | None = None
            if trick:
                lead = trick[0][1]
                led = lead.suit
                cards = by_suit[seat * 4 + suit_of_card[lead]]
                if not cards:
                    cards = by_suit[seat * 4 + trumps_at] or hand
                elif led is trump:
                    legal = plays_above(cards, strength[self.win_card])  # type: ignore[index]
            if not legal:
                legal = []
                prev = None
                for card in cards:
                    if card is not prev:
                        legal.append(play_of[card])
                        prev = card
            if extra:
                legal.extend(extra)
            action = policy(self, seat, legal)
            self._legal = None
            if action.kind is not _PLAY_KIND:
                self._perform(seat, action)
                return True
            card = action.cards[0]
            hand.remove(card)
            suit = card.suit
            by_suit[seat * 4 + suit_of_card[card]].remove(card)
            # ``put_on_trick``, inlined.
            trick.append((seat, card))
            win = self.win_card
            if win is None:
                self.win_seat = seat
                self.win_card = card
            elif suit is win.suit:
                if strength[card] > strength[win]:
                    self.win_seat = seat
                    self.win_card = card
            elif suit is trump:
                self.win_seat = seat
                self.win_card = card
            if len(trick) < players:
                seat += 1
                if seat == players:
                    seat = 0
                self.turn = seat
                self.acting = alone[seat]
                continue
            winner = self.win_seat
            self.after_trick(winner, self.close_trick(trick, winner))
            if self.outcome is not None or self.deal_no != deal or self.phase is not _PLAYING:
                return True

    def add_to_trick(self, seat: int, card: Card) -> list[Event]:
        """Put ``card`` on the trick; when the trick is complete, give it to its winner."""
        value = self.put_on_trick(seat, card)
        if value < 0:
            return [{"type": "play", "seat": seat, "card": card.code}]
        return self.trick_taken(seat, card, value)

    def trick_taken(self, seat: int, card: Card, value: int) -> list[Event]:
        """The events of ``seat``'s ``card`` completing the trick just taken (``last_trick``, worth
        ``value``), and whatever ``after_trick`` adds."""
        assert self.last_trick is not None  # set by ``put_on_trick``
        trick, winner = self.last_trick
        events: list[Event] = [
            {"type": "play", "seat": seat, "card": card.code},
            {"type": "trick", "winner": winner, "cards": [c.code for _, c in trick], "points": value},
        ]
        more = self.after_trick(winner, value)
        return events + more if more else events

    def put_on_trick(self, seat: int, card: Card) -> int:
        """``add_to_trick``'s state change: -1 while the trick goes on; when ``card`` completes
        it, the trick is given to its winner (who is to lead next) and its value returned."""
        trick = self.trick
        trick.append((seat, card))
        win = self.win_card
        if win is None:
            self.win_seat = seat
            self.win_card = card
        else:
            suit = card.suit
            if suit is win.suit:
                if STRENGTH[card] > STRENGTH[win]:
                    self.win_seat = seat
                    self.win_card = card
            elif suit is self.trump:
                self.win_seat = seat
                self.win_card = card
        players = self.players
        if len(trick) < players:
            seat += 1
            if seat == players:
                seat = 0
            self.turn = seat
            self.acting = (seat,)
            return -1
        return self.close_trick(trick, self.win_seat)

    def close_trick(self, trick: list[tuple[int, Card]], winner: int) -> int:
        """Give the complete ``trick`` to ``winner`` (who is to lead next); return its value."""
        side = self.side_of[winner]
        points = self.points
        value = 0
        for _, played in trick:
            value += points[played]
        self.taken[side] += value
        self.tricks_won[side] += 1
        self.last_trick = (trick, winner)
        self.tricks.append((trick, winner))
        self.trick = []
        self.win_card = None
        self.leader = self.turn = winner
        self.acting = (winner,)
        return value

    @abstractmethod
    def after_trick(self, winner: int, value: int) -> list[Event]:
        """After a trick is taken (``winner``, worth ``value``): the deal's end when hands are
        empty, two-hand's meld turn, … (the events it adds)."""

    # ----- search (read-only accessors for sampled worlds: see ``Game.hand``) ------------------
    def winning_play(self) -> tuple[int, Card] | None:
        card = self.win_card
        return None if card is None or not self.trick else (self.win_seat, card)

    def declarer(self) -> int | None:
        return getattr(self, "bidder", None)

    def deal_points(self) -> list[int]:
        return self.taken[:]

    # ----- the match ------------------------------------------------------------------------
    def finish(self, outcome: Outcome) -> list[Event]:
        self.outcome = outcome
        self.phase = _OVER
        self.acting = ()
        if self.rolling_out:
            return []  # nothing reads a rollout's events
        return [{"type": "game_over", **outcome.to_json()}]

    def win(self, sides: list[int] | tuple[int, ...], reason: str) -> Outcome:
        winners: list[int] = []
        for side in sides:
            winners += self.sides[side]
        winners.sort()
        return Outcome(tuple(sides), tuple(winners), tuple(self.scores), reason)

    def check_target(self) -> Outcome | None:
        """After a deal: one side at the target wins; several raise it by 250 (and play goes on)."""
        if self.target is None:
            best = max(self.scores)
            tops = [side for side, score in enumerate(self.scores) if score == best]
            return self.win(tops, "highest score after the single deal")
        target = self.target
        reached = [side for side, score in enumerate(self.scores) if score >= target]
        if len(reached) == 1:
            return self.win(reached, f"{self.side_name(reached[0])} reached {target}")
        if len(reached) > 1:
            while sum(1 for score in self.scores if score >= self.target) > 1:
                self.target += 250
        return None

    def may_declare_out(self) -> bool:
        return self.can_declare and self.phase in self.play_phases()

    def declaring_out_allowed(self) -> bool:
        """Whether the variant (with its options) allows declaring out at all."""
        return True

    def play_phases(self) -> tuple[Phase, ...]:
        """The phases in which cards are played (and a side may declare out)."""
        return (_PLAYING,)

    def declared_total(self, side: int) -> int:
        """What ``side`` would have on declaring out now (score + counters so far, rounded)."""
        return self.scores[side] + self.counted(self.taken[side])

    def counted(self, points: int) -> int:
        """``points`` of counters as they add to a score (``counted_counters`` with this game's count)."""
        return counted_counters(points, self.count_mode)

    def declare_out(self, seat: int) -> list[Event]:
        """Play stops; the declarer's side wins if its total reaches the target, else it loses."""
        side = self.side_of[seat]
        total = self.declared_total(side)
        target = self.target
        assert target is not None
        events: list[Event] = [{"type": "declare_out", "seat": seat, "total": total, "target": target}]
        self.scores[side] = total
        if total >= target:
            return events + self.finish(
                self.win([side], f"{self.side_name(side)} declared out with {total} (target {target})")
            )
        others = [s for s in range(len(self.sides)) if s != side]
        best = max(self.scores[s] for s in others)
        winners = [s for s in others if self.scores[s] == best]
        return events + self.finish(
            self.win(winners, f"{self.side_name(side)} declared out with only {total} of {target}, and loses")
        )

    # ----- views ----------------------------------------------------------------------------
    def trick_view(self) -> dict[str, Any]:
        def plays(trick: list[tuple[int, Card]]) -> list[dict[str, Any]]:
            return [{"seat": seat, "card": card.code} for seat, card in trick]

        return {
            "trick": plays(self.trick),
            "leader": self.leader if self.phase in self.play_phases() else None,
            "last_trick": (
                {"plays": plays(self.last_trick[0]), "winner": self.last_trick[1]}
                if self.last_trick
                else None
            ),
            "tricks": [{"plays": plays(t), "winner": w} for t, w in self.tricks],
            "tricks_won": self.tricks_won[:],
            "counters": self.taken[:],
        }

    def base_view(self) -> dict[str, Any]:
        return {
            **self.header_view(),
            "options": dict(self.options),
            "phase": self.phase,
            "deal": self.deal_no,
            "dealer": self.dealer,
            "to_act": list(self.to_act),
            "trump": self.trump.value if self.trump else None,
            "scores": self.scores[:],
            "target": self.target,
            "match": "deal" if self.target is None else "game",
            "declare_out": self.may_declare_out() and self.outcome is None,
            "last_deal": self.last_deal,
            "history": [dict(item) for item in self.history],
            "outcome": self.outcome.to_json() if self.outcome else None,
        }
