"""Worlds: full states consistent with what one seat has seen.

From an observation (`State.observation(seat)`), the unseen pieces are assigned to the places of
the deal that seat could not see (other seats' hands, the stock) so that every public action
replays legally: each piece another seat played was in its hand (dealt, or drawn or taken from
the stock before it was played), and a seat that did not follow the suit led, or knocked or drew
for want of a play, held nothing that could have. Those constraints come from the definition's
own tables (follow masks, the pieces showing each number), never from knowledge of one game.
Each candidate is then replayed from the deal through every action of the hand; one that does
not replay is dropped. When few assignments remain they are enumerated instead of sampled. Pieces a ruleset never
deals are unseen pieces like the others, set aside in places no action shows.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass, field

from ..definition import GameDef
from ..errors import CallerError, GameError
from . import layout as layout_mod
from .phases import CHANCE

HIDDEN = None


@dataclass
class _Facts:
    """What an observation pins down about this hand's deal."""

    size: int  # pieces in a deal
    known: dict = field(default_factory=dict)  # deal position -> piece the seat saw there
    holder: dict = field(default_factory=dict)  # deal position -> (seat, time it came to hand)
    plays: dict = field(default_factory=dict)  # piece -> (seat, time) for pieces others showed
    voids: list = field(default_factory=list)  # (time, seat, mask of pieces it could not hold)
    buries: dict = field(default_factory=dict)  # seat -> count of hidden buries


