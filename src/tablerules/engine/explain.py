"""Why an action is not legal now, in the game's words, for any front end (`State.why_not`).

The sentences are generic (following a suit, matching an open end, beating a bid); the words of a
game come from its ruleset: suit names from `display.suits`, the reason of a contract's own
`legal` rule from `display.reasons`, bid labels, contract titles and piece names. A suit without
a name is said by its value; a `legal` rule without a reason is said by the pieces it allows.
"""

from __future__ import annotations

from ..definition import value_str
from ..errors import listed
from .phases import AUCTION, DEAL, DECLARE, DONE, EXCHANGE, LAYOUT, LEAD, PLAY


def why_not(st, action: int) -> str | None:
    """None when `action` is legal now; else one sentence saying why not, to the seat to move."""
    if st.phase == DONE:
        return "the game is over"
    if st.phase == DEAL:
        return "the pieces are being dealt"
    legal = st.legal_actions()
    if action in legal:
        return None
    g = st.game
    try:
        kind = g.actions.kind(action)
    except ValueError:
        return f"there is no action {action} in this game"
    ph = st.phase
    if ph == PLAY and kind == "piece":
        return _trick(st, action, legal)
    if ph == LAYOUT and kind in ("piece", "lay", "fixed"):
        return _layout(st, action, kind, legal)
    if ph == AUCTION:
        return _auction(st, action, kind, legal)
    if ph == EXCHANGE and kind in ("bury", "piece"):
        return _bury(st, action, kind, legal)
    if ph == LEAD:
        return f"name the suit you lead: {_names(st, legal)}"
    if ph == DECLARE and kind == "declare":
        return f"the rules do not allow {g.action_label(action)} now; you may choose " \
               f"{_names(st, legal)}"
    return f"{g.action_label(action)} is not one of your choices now; you may choose " \
           f"{_names(st, legal)}"


def suit_name(game, value) -> str:
    """A suit for people: its `display.suits` name, else its value as the ruleset writes it."""
    text = value_str(value)
    return game.suit_names.get(text, text)


def led_words(game, tables, value) -> str:
    """What a trick's line says of the suit led (`value`, under the contract's `tables`): ", NAME
    led", NAME its suit_name; nothing when every piece leads the one suit (nothing worth
    saying; `tables` None: not known, the suit said). play's screen and replay's account both
    say it so."""
    if tables is not None and len(set(map(str, tables.lead))) <= 1:
        return ""
    return f", {suit_name(game, value)} led"


def _names(st, actions) -> str:
    return ", ".join(st.game.action_label(a) for a in actions)


def _pieces(game, mask: int) -> str:
    """The pieces of a mask: the 5-3, the 5-1 and the 5-0."""
    return listed([f"the {game.pieces.names[p]}" for p in game.mask_pieces(mask)])


def _reason(st, part: str) -> str | None:
    c = st.ctx.contract
    return st.game.reasons.get((st.game.contracts[c].name, part)) if c >= 0 else None


def _trick(st, piece: int, legal) -> str:
    g = st.game
    hand = st.hands[st.actor]
    name = g.pieces.names[piece]
    if not hand >> piece & 1:
        return f"you do not hold the {name}"
    t = st.tables
    led = st.led
    if led >= 0 and t.must_follow:
        follow = hand & t.follow_mask[led]
        suit = suit_name(g, t.suits[led])
        own = t.lead[piece]
        own = own if isinstance(own, tuple) else (own,)
        of = "" if led in own else \
            f" (the {name} is of {' or '.join(suit_name(g, t.suits[s]) for s in own)})"
        if follow and not follow >> piece & 1:
            return f"you must follow {suit}: you hold {_pieces(g, follow)}{of}"
        allowed = t.follow_of(led, hand)
        if not follow and allowed != hand and not allowed >> piece & 1:
            return (f"you hold no {suit}, and the next rule to follow asks for "
                    f"{_pieces(g, allowed)}")
    return _own_rule(st, "play", legal, f"the {name}")


