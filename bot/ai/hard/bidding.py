"""The auction by simulation.

Short ladders (pitch: a handful of bids, one round): every bid and passing are tried in the same
sampled worlds, the rest of the auction and the play left to the fast policy; each bid is charged
the risk its rollouts were measured to overstate (``BID_RISK``).

Long ladders (pinochle: 100-1000 in tens, double-deck's ladders): the hand's worth as declarer is
measured by playing sampled worlds out with this seat taking the contract, which gives, for every
bid, the chance of making it and the deal margin it would bring; passing is measured by playing the
same worlds out with this seat passing. The seat bids while some bid beats passing, jumping straight
to the highest bid it makes almost always (no one-step raise wars), and keeps to what it would
play. A partner's bid is respected because passing then leaves the partner's contract, which the
pass rollouts play out; whether a partner still to call is counted on to bid for the seat depends
on the game (``PARTNERS_CALL``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from statistics import mean

from bot.ai.hard.reasons import bid_reason, describe
from bot.ai.hard.rollout import DealResult, Policy, margin, play_out
from bot.ai.hard.search import Context, Evaluator, Tally
from bot.engine import Action, Game, Kind, Rank, Suit
from bot.engine.pinochle.three import settlement

SHORT_LADDER = 6
"""A ladder this short is tried bid by bid."""
SAFE = 0.85
"""The share of sampled deals a jump bid must be made in. Double-deck, same 100 pairs (seed 1, 3 s
budget), against 68.0% of pairs and +12.2 a deal: 0.75, 62.5% and -1.4 a deal [-4.8, +2.0]; 0.95,
60.0% and -2.9 [-8.1, +2.4]."""
STEPPING = frozenset({"pinochle-4-auction"})
"""Variants whose ladder bids go up one step at a time, never jumping: a made contract scores what it
takes whatever the bid, so a jump only adds to the risk of a set (the rollouts' estimate of a hand
is optimistic: with the 85%-safe jumps hard bid 247 on average against basic's 206 on the same cards
and made 83%; stepping, 213 and 93%, and +52 points a deal against basic instead of +13 over the
same 200 pairs). Double-deck measured no better stepping (its ``hard`` took about as many contracts,
71-74 of 200, and made 96-99% of them), same 100 pairs: seed 1, 70.0% -> 70.5% of pairs, -1.4 a deal
[-6.8, +4.0] (35 pairs changed, 17 its way); seed 2, 67.5% -> 65.5%, -1.5 [-6.0, +3.0] (25 changed,
11 its way). Nor did the partnership auction gain by weighing its step in each sampled world as the
auction would end there (the seat stepping on up to the highest bid worth more than passing, the
other side overcalling as ``basic`` does, the seat keeping the contract only where no one did), with
partners counted out of the calls (``PartnersPass``), against the first 100 pairs of its record of
51c3a27 (seed 1, ``bench/records`` until 1d31ee0): the overcall's deal scored as a pass rollout is
(``pass_margin``), 79.0% -> 80.5% of pairs, -2.0 a deal [-24.5, +20.6] (24 pairs changed, 13 its
way; 85 contracts taken of 200 instead of 94); the overcallers' sets counted as sets, 74.0% -> 69.0%
of the first 50 pairs, -19.3 a deal [-63.0, +24.4] (19 changed, 8 its way), stopped there."""
CONTRACT_STEPS = 400
"""Actions a forced auction may take at most (a safety net)."""
PARTNERS_CALL = frozenset({"pitch", "pinochle-4-auction"})
"""Families and variants whose call rollouts let a partner still to call bid as the fast policy
(``basic``) would with its sampled hand, instead of passing (``PartnersPass``): a partner with the
better hand does bid, and counting it out made every pass look worse than it is. Pitch first; then
the partnership auction (where, counting each other out, two ``hard`` partners were seen raising
over each other in replayed deals), same 100 pairs (seed 1) against its record of 51c3a27
(``bench/records`` until 1d31ee0): 79.0% -> 84.0% of pairs, +10.3 a deal [-7.8, +28.4] (of the 21
pairs whose result changed, 14 went its way); it took 89 contracts of 200 instead of 94 and made 97%
of them. Over all 500 pairs of the record: 84.9% -> 86.1% of pairs (of the 77 pairs whose result
changed, 44 went its way), yet -4.5 a deal [-12.5, +3.5]; it made 466 of the 479 contracts it took
(97.3%), where it had made 452 of 476. Double-deck measured no better with its partners calling,
same 100 pairs (seed 1) against its record: 72.0% -> 70.5% of pairs, -1.5 a deal [-5.1, +2.1] (of
the 13 pairs whose result changed, 6 went its way; it took 67 contracts of 200 instead of 74)."""
BID_RISK = {"pitch": 0.6, "pitch-partnership": 0.6}
"""What a bid's rollout value overstates, per step above the game's lowest bid, by variant.
Measured in 4-player pitch (hard in two seats, basic in two; 100 deals, 200 calls): passing was
valued right (-0.42 a deal predicted, -0.39 taken), a bid of 1 too (-0.5), but a bid of 2 was valued
+1.38 and took +0.76 (the seat is overcalled more often than its rollouts think: pitcher 69% of the
time, not 93%) and a bid of 3 +1.84 and took +0.61 (made 62%, not 76%: the rollouts' defenders play
weaker than basic's, and far weaker than hard's). Partnership pitch takes the same charge: without
it hard took 81% of the contracts and made 73% (100 pairs), with it (and 96 worlds in card play)
70% and 82%, +0.4 -> +0.8 a deal against basic. Measured again once the worlds fitted the plays
(``inference``): the calls' values are no longer overstated, yet no smaller charge does better.
4-player pitch, 60 pairs (seed 1), the calls chosen, valued before the charge and what they took:
pass -0.38 a deal and -0.44, 1: -0.28 and -0.46, 2: +1.69 and +1.60, 3: +2.02 and +1.84. The same
200 pairs (seed 1) with a charge of 0.3: 67.2% -> 65.8% of pairs, -0.00 a deal [-0.06, +0.05];
with none: 63.5%, -0.01 [-0.10, +0.08] (more contracts, made 77% instead of 84%). Partnership
pitch (its partner is ``hard``, played in the rollouts as ``basic``: every call took about 0.6 a
deal more than its value over 100 pairs), 200 pairs: 0.3, 66.5% -> 67.2%, +0.06 [-0.02, +0.13];
none, +0.14 [-0.01, +0.29] (seed 1) and -0.08 [-0.25, +0.09] (seed 2). A larger charge, 0.9, changed
few calls, same 200 pairs (seed 1): 4-player 67.2% -> 67.8% of pairs (1 pair changed, +0.01 a deal
[-0.01, +0.03]), partnership 66.5% -> 66.2% (5 changed, -0.00 [-0.07, +0.06])."""


@dataclass
class Contract:
    """What the seat's side took as declarer in one sampled world, and what the others took."""

    taken: int
    others: float


