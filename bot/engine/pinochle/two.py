"""Two-hand pinochle (Bicycle rules, §4 of ``docs/rules/pinochle.md``): the stock, melding one
combination after each won trick onto the table, the dix, the playoff and declaring out."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from bot.engine.actions import DECLARE_OUT, PASS, Action, Kind, card_action
from bot.engine.actions import meld_action as interned_meld
from bot.engine.cards import Card, Rank
from bot.engine.events import Event, Phase
from bot.engine.game import register
from bot.engine.meld import (
    SINGLE_DECK,
    SINGLE_DECK_64,
    Combination,
    LaidCard,
    MeldTable,
    canonical_cards,
    combinations,
    identify,
    plan_meld,
)
from bot.engine.options import OptionSpec
from bot.engine.pinochle.common import (
    LAST_TRICK,
    MATCH_OPTION,
    RANKS_48,
    RANKS_64,
    SORT_KEY,
    PinochleGame,
    codes,
)
from bot.engine.pinochle.worlds import redeal_two_hand
from bot.engine.prose import rules_prose

# Phase members bound once: reading a member off an Enum class costs ~0.15 µs on Python 3.11.
_MELDING, _PLAYING, _PLAYOFF = Phase.MELD, Phase.PLAY, Phase.PLAYOFF


HAND_SIZE = 12


def meld_action(cards: tuple[Card, ...]) -> Action:
    """The (interned) ``meld`` action laying exactly ``cards`` (in canonical order)."""
    return interned_meld(canonical_cards(cards))


@register
class TwoHand(PinochleGame):
    """Two-hand pinochle."""

    name = "pinochle-2"
    title = "Two-Hand Pinochle"
    player_counts = (2,)
    default_players = 2
    meld_table = SINGLE_DECK
    option_specs = (
        MATCH_OPTION,
        OptionSpec("deck64", False, "64 cards (adds 8s and 7s); the dix is the 7 of trump"),
    )
    rules_text = rules_prose("pinochle-2")

    @classmethod
    def meld_table_for(cls, options: Mapping[str, Any]) -> MeldTable:
        return SINGLE_DECK_64 if options.get("deck64") else SINGLE_DECK

    @classmethod
    def pack_for(cls, options: Mapping[str, Any]) -> tuple[tuple[Rank, ...], int]:
        return (RANKS_64 if options.get("deck64") else RANKS_48), 2

    def start(self) -> None:
        self.table_rules = self.meld_table_for(self.options)
        self.slots = self.table_rules.class_slots
        super().start()

    def play_phases(self) -> tuple[Phase, ...]:
        return (_PLAYING, _MELDING, _PLAYOFF)

    # ----- the deal -------------------------------------------------------------------------
    def deal_cards(self) -> list[Event]:
        self.deal_no += 1
        deck = self.new_deck()
        dealer = self.dealer
        elder = 1 - dealer
        self.hands = [[], []]
        self.hands[elder] = sorted(deck[:HAND_SIZE], key=SORT_KEY.__getitem__)
        self.hands[dealer] = sorted(deck[HAND_SIZE : 2 * HAND_SIZE], key=SORT_KEY.__getitem__)
        turned = deck[2 * HAND_SIZE]
        self.stock = deck[2 * HAND_SIZE + 1 :]
        self.turned: Card | None = turned
        self.trump = turned.suit
        self.dix = Card(turned.suit, self.table_rules.dix_rank)
        self.laid: list[list[LaidCard]] = [[], []]
        self.meld_log: list[dict[str, Any]] = []
        self.deal_meld = [0, 0]
        self.melded = False  # a combination laid in this meld turn
        self.meld_opts: list[Action] = []  # what the trick's winner may still meld this turn
        self.exchanged = False
        self.drew: list[Card | None] = [None, None]  # each seat's last card from the stock
        self.took_turned: list[list[Card]] = [
            [],
            [],
        ]  # the turned card, taken in sight of both (dix exchange)
        self.reset_trick_state(elder)
        self.phase = _PLAYING
        events: list[Event] = []
        if turned is self.dix:
            events.extend(self.score_meld(dealer, "dix (turned up)", (turned,), 10))
        return events

    def score_meld(self, seat: int, name: str, cards: tuple[Card, ...], points: int) -> list[Event]:
        self.scores[seat] += points
        self.deal_meld[seat] += points
        self.meld_log.append({"seat": seat, "name": name, "cards": codes(cards), "points": points})
        return [{"type": "meld", "seat": seat, "name": name, "cards": codes(cards), "points": points}]

    # ----- legal actions --------------------------------------------------------------------
    def _legal_actions(self, seat: int) -> list[Action]:
        phase = self.phase
        out: list[Action] = []
        if seat == self.turn:
            if phase is _PLAYING:
                out = self.play_actions(self.hands[seat] + [card for card, _ in self.laid[seat]])
            elif phase is _MELDING:
                out = [*self.meld_opts, PASS]
            elif phase is _PLAYOFF:
                out = self.strict_play_actions(seat)
        if self.can_declare and phase in (_PLAYING, _MELDING, _PLAYOFF):
            out.append(DECLARE_OUT)
        return out

    def meld_options(self, seat: int) -> list[Action]:
        """What the winner of a trick may do before drawing: meld, show or exchange a dix."""
        trump = self.trump
        assert trump is not None
        hand = self.hands[seat]
        out: list[Action] = []
        if not self.melded:
            laid = self.laid[seat]
            available = [0] * 52
            for card in hand:
                available[card.id] += 1
            for card, _ in laid:
                available[card.id] += 1
            for combo in combinations(self.table_rules, trump):
                if combo.is_dix or not combo.possible(available):
                    continue
                if isinstance(plan_meld(combo, hand, laid, self.slots[combo.klass]), tuple):
                    out.append(meld_action(combo.cards))
        if self.dix in hand:
            out.append(meld_action((self.dix,)))
            if self.can_exchange():
                out.append(card_action(Kind.EXCHANGE, self.dix))
        return out

    def can_exchange(self) -> bool:
        return not self.exchanged and self.turned is not None and self.turned is not self.dix

    # ----- actions --------------------------------------------------------------------------
    def _perform(self, seat: int, action: Action) -> list[Event]:
        kind = action.kind
        if action is DECLARE_OUT:
            return self.declare_out(seat)
        if kind is Kind.MELD:
            return self.lay_meld(seat, action.cards)
        if kind is Kind.EXCHANGE:
            return self.exchange(seat)
        return self.draw()  # pass: done melding

    def play_card(self, seat: int, card: Card) -> list[Event]:
        """While the stock lasts a card is played from the table (its most-used copy) before the
        hand: a hand card can do all a table card can and is still new for later melds."""
        if self.phase is _PLAYOFF:
            return super().play_card(seat, card)
        self.take_card(seat, card)
        return self.add_to_trick(seat, card)

    def take_card(self, seat: int, card: Card) -> None:
        """Remove a card being played in the stock phase: from the table first, then the hand."""
        laid = self.laid[seat]
        best = -1
        for i, (c, used) in enumerate(laid):
            if c is card and (best < 0 or sum(1 for v in used if v) > sum(1 for v in laid[best][1] if v)):
                best = i
        if best >= 0:
            del laid[best]
        else:
            self.hands[seat].remove(card)

    def after_trick(self, winner: int, value: int) -> list[Event]:
        if self.phase is _PLAYOFF:
            if self.hands[winner]:
                return []
            self.taken[self.side_of[winner]] += LAST_TRICK
            self.last_trick_side = self.side_of[winner]
            return self.score_deal()
        self.melded = False
        self.meld_opts = self.meld_options(winner)
        if self.meld_opts:
            self.phase = _MELDING
            return [{"type": "meld_turn", "seat": winner}]
        return self.draw()

    def lay_meld(self, seat: int, cards: tuple[Card, ...]) -> list[Event]:
        trump = self.trump
        assert trump is not None
        combo = identify(cards, trump, self.table_rules)
        assert combo is not None
        if combo.is_dix:
            self.hands[seat].remove(combo.cards[0])
            usage = [0] * len(self.slots)
            usage[self.slots[combo.klass]] = combo.points
            self.laid[seat].append((combo.cards[0], tuple(usage)))
            events = self.score_meld(seat, combo.name, combo.cards, combo.points)
        else:
            events = self.lay_combination(seat, combo)
        self.meld_opts = self.meld_options(seat)
        if not self.meld_opts:
            events.extend(self.draw())
        return events

    def lay_combination(self, seat: int, combo: Combination) -> list[Event]:
        slot = self.slots[combo.klass]
        plan = plan_meld(combo, self.hands[seat], self.laid[seat], slot)
        assert isinstance(plan, tuple)
        from_hand, from_table = plan
        laid = self.laid[seat]
        for index in from_table:
            card, used = laid[index]
            usage = list(used)
            usage[slot] = combo.points
            laid[index] = (card, tuple(usage))
        for card in from_hand:
            self.hands[seat].remove(card)
            usage = [0] * len(self.slots)
            usage[slot] = combo.points
            laid.append((card, tuple(usage)))
        self.melded = True
        return self.score_meld(seat, combo.name, combo.cards, combo.points)

    def exchange(self, seat: int) -> list[Event]:
        assert self.turned is not None
        hand = self.hands[seat]
        hand.remove(self.dix)
        hand.append(self.turned)
        hand.sort(key=SORT_KEY.__getitem__)
        took = self.turned
        self.took_turned[seat].append(took)
        self.turned = self.dix
        self.exchanged = True
        events: list[Event] = [{"type": "exchange", "seat": seat, "gave": self.dix.code, "took": took.code}]
        events.extend(self.score_meld(seat, "dix (exchanged)", (self.dix,), 10))
        self.meld_opts = self.meld_options(seat)
        if not self.meld_opts:
            events.extend(self.draw())
        return events

    def draw(self) -> list[Event]:
        """The trick's winner draws the top card, then the loser (the turned card comes last)."""
        winner = self.leader
        loser = 1 - winner
        stock = self.stock
        won = stock.pop()
        if stock:
            lost = stock.pop()
        else:
            assert self.turned is not None
            lost = self.turned
            self.turned = None
        drew: list[Card | None] = [None, None]
        drew[winner] = won
        drew[loser] = lost
        self.drew = drew
        hands = self.hands
        hands[winner].append(won)
        hands[loser].append(lost)
        hands[winner].sort(key=SORT_KEY.__getitem__)
        hands[loser].sort(key=SORT_KEY.__getitem__)
        self.phase = _PLAYING
        self.set_turn(winner)
        events: list[Event] = [{"type": "draw", "stock": len(stock)}]
        if self.turned is None:
            for seat in (0, 1):
                self.hands[seat].extend(card for card, _ in self.laid[seat])
                self.hands[seat].sort(key=SORT_KEY.__getitem__)
                self.laid[seat] = []
            self.phase = _PLAYOFF
            self.start_strict_play()
            events.append({"type": "playoff", "leader": winner})
        return events

    # ----- search ---------------------------------------------------------------------------
    def redeal_unseen(self, seat: int, rng: random.Random) -> None:
        redeal_two_hand(self, seat, rng)

    # ----- scoring --------------------------------------------------------------------------
    def score_deal(self) -> list[Event]:
        counted = [self.counted(points) for points in self.taken]
        for seat in (0, 1):
            self.scores[seat] += counted[seat]
        summary: dict[str, Any] = {
            "deal": self.deal_no,
            "dealer": self.dealer,
            "trump": self.trump.value if self.trump else None,
            "meld": self.deal_meld[:],
            "counters": self.taken[:],
            "counted": counted,
            "last_trick": self.last_trick_side,
            "changes": [self.deal_meld[s] + counted[s] for s in (0, 1)],
            "scores": self.scores[:],
        }
        self.last_deal = summary
        self.history.append(summary)
        events: list[Event] = [{"type": "deal_scored", **summary}]
        outcome = self.check_target()
        if outcome is not None:
            return events + self.finish(outcome)
        self.dealer = 1 - self.dealer
        more = self.deal_cards() if self.deal_again() else []
        events.append({"type": "deal", "deal": self.deal_no, "dealer": self.dealer})
        return events + more

    # ----- explanations ---------------------------------------------------------------------
    def explain_illegal(self, seat: int, action: Action) -> str:
        kind = action.kind
        phase = self.phase
        if kind is Kind.DECLARE_OUT:
            if self.target is None:
                return "There is no declaring out in a single-deal game."
            return "You may declare out only while the cards are being played."
        if kind is Kind.MELD:
            return self.explain_meld(seat, action.cards)
        if kind is Kind.EXCHANGE:
            if phase is not _MELDING or seat != self.turn:
                return "You may exchange the dix only after winning a trick, before drawing."
            if self.dix not in self.hands[seat]:
                return f"You hold no dix ({self.dix.pretty}) in your hand to exchange."
            return "The turned card is already a dix: there is nothing to exchange for."
        if seat != self.turn:
            return f"It is not your turn: waiting for seat {self.turn + 1}."
        if phase is _MELDING:
            if kind is Kind.PLAY:
                return "You won the trick: meld if you wish, then 'pass' to draw, before playing on."
            return "Meld, show or exchange a dix, or 'pass' to draw."
        if kind is Kind.PASS:
            return "There is nothing to pass on now: play a card."
        if kind is not Kind.PLAY:
            return "Play a card."
        card = action.cards[0]
        if phase is _PLAYING:
            return f"You do not hold {card.pretty}."
        return self.explain_play(seat, card, self.hands[seat])

    def explain_meld(self, seat: int, cards: tuple[Card, ...]) -> str:
        if self.phase is _PLAYOFF:
            return "No more melding: the stock is gone."
        if self.phase is not _MELDING or seat != self.turn:
            return "Only the winner of a trick may meld, after winning it and before drawing."
        trump = self.trump
        assert trump is not None
        combo = identify(cards, trump, self.table_rules)
        if combo is None:
            shown = " ".join(card.pretty for card in cards)
            return (
                f"{shown} is not one meld: lay one combination per turn (e.g. Q♠ J♦ for pinochle now, "
                f"then K♠ to marry the Q♠ after a later trick)."
            )
        if combo.is_dix:
            return f"You hold no dix ({self.dix.pretty}) in your hand to show."
        if self.melded:
            return "You have already melded this turn: one meld per turn (a dix may still be shown)."
        plan = plan_meld(combo, self.hands[seat], self.laid[seat], self.slots[combo.klass])
        return plan if isinstance(plan, str) else "That meld is not allowed now."

    # ----- views ----------------------------------------------------------------------------
    def public_view(self) -> dict[str, Any]:
        out = self.base_view()
        out.update(self.trick_view())
        out.update(
            {
                "stock": len(self.stock),
                "turned": self.turned.code if self.turned is not None else None,
                "table": [[card.code for card, _ in self.laid[seat]] for seat in (0, 1)],
                "meld_log": [dict(item) for item in self.meld_log],
                "deal_meld": self.deal_meld[:],
                "meld_turn": self.turn if self.phase is _MELDING else None,
                "melded_this_turn": self.melded if self.phase is _MELDING else None,
                "hand_sizes": [len(hand) for hand in self.hands],
            }
        )
        return out

    def private_view(self, seat: int) -> dict[str, Any]:
        drew = self.drew[seat] if self.phase in ("play", "meld") else None
        return {"hand": codes(self.hands[seat]), "drew": drew.code if drew is not None else None}
