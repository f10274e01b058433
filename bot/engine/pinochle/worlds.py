"""Sampled worlds for search in pinochle (``Game.sample_world``): what a seat has seen of a deal, as
places for ``bot.engine.sampling.deal_unseen``."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable
from functools import cache
from typing import TYPE_CHECKING

from bot.engine.cards import Card, Suit
from bot.engine.events import Phase
from bot.engine.meld import (
    MeldResult,
    MeldTable,
    card_counts,
    count_meld,
    count_meld_counts,
    meld_total,
    meld_totaller,
)
from bot.engine.pinochle.common import SORT_KEY, STRENGTH
from bot.engine.sampling import Dealer, Place, deal_unseen, multiset_minus

if TYPE_CHECKING:
    from bot.engine.pinochle.common import PinochleGame
    from bot.engine.pinochle.partnership import PartnershipBase
    from bot.engine.pinochle.three import ThreeHand
    from bot.engine.pinochle.two import TwoHand


@cache
def cards_by_suit(pack: tuple[Card, ...]) -> dict[Suit, tuple[Card, ...]]:
    """The distinct cards of ``pack`` by suit."""
    return {suit: tuple(dict.fromkeys(card for card in pack if card.suit is suit)) for suit in Suit}


def strict_reveals(
    game: PinochleGame,
    tricks: Iterable[list[tuple[int, Card]]],
    played: list[list[Card]],
    forbidden: list[set[Card]],
) -> None:
    """Add to ``played`` and ``forbidden`` (per seat) what ``tricks``, played under the strict
    follow rules (``PinochleGame.strict_playable``), show: a card off the led suit means a void in
    it, and neither suit nor trump a void in trump too; a trump not above the best one on a trump
    lead means no higher trump."""
    trump = game.trump
    by_suit = cards_by_suit(tuple(game.pack()))
    for trick in tricks:
        led = trick[0][1].suit
        best = trick[0][1]
        played[trick[0][0]].append(best)
        for seat, card in trick[1:]:
            played[seat].append(card)
            suit = card.suit
            if suit is not led:
                forbidden[seat].update(by_suit[led])
                if suit is not trump:
                    forbidden[seat].update(by_suit[trump] if trump is not None else ())
            elif led is trump and STRENGTH[card] <= STRENGTH[best]:
                forbidden[seat].update(c for c in by_suit[trump] if STRENGTH[c] > STRENGTH[best])
            if suit is best.suit:
                if STRENGTH[card] > STRENGTH[best]:
                    best = card
            elif suit is trump:
                best = card


def meld_check(
    shown: MeldResult, played: list[Card], minus: list[Card], trump: Suit, table: MeldTable
) -> Callable[[list[Card]], bool]:
    """A test that a hand (now) with ``played`` back in it and ``minus`` taken out melds the total
    of ``shown``: a sampled hand must not meld more (or less) than its owner showed (the melds
    themselves: ``meld_confirm``). The counts of ``played`` less ``minus`` are worked out once."""
    total = shown.total
    base = card_counts(played)
    gone = [card.id for card in minus]
    for card_id in gone:
        base[card_id] -= 1

    total_of = meld_totaller(trump, table)

    # ``whole_counts`` inlined: a sampler runs this check several times a world.
    def check(hand: list[Card]) -> bool:
        counts = base[:]
        for card in hand:
            counts[card.id] += 1
        for card_id in gone:
            counts[card_id] = max(counts[card_id], 0)
        return total_of(counts) == total

    return check


def meld_confirm(
    shown: MeldResult, played: list[Card], minus: list[Card], trump: Suit, table: MeldTable
) -> Callable[[list[Card]], bool]:
    """``meld_check``'s final part: the very melds shown (a hand of the same total could list
    others)."""
    counts_of = whole_counts(played, minus)

    def confirm(hand: list[Card]) -> bool:
        return count_meld_counts(counts_of(hand), trump, table) == shown

    return confirm


def whole_counts(played: list[Card], minus: list[Card]) -> Callable[[list[Card]], list[int]]:
    """A function giving the card counts (``card_counts``) of a hand with ``played`` added and
    ``minus`` taken out (``multiset_minus``: a card of ``minus`` not there is ignored)."""
    base = card_counts(played)
    gone = [card.id for card in minus]
    for card_id in gone:
        base[card_id] -= 1

    def counts_of(hand: list[Card]) -> list[int]:
        counts = base[:]
        for card in hand:
            counts[card.id] += 1
        for card_id in gone:
            counts[card_id] = max(counts[card_id], 0)
        return counts

    return counts_of


def at_least(*needs: Iterable[Card]) -> Counter[Card]:
    """The fewest copies of each card that satisfy every one of ``needs`` (a per-card maximum)."""
    out: Counter[Card] = Counter()
    for need in needs:
        out |= Counter(need)
    return out


def partnership_known(
    game: PartnershipBase, seat: int, results: list[MeldResult] | None
) -> tuple[list[Counter[Card]], list[list[Card]]]:
    """Per seat: the fewest copies of each card ``seat`` knows it held when meld was shown (its
    meld, an exchanged dix or the turned card it took, cards ``seat`` passed it), and the cards to
    take out of its hand and played cards to get the hand it melded (the exchanged dix)."""
    players = game.players
    known: list[Counter[Card]] = [Counter() for _ in range(players)]
    minus: list[list[Card]] = [[] for _ in range(players)]
    dix_count = len(game.exchanges)
    if dix_count:  # the exchanged dix went to the dealer; the exchanger holds the card it took
        minus[game.dealer] = [game.dix] * dix_count
        for who, took in game.exchanges:
            known[who][took] += 1
    elif game.phase is Phase.EXCHANGE and game.turn != seat:
        known[game.turn][game.dix] += 1  # offered the exchange: it holds a dix
    if results is not None:
        for other in range(players):
            known[other] = at_least(known[other], results[other].used_cards())
    # Cards passed between partners: the passer knows what its partner holds of them.
    if game.gave[seat] and game.bidder is not None:
        to = game.bidder if seat != game.bidder else game.partner(game.bidder)
        known[to] = at_least(known[to], Counter(game.gave[seat]) - Counter(game.received[seat]))
    # The exchanged dix is not in the dealer's meld: it holds them beside its meld's cards.
    if dix_count:
        known[game.dealer][game.dix] += dix_count
    return known, minus


class PartnershipPlan:
    """What ``seat`` has seen of a partnership deal, ready to deal many worlds from (kept by
    ``Game.sampling_plan`` until the next action): the voids revealed, the meld shown, the cards
    each other seat holds for sure, and the ``Dealer`` of the unseen cards among the other hands
    (and the cards being passed out of ``seat``'s sight)."""

    def __init__(self, game: PartnershipBase, seat: int) -> None:
        players = game.players
        played: list[list[Card]] = [[] for _ in range(players)]
        forbidden: list[set[Card]] = [set() for _ in range(players)]
        strict_reveals(game, deal_plays(game), played, forbidden)
        results = game.meld_results()
        known, minus = partnership_known(game, seat, results)
        giver = game.pass_from if game.giving and game.pass_from != seat else -1
        places: list[Place] = []
        owners: list[int] = []
        pool: list[Card] = []
        for other in range(players):
            if other == seat:
                continue
            hand = game.hands[other]
            held = hand + game.giving if other == giver else hand
            now = known[other] - Counter(played[other])
            place = Place(len(held), list(now.elements()), forbidden[other])
            if results is not None and game.trump is not None:
                table = game.meld_table
                facts = (results[other], played[other], minus[other], game.trump, table)
                place.check = meld_check(*facts)
                place.monotone = not table.extras
                if not table.total_fixes_melds:  # else the total tells the melds too
                    place.confirm = meld_confirm(*facts)
            places.append(place)
            owners.append(other)
            pool.extend(held)
        self.dealer = Dealer.for_holdings(pool, places)
        self.owners = owners
        self.giver = giver
        self.results = results
        self.played = played
        self.minus = minus


def redeal_partnership(game: PartnershipBase, seat: int, rng: random.Random) -> None:
    """``Game.redeal_unseen`` for partnership pinochle, partnership auction and the 96-card games."""
    plan = game.sampling_plan(seat)
    assert isinstance(plan, PartnershipPlan)
    results = plan.results
    giver = plan.giver
    dealt = plan.dealer.deal(rng)
    sort_key = SORT_KEY.__getitem__
    hands = game.hands
    for other, cards in zip(plan.owners, dealt, strict=True):
        if other == giver:
            rng.shuffle(cards)
            count = len(game.giving)
            game.giving = sorted(cards[:count], key=sort_key)
            cards = cards[count:]
        cards.sort(key=sort_key)
        hands[other] = cards
        if results is not None:
            minus = plan.minus[other]
            whole = cards + plan.played[other]
            if minus:
                whole = multiset_minus(whole, minus)
            game.meld_hands[other] = tuple(sorted(whole, key=sort_key))
    if results is not None:
        game.melds = list(results)
    redo_passes(game, seat, rng)
    if game.phase is Phase.PLAY:
        hands[seat].sort(key=sort_key)  # the others' were sorted as dealt
        game.index_suits()


def redo_passes(game: PartnershipBase, seat: int, rng: random.Random) -> None:
    """Cards passed between partners out of ``seat``'s sight, chosen again from the sampled hands
    (each seat's own ``gave``/``received`` lists must fit its hand in the sampled world)."""
    if not any(game.gave):
        return
    bidder = game.bidder
    assert bidder is not None
    partner = game.partner(bidder)
    if seat in (bidder, partner):
        other = partner if seat == bidder else bidder
        game.gave[other] = game.received[seat][:]
        game.received[other] = game.gave[seat][:]
        return
    count = game.pass_count()
    for giver, taker in ((partner, bidder), (bidder, partner)):
        if not game.gave[giver]:
            continue
        holding = game.hands[taker] + [card for trick, _ in game.tricks for s, card in trick if s == taker]
        chosen = sorted(rng.sample(holding, count), key=SORT_KEY.__getitem__)
        game.gave[giver] = chosen
        game.received[taker] = chosen[:]


def deal_plays(game: PinochleGame) -> list[list[tuple[int, Card]]]:
    """The deal's tricks so far, the one under way last (if begun)."""
    out = [plays for plays, _ in game.tricks]
    if game.trick:
        out.append(game.trick)
    return out


def redeal_two_hand(game: TwoHand, seat: int, rng: random.Random) -> None:
    """``Game.redeal_unseen`` for two-hand pinochle: the other hand and the stock (in the playoff
    the other hand is every card not yet seen, so nothing changes). What the other seat holds for
    sure: the turned card it took by exchanging a dix (unless played or laid since); when it is
    choosing its meld, a hand that can meld something."""
    other = 1 - seat
    if game.phase is Phase.PLAYOFF:
        game.drew = [None, None]  # not shown in the playoff (the last draw is past)
        return
    played = [card for plays in deal_plays(game) for who, card in plays if who == other]
    known = Counter(game.took_turned[other]) - Counter(played) - Counter(card for card, _ in game.laid[other])
    check = None
    if game.phase is Phase.MELD and game.turn == other:

        def check(cards: list[Card]) -> bool:
            saved = game.hands[other]
            game.hands[other] = cards
            try:
                return bool(game.meld_options(other))
            finally:
                game.hands[other] = saved

    hand = game.hands[other]
    places = [Place(len(hand), list(known.elements()), check=check), Place(len(game.stock))]
    pool = multiset_minus(hand + game.stock, places[0].known)
    dealt_hand, stock = deal_unseen(pool, places, rng)
    game.hands[other] = sorted(dealt_hand, key=SORT_KEY.__getitem__)
    rng.shuffle(stock)
    game.stock = stock
    if game.drew[other] is not None:
        game.drew[other] = game.hands[other][rng.randrange(len(game.hands[other]))]
    if game.phase is Phase.MELD and game.turn == other:
        game.meld_opts = game.meld_options(other)


class ThreeHandPlan:
    """What ``seat`` has seen of a three-hand deal, ready to deal many worlds from (kept by
    ``Game.sampling_plan`` until the next action): the other hands, the widow until it is shown,
    and (for any seat but the bidder) the bidder's hand with the cards it buried, as places for a
    ``Dealer``. The burial check draws from the rng of the deal under way (``rng[0]``)."""

    def __init__(self, game: ThreeHand, seat: int) -> None:
        players = game.players
        played: list[list[Card]] = [[] for _ in range(players)]
        forbidden: list[set[Card]] = [set() for _ in range(players)]
        strict_reveals(game, deal_plays(game), played, forbidden)
        self.bidder = bidder = game.bidder if game.widow_shown else None
        self.burials: dict[tuple[Card, ...], list[Card]] = {}
        self.rng: list[random.Random] = [random.Random(0)]
        places: list[Place] = []
        owners: list[int] = []
        pool: list[Card] = []
        for other in range(players):
            if other == seat:
                continue
            hand = game.hands[other]
            if other != bidder:
                places.append(Place(len(hand), forbidden=forbidden[other]))
                pool.extend(hand)
            else:
                meld = game.meld
                known = Counter(game.widow) if meld is None else at_least(game.widow, meld.used_cards())
                known -= Counter(played[other])
                check = burial_check(game, played[other], forbidden[other], self.burials, self.rng)
                places.append(Place(len(hand) + len(game.buried), list(known.elements()), check=check))
                pool.extend(hand + game.buried)
            owners.append(other)
        if not game.widow_shown:
            places.append(Place(len(game.widow)))
            owners.append(-1)
            pool.extend(game.widow)
        self.dealer = Dealer.for_holdings(pool, places)
        self.owners = owners


def redeal_three_hand(game: ThreeHand, seat: int, rng: random.Random) -> None:
    """``Game.redeal_unseen`` for three-hand pinochle: the other hands, the widow until it is
    shown, and (for any seat but the bidder) the cards the bidder buried. The bidder's hand with
    its buried and played cards back melds exactly the meld it showed, holds the widow, and some
    cards outside that meld were buried so that what it kept melds as shown."""
    plan = game.sampling_plan(seat)
    assert isinstance(plan, ThreeHandPlan)
    plan.rng[0] = rng
    bidder = plan.bidder
    dealt = plan.dealer.deal(rng)
    for other, cards in zip(plan.owners, dealt, strict=True):
        if other < 0:
            game.widow = sorted(cards, key=SORT_KEY.__getitem__)
            continue
        if other == bidder:
            buried = plan.burials[tuple(cards)]
            game.buried = sorted(buried, key=SORT_KEY.__getitem__)
            cards = multiset_minus(cards, buried)
        game.hands[other] = sorted(cards, key=SORT_KEY.__getitem__)
    if game.phase is Phase.PLAY:
        game.start_strict_play()


def burial_check(
    game: ThreeHand,
    played: list[Card],
    forbidden: set[Card],
    burials: dict[tuple[Card, ...], list[Card]],
    rng: list[random.Random],
) -> Callable[[list[Card]], bool]:
    """The test of the bidder's cards (hand and buried together, ``seat`` not being the bidder):
    with its played cards they meld what it showed when naming trump, and a burial of as many
    cards as it buried exists — none that the shown meld uses while spare cards were left, every
    card of a revealed void — after which its hand keeps its meld total (or, if the meld shown now
    is what it kept, melds exactly that). The burial found is kept in ``burials``; burials are drawn
    from ``rng[0]`` (the rng of the deal under way)."""
    shown = game.meld
    count = len(game.buried)
    trump = game.trump
    table = game.meld_table
    playing = game.phase is Phase.PLAY
    # The bidder's cards hold the shown meld's (``redeal_three_hand`` knows them): where the table
    # lets the total tell the melds, a total as shown is the shown meld, and no count is needed.
    quick = table.total_fixes_melds
    shown_used = shown.used_cards() if shown is not None else []

    def check(cards: list[Card]) -> bool:
        if shown is None or trump is None:
            burials[tuple(cards)] = []
            return True
        full = cards + played
        if quick and meld_total(full, trump, table) == shown.total:
            first, used = shown, shown_used
        else:
            first = count_meld(full, trump, table)
            used = first.used_cards()
        kept_as_shown = first != shown  # the meld was shown again after burying
        if kept_as_shown and not playing:
            return False
        if not count:
            burials[tuple(cards)] = []
            return not kept_as_shown
        forced = [card for card in cards if card in forbidden]
        if len(forced) > count:
            return False
        spare = multiset_minus(multiset_minus(cards, used), forced)
        if len(spare) < count - len(forced):
            spare = multiset_minus(cards, forced)
        elif keeps_meld(full, forced, used):
            # Every burial tried below keeps the cards of ``first``, so its total: the first one
            # tried passes when the meld shown is ``first``; none does when it is not (a burial
            # must then lower the total, or, with the same total, change the melds).
            if kept_as_shown and (quick or first.total != shown.total):
                return False
            if not kept_as_shown:
                burials[tuple(cards)] = forced + rng[0].sample(spare, count - len(forced))
                return True
        for _ in range(30):
            buried = forced + rng[0].sample(spare, count - len(forced))
            kept = multiset_minus(full, buried)
            if not playing:
                ok = True
            elif kept_as_shown:
                ok = meld_total(kept, trump, table) == shown.total and count_meld(kept, trump, table) == shown
            else:
                ok = meld_total(kept, trump, table) == first.total
            if ok:
                burials[tuple(cards)] = buried
                return True
        return False

    return check


def keeps_meld(full: list[Card], forced: list[Card], used: list[Card]) -> bool:
    """Whether ``full`` without ``forced`` (and without any cards beyond ``used``) still holds every
    card of ``used``: then a burial of ``forced`` and spare cards keeps the meld ``used`` makes."""
    return all(full.count(card) - forced.count(card) >= used.count(card) for card in set(forced))