def choose_bid(ctx: Context, options: list[Action]) -> tuple[Action, str]:
    """The bid (or pass) for ``ctx.seat`` now, and why."""
    bids = sorted((a for a in options if a.kind is Kind.BID), key=lambda a: a.amount or 0)
    passes = [a for a in options if a.kind is Kind.PASS]
    # Conceding (three-hand's forced bid) is weighed like a call; telling meld changes no deal.
    others = [a for a in options if a.kind not in (Kind.BID, Kind.PASS, Kind.TELL_MELD)]
    if ctx.view.get("chip_table") and ctx.view.get("phase") == "forced":
        return forced_bid(ctx, options)
    if len(bids) <= SHORT_LADDER or not passes or others:
        candidates = passes + bids[:SHORT_LADDER] + others
        if len(candidates) == 1:
            return candidates[0], f"{describe(candidates[0])} — the only sensible call"
        tallies = ctx.search(candidates, policy=call_policy(ctx.game, ctx.seat, ctx.policy))
        risk = BID_RISK.get(ctx.game.name, 0.0)
        chosen = best_call(tallies, risk, getattr(ctx.game, "min_bid", 0))
        return chosen.action, bid_reason(chosen, tallies)
    return ladder_bid(ctx, bids, passes[0])


def ladder_bid(ctx: Context, bids: list[Action], pass_action: Action) -> tuple[Action, str]:
    """A long ladder: declarer rollouts against pass rollouts in the same worlds. The declarer's
    rollouts are taken as they come (three-hand's ``DECLARER_EDGE`` aside): in double-deck, points
    added to what its declarer takes when bids are weighed against passing (not when choosing how far
    to jump) did worse either way, same 100 pairs (seed 1, 3 s budget): +5, -4.4 a deal [-10.4,
    +1.6] (92 contracts taken instead of 75, made 91% instead of 96%); +10, -16.7 [-25.4, -8.0] (126,
    made 77%); -5, -5.3 [-11.7, +1.1] (51, made 94%). Once the rollouts played ``basic``'s own card
    play (``policy.DoubleDeckPlay``), +10 again, same 100 pairs (seed 1, 1 s budget): 70.0% -> 69.0%
    of pairs, -10.5 a deal [-19.8, -1.2] (123 contracts taken instead of 74, made 82% instead of
    96%). In the partnership auction (whose ``hard`` made 95% of the 149 contracts it took in 320
    deals, ``basic`` 75% of 171), same 160 pairs (seed 1, 85.6% of them won): +15, 80.3% and -12.6 a
    deal [-31.3, +6.1] (175 taken, made 89%); -10, 79.7% and -10.3 [-25.1, +4.5] (128 taken, made
    98%)."""
    by_suit: dict[Suit | None, list[Contract]] = {}
    passing: list[float] = []
    chips = ctx.view.get("chip_table")
    quiet = call_policy(ctx.game, ctx.seat, ctx.policy)
    lowest = bids[0]
    for done in range(THREE_HAND_BID_WORLDS if chips else ctx.samples):
        if ctx.clock.expired() and done:
            break
        world = ctx.sample()
        declaring = world.copy()
        if take_contract(declaring, ctx.seat, lowest):
            found = declarer_results(declaring, ctx.seat, ctx.policy)
            if chips and found:
                by_suit.setdefault(None, []).append(widow_best(found))
            else:
                for suit, contract in found.items():
                    by_suit.setdefault(suit, []).append(contract)
        if ctx.clock.expired() and done:
            break
        declined = world.copy()
        declined.apply(ctx.seat, pass_action)
        passing.append(pass_margin(play_out(declined, quiet), ctx))
    if not by_suit:
        return pass_action, "pass — no sampled deal let this hand take the contract"
    # The trump the seat would name: the best on average over the worlds (not world by world).
    contracts = max(by_suit.values(), key=lambda found: (len(found), mean(c.taken - c.others for c in found)))
    pass_value = mean(passing)
    values = {bid: contract_value(contracts, bid.amount or 0, chips) for bid in bids}
    edge = THREE_HAND_BID_EDGE if chips else 0.0
    worth = [bid for bid in bids if values[bid] > pass_value + edge]
    if not worth:
        made = share_made(contracts, lowest.amount or 0)
        return pass_action, (
            f"pass — bidding {lowest.amount} is made {made:.0%} of {len(contracts)} sampled deals,"
            f" {values[lowest]:+.0f} a deal against {pass_value:+.0f} for passing"
        )
    top = worth[-1]
    if chips:
        chosen = max(worth, key=lambda bid: values[bid])
    elif ctx.game.name in STEPPING:
        chosen = worth[0]
    else:
        safe = [bid for bid in worth if share_made(contracts, bid.amount or 0) >= SAFE]
        chosen = safe[-1] if safe else worth[0]
    made = share_made(contracts, chosen.amount or 0)
    return chosen, (
        f"{describe(chosen)} — made {made:.0%} of {len(contracts)} sampled deals,"
        f" {values[chosen]:+.0f} a deal against {pass_value:+.0f} for passing (would go to {top.amount})"
    )


