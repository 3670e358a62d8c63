"""A person's answer -> an action: a choice number, a legal action's name as play shows it
(GameDef.action_label), any action's name as `State.action_to_string` gives it, or a piece
(`6-4`, `4-6`, any case and spacing; a card also as face and suit name)."""

from __future__ import annotations

import re

from ..interpreter.options import is_count


def norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip().lower())


def _piece_names(gd) -> dict[str, int]:
    """Spellings of each piece: its name, a domino's ends either way, a card's face and suit."""
    out: dict[str, int] = {}
    p = gd.pieces
    for i, name in enumerate(p.names):
        out[norm(name)] = i
        if p.ends:
            hi, lo = p.ends[i]
            out[f"{lo}-{hi}"] = out[f"{hi}-{lo}"] = i
        suit, face = p.attrs.get("suit"), p.attrs.get("face")
        if suit is not None and face is not None:
            out.setdefault(norm(f"{face[i]} {suit[i]}"), i)
            out.setdefault(norm(f"{face[i]}{str(suit[i])[:1]}"), i)
    return out


def resolve(st, text: str, legal) -> tuple[int | None, str | None]:
    """(action, None) for an answer naming a legal action; (None, why) otherwise: why the
    action named is refused (`State.why_not`), or what the answer could not be read as."""
    gd = st.game
    acts = gd.actions
    t = norm(text)
    if is_count(t):
        n = int(t)
        if 1 <= n <= len(legal):
            return legal[n - 1], None
        return None, f"there is no choice {n}: choose 1 to {len(legal)}"
    said = {}  # a legal action as the person is shown it (a declaration by its display name)
    for x in legal:
        said.setdefault(norm(gd.action_label(x)), x)
    by_name = {norm(n): a for a, n in enumerate(acts.names)}
    pieces = _piece_names(gd)
    a = said.get(t, by_name.get(t))
    if a is None:  # a piece spelled another way, alone or before an arm or after "bury"
        words = t.rsplit(" ", 1)
        if t in pieces:
            a = _piece_action(st, pieces[t], legal)
            if isinstance(a, str):
                return None, a
        elif len(words) == 2 and words[0] in pieces and words[1] in acts.arms:
            a = acts.lay_action(pieces[words[0]], acts.arms.index(words[1]))
        elif t.startswith("bury ") and t[5:] in pieces:
            a = acts.bury_base + pieces[t[5:]]
    if a is None:
        return None, f"{text.strip()!r} is not a choice: type its number or its name (help lists them)"
    if a in legal:
        return a, None
    return None, st.why_not(a)


def _piece_action(st, piece: int, legal):
    """The legal action a bare piece stands for now: play it, bury it, or lay it where it fits
    (a text asking which arm when it fits more than one); the piece itself when none is legal."""
    acts = st.game.actions
    mine = [a for a in legal if a == piece or (acts.kind(a) == "bury" and a - acts.bury_base == piece)
            or (acts.kind(a) == "lay" and acts.lay_of(a)[0] == piece)]
    if len(mine) == 1:
        return mine[0]
    if len(mine) > 1:
        return "it goes more than one way: say " + " or ".join(
            st.game.action_to_string(a) for a in mine)
    if st.layout is not None and st.layout.center >= 0:
        return piece  # why_not says which end it does not match
    if acts.kind(legal[0]) == "bury":
        return acts.bury_base + piece
    return piece