def facts(g: GameDef, obs: dict) -> _Facts:
    """Read the constraints on the deal from an observation."""
    seat = obs["seat"]
    k, n = g.hand_size, g.seat_count
    names = g.actions.by_name
    f = _Facts(n * k + g.stock)
    for p in range(n * k):
        f.holder[p] = (p // k, -1)
    acts = obs["hand_actions"]
    pos = 0
    for player, a in acts:
        if player != CHANCE:
            break
        if a is not HIDDEN:
            f.known[pos] = a
        pos += 1
    stock0 = n * k
    took = [names[x] for x in obs.get("took", [])]
    if "takes" in obs:  # the stock shared out: each place to the seat that took it
        mine = iter(took)
        for s, at, ps in obs["takes"]:
            for p in ps:
                f.holder[stock0 + p] = (s, at)
                if s == seat:
                    f.known[stock0 + p] = next(mine)
    elif obs.get("took_by", -1) >= 0:
        for i in range(g.stock):
            f.holder[stock0 + i] = (obs["took_by"], obs["took_at"])
        for i, t in enumerate(took):
            f.known[stock0 + i] = t
    _walk(g, obs, f)
    own_draws = [names[x] for x in obs.get("drew", [])]
    drawn = [p for p, (s, _) in f.holder.items() if p >= stock0 and s == seat]
    for p, t in zip(sorted(drawn), own_draws):
        f.known[p] = t
    return f


def _walk(g: GameDef, obs: dict, f: _Facts) -> None:
    """Public plays, draws and voids, in the order they happened."""
    acts = g.actions
    stock0 = g.seat_count * g.hand_size
    seat = obs["seat"]
    tables = None
    if obs.get("contract") is not None:
        ci = next(c.index for c in g.contracts if c.name == obs["contract"])
        decl = tuple(obs["declarations"][d.name] for d in g.declarations)
        tables = g.trick_tables.get((ci, decl))
        spec = g.contracts[ci].play.layout
    n_active = len(obs.get("active") or g.all_seats)
    lay = None
    trick: list[int] = []
    led = -1
    draws = 0
    for time, (player, a) in enumerate(obs["hand_actions"]):
        if player == CHANCE:
            continue
        if a is HIDDEN:
            f.buries[player] = f.buries.get(player, 0) + 1
            continue
        kind = acts.kind(a)
        if lay is not None and a in (acts.pass_action, acts.claim_action):
            continue  # a claim or a pass of a count (play.claim): public, says nothing of a hand
        if a == acts.draw_action:
            if lay is not None and not spec.may_draw and player != seat:
                f.voids.append((time, player, _playable(g, lay)))
            f.holder[stock0 + draws] = (player, time)
            draws += 1
            continue
        if a == acts.knock_action:
            if lay is not None and player != seat:
                f.voids.append((time, player, _playable(g, lay)))
            continue
        if kind == "lead":
            led = a - acts.lead_base
            continue
        if kind == "lay" or (kind == "piece" and tables is None):
            t, arm = acts.lay_of(a) if kind == "lay" else (a, -1)
            if lay is None:
                lay = _public_layout(g, spec, t)
            else:
                layout_mod._extend(lay, lay.arms[arm], t)
            if player != seat:
                f.plays[t] = (player, time)
            continue
        if kind != "piece":
            continue
        if player != seat:
            f.plays[a] = (player, time)
        if not trick:
            lead = tables.lead[a]
            led = -1 if type(lead) is tuple else lead
        elif led >= 0 and tables.must_follow and not tables.follow_mask[led] >> a & 1 \
                and player != seat:
            # off the first tier: the seat held nothing of it nor of any tier before its piece's
            f.voids.append((time, player, tables.void_of(led, a) if tables.tiers
                            else tables.follow_mask[led]))
        trick.append(a)
        if len(trick) == n_active:
            trick, led = [], -1


def _public_layout(g: GameDef, spec, center: int):
    lay = layout_mod.Layout()
    lay.spec = spec
    lay.piece_ends = g.pieces.ends
    lay.spinner = -1
    lay.cur_ends = None
    layout_mod._set_center(lay, center, g.actions.arms)
    return lay


def _playable(g: GameDef, lay) -> int:
    m = 0
    for a in lay.arms:
        if a.playable:
            m |= g.number_mask[a.open]
    return m


def _allowed(f: _Facts, piece: int, pos: int) -> bool:
    who = f.holder.get(pos)
    shown = f.plays.get(piece)
    if who is None:  # stays in the stock, never seen
        return shown is None
    s, came = who
    if shown is not None and (shown[0] != s or came >= shown[1]):
        return False
    if f.buries.get(s):
        return True  # a seat that buried unseen pieces may have buried what its voids rule out
    for tv, sv, mask in f.voids:
        if sv == s and came < tv and mask >> piece & 1 and (shown is None or shown[1] > tv):
            return False
    return True


def _assign(f: _Facts, free: list[int], pool: list[int], rng: random.Random) -> dict | None:
    """One random assignment of `pool` to the `free` positions that the constraints allow."""
    shown = [t for t in pool if t in f.plays]
    rest = [t for t in pool if t not in f.plays]
    rng.shuffle(shown)
    rng.shuffle(rest)
    left = list(free)
    out = {}
    for t in shown + rest:
        ok = [p for p in left if _allowed(f, t, p)]
        if not ok:
            return None
        p = ok[rng.randrange(len(ok))] if len(ok) > 1 else ok[0]
        out[p] = t
        left.remove(p)
    return out


def _groups(g: GameDef, f: _Facts, free: list[int], pool: list[int]):
    """Interchangeable free places with the pieces that must lie there, or None when a seat's
    shown pieces could lie in more than one group (it drew or took from the stock)."""
    k = g.hand_size
    stock0 = g.seat_count * k
    by_seat: dict[int, list[int]] = {}
    singles = []
    aside = [p for p in free if p >= f.size]  # never dealt: their order does not matter
    for p in free:
        if p < stock0:
            by_seat.setdefault(p // k, []).append(p)
        elif p < f.size:
            singles.append([p])
    acquired = {f.holder[p][0] for p in free if p >= stock0 and p in f.holder}
    forced: dict[int, list[int]] = {}
    for t in pool:
        if t in f.plays:
            s = f.plays[t][0]
            if s in acquired:
                return None
            forced.setdefault(s, []).append(t)
    groups = [(ps, forced.get(s, [])) for s, ps in by_seat.items()]
    return groups + [(ps, []) for ps in singles] + ([(aside, [])] if aside else [])


def _places(g: GameDef, f: _Facts) -> tuple[list[int], list[int]]:
    """(the deal places the seat did not see, the pieces it has not seen)."""
    free = [p for p in range(f.size) if p not in f.known]
    seen = set(f.known.values())
    pool = [t for t in range(len(g.pieces)) if t not in seen]
    # pieces a ruleset never deals lie in places past the deal, that no action ever shows
    free += range(f.size, f.size + len(pool) - len(free))
    return free, pool


def count_assignments(g: GameDef, obs: dict) -> int:
    """How many ways the unseen pieces could lie, counting each seat's shown pieces as placed
    (before the voids and the replay are applied)."""
    f = facts(g, obs)
    free, pool = _places(g, f)
    return _count(_groups(g, f, free, pool) or [(free, [])])


def _count(groups: list) -> int:
    sizes = [len(ps) - len(must) for ps, must in groups]
    total = math.factorial(sum(sizes))
    for n in sizes:
        total //= math.factorial(n)
    return total


def _enumerate(f: _Facts, groups: list, pool: list[int]):
    shown = {t for _, must in groups for t in must}
    loose = [t for t in pool if t not in shown]

    def rec(i: int, left: list[int], out: dict):
        if i == len(groups):
            yield dict(out)
            return
        places, must = groups[i]
        for combo in itertools.combinations(left, len(places) - len(must)):
            chosen = list(must) + list(combo)
            if all(_allowed(f, t, places[0]) for t in chosen):
                for p, t in zip(places, sorted(chosen)):
                    out[p] = t
                yield from rec(i + 1, [t for t in left if t not in combo], out)
        for p in places:
            out.pop(p, None)

    yield from rec(0, loose, {})


def worlds(g: GameDef, obs: dict, rng: random.Random, n: int = 1, *, enumerate_up_to: int = 256,
           tries: int = 200):
    """Up to `n` full states consistent with `obs` (all of them, if at most `enumerate_up_to`
    assignments exist and fewer than `n` are consistent, none are repeated)."""
    f = facts(g, obs)
    free, pool = _places(g, f)
    if len(pool) != len(free):
        raise GameError(f"seat {obs['seat']} has seen more pieces than the set holds")
    later = _later_plays(obs)
    out = []
    groups = _groups(g, f, free, pool)
    if groups is not None and _count(groups) <= enumerate_up_to:
        for a in _enumerate(f, groups, pool):
            st = _build(g, obs, f, a, later, rng)
            if st is not None:
                out.append(st)
        rng.shuffle(out)
        return out[:n]
    misses = 0
    while len(out) < n and misses < tries:
        a = _assign(f, free, pool, rng)
        st = _build(g, obs, f, a, later, rng) if a is not None else None
        if st is None:
            misses += 1
            continue
        out.append(st)
    if not out:
        raise GameError(f"no world consistent with seat {obs['seat']}'s observation was found "
                        f"in {tries} tries")
    return out


def sample(g: GameDef, obs: dict, rng: random.Random):
    """One world consistent with `obs`."""
    return worlds(g, obs, rng, 1)[0]


def _build(g: GameDef, obs: dict, f: _Facts, assignment: dict, later: dict,
           rng: random.Random):
    """The state of `assignment`, replayed through the hand's actions; None if one is illegal."""
    from .state import State
    pieces = [f.known.get(p, assignment.get(p)) for p in range(f.size)]
    k, n = g.hand_size, g.seat_count
    dealt = tuple(tuple(pieces[s * k:(s + 1) * k]) for s in range(n)) + (tuple(pieces[n * k:]),)
    st = State(g, single_hand=obs["single_hand"], first_dealer=obs["dealer"])  # no draw by lot
    st.ctx.score = list(obs["score_at_deal"])
    st.ctx.hands_played = obs["hands_played"]
    if "chips" in obs:
        st.ctx.chips = list(obs["chips"])
    if "turn_before" in obs:  # deal.turn reads the turn before; the deal recomputes this one
        st.ctx.turn = obs["turn_before"]
    st.deals = obs["deals"] - 1
    try:
        st.apply_deal(dealt if g.stock else dealt[:n])
        if "turn" in obs and st.ctx.turn != obs["turn"]:
            return None  # the turn is public (it may say who holds a card)
        for time, (player, a) in enumerate(obs["hand_actions"]):
            if player == CHANCE:
                continue
            if st.current_player() != player:
                return None
            if a is HIDDEN:
                a = _choose_bury(st, player, later.get(player, {}), time, f, rng)
                if a is None:
                    return None
            st.apply_action(a)
    except CallerError:
        return None
    return st


def _later_plays(obs: dict) -> dict:
    out: dict[int, dict] = {}
    for time, (player, a) in enumerate(obs["hand_actions"]):
        if player != CHANCE and a is not HIDDEN:
            out.setdefault(player, {})[a] = time
    return out


def _choose_bury(st, seat: int, later: dict, time: int, f: _Facts, rng: random.Random):
    """A bury for `seat`: what its later voids rule out first, never a piece it plays later."""
    g = st.game
    legal = st.legal_actions()
    base = g.actions.bury_base
    keep = [a for a in legal if (a - base) not in later and
            not any(g.actions.lay_action(a - base, i) in later for i in range(len(g.actions.arms)))]
    if not keep:
        return None
    must = [a for a in keep if any(sv == seat and tv > time and m >> (a - base) & 1
                                   for tv, sv, m in f.voids)]
    pick = must or keep
    return pick[rng.randrange(len(pick))]
