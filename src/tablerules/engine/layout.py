"""Layout play: pieces laid end to end on open arms, a spinner, draws, knocks, scoring the ends.

The first piece is the center. The line has two arms (west, east); a spinner (the first double,
when the contract plays one) opens its further arms (north, south) once both line arms are
covered. Arm names come from the definition; an arm is a record, not an index.

With `play.claim` a lay that scores opens a claim: the player decides `claim` or `pass`, then
each opponent in turn (left of the player) may claim the count for its own side; a seat is asked
only when the count would score for it. Unclaimed, the count is lost.
"""

from __future__ import annotations

from . import events
from .phases import HAND_OVER, INTERRUPTED, LAYOUT


class Arm:
    """One arm of the layout: the number open at its end, its end piece, the pieces on it."""

    __slots__ = ("index", "name", "open", "end", "pieces", "playable")

    def __init__(self, index: int, name: str, open_: int, end: int, playable: bool):
        self.index = index
        self.name = name
        self.open = open_
        self.end = end
        self.pieces: list[str] = []  # oriented "near-far" from the center
        self.playable = playable

    def copy(self) -> "Arm":
        a = Arm(self.index, self.name, self.open, self.end, self.playable)
        a.pieces = list(self.pieces)
        return a


class Claim:
    """A count waiting to be claimed: who laid it, the seats still to ask, who passed."""

    __slots__ = ("layer", "count", "asking", "passed")

    def __init__(self, layer: int, count: int, asking: list):
        self.layer = layer
        self.count = count  # what the lay counts for the player's own side
        self.asking = asking  # the opponents still to ask, in turn
        self.passed: list[int] = []

    def copy(self) -> "Claim":
        c = Claim(self.layer, self.count, list(self.asking))
        c.passed = list(self.passed)
        return c


class Layout:
    """The hand's layout and its seats: arms, center, spinner, knocks in a row."""

    __slots__ = ("spec", "arms", "line", "spins", "center", "spinner", "pending", "knocks",
                 "cur_ends", "active", "nxt", "leader", "plays_left", "piece_ends", "legal_fn",
                 "claim")

    def copy(self) -> "Layout":
        c = Layout.__new__(Layout)
        for f in Layout.__slots__:
            setattr(c, f, getattr(self, f))
        c.arms = [a.copy() for a in self.arms]
        c.line = c.arms[:len(self.line)]
        c.spins = c.arms[len(self.line):]
        c.pending = set(self.pending)
        c.claim = self.claim.copy() if self.claim is not None else None
        return c

    @property
    def ends(self) -> tuple:
        """Open ends that count: (pips, end piece is a double, end piece is the spinner)."""
        e = self.cur_ends
        if e is None:
            e = self.cur_ends = self._ends()
        return e

    def _ends(self) -> tuple:
        if self.center < 0:
            return ()
        ends = self.piece_ends
        out = []
        for a in self.line:
            h, lo = ends[a.end]
            out.append((a.open, h == lo, a.end == self.spinner))
        for a in self.spins:
            if a.playable and a.pieces:
                h, lo = ends[a.end]
                out.append((a.open, h == lo, a.end == self.spinner))
        return tuple(out)

    def arm_ends(self) -> tuple:
        """What a player may lay on: (pips, end piece is a double, end piece is the spinner, arm
        name) for each line arm, then each spinner arm open to play, empty or not; the same as
        `text()` reads (an empty spinner arm ends on the spinner)."""
        if self.center < 0:
            return ()
        ends = self.piece_ends
        sp = self.spinner
        return tuple([(a.open, ends[a.end][0] == ends[a.end][1], a.end == sp, a.name)
                      for a in self.arms if a.playable])

    @property
    def spinner_open(self) -> bool:
        return self.spinner >= 0 and bool(self.pending)

    @property
    def spinner_pips(self) -> int:
        return self.piece_ends[self.spinner][0] if self.spinner >= 0 else 0

    def text(self) -> dict[str, str]:
        """The layout as text: the line west to east, and each open spinner arm outward."""
        if self.center < 0:
            return {}
        h, lo = self.piece_ends[self.center]
        west = [_flip(p) for p in reversed(self.line[0].pieces)]
        line = west + [f"{h}-{lo}"] + [p for a in self.line[1:] for p in a.pieces]
        if self.spinner >= 0 and self.spinner != self.center:
            d = self.piece_ends[self.spinner][0]
            line = [x + "*" if x == f"{d}-{d}" else x for x in line]
        elif self.spinner == self.center:
            line = [x + "*" if i == len(west) else x for i, x in enumerate(line)]
        out = {"line": " ".join(line)}
        for a in self.spins:
            if a.playable:
                out[a.name] = " ".join(a.pieces) or "open"
        return out


def _flip(p: str) -> str:
    a, _, b = p.partition("-")
    return f"{b}-{a}"


def start(st, c, active: tuple, nxt: tuple, left: int, leader: int) -> None:
    lay = Layout()
    lay.spec = c.play.layout
    lay.arms = []
    lay.line = []
    lay.spins = []
    lay.center = -1
    lay.spinner = -1
    lay.pending = set()
    lay.knocks = 0
    lay.cur_ends = None
    lay.active = active
    lay.nxt = nxt
    lay.leader = leader
    lay.plays_left = left
    lay.piece_ends = st.game.pieces.ends
    lay.legal_fn = c.play.legal
    lay.claim = None
    st.layout = lay
    st.ctx.layout = lay
    st.ctx.actor = leader
    st.phase = LAYOUT