def forced_bid(ctx: Context, options: list[Action]) -> tuple[Action, str]:
    """Three-hand's dealer after three passes: play the forced bid or concede it now for one chip.
    The forced contract is weighed like a bid (``contract_value``: the widow is seen before trump is
    named, and a contract clearly short is conceded then at the single price)."""
    bid = next(a for a in options if a.kind is Kind.BID)
    concede = next(a for a in options if a.kind is Kind.CONCEDE)
    contracts: list[Contract] = []
    conceding: float | None = None
    for done in range(THREE_HAND_BID_WORLDS):
        if ctx.clock.expired() and done:
            break
        world = ctx.sample()
        if conceding is None:  # what conceding now costs is the same in every world
            given_up = world.copy()
            given_up.apply(ctx.seat, concede)
            conceding = ctx.score(play_out(given_up, ctx.policy, world.deal_no, world.scores))
        world.apply(ctx.seat, bid)
        found = declarer_results(world, ctx.seat, ctx.policy)
        if found:
            contracts.append(widow_best(found))
    assert conceding is not None
    if not contracts:
        return concede, "concede — no sampled deal let this hand play the forced bid"
    value = contract_value(contracts, bid.amount or 0, ctx.view.get("chip_table"))
    made = share_made(contracts, bid.amount or 0)
    chosen = bid if value > conceding + THREE_HAND_BID_EDGE else concede
    return chosen, (
        f"{describe(chosen)} — the forced {bid.amount} is made {made:.0%} of {len(contracts)} sampled deals,"
        f" {value:+.1f} a deal against {conceding:+.0f} for conceding now"
    )


