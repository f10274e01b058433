"""What every pitch variant shares: the first dealer, dealing, the shape of the auction, trick play
with effective suits, the points of a deal and the ways a game can end. Spec:
``docs/rules/pitch.md``; the added house rules: ``docs/rules/pitch-variants.md``."""

from __future__ import annotations

import random
from abc import abstractmethod
from typing import Any, ClassVar

from bot.engine.actions import PASS, Action, Kind, bid, play
from bot.engine.cards import Card, Rank, Suit, make_deck
from bot.engine.events import Event, Phase
from bot.engine.game import Game, Outcome
from bot.engine.options import OptionSpec
from bot.engine.pitch.trumps import STRENGTH, TrumpRules, Trumps
from bot.engine.pitch.trumps import trick_winner as extra_trick_winner
from bot.engine.pitch.worlds import PitchPlan, redeal_pitch
from bot.engine.tricks import has_suit, sort_hand, trick_winner

# Phase members bound once: reading a member off an Enum class costs ~0.15 µs on Python 3.11.
_BIDDING, _PLAYING, _OVER = Phase.BIDDING, Phase.PLAY, Phase.OVER

GAME_VALUE: dict[Rank, int] = {Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.JACK: 1, Rank.TEN: 10}
AWARD_ORDER = ("high", "low", "jack", "off-jack", "joker", "high-joker", "low-joker", "three", "game")
"""Every point a deal can have, in the count-out order (each variant has a subset)."""
POINT_VALUE = {"three": 3}
"""Points worth more than 1."""
HAND_SIZE = 6
_RANKS = tuple(Rank)  # iterating an Enum class is slow: bound once for every deal's pack
Award = tuple[str, int, Card | None]
"""A point of a finished deal: its name, the side it went to and the card that made it."""

OLD_HIGH_LOW = OptionSpec(
    "old-high-low", False, "High and Low go to the player dealt them, not the one who takes them"
)
FLOOR = OptionSpec(
    "floor", 50, "Safety valve: a side whose score falls to minus this loses at once", (50, 100, 200, "off")
)
DEAL_LIMIT = OptionSpec(
    "deal-limit", 200, "Safety valve: after this many deals the side ahead wins", (200, 100, 500, "off")
)


def game_points(cards: list[Card]) -> int:
    """Value of captured cards for the Game point: A 4, K 3, Q 2, J 1, 10 = 10 (jokers 0)."""
    return sum(GAME_VALUE.get(card.rank, 0) for card in cards if not card.is_joker)


