"""How close ``Game.sample_world`` comes to the uniform distribution over the deals consistent with
what the seat has seen, on late pinochle-4 positions (three cards a hand, nine unseen).

For each position the exact distribution is found by enumeration: every way to deal the nine
unseen cards (the two copies of a card told apart, as in a real shuffle) into the other hands that
keeps every revealed void, every turned card taken and every shown meld exact (each hand with its
played cards back, less an exchanged dix, melds exactly what it showed). Then ``--samples`` worlds
are sampled and the total-variation distance between their frequencies and the exact distribution
is printed, next to the distance a perfect sampler shows with as many samples (pure noise).

Usage: python bench/sample_uniformity.py [--samples N] [--positions P]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.engine import Card, new_game  # noqa: E402
from bot.engine.meld import count_meld  # noqa: E402
from bot.engine.pinochle.partnership import PartnershipBase  # noqa: E402
from bot.engine.pinochle.worlds import deal_plays, strict_reveals  # noqa: E402

Deal = tuple[tuple[Card, ...], ...]


def late_positions(count: int, left: int = 3) -> list[PartnershipBase]:
    """Single-deal pinochle-4 games with ``left`` cards in every hand and no trick under way."""
    rng = random.Random(11)
    out: list[PartnershipBase] = []
    seed = 0
    while len(out) < count:
        seed += 1
        game = new_game("pinochle-4", seed=seed, options={"match": "deal"})
        assert isinstance(game, PartnershipBase)
        while not game.is_over:
            if game.phase.value == "play" and not game.trick and all(len(h) == left for h in game.hands):
                out.append(game)
                break
            seat = game.to_act[0]
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    return out


def key(hands: list[list[Card]]) -> Deal:
    return tuple(tuple(sorted(hand, key=lambda card: card.id)) for hand in hands)


def exact(game: PartnershipBase, seat: int) -> dict[Deal, float]:
    """The probability of each deal of the other hands given what ``seat`` has seen."""
    players = game.players
    played: list[list[Card]] = [[] for _ in range(players)]
    forbidden: list[set[Card]] = [set() for _ in range(players)]
    strict_reveals(game, deal_plays(game), played, forbidden)
    shown = game.meld_results()
    assert shown is not None and game.trump is not None
    minus: list[Counter[Card]] = [Counter() for _ in range(players)]
    took: list[Counter[Card]] = [Counter() for _ in range(players)]
    if game.exchanges:
        minus[game.dealer][game.dix] = len(game.exchanges)
    for who, card in game.exchanges:
        took[who][card] += 1
    others = [other for other in range(players) if other != seat]
    pool = [card for other in others for card in game.hands[other]]

    def fits(other: int, hand: list[Card]) -> bool:
        if any(card in forbidden[other] for card in hand):
            return False
        whole = Counter(hand) + Counter(played[other])
        if took[other] - whole or minus[other] - whole:
            return False
        melded = list((whole - minus[other]).elements())
        return count_meld(melded, game.trump, game.meld_table) == shown[other]

    ways: Counter[Deal] = Counter()
    sizes = [len(game.hands[other]) for other in others]
    everything = range(len(pool))
    for first in combinations(everything, sizes[0]):
        one = [pool[i] for i in first]
        if not fits(others[0], one):
            continue
        rest = [i for i in everything if i not in first]
        for second in combinations(rest, sizes[1]):
            two = [pool[i] for i in second]
            three = [pool[i] for i in rest if i not in second]
            if fits(others[1], two) and fits(others[2], three):
                ways[key([one, two, three])] += 1
    total = sum(ways.values())
    return {deal: n / total for deal, n in ways.items()}


def distance(p: dict[Deal, float], q: dict[Deal, float]) -> float:
    return 0.5 * sum(abs(p.get(k, 0.0) - q.get(k, 0.0)) for k in set(p) | set(q))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--samples", type=int, default=3000)
    parser.add_argument("--positions", type=int, default=12)
    args = parser.parse_args()
    rng = random.Random(5)
    rows = []
    for game in late_positions(args.positions):
        seat = game.to_act[0]
        truth = exact(game, seat)
        if len(truth) < 3:
            continue
        others = [other for other in range(game.players) if other != seat]
        seen: Counter[Deal] = Counter()
        for _ in range(args.samples):
            world = game.sample_world(seat, rng)
            deal = key([world.hands[other] for other in others])
            assert deal in truth, "a sampled world that does not fit what the seat has seen"
            seen[deal] += 1
        deals = list(truth)
        ideal = Counter(random.Random(1).choices(deals, [truth[d] for d in deals], k=args.samples))
        rows.append(
            (
                len(truth),
                distance(truth, {d: n / args.samples for d, n in seen.items()}),
                distance(truth, {d: n / args.samples for d, n in ideal.items()}),
            )
        )
        print(f"{rows[-1][0]:4d} deals: TV {rows[-1][1]:.3f} (a perfect sampler: {rows[-1][2]:.3f})")
    sampler = sum(row[1] for row in rows) / len(rows)
    perfect = sum(row[2] for row in rows) / len(rows)
    print(f"mean TV, {len(rows)} positions of {args.samples} samples: {sampler:.3f} (perfect {perfect:.3f})")


if __name__ == "__main__":
    main()