def widow_best(found: dict[Suit | None, Contract]) -> Contract:
    """Three-hand: the widow is seen before trump is named, so the trump is each world's best; and
    ``hard`` buries and plays the contract by search, taking more than the rollouts' declarer
    (``DECLARER_EDGE``)."""
    best = max(found.values(), key=lambda contract: contract.taken)
    return Contract(best.taken + DECLARER_EDGE, best.others)


DECLARER_EDGE = 20
"""Three-hand: points a contract ``hard`` plays itself takes beyond what its rollouts' declarer (the
fast policy, ``basic``'s burial) takes in the same deal. Measured on 58 opening hands the auction
found made at 300 in 75% of its sampled deals or more (seeds 9000200-9000649, ``hard`` declaring
against two ``basic``s): ``hard`` took 38 more than the rollouts' mean on average, 17 more than it at
the median and 25 more than their median; without it, ``hard`` stopped a band short of hands it makes
and passed hands it makes half the time. The declarer's concession (naming trump, burying, before
the first lead) counts on it too (``DeclarerEdge``): without it, ``hard`` conceded hands it
makes and made 98% of the contracts it played. Same deals with and without (80 pairs each of
seeds 1-3): 58.8% -> 62.5% of pairs, +0.39 chips a deal [+0.02, +0.76] (of the 18 pairs whose
result changed, 15 went its way); its contracts conceded after the widow fell from 178 to 104, made
from 360 to 402, set from 9 to 41."""


class DeclarerEdge(Evaluator):
    """Three-hand, while the declarer may still concede (``may_concede``): ``Evaluator``, but a
    contract of the seat's own that the rollout's declarer (the fast policy) set by fewer than
    ``DECLARER_EDGE`` points is scored as made, as ``hard`` playing it makes it. What the rollout
    adds to the chips (the counters' tie-break) stays."""

    def __init__(self, game: Game, seat: int, win_value: float) -> None:
        super().__init__(game, seat, win_value)
        self.seat = seat

    def __call__(self, result: DealResult) -> float:
        summary = result.summary
        if summary is not None and summary.get("made") is False and summary.get("bidder") == self.seat:
            contract = contract_of(result, self.side)
            if contract is not None and contract.taken + DECLARER_EDGE >= int(summary["bid"]):
                made, _ = settlement(self.seat, int(summary["chips"]), True)
                paid = summary["changes"]
                changes = tuple(change - paid[s] + made[s] for s, change in enumerate(result.changes))
                result = replace(result, changes=changes)
        return super().__call__(result)


def may_concede(game: Game, candidates: list[Action]) -> bool:
    """Whether ``candidates`` are a three-hand declarer's, who may still concede (``DeclarerEdge``)."""
    return game.name == "pinochle-3" and any(a.kind is Kind.CONCEDE for a in candidates)


def best_call(tallies: list[Tally], risk: float, lowest: int) -> Tally:
    """``best`` with every bid charged ``risk`` a step above the ``lowest`` bid of the game."""

    def value(tally: Tally) -> float:
        if tally.action.kind is not Kind.BID or not risk:
            return tally.mean
        return tally.mean - risk * max(0, (tally.action.amount or 0) - lowest)

    return max((t for t in tallies if not t.pruned), key=value)


class PartnersPass:
    """The fast policy, but the seat's partners pass in the rest of the auction: the seat does not
    count on a partner to bid for it, so it bids whenever its own contract beats leaving the auction
    to the others (the games not in ``PARTNERS_CALL``)."""

    def __init__(self, policy: Policy, quiet: frozenset[int]) -> None:
        self.policy = policy
        self.quiet = quiet

    def __call__(self, world: Game, seat: int, legal: list[Action]) -> Action:
        if seat in self.quiet and legal[0].kind is Kind.PASS and len(legal) > 1 and legal[1].kind is Kind.BID:
            return legal[0]
        return self.policy(world, seat, legal)


