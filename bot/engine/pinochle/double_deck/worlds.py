"""Sampled worlds for search in double-deck pinochle and its presets (``Game.sample_world``).

What a seat has seen: its hand and the cards it passed or was passed, every card played (the crawl
rules reveal voids and cards a seat could not head the trick or over-trump with), meld counted
(laid down: exactly those melds; only announced under min-20: that total), the meld told with a
bid (``meld-info``, for a seat whose hand has not changed since), and that a bidder naming trump
under the marriage rule holds a marriage. Not used: what a partner's choice of cards under the
must-give rule says about its hand."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from bot.engine.cards import Card, Rank, Suit
from bot.engine.events import Phase
from bot.engine.meld import count_meld, meld_total_counts
from bot.engine.pinochle.common import SORT_KEY, STRENGTH
from bot.engine.pinochle.worlds import at_least, cards_by_suit, deal_plays, whole_counts
from bot.engine.sampling import Dealer, Place

if TYPE_CHECKING:
    from bot.engine.pinochle.double_deck.game import DoubleDeck


def crawl_reveals(game: DoubleDeck, played: list[list[Card]], forbidden: list[set[Card]]) -> None:
    """Add to ``played`` and ``forbidden`` what the deal's tricks show under the crawl rules: a
    card of the led suit not heading an untrumped trick means none higher; off the led suit a void
    in it; a trump not over a trump already winning means none higher; neither suit nor trump a
    void in trump too."""
    trump = game.trump
    by_suit = cards_by_suit(tuple(game.pack()))
    for trick in deal_plays(game):
        led = trick[0][1].suit
        best = trick[0][1]
        played[trick[0][0]].append(best)
        for seat, card in trick[1:]:
            played[seat].append(card)
            suit = card.suit
            if suit is led:
                if best.suit is led and STRENGTH[card] <= STRENGTH[best]:
                    forbidden[seat].update(c for c in by_suit[led] if STRENGTH[c] > STRENGTH[best])
            else:
                forbidden[seat].update(by_suit[led])
                if suit is trump:
                    if best.suit is trump and STRENGTH[card] <= STRENGTH[best]:
                        forbidden[seat].update(c for c in by_suit[suit] if STRENGTH[c] > STRENGTH[best])
                elif trump is not None:
                    forbidden[seat].update(by_suit[trump])
            if suit is best.suit:
                if STRENGTH[card] > STRENGTH[best]:
                    best = card
            elif suit is trump:
                best = card


def hand_check(
    game: DoubleDeck, seat: int, played: list[Card]
) -> tuple[Callable[[list[Card]], bool] | None, bool]:
    """The test a sampled hand of ``seat`` (with ``played`` back) must pass, or None; and whether
    it is monotone (``Place.monotone``: meld totals only grow as cards are added, but holding a
    marriage is not a test of that kind)."""
    tests: list[Callable[[list[int]], bool]] = []
    table = game.table
    results = game.meld_results()
    if results is not None and results[seat] is not None:
        shown = results[seat]
        trump = game.meld_trump
        assert shown is not None
        # The total here; the melds themselves (when laid down) only for a candidate deal:
        # ``confirm_melds``.
        tests.append(lambda counts: meld_total_counts(counts, trump, table) == shown.total)
    told = game.told[seat]
    if told is not None and not game.gave[seat] and not game.received[seat] and not game.giving[seat]:
        tests.append(lambda counts: meld_total_counts(counts, None, table) == told)
    monotone = not table.extras
    if game.phase is Phase.TRUMP and seat == game.bidder and game.marriage_at_naming:
        tests.append(lambda counts: any(_marriage(counts, suit) for suit in Suit))
        monotone = False
    if not tests:
        return None, False
    counts_of = whole_counts(played, [])  # ``cards``: the hand and any cards being given

    def check(cards: list[Card]) -> bool:
        counts = counts_of(cards)
        return all(test(counts) for test in tests)

    return check, monotone


def confirm_melds(game: DoubleDeck, seat: int, played: list[Card]) -> Callable[[list[Card]], bool] | None:
    """The final test of a sampled hand of ``seat`` whose meld was laid down: the very melds shown."""
    results = game.meld_results()
    if results is None or results[seat] is None or not game.shown[seat] or game.table.total_fixes_melds:
        return None  # nothing laid down, or the total tells the melds (the hand holds their cards)
    shown = results[seat]
    trump, table = game.meld_trump, game.table

    def confirm(cards: list[Card]) -> bool:
        return count_meld(cards + played, trump, table) == shown

    return confirm


def _marriage(counts: list[int], suit: Suit) -> bool:
    return counts[Card(suit, Rank.KING).id] > 0 and counts[Card(suit, Rank.QUEEN).id] > 0


class DoubleDeckPlan:
    """What ``seat`` has seen of a double-deck deal, ready to deal many worlds from (kept by
    ``Game.sampling_plan`` until the next action): the cards each other seat has played, and the
    ``Dealer`` of the unseen cards among the other hands (with the cards being given)."""

    def __init__(self, game: DoubleDeck, seat: int) -> None:
        players = game.players
        played: list[list[Card]] = [[] for _ in range(players)]
        forbidden: list[set[Card]] = [set() for _ in range(players)]
        crawl_reveals(game, played, forbidden)
        known: list[Counter[Card]] = [Counter() for _ in range(players)]
        results = game.meld_results()
        for other in range(players):
            result = results[other] if results is not None else None
            if result is not None and game.shown[other]:
                known[other] = Counter(result.used_cards())
        taker = game.received_from.index(seat) if seat in game.received_from else -1
        if taker >= 0:  # the seat's cards went to its partner, who may have given some back
            known[taker] = at_least(known[taker], Counter(game.gave[seat]) - Counter(game.received[seat]))
        places: list[Place] = []
        owners: list[int] = []
        pool: list[Card] = []
        for other in range(players):
            if other == seat:
                continue
            held = game.hands[other] + game.giving[other]
            now = known[other] - Counter(played[other])
            check, monotone = hand_check(game, other, played[other])
            confirm = confirm_melds(game, other, played[other])
            places.append(Place(len(held), list(now.elements()), forbidden[other], check, confirm, monotone))
            owners.append(other)
            pool.extend(held)
        self.dealer = Dealer.for_holdings(pool, places)
        self.owners = owners
        self.played = played


def redeal_double_deck(game: DoubleDeck, seat: int, rng: random.Random) -> None:
    """``Game.redeal_unseen`` for double-deck pinochle and its presets."""
    plan = game.sampling_plan(seat)
    assert isinstance(plan, DoubleDeckPlan)
    played = plan.played
    dealt = plan.dealer.deal(rng)
    for other, cards in zip(plan.owners, dealt, strict=True):
        count = len(game.giving[other])
        if count:
            rng.shuffle(cards)
            game.giving[other] = cards[:count]
            cards = cards[count:]
        game.hands[other] = sorted(cards, key=SORT_KEY.__getitem__)
        if game.meld_hands[other] is not None:
            game.meld_hands[other] = tuple(sorted(cards + played[other], key=SORT_KEY.__getitem__))
    game.melds = None
    redo_passes(game, seat, played, rng)
    if game.phase is Phase.PLAY:
        game.start_strict_play()


def redo_passes(game: DoubleDeck, seat: int, played: list[list[Card]], rng: random.Random) -> None:
    """The cards passed out of ``seat``'s sight, chosen again from the sampled hands (a seat's own
    ``gave``/``received`` must fit its hand in the sampled world)."""
    for taker in range(game.players):
        giver = game.received_from[taker]
        if giver is None or seat in (giver, taker):
            continue
        holding = game.hands[taker] + played[taker] + game.giving[taker]
        chosen = sorted(rng.sample(holding, len(game.received[taker])), key=SORT_KEY.__getitem__)
        game.received[taker] = chosen
        game.gave[giver] = chosen[:]