def legal(st) -> tuple[int, ...]:
    g = st.game
    lay = st.layout
    if lay.claim is not None:
        return (g.actions.pass_action, g.actions.claim_action)
    hand = st.hands[st.ctx.actor]
    if lay.center < 0:
        first = g.mask_pieces(hand)
        return first if lay.legal_fn is None else st.ctx.allowed(lay.legal_fn, first)
    acts = g.actions
    ids = acts.lay_ids
    masks = g.number_mask
    plays = []
    for a in lay.arms:
        if a.playable:
            m = hand & masks[a.open]
            if m:
                plays.extend(map(ids[a.index].__getitem__, g.mask_pieces(m)))
    if len(plays) > 1:
        plays.sort()
    if lay.legal_fn is not None:
        plays = list(st.ctx.allowed(lay.legal_fn, plays, lambda a: acts.lay_of(a)[0]))
    spec = lay.spec
    extra = []
    if st.stock and (spec.may_draw or not plays):
        extra.append(acts.draw_action)
    if not plays and not (st.stock and spec.must_draw):
        extra.append(acts.knock_action)
    return tuple(extra + plays)


def apply(st, action: int):
    """A lay, a draw or a knock; HAND_OVER when the hand ends, INTERRUPTED when the match does."""
    g = st.game
    lay = st.layout
    acts = g.actions
    seat = st.ctx.actor
    if lay.claim is not None:
        return _claim(st, seat, action == acts.claim_action)
    if action == acts.draw_action:  # the next piece of the stock, in dealt order
        t = st.stock[0]
        st.stock = st.stock[1:]
        st.hands[seat] |= 1 << t
        if st.events is not None:
            st.events.append(events.draw(st, seat, t))
        return None
    if action == acts.knock_action:
        lay.knocks += 1
        if st.events is not None:
            st.events.append(events.knock(seat))
        if lay.knocks >= len(lay.active):
            st.ctx.blocked = True
            return HAND_OVER
        st.ctx.actor = lay.nxt[seat]
        return None
    lay.knocks = 0
    if action < len(g.pieces):
        t, on = action, "first"
        _set_center(lay, t, acts.arms)
    else:
        t, i = acts.lay_of(action)
        on = _extend(lay, lay.arms[i], t)
    st.hands[seat] &= ~(1 << t)
    lay.plays_left -= 1
    lay.cur_ends = None
    ctx = st.ctx
    if ctx.plays is not None:
        ctx.plays[t] = seat
    scored = lay.spec.scores(ctx)
    claim = scored and lay.spec.claim
    if scored and not claim:
        _score(ctx, g.side_of[seat], scored)
    if st.events is not None:
        st.events.append(events.lay(st, seat, t, on, scored))
    if not st.hands[seat]:
        ctx.went_out = seat  # also when this lay wins the match and cuts the hand short
    if claim:  # the player is asked first; then the opponents, in turn from its left
        side = g.side_of[seat]
        others = []
        s = lay.nxt[seat]
        while s != seat:
            if g.side_of[s] != side:
                others.append(s)
            s = lay.nxt[s]
        lay.claim = Claim(seat, scored, others)
        return None  # the player stays to move
    return _after(st, seat, scored)


def _score(ctx, side: int, points: int) -> None:
    ctx.add(side, points, 0)
    ctx.score[side] += points


def _after(st, seat: int, scored: int):
    """After `seat`'s lay (and its claim): the match may be won, the hand over, or play goes on."""
    g = st.game
    if scored and not st.single_hand and g.match.during_hand and g.match_over(st.ctx):
        return INTERRUPTED
    if not st.hands[seat]:
        return HAND_OVER
    st.ctx.actor = st.layout.nxt[seat]
    return None


def _claim(st, seat: int, claimed: bool):
    """`seat` claims the count or passes; the next opponent for whom it scores is asked."""
    g = st.game
    lay = st.layout
    cl = lay.claim
    ctx = st.ctx
    points = 0
    if claimed:
        points = cl.count if seat == cl.layer else lay.spec.scores(ctx)  # ctx.actor is seat
        _score(ctx, g.side_of[seat], points)
    else:
        cl.passed.append(seat)
        while cl.asking:
            ctx.actor = cl.asking.pop(0)
            if lay.spec.scores(ctx):  # the count would score for this seat's side
                return None
    lay.claim = None
    if st.events is not None:
        st.events.append(events.claim(st, seat if claimed else -1, points, cl.passed))
    return _after(st, cl.layer, points)


def _set_center(lay: Layout, t: int, names: tuple) -> None:
    h, lo = lay.piece_ends[t]
    n_line = len(lay.spec.line_arms)
    lay.center = t
    lay.arms = [Arm(i, name, h if i == 0 else lo, t, i < n_line) for i, name in enumerate(names)]
    lay.line = lay.arms[:n_line]
    lay.spins = lay.arms[n_line:]
    lay.pending = set()
    if lay.spec.spinner and h == lo:
        lay.spinner = t
        lay.pending = {a.index for a in lay.line}


def _extend(lay: Layout, arm: Arm, t: int) -> str:
    """Lay piece `t` on `arm`; returns the arm's name."""
    ends = lay.piece_ends
    h, lo = ends[t]
    far = lo if arm.open == h else h
    arm.pieces.append(f"{arm.open}-{far}")
    arm.open = far
    arm.end = t
    if arm.index in lay.pending:
        lay.pending.discard(arm.index)
        if not lay.pending:  # every line arm covered: the spinner's other arms open
            d = ends[lay.spinner][0]
            opens = lay.spec.spinner_arms
            for a in lay.spins:
                if a.name in opens:
                    a.open, a.end, a.playable = d, lay.spinner, True
    elif lay.spec.spinner and lay.spinner < 0 and h == lo and arm in lay.line:
        lay.spinner = t
        lay.pending = {arm.index}
    return arm.name