def call_policy(game: Game, seat: int, policy: Policy) -> Policy:
    """What plays the rest of the auction in ``seat``'s call rollouts: ``policy``, with the seat's
    partners passing unless the game lets them call (``PARTNERS_CALL``)."""
    if game.family in PARTNERS_CALL or game.name in PARTNERS_CALL:
        return policy
    return PartnersPass(policy, partners(game, seat))


def partners(game: Game, seat: int) -> frozenset[int]:
    side = game.side_of[seat]
    return frozenset(s for s in game.sides[side] if s != seat)


def pass_margin(result: DealResult, ctx: Context) -> float:
    """The seat's margin in a deal it passed. Partnership games: a contract another seat was set in
    counts as made (what its side took) — the sampled hands fit the calls only roughly, and the meld
    a seat's bids stood for is not in them, so sets in the rollouts are far likelier than at the
    table. That holds for the seat's own partner too: in double-deck, checked against the true deals,
    passing a partner's contract was valued 15-30 points too low and the seat outbid its partner; in
    partnership auction two ``hard`` partners valued passing as the other's sure set and outbid
    each other (from 230 to 570 in one deal, set). For the opponents that premise does not hold (of
    the partnership auction's pass rollouts in which an opponent held the contract, 9% set it; at the
    table ``basic`` was set in 24% of its contracts, in the record of 51c3a27), yet counting their
    sets as sets measured no better there, against the first 100 pairs of that record (seed 1): 79.0% ->
    76.0% of pairs, +10.7 a deal [-12.9, +34.2] (of the 22 pairs whose result changed, 10 went its
    way); ``hard`` passed more and took 66 contracts of 200 instead of 94."""
    summary = result.summary
    changes = list(result.changes)
    if summary is not None and summary.get("made") is False and len(ctx.game.sides[ctx.side]) > 1:
        bidder = summary.get("bidder")
        if isinstance(bidder, int) and bidder != ctx.seat:
            side = ctx.game.side_of[bidder]
            contract = contract_of(result, side)
            if contract is not None:
                changes[side] = contract.taken
    return margin(changes, ctx.side)


def take_contract(world: Game, seat: int, bid: Action) -> bool:
    """Drive ``world``'s auction so that ``seat`` takes the contract at ``bid`` (the lowest it may)
    with everyone else passing; whether it holds it and the deal goes on."""
    side = world.side_of[seat]
    deal = world.deal_no
    for _ in range(CONTRACT_STEPS):
        if not world.to_act:
            break
        actor = world.to_act[0]
        legal = world.legal_actions(actor)
        if not any(a.kind is Kind.BID for a in legal) or world.deal_no != deal:
            break
        if actor == seat:
            action = bid if bid in legal else min_bid(legal)
        else:
            action = next((a for a in legal if a.kind is Kind.PASS), min_bid(legal))
        world.apply(actor, action)
    bidder = getattr(world, "bidder", None)
    # A hand given up at once (e.g. no marriage to name trump) is not a contract to weigh.
    return (
        bidder is not None
        and world.side_of[bidder] == side
        and world.outcome is None
        and world.deal_no == deal
    )


THREE_HAND_BID_WORLDS = 40
"""Three-hand: sampled worlds a call is weighed in (a call or two a deal, each deciding a contract
worth a dozen chips; the card play's caps would leave it to noise). 80 worlds measured no better:
same deals, 500 pairs (seed 1), 64.6% -> 64.4% of pairs, -0.02 chips a deal [-0.15, +0.11], at a
decision CPU p99 of 0.22 s instead of 0.14 s."""
THREE_HAND_BID_EDGE = 1.0
"""Three-hand: chips a deal a contract must beat passing (or conceding the forced bid) by, against
the noise of the sampled deals and the optimism of taking the best bid and trump of each. A larger
edge measured no better, same 200 pairs (seed 1): 3.0, 68.2% -> 68.5% of pairs, +0.08 chips a deal
[-0.11, +0.27] (of the 31 pairs whose result changed, 16 went its way; 98 pairs tied instead of 75,
as ``hard`` then bid like ``basic`` more often)."""