class PitchBase(Game):
    """What auction pitch, partnership pitch and ten-point pitch share."""

    family: ClassVar[str] = "pitch"
    min_bid: int
    max_bid: int
    first_lead_trump: ClassVar[bool] = False
    """Whether the deal's first lead must be a trump while the pitcher holds one."""
    quiet_options: ClassVar[dict[str, Any]] = {}
    """Options added after the variant's first games, left out of ``options`` (and so of stored
    records and golden files) while they have this value."""

    # ----- setup --------------------------------------------------------------------------
    def option(self, name: str) -> Any:
        """The value of option ``name`` (a quiet option left out of ``options`` has its default)."""
        if name in self.options:
            return self.options[name]
        return next(spec.default for spec in self.option_specs if spec.name == name)

    def pack(self) -> list[Card]:
        # ``start`` keeps the rules (a pack asked for before it, e.g. to check stacked decks, works
        # them out).
        rules = self.__dict__.get("trump_rules") or self.trump_rules_for(self.options)
        return make_deck(_RANKS) + list(rules.joker_cards)

    @classmethod
    def trump_rules_for(cls, options: dict[str, Any]) -> TrumpRules:
        """The extra trumps ``options`` ask for (none in plain pitch)."""
        return TrumpRules()

    def check_options(self) -> None:
        """Refuse option combinations that make no sense (``BadOption``)."""

    def start(self) -> None:
        self.check_options()
        for name, value in self.quiet_options.items():
            if self.options.get(name) == value:
                del self.options[name]
        self.trump_rules = self.trump_rules_for(self.options)
        self.extra = self.trump_rules.extra
        self.scores = [0] * len(self.sides)
        self.deal_no = 0
        if self.first_dealer is None:
            self.first_draw = self.draw_for_dealer()
            self.dealer = self.first_draw[-1]["winner"]
        else:  # a chosen position: no draw
            self.first_draw = []
            self.dealer = self.first_dealer
        self.last_deal: dict[str, Any] | None = None
        self.deal_cards()

    def draw_for_dealer(self) -> list[dict[str, Any]]:
        """Everyone draws a card; the highest deals (tied high cards draw again)."""
        rng = random.Random(f"{self.name}/{self.seed}/first-dealer")
        deck = make_deck(_RANKS)
        rng.shuffle(deck)
        rounds: list[dict[str, Any]] = []
        drawing = list(range(self.players))
        while True:
            draws = {seat: deck.pop() for seat in drawing}
            top = max(STRENGTH[card.rank] for card in draws.values())
            best = [seat for seat, card in draws.items() if STRENGTH[card.rank] == top]
            rounds.append(
                {
                    "draws": {str(seat): card.code for seat, card in draws.items()},
                    "winner": best[0] if len(best) == 1 else None,
                }
            )
            if len(best) == 1:
                return rounds
            drawing = best

    def packets(self) -> tuple[int, ...]:
        """The packets dealt to each player in turn (3 + 3: six cards each)."""
        return (3, 3)

    def deal_cards(self) -> None:
        """Shuffle and deal in packets (``packets``), starting left of the dealer."""
        self.deal_no += 1
        self.trump: Suit | None = None
        self.trumps: Trumps | None = None
        deck = self.stacked_pack(self.deal_no)
        if deck is None:
            deck = self.pack()
            self.deal_rng(self.deal_no).shuffle(deck)
        self.hands: list[list[Card]] = [[] for _ in range(self.players)]
        order = [(self.dealer + 1 + i) % self.players for i in range(self.players)]
        for size in self.packets():
            for seat in order:
                self.hands[seat].extend(deck.pop() for _ in range(size))
        self.undealt = deck
        self.hands = [self.sort_cards(hand) for hand in self.hands]
        self.dealt: list[list[Card]] = [hand[:] for hand in self.hands]
        self.phase = _BIDDING
        self.turn = order[0]
        self.bids: list[tuple[int, int | None]] = []
        self.high_bid = 0
        self.pitcher: int | None = None
        self.leader = -1
        self.trick: list[tuple[int, Card]] = []
        self.last_trick: tuple[list[tuple[int, Card]], int] | None = None
        self.tricks: list[tuple[list[tuple[int, Card]], int]] = []
        self.taken: list[list[Card]] = [[] for _ in self.sides]
        self.tricks_won = [0] * len(self.sides)

    def sort_cards(self, hand: list[Card]) -> list[Card]:
        """A hand in display order: by suit, high first; once trump is known and it has extra
        trumps, every trump first in trump order; jokers last until then."""
        if not self.extra:
            return sort_hand(hand, STRENGTH)
        trumps = self.trumps
        if trumps is not None:
            power = trumps.power
            return sorted(
                hand, key=lambda c: (-1, -power[c]) if c in power else (c.suit.index, -STRENGTH[c.rank])
            )
        return sorted(hand, key=lambda c: (4, c.id) if c.is_joker else (c.suit.index, -STRENGTH[c.rank]))

    def set_trump(self, suit: Suit) -> None:
        self.trump = suit
        self.trumps = self.trump_rules.order(suit)
        if self.extra:
            self.hands = [self.sort_cards(hand) for hand in self.hands]

    # ----- queries ------------------------------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        return () if self.outcome is not None else (self.turn,)

    def bid_floor(self, seat: int) -> int:
        """The lowest bid ``seat`` may make now."""
        if self.high_bid == 0:
            return self.min_bid
        if seat == self.dealer and self.dealer_may_steal():
            return self.high_bid
        return self.high_bid + 1

    def dealer_may_steal(self) -> bool:
        return True

    def bid_names(self) -> dict[str, str]:
        """Bids that have a name of their own (shown instead of the number)."""
        return {}

    def dealer_must_bid(self) -> bool:
        return False

    def _legal_actions(self, seat: int) -> list[Action]:
        if seat != self.turn:
            return []
        if self.phase is _BIDDING:
            actions = [bid(n) for n in range(self.bid_floor(seat), self.max_bid + 1)]
            if not (seat == self.dealer and self.high_bid == 0 and self.dealer_must_bid()):
                actions.insert(0, PASS)
            return actions
        return [play(card) for card in self.playable(seat)]

    def playable(self, seat: int) -> list[Card]:
        """The cards ``seat`` may play to the current trick (the follow rules of §4)."""
        return self.playable_from(self.hands[seat], self.trick)

    def playable_from(self, hand: list[Card], trick: list[tuple[int, Card]]) -> list[Card]:
        """The cards of ``hand`` that may be played to ``trick`` (a lead when it is empty) in this
        deal as it stands: ``playable``'s rules, for search reading a play made earlier with the
        hand a seat held then."""
        if not trick:
            return self.leads(hand)
        if self.extra:
            return self.extra_follows(hand, trick)
        led = trick[0][1].suit
        trump = self.trump
        if led is trump:
            trumps = [card for card in hand if card.suit is trump]
            return trumps or hand[:]
        if has_suit(hand, led):
            return [card for card in hand if card.suit is led or card.suit is trump]
        return hand[:]

    def leads(self, hand: list[Card]) -> list[Card]:
        """The cards of ``hand`` that may be led (any card)."""
        return list(dict.fromkeys(hand))

    def extra_follows(self, hand: list[Card], trick: list[tuple[int, Card]]) -> list[Card]:
        """The follow rules by effective suit (off-jack and jokers are trumps)."""
        trumps = self.trumps
        assert trumps is not None
        power = trumps.power
        led = trumps.suit_of(trick[0][1])
        held_trumps = [card for card in hand if card in power]
        if led is trumps.suit:
            return held_trumps or hand[:]
        followers = [card for card in hand if card not in power and card.suit is led]
        if followers:
            return [card for card in hand if card in power or card.suit is led]
        return hand[:]

    def explain_illegal(self, seat: int, action: Action) -> str:
        if seat != self.turn:
            return f"It is not your turn: waiting for seat {self.turn + 1}."
        if self.phase is _BIDDING:
            if action.kind is Kind.PLAY:
                return "Bidding is under way: bid or pass before any card is played."
            if action.kind is Kind.PASS:
                return "The dealer must bid when everyone else has passed."
            if action.kind is Kind.BID and action.amount is not None:
                floor = self.bid_floor(seat)
                if action.amount > self.max_bid or action.amount < self.min_bid:
                    return f"Bids go from {self.min_bid} to {self.max_bid}."
                if action.amount < floor:
                    if floor == self.high_bid:  # the dealer, who may equal the highest bid
                        return f"Your bid must be at least {floor} (the dealer may equal it)."
                    extra = " (only the dealer may equal it)" if self.dealer_may_steal() else ""
                    return f"Your bid must be higher than {self.high_bid}{extra}."
            return f"You can bid ({self.bid_floor(seat)}-{self.max_bid}) or pass now."
        if action.kind is not Kind.PLAY:
            return "The cards are being played: play a card."
        card = action.card
        if card not in self.hands[seat]:
            return f"You do not hold {card.pretty}."
        if not self.trick:
            return self.explain_lead(seat, card)
        first = self.trick[0][1]
        led = self.trumps.suit_of(first) if self.trumps is not None else first.suit
        if led is self.trump:
            return f"Trump was led: you must play trump (you hold a {led.label[:-1].lower()})."
        return (
            f"You must follow suit or trump: you hold a {led.label[:-1].lower()}"
            f" and may not play a third suit."
        )

    def explain_lead(self, seat: int, card: Card) -> str:
        """Why ``card`` may not be led (only variants that restrict leads need this)."""
        return f"You may not lead {card.pretty} now."

    # ----- actions --------------------------------------------------------------------------
    def _perform(self, seat: int, action: Action) -> list[Event]:
        return self.take_bid(seat, action)  # the only action besides playing a card

    def take_bid(self, seat: int, action: Action) -> list[Event]:
        amount = action.amount if action.kind is Kind.BID else None
        self.bids.append((seat, amount))
        events: list[Event] = [{"type": "bid", "seat": seat, "amount": amount}]
        if amount is not None:
            self.high_bid = amount
            self.pitcher = seat
        if seat != self.dealer:
            self.turn = (seat + 1) % self.players
            return events
        if self.pitcher is None:
            events.append({"type": "redeal", "dealer": self.dealer, "reason": "everyone passed"})
            if self.deal_again():
                self.deal_cards()
            return events
        events.append({"type": "pitcher", "seat": self.pitcher, "bid": self.high_bid})
        events.extend(self.auction_over())
        return events

    def auction_over(self) -> list[Event]:
        """After the auction: the pitcher leads (variants with a widow hand it over first)."""
        assert self.pitcher is not None
        self.phase = _PLAYING
        self.turn = self.leader = self.pitcher
        return []

    def play_card(self, seat: int, card: Card) -> list[Event]:
        self.hands[seat].remove(card)
        play_event: Event = {"type": "play", "seat": seat, "card": card.code}
        if self.trump is None:
            events = self.pitched(card)
            self.trick.append((seat, card))
            events.append(play_event)
            if self.phase is not _PLAYING:  # the pitcher names trump before the others play
                return events
        else:
            trick = self.trick
            trick.append((seat, card))
            if len(trick) < self.players:  # the commonest play: the trick goes on (``next_player``)
                self.turn = (seat + 1) % self.players
                return [play_event]
            events = [play_event]
        events.extend(self.next_player(seat))
        return events

    def pitched(self, card: Card) -> list[Event]:
        """The first card of the deal sets trump: its suit (variants with jokers decide more)."""
        self.set_trump(card.suit)
        return [{"type": "trump", "suit": card.suit.value}]

    def next_player(self, seat: int) -> list[Event]:
        """After ``seat`` played: the next player, or the trick's winner (and the deal's end)."""
        if len(self.trick) < self.players:
            self.turn = (seat + 1) % self.players
            return []
        plays = self.trick
        if self.extra:
            assert self.trumps is not None
            winner = plays[extra_trick_winner(plays, self.trumps)][0]
        else:
            winner = plays[trick_winner(plays, self.trump, STRENGTH)][0]
        side = self.side_of[winner]
        self.taken[side].extend(card for _, card in plays)
        self.tricks_won[side] += 1
        self.last_trick = (plays, winner)
        self.tricks.append((plays, winner))
        self.trick = []
        self.turn = self.leader = winner
        events: list[Event] = [{"type": "trick", "winner": winner, "cards": [c.code for _, c in plays]}]
        if not self.hands[winner]:
            events.extend(self.score_deal())
        return events

    # ----- scoring ---------------------------------------------------------------------------
    def played_by(self) -> dict[Card, int]:
        """Who put each card of the deal into play (without a widow: the seat dealt it)."""
        return {card: seat for seat, hand in enumerate(self.dealt) for card in hand}

    def three_counts(self) -> bool:
        """Whether the 3 of trump is a point of its own (ten-point pitch)."""
        return False

    def awards(self) -> list[Award]:
        """The points of the finished deal in the count-out order (High, Low, Jack, the extra
        points, Game): (name, side, card)."""
        assert self.trumps is not None
        trumps = self.trumps
        played_by = self.played_by()
        taken_by = {card: side for side, cards in enumerate(self.taken) for card in cards}
        old_high_low = self.option("old-high-low")
        out: list[Award] = []
        if self.extra:
            in_play = [card for card in trumps.order if card in played_by]
            high: Card | None = in_play[0]
            low = next((card for card in reversed(in_play) if not card.is_joker), None)
        else:
            natural = [card for card in played_by if card.suit is trumps.suit]
            high = max(natural, key=lambda card: STRENGTH[card.rank])
            low = min(natural, key=lambda card: STRENGTH[card.rank])
        for name, card in (("high", high), ("low", low)):
            if card is None:
                continue
            if old_high_low:
                out.append((name, self.side_of[played_by[card]], card))
            else:
                out.append((name, taken_by[card], card))
        point_cards = [("jack", Card(trumps.suit, Rank.JACK))]
        if trumps.off_jack is not None:
            point_cards.append(("off-jack", trumps.off_jack))
        for joker in trumps.jokers:
            point_cards.append(({"JK": "joker", "HJ": "high-joker", "LJ": "low-joker"}[joker.code], joker))
        if self.three_counts():
            point_cards.append(("three", Card(trumps.suit, Rank.THREE)))
        for name, card in point_cards:
            if card in played_by:
                out.append((name, taken_by[card], card))
        values = [game_points(cards) for cards in self.taken]
        best = max(values)
        if values.count(best) == 1:
            out.append(("game", values.index(best), None))
        return out

    def score_deal(self) -> list[Event]:
        awards = self.awards()
        points = [0] * len(self.sides)
        for name, side, _ in awards:
            points[side] += POINT_VALUE.get(name, 1)
        assert self.pitcher is not None
        pitching = self.side_of[self.pitcher]
        before = self.scores[:]
        changes, made, wins_now = self.deal_changes(points, pitching, before)
        for side, change in enumerate(changes):
            self.scores[side] += change
        summary: dict[str, Any] = {
            "deal": self.deal_no,
            "dealer": self.dealer,
            "pitcher": self.pitcher,
            "bid": self.high_bid,
            "trump": self.trump.value if self.trump else None,
            "awards": [
                {"point": name, "side": side, "card": card.code if card else None}
                for name, side, card in awards
            ],
            "game_values": [game_points(cards) for cards in self.taken],
            "points": points,
            "made": made,
            "changes": changes,
            "scores": self.scores[:],
        }
        events: list[Event] = [{"type": "deal_scored", **summary}]
        # The view keeps the summary without card names: the next deal is dealt at once, and a
        # public line naming last deal's cards would read like a card now in someone's hand.
        self.last_deal = {
            **summary,
            "awards": [{"point": name, "side": side} for name, side, _ in awards],
        }
        outcome = self.end_of_deal(awards, points, pitching, made=made, wins_now=wins_now, before=before)
        if outcome is not None:
            self.outcome = outcome
            self.phase = _OVER
            events.append({"type": "game_over", **outcome.to_json()})
            return events
        self.dealer = (self.dealer + 1) % self.players
        if self.deal_again():
            self.deal_cards()
        events.append({"type": "deal", "deal": self.deal_no, "dealer": self.dealer})
        return events

    def end_of_deal(
        self,
        awards: list[Award],
        points: list[int],
        pitching: int,
        *,
        made: bool,
        wins_now: bool,
        before: list[int],
    ) -> Outcome | None:
        """After a deal is scored: the outcome if the game is over (None: deal on)."""
        if wins_now:
            return self.win(pitching, f"{self.side_name(pitching)} made a smudge")
        return self.check_end(awards, pitching, made, before)

    @abstractmethod
    def deal_changes(
        self, points: list[int], pitching: int, before: list[int]
    ) -> tuple[list[int], bool, bool]:
        """Score changes per side, whether the bid was made, and whether that wins at once."""

    @abstractmethod
    def check_end(
        self,
        awards: list[Award],
        pitching: int,
        made: bool,
        before: list[int],
    ) -> Outcome | None:
        """After a deal: the outcome if the game is over (None: deal on)."""

    def first_to_target(self, awards: list[Award], pitching: int, before: list[int]) -> Outcome | None:
        """Auction pitch's end: whoever reached the target wins; of several, the pitching side,
        else the first to reach it counting the deal's points in order from the scores before."""
        target = self.option("target")
        reached = [side for side, score in enumerate(self.scores) if score >= target]
        if not reached:
            return None
        if len(reached) == 1:
            return self.win(reached[0], f"{self.side_name(reached[0])} reached {target}")
        if pitching in reached:
            return self.win(pitching, f"the pitcher, {self.side_name(pitching)}, reached {target}")
        running = before[:]
        for name, side, _ in awards:
            if side in reached:
                running[side] += POINT_VALUE.get(name, 1)
                if running[side] >= target:
                    return self.win(side, f"{self.side_name(side)} reached {target} first ({name})")
        raise AssertionError("a side reached the target without a point that took it there")

    def bid_out(self, pitching: int, made: bool) -> Outcome | None:
        """Partnership pitch's end: only the pitching side, making its bid, wins at the target;
        the safety valve (``floor``, ``deal-limit``) ends a game that would not end."""
        target = self.option("target")
        if made and self.scores[pitching] >= target:
            return self.win(pitching, f"{self.side_name(pitching)} made the bid and reached {target}")
        return self.safety_valve()

    def safety_valve(self) -> Outcome | None:
        """A side at minus ``floor`` or below loses (the best of the others wins); after
        ``deal-limit`` deals the side ahead wins (level sides play one more deal)."""
        floor = self.option("floor")
        if floor != "off":
            sunk = [side for side, score in enumerate(self.scores) if score <= -floor]
            if sunk:
                alive = [side for side in range(len(self.sides)) if side not in sunk]
                pool = alive or list(range(len(self.sides)))
                best = max(self.scores[side] for side in pool)
                leaders = [side for side in pool if self.scores[side] == best]
                if len(leaders) == 1:
                    loser = " and ".join(self.side_name(side) for side in sunk)
                    return self.win(leaders[0], f"{loser} fell to -{floor}")
        limit = self.option("deal-limit")
        if limit != "off" and self.deal_no >= limit:
            best = max(self.scores)
            if self.scores.count(best) == 1:
                side = self.scores.index(best)
                return self.win(side, f"{self.side_name(side)} led after {self.deal_no} deals")
        return None

    def win(self, side: int, reason: str) -> Outcome:
        return Outcome((side,), self.sides[side], tuple(self.scores), reason)

    # ----- search (read-only accessors for sampled worlds: see ``Game.hand``) ------------------
    def plan_sampling(self, seat: int) -> PitchPlan:
        return PitchPlan(self, seat)

    def redeal_unseen(self, seat: int, rng: random.Random) -> None:
        redeal_pitch(self, seat, rng)

    def led_suit(self) -> Suit | None:
        if not self.trick:
            return None
        card = self.trick[0][1]
        return self.trumps.suit_of(card) if self.trumps is not None else card.suit

    def is_trump(self, card: Card) -> bool:
        return self.trumps is not None and card in self.trumps.power

    def winning_play(self) -> tuple[int, Card] | None:
        plays = self.trick
        if not plays:
            return None
        if self.extra and self.trumps is not None:
            return plays[extra_trick_winner(plays, self.trumps)]
        return plays[trick_winner(plays, self.trump, STRENGTH)]

    def declarer(self) -> int | None:
        return self.pitcher

    def deal_points(self) -> list[int]:
        return [game_points(cards) for cards in self.taken]

    # ----- views ----------------------------------------------------------------------------
    def public_view(self) -> dict[str, Any]:
        def plays(trick: list[tuple[int, Card]]) -> list[dict[str, Any]]:
            return [{"seat": seat, "card": card.code} for seat, card in trick]

        view: dict[str, Any] = {
            **self.header_view(),
            "phase": self.phase,
            "deal": self.deal_no,
            "dealer": self.dealer,
            # Who drew high for the first deal; not the drawn cards, which went back in the pack
            # and would read like cards held in a hand.
            "first_dealer_draws": len(self.first_draw),
            "to_act": list(self.to_act),
            "bids": [{"seat": seat, "amount": amount} for seat, amount in self.bids],
            "high_bid": self.high_bid or None,
            "bid_names": self.bid_names(),
            "pitcher": self.pitcher,
            "trump": self.trump.value if self.trump else None,
            "leader": self.leader if self.phase is _PLAYING else None,
            "trick": plays(self.trick),
            "last_trick": (
                {"plays": plays(self.last_trick[0]), "winner": self.last_trick[1]}
                if self.last_trick
                else None
            ),
            "tricks": [{"plays": plays(t), "winner": w} for t, w in self.tricks],
            "hand_sizes": [len(hand) for hand in self.hands],
            "tricks_won": self.tricks_won[:],
            "scores": self.scores[:],
            "target": self.option("target"),
            "last_deal": self.last_deal,
            "outcome": self.outcome.to_json() if self.outcome else None,
        }
        if self.extra:
            view["trump_rules"] = self.trump_rules.to_json()
            view["trumps"] = [card.code for card in self.trumps.order] if self.trumps else None
        view.update(self.more_public())
        return view

    def more_public(self) -> dict[str, Any]:
        """What a variant adds to the public view."""
        return {}

    def private_view(self, seat: int) -> dict[str, Any]:
        return {"hand": [card.code for card in self.hands[seat]]}