def _own_rule(st, part: str, legal, what: str) -> str:
    """The contract's own `legal` rule refused `what`: its reason from the ruleset, or the
    pieces it allows."""
    reason = _reason(st, part)
    g = st.game
    verb = "play" if part == "play" else "bury"
    base = g.actions.bury_base
    ok = ", ".join(g.pieces.names[a - base] if g.actions.kind(a) == "bury"
                   else g.action_to_string(a) for a in legal)
    if reason:
        return f"you must {verb} {reason}: {ok}"
    title = g.contracts[st.ctx.contract].title
    return f"{title}: the rules do not allow {what} now; you may {verb} {ok}"


def _layout(st, action: int, kind: str, legal) -> str:
    g = st.game
    acts = g.actions
    lay = st.layout
    hand = st.hands[st.actor]
    if lay.claim is not None:
        return f"say first whether you claim the count: {_names(st, legal)}"
    plays = [a for a in legal if acts.kind(a) in ("lay", "piece")]
    if kind == "fixed":
        name = g.action_to_string(action)
        if action == acts.draw_action:
            if not st.stock:
                return "the stock is empty: you cannot draw"
            return f"you may not draw while you can play: {_names(st, plays)}"
        if action == acts.knock_action:
            if plays:
                return f"you may not knock while you can play: {_names(st, plays)}"
            return "you may not knock while the stock has pieces: draw"
        return f"{name} is not one of your choices now; you may choose {_names(st, legal)}"
    piece, arm = (action, -1) if kind == "piece" else acts.lay_of(action)
    name = g.pieces.names[piece]
    if not hand >> piece & 1:
        return f"you do not hold the {name}"
    if lay.center < 0 or not plays:
        if not plays:
            return f"you have no piece to lay; you may {_names(st, legal)}"
        return _own_rule(st, "play", legal, f"the {name}")
    arms = [a for a in lay.arms if a.playable]
    ends = ", ".join(f"{a.name} {a.open}" for a in arms)
    fits = [a for a in arms if g.number_mask[a.open] >> piece & 1]
    if not fits:
        return f"the {name} matches no open end (open ends: {ends})"
    if arm >= 0:
        target = lay.arms[arm] if arm < len(lay.arms) else None
        if target is None or not target.playable:
            where = acts.arms[arm] if arm < len(acts.arms) else f"arm {arm}"
            return f"the {where} arm is not open; the {name} goes {' or '.join(a.name for a in fits)}"
        if target not in fits:
            return (f"the {name} does not match the {target.name} end ({target.open}); it goes "
                    f"{' or '.join(a.name for a in fits)}")
    return _own_rule(st, "play", legal, f"the {name}")


def _auction(st, action: int, kind: str, legal) -> str:
    g = st.game
    acts = g.actions
    b_state = st.bidding
    if b_state.pending:
        return f"answer the bid first: {_names(st, legal)}"
    if action == acts.pass_action:
        return f"you may not pass now; you must bid: {_names(st, legal)}"
    if kind != "bid":
        return f"{g.action_to_string(action)} is not a speech in the auction; you may " \
               f"{_names(st, legal)}"
    b = acts.bid_of(action)
    bid = g.bids[b]
    a = g.auction
    high = st.ctx.high
    bids = [x for x in legal if x != acts.pass_action]
    if b_state.all_passed:
        return f"everybody passed: you must bid {_names(st, bids)}"
    if high > 0 and b not in a.beats.get(high, ()):
        return f"a bid must beat {g.bids[high].label}"
    forced = bool(a.forced_when(st.ctx)) if a.forced_when is not None else False
    if forced and b not in a.forced_bids:
        return f"you may not pass, and must bid {_names(st, bids)}"
    c = g.contracts[bid.contract]
    if c.requires is not None and not c.requires(st.ctx):
        return f"your hand does not allow a bid of {c.title}"
    if high > 0:
        return f"a bid must beat {g.bids[high].label}"
    return f"bid {bid.label} is not open now; you may {_names(st, legal)}"


def _bury(st, action: int, kind: str, legal) -> str:
    g = st.game
    if st.setup.taking:
        return f"say first whether you take the stock: {_names(st, legal)}"
    piece = action if kind == "piece" else action - g.actions.bury_base
    name = g.pieces.names[piece]
    if not st.hands[st.actor] >> piece & 1:
        return f"you do not hold the {name}"
    if g.actions.bury_base + piece in legal:
        return f"say bury {name}"
    return _own_rule(st, "exchange", legal, f"the {name}")
