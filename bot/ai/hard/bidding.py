"""The auction by simulation.

Short ladders (pitch): every bid and passing are tried in the same sampled worlds, the rest of the
auction and the play left to the fast policy; each bid is charged the risk its rollouts overstate.
Long ladders (pinochle, double-deck): the hand is played out as declarer in sampled worlds, giving
each bid's chance of being made and its deal margin, against passing in the same worlds; the seat
bids while some bid beats passing, jumping to the highest bid it makes almost always (``STEPPING``
variants step). A partner's bid is respected: passing leaves its contract to the pass rollouts."""

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
"""The share of sampled deals a jump bid must be made in. Double-deck with 0.85: 68.0% of 100
pairs against ``basic`` (bench/records/experiments.md#safe)."""
STEPPING = frozenset({"pinochle-4-auction"})
"""Variants whose ladder bids go up one step at a time: a made contract scores what it takes whatever
the bid, so a jump only adds to the risk of a set. Partnership auction: +52 a deal against ``basic``
(bench/records/experiments.md#stepping)."""
CONTRACT_STEPS = 400
"""Actions a forced auction may take at most (a safety net)."""
PARTNERS_CALL = frozenset({"pitch", "pinochle-4-auction"})
"""Families and variants whose call rollouts let a partner still to call bid as ``basic`` would with
its sampled hand, instead of passing (``PartnersPass``). Partnership auction: 86.1% of 500 pairs
against ``basic`` (bench/records/experiments.md#partners-call)."""
BID_RISK = {"pitch": 0.6, "pitch-partnership": 0.6}
"""What a bid's rollout value overstates per step above the game's lowest bid, by variant. 4-player
pitch with 0.6: 67.2% of 200 pairs against ``basic`` (bench/records/experiments.md#bid-risk)."""


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
    """A long ladder: declarer rollouts against pass rollouts in the same worlds, taken as they come
    (three-hand's ``DECLARER_EDGE`` aside; bench/records/experiments.md#ladder-bid)."""
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
    """Three-hand's dealer after three passes: play the forced bid or concede it now for one chip, the
    forced contract weighed like a bid (``contract_value``)."""
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
    """Three-hand: the widow is seen before trump is named, so the trump is each world's best, and
    ``hard`` plays the contract better than the rollouts' declarer (``DECLARER_EDGE``)."""
    best = max(found.values(), key=lambda contract: contract.taken)
    return Contract(best.taken + DECLARER_EDGE, best.others)


DECLARER_EDGE = 20
"""Three-hand: points a contract ``hard`` plays itself takes beyond its rollouts' declarer (the fast
policy) in the same deal; the auction and the declarer's concession (``DeclarerEdge``) count on it.
With it: 62.5% of 240 pairs against ``basic`` (bench/records/experiments.md#declarer-edge)."""


class DeclarerEdge(Evaluator):
    """Three-hand, while the declarer may still concede (``may_concede``): ``Evaluator``, but the seat's
    own contract set by fewer than ``DECLARER_EDGE`` points in the rollout is scored as made (the
    counters' tie-break stays)."""

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
    """The fast policy, but the seat's partners pass in the rest of the auction (the games not in
    ``PARTNERS_CALL``): the seat bids whenever its contract beats leaving the auction to the others."""

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
    counts as made (what its side took): the sampled hands fit the calls only roughly and lack the meld
    their bids stood for, so sets in the rollouts are far likelier than at the table
    (bench/records/experiments.md#pass-margin)."""
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
"""Three-hand: sampled worlds a call is weighed in (a call decides a contract worth a dozen chips).
64.6% of 500 pairs against ``basic`` (bench/records/experiments.md#three-hand-bid-worlds)."""
THREE_HAND_BID_EDGE = 1.0
"""Three-hand: chips a deal a contract must beat passing (or conceding the forced bid) by, against the
sampled deals' noise and optimism. 68.2% of 200 pairs (bench/records/experiments.md#three-hand-bid-edge)."""

TRUMPS_TRIED = 2
"""Trump suits the declarer rollouts try (the longest in the hand). Double-deck: 70.0% of 100 pairs
against ``basic`` (bench/records/experiments.md#trumps-tried)."""


def declarer_results(world: Game, seat: int, policy: Policy) -> dict[Suit | None, Contract]:
    """Play a contract ``seat`` holds out once per likely trump suit (the seat names the best): what its
    side took with each (three-hand: never conceded, see ``contract_value``)."""
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
"""Three-hand: a declarer's rollout this many points short of the bid or more stands for a hand
conceded after the widow, at the single price; one closer stands for a set. ``hard`` conceded 73 of
120 opening hands it took at 300 and was set once (bench/records/experiments.md#concede-short)."""


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
