"""What a person sees at each turn: the status bar, the trick or the layout, the hand with the
legal pieces numbered (the others dimmed, or bracketed without colour) and marked, the choices.

Everything shown comes from the person's observation and the ruleset (`display`), never from a
hidden piece; no game's words are written here.
"""

from __future__ import annotations

from ..definition import value_str
from ..engine.explain import led_words
from ..records.replay import by_side

BOLD, DIM, RESET = "\x1b[1m", "\x1b[2m", "\x1b[0m"


def piece_actions(gd, legal) -> dict[int, list[int]]:
    """piece id -> the positions (0-based) of the legal actions that play, bury or lay it."""
    acts = gd.actions
    out: dict[int, list[int]] = {}
    for i, a in enumerate(legal):
        kind = acts.kind(a)
        if kind == "piece":
            out.setdefault(a, []).append(i)
        elif kind == "bury":
            out.setdefault(a - acts.bury_base, []).append(i)
        elif kind == "lay":
            out.setdefault(acts.lay_of(a)[0], []).append(i)
    return out


def symbols(st) -> dict[int, str]:
    """piece id -> the symbols of the marks it carries now, in the ruleset's order."""
    out: dict[int, str] = {}
    carried = st.marks()
    for m in st.game.marks:
        for p in carried.get(m.name, ()):
            out[p] = out.get(p, "") + m.symbol
    return out


def legend(gd) -> str:
    return "  ".join(f"{m.symbol} {m.name}: {m.description}" if m.description
                     else f"{m.symbol} {m.name}" for m in gd.marks)


def status(st, seat: int, obs: dict) -> str:
    """The bar: the match score, this hand's points (and tricks), the bid and bidder, the
    declarations."""
    gd = st.game
    parts = [f"score {by_side(gd, obs['score'])}"]
    if gd.match.stake is not None:
        parts[0] = f"chips {', '.join(f'{gd.seat_names[s]} {c}' for s, c in enumerate(st.ctx.chips))}"
    hand = f"this hand: points {by_side(gd, obs['points'])}"
    if obs.get("phase") in ("play", "lead") or any(obs.get("tricks", ())):
        hand += f"; tricks {'-'.join(map(str, obs['tricks']))}"
    parts.append(hand)
    bid, bidder = st.standing_bid  # while the auction is on, the highest bid so far
    if bidder >= 0:
        parts.append(f"bid {gd.bids[bid].label} by {gd.seat_names[bidder]}"
                     + (f" ({obs['contract']})" if obs.get("contract") else ""))
    elif obs.get("contract") and len(gd.contracts) > 1:
        parts.append(obs["contract"])
    decl = {k: v for k, v in (obs.get("declarations") or {}).items()
            if v != next(d.default for d in gd.declarations if d.name == k)}
    if decl:
        said = gd.declaration_names
        parts.append(", ".join(f"{said.get(k, k)} {value_str(v)}" for k, v in decl.items()))
    return " | ".join(parts)


def table(st, obs: dict) -> list[str]:
    """The trick so far (who played what, the suit led), or the layout (its line and arms, the
    open ends, the spinner, the stock)."""
    gd = st.game
    if obs.get("layout"):
        lay = obs["layout"]
        out = [f"layout: {lay['line']}"]
        arms = [f"{k} {v}" for k, v in lay.items() if k != "line"]
        if arms:
            out[0] += "   (spinner arms: " + "; ".join(arms) + ")"
        ends = [a for a in st.layout.arms if a.playable] if st.layout is not None else []
        info = [f"open ends: {', '.join(f'{a.name} {a.open}' for a in ends)}"] if ends else []
        if st.spinner >= 0:
            info.append(f"spinner {gd.pieces.names[st.spinner]}")
        info.append(f"stock {obs.get('stock_size', 0)}")
        out.append("  " + "; ".join(info))
        return out
    if st.layout is not None:
        return [f"layout: empty (the first piece sets it down); stock {obs.get('stock_size', 0)}"]
    if st.play is None:
        return []
    n = st.tricks_played + 1
    trick = obs.get("trick") or []
    if not trick:
        return [f"trick {n}: you lead" if st.actor == obs["seat"] else f"trick {n}"]
    tables = st.tables
    led = led_words(gd, tables, tables.suits[st.led]) if st.led >= 0 else ""
    plays = "   ".join(f"{gd.seat_names[s]} {p}" for s, p in trick)
    return [f"trick {n}{led}: {plays}"]


def hand_line(st, seat: int, legal, colour: bool) -> str:
    """The person's pieces: legal ones with their choice numbers, the others dimmed (bracketed
    without colour), each with its mark symbols."""
    gd = st.game
    marks = symbols(st)
    nums = piece_actions(gd, legal)
    plain = not nums  # no piece to choose (an auction, a declaration): none is dimmed
    out = []
    for p in gd.mask_pieces(st.hands[seat]):
        text = gd.pieces.names[p] + marks.get(p, "")
        if p in nums:
            label = "/".join(str(i + 1) for i in nums[p])
            out.append(f"{label}) {BOLD}{text}{RESET}" if colour else f"{label}) {text}")
        elif plain:
            out.append(text)
        else:
            out.append(f"{DIM}{text}{RESET}" if colour else f"[{text}]")
    return "   ".join(out) if out else "(none)"


def choices(st, legal) -> str:
    gd = st.game
    return "  ".join(f"{i + 1}) {gd.action_label(a)}" for i, a in enumerate(legal))


def screen(st, seat: int, legal, colour: bool) -> str:
    """One turn's screen."""
    gd = st.game
    obs = st.observation(seat)
    phase = obs.get("phase", "")
    lines = ["", f"--- hand {st.hands_played + 1}, {phase}: your turn, {gd.seat_names[seat]} ---",
             status(st, seat, obs)]
    lines += table(st, obs)
    lines.append(f"your pieces: {hand_line(st, seat, legal, colour)}")
    if gd.marks:
        lines.append(f"marks: {legend(gd)}")
    lines.append(f"choices: {choices(st, legal)}")
    return "\n".join(lines)