TRUMPS_TRIED = 2
"""Trump suits the declarer rollouts try (the longest in the hand). Double-deck measured level with
one or three, same 100 pairs (seed 1, 70.0% of them and +12.7 a deal with two, CPU p99 0.96 s a
decision): one, 70.5% and -0.3 a deal [-2.8, +2.2] (9 pairs changed, 5 its way), CPU p99 0.93 s;
three, 72.0% and -0.4 [-1.6, +0.8] (5 changed, 4 its way), CPU p99 0.96 s."""


def declarer_results(world: Game, seat: int, policy: Policy) -> dict[Suit | None, Contract]:
    """Play a contract ``seat`` holds out once per likely trump suit (the rollouts would name one
    by the fast policy; the seat itself names the best): what its side took with each (three-hand:
    never conceded, see ``contract_value``)."""
    side = world.side_of[seat]
    deal = world.deal_no
    for _ in range(CONTRACT_STEPS):  # the widow, an ask or a pass may come before trump
        if world.outcome is not None or world.deal_no != deal or not world.to_act:
            return {}
        actor = world.to_act[0]
        legal = world.legal_actions(actor)
        if actor == seat and legal[0].kind is Kind.TRUMP:
            break
        if legal[0].kind is Kind.PLAY:
            contract = contract_of(play_out(world, policy), side)
            return {None: contract} if contract is not None else {}
        world.apply(actor, policy(world, actor, legal))
    else:
        return {}
    hand = world.hand(seat)
    suits = [a for a in legal if a.kind is Kind.TRUMP and a.suit is not None]
    suits.sort(key=lambda a: -sum(2 + (c.rank is Rank.ACE) for c in hand if c.suit is a.suit))
    out: dict[Suit | None, Contract] = {}
    for action in suits[:TRUMPS_TRIED]:
        branch = world.copy()
        branch.apply(seat, action)
        contract = contract_of(play_out(branch, policy), side)
        if contract is not None:
            out[action.suit] = contract
    return out


def min_bid(legal: list[Action]) -> Action:
    bids = [a for a in legal if a.kind is Kind.BID]
    return min(bids, key=lambda a: a.amount or 0) if bids else legal[0]


def contract_of(result: DealResult, side: int) -> Contract | None:
    """What the declaring ``side`` took in a played-out deal (meld and counters as scored)."""
    summary = result.summary
    if summary is None:
        return None
    changes = result.changes
    others = [change for s, change in enumerate(changes) if s != side]
    other = mean(others) if others else 0.0
    if "chips" in summary:  # three-hand: the bidder's meld and counters
        return Contract(int(summary["meld"] or 0) + int(summary["counters"] or 0), 0.0)
    meld = summary.get("meld") or [0] * len(changes)
    counted = summary.get("counted") or summary.get("counters") or [0] * len(changes)
    won = summary.get("tricks_won") or [1] * len(changes)
    taken = (meld[side] if won[side] else 0) + counted[side]
    return Contract(int(taken), other)


CONCEDE_SHORT = 0
"""Three-hand: a declarer's rollout this many points short of the bid or more stands for a hand its
holder concedes after seeing the widow, at the single price (the rollouts themselves play every
contract out, ``RolloutPolicy``); one closer to the bid stands for a set. ``hard`` sees the
shortfall from the meld and its cards once the widow is up: over 120 opening hands it took at 300
(seed 9000005 on), it conceded 73 and was set once, so counting near misses as sets (it was 20)
made the auction value every doubtful hand at twice its real cost: ``hard`` passed hands it makes
half the time and stayed in the lowest band of hands it makes at the next (95% of its contracts
made, against ``basic``'s 77%)."""


def share_made(contracts: list[Contract], amount: int) -> float:
    return sum(1 for c in contracts if c.taken >= amount) / len(contracts)


def contract_value(contracts: list[Contract], amount: int, chips: list[int] | None) -> float:
    """The mean deal margin of a contract at ``amount`` over the sampled deals."""
    if chips:
        band = chips[max(0, min(len(chips) - 1, (amount - 300) // 50))]
        # Three-hand: made, +3 chips a bid band from the other two (margin 4); set, twice that lost;
        # a contract clearly short is conceded once the widow is seen, at the single price.
        return mean(
            4 * band if c.taken >= amount else -4 * band if c.taken < amount - CONCEDE_SHORT else -8 * band
            for c in contracts
        )
    return mean((c.taken if c.taken >= amount else -amount) - c.others for c in contracts)
