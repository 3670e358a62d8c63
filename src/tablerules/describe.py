"""Readable descriptions of a compiled game: its options and the phases of a hand and match."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .definition import value_str
from .load.ruleset import builtin_names, builtin_path, read_tree

if TYPE_CHECKING:
    from .game import Game


def list_builtins() -> list[dict[str, str]]:
    """Name and title of every shipped ruleset (read, not compiled)."""
    out = []
    for name in builtin_names():
        try:
            data = read_tree(builtin_path(name)).data
            title = str(data.get("title", ""))
            base = data.get("extends")
        except Exception as e:  # a broken shipped file is shown, not fatal for the list
            title, base = f"(unreadable: {e})", None
        shown = base if isinstance(base, str) and base in builtin_names() else None  # not a library
        out.append({"name": name, "title": title, **({"extends": shown} if shown else {})})
    return out


def _set_of(gd, src: dict) -> dict:
    """The set itself: a domino set's top pip, or each suit's cards of a pack in rank order."""
    pcs = gd.pieces
    if pcs.kind != "cards":
        return {"max_pip": src["max_pip"]}
    suits: dict = {}
    for i in sorted(range(len(pcs)), key=lambda i: pcs.attrs["rank"][i]):
        suits.setdefault(pcs.attrs["suit"][i], []).append(pcs.names[i])
    order = list(dict.fromkeys(pcs.attrs["suit"]))
    trumps = next((pcs.attrs["suit"][i] for i in range(len(pcs)) if pcs.attrs["trump"][i]), None)
    return {"kind": "cards", "suits": {s: suits[s] for s in order}, "trumps": trumps}


def describe(game: Game) -> dict[str, Any]:
    """A structured account of the ruleset, for `show` (text or JSON)."""
    gd = game.definition
    src = gd.source
    contracts = []
    for c in gd.contracts:
        spec = src["contracts"][c.name]
        mine = [b for b in gd.bids if b.contract == c.index]
        levels = [b.level for b in mine]
        labelled = any(b.label != f"{c.name} {b.level}" for b in mine)
        play = spec.get("play") or {}
        contracts.append({
            "name": c.name,
            "title": c.title,
            "bids": (", ".join(b.label for b in mine) if labelled else _ranges(levels))
                    if gd.auction.fixed_contract < 0 else "(played every hand, no auction)",
            "requires": (spec.get("bid") or {}).get("requires"),
            "declare": {gd.declarations[s.decl].name: {
                "by": (spec.get("declare") or {}).get(gd.declarations[s.decl].name, {}).get("by", "bidder"),
                "choices": [value_str(v) for v in s.choices]} for s in c.declare},
            "exchange": _exchange(c, spec.get("exchange"), [d.name for d in gd.declarations]),
            "play": {k: play[k] for k in ("mode", "leader", "sits_out", "lead", "follows",
                                          "must_follow", "legal", "rank", "tie_break", "trick_points",
                                          "spinner", "must_draw", "may_draw", "scores")
                     if k in play},
            "outcome": dict(spec.get("outcome") or {}),
            "like": spec.get("like"),
            "inherited": _inherited(game, c.name),
        })
    disabled = [] if gd.auction.fixed_contract >= 0 else [
        n for n in src.get("contracts", {}) if n not in {c.name for c in gd.contracts}
        or not any(b.contract_name == n for b in gd.bids)]
    return {
        "name": gd.name,
        "title": gd.title,
        "canonical": gd.canonical,
        "ruleset_hash": gd.content_hash,
        "extends": src.get("extends"),
        "options": [{"name": d.name, "type": d.type, "value": gd.options[d.name],
                     "default": d.default, "allowed": d.allowed(), "description": d.description}
                    for d in gd.option_decls.values()],
        "pieces": {"count": len(gd.pieces), **_set_of(gd, src["pieces"]),
                   "filter": src["pieces"].get("filter"),
                   "attributes": {k: v.get("value") for k, v in
                                  (src["pieces"].get("attributes") or {}).items()}},
        "seats": {"count": gd.seat_count, "names": list(gd.seat_names),
                  "sides": [list(s) for s in gd.sides],
                  **({"order": "counterclockwise"} if gd.seat_step < 0 else {})},
        "constants": dict(gd.constants),
        "phases": {
            "deal": {"hand_size": gd.hand_size, "stock": gd.stock,
                     "first_dealer": gd.first_dealer,
                     "next_dealer": (src.get("deal") or {}).get("next_dealer", "next(dealer)"),
                     **({"turn": src["deal"]["turn"]} if (src.get("deal") or {}).get("turn")
                        else {})},
            "auction": {k: v for k, v in (src.get("auction") or {}).items()},
            "contracts": contracts,
            "disabled_contracts": disabled,
            "scoring": dict(src.get("scoring") or {}),
            "pass_out": _can_pass_out(game),
        },
        "actions": gd.actions.num_actions,
    }


def _exchange(c, raw, names) -> dict | list:
    """A contract's exchange as written (a list: one exchange after another, by seat)."""
    if not c.exchange:
        return {}
    specs = raw if isinstance(raw, list) else [raw or {}]
    out = []
    for k, spec in enumerate(specs):
        ex = c.exchange_at(k)
        one = {"by": spec.get("by", "bidder"), "bury": ex.bury, "optional": ex.optional,
               "first": ex.first}
        if k == 0 and c.exchange_pos >= 0:  # placed among the declarations by its order
            at = c.setup_steps.index(("x", 0))
            one["after"] = [names[c.declare[step[1]].decl] for step in c.setup_steps[:at]]
        for key in ("take", "from", "legal"):
            if spec.get(key) is not None:
                one[key] = spec[key]
        out.append(one)
    return out if isinstance(raw, list) else out[0]


def _can_pass_out(game: Game) -> bool | None:
    """Whether every seat may pass in the first hand of a sample deal (a forced rule may stop
    it); None when the deal stops on a fault of the ruleset (`sample_fault` says it)."""
    from .errors import GameError
    try:
        return _passes_out(game)
    except GameError:
        return None


def sample_fault(game: Game):
    """The GameError that stops show's sample deal (a seat with no legal action), else None."""
    from .errors import GameError
    try:
        _passes_out(game)
    except GameError as e:
        return e
    return None


SAMPLE_DEALS = 50  # show's sample deals: whether all may pass may hang on the deal


def _passes_out(game: Game) -> bool:
    """Every seat may pass in the first hand of one of the first SAMPLE_DEALS matches of
    `validate` and `simulate --seed 0` (a forced rule may hang on the pieces dealt: a piece in
    the stock); a fault in them is one they find too, the first match's first."""
    from .engine.state import AUCTION
    from .records.runner import deal_rng
    pass_action = game.definition.actions.pass_action
    for k in range(SAMPLE_DEALS):
        st = game.new_match()
        st.deal_random(deal_rng(0, k))  # as records.runner.play_game deals match k
        if st.phase != AUCTION:
            return True
        for _ in range(game.definition.seat_count):
            if st.phase != AUCTION or pass_action not in st.legal_actions():
                break
            st.apply_action(pass_action)
        if st.phase != AUCTION or pass_action in st.legal_actions():
            return True
    return False


def _inherited(game: Game, name: str) -> dict[str, str]:
    """Each part of contract `name` copied with `like:` ("play.lead", ...) -> where it is written."""
    tree = game.tree
    if tree is None:
        return {}
    out = {}
    for p, src in sorted(tree.inherited.items(), key=lambda i: [str(x) for x in i[0]]):
        if p[:2] != ("contracts", name) or len(p) < 3:
            continue
        part = p[2:]
        if part[0] in ("declare", "play", "outcome", "bid", "exchange") and len(part) == 1:
            continue  # a whole part: each of its keys is listed
        if part[0] in ("declare", "play", "outcome", "bid", "exchange") and len(part) > 2:
            continue
        out[".".join(str(x) for x in part)] = src
    return out


def _from(c: dict, key: str) -> str:
    src = c.get("inherited", {}).get(key)
    return f"  (from {src})" if src else ""


def _ranges(levels: list[int]) -> str:
    if not levels:
        return "none (disabled)"
    levels = sorted(levels)
    parts = []
    start = prev = levels[0]
    for x in levels[1:] + [None]:
        if x is not None and x == prev + 1:
            prev = x
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if x is not None:
            start = prev = x
    return ", ".join(parts)


def _flat(text: Any) -> str:
    return " ".join(str(text).split())


def render_show(info: dict[str, Any]) -> str:
    """The text form of `describe`."""
    lines = [f"{info['name']}: {info['title']}"]
    if info.get("extends"):
        lines.append(f"  extends {info['extends']}")
    lines.append(f"  canonical name: {info['canonical']}")
    lines.append("")
    lines.append("Options (--option name=value):")
    w = max((len(o["name"]) for o in info["options"]), default=0)
    for o in info["options"]:
        val = value_str(o["value"])
        dflt = value_str(o["default"])
        set_note = "" if o["value"] == o["default"] else f" (default {dflt})"
        lines.append(f"  {o['name']:<{w}}  {val}{set_note}  [{o['type']}: {o['allowed']}]")
        lines.append(f"  {'':<{w}}  {o['description']}")
    p = info["pieces"]
    lines.append("")
    if "suits" in p:  # a pack of cards: each suit's cards, lowest first
        lines.append(f"Pieces: {p['count']} cards"
                     + (f" (filter: {p['filter']})" if p["filter"] else ""))
        for suit, cards in p["suits"].items():
            lines.append(f"  {suit}{' (trumps)' if suit == p.get('trumps') else ''}, lowest "
                         f"first: {' '.join(cards)}")
    else:
        lines.append(f"Pieces: {p['count']} (double-{p['max_pip']} set"
                     + (f", filter: {p['filter']})" if p["filter"] else ")"))
    for k, v in p["attributes"].items():
        lines.append(f"  {k}: {v}")
    s = info["seats"]
    lines.append(f"Seats: {s['count']} ({', '.join(s['names'])}); sides: "
                 + ", ".join("+".join(s["names"][i] for i in side) for side in s["sides"])
                 + ("; play goes counter-clockwise" if s.get("order") == "counterclockwise" else ""))
    if info["constants"]:
        lines.append("Constants: " + ", ".join(f"{k} = {value_str(v)}"
                                               for k, v in info["constants"].items()))
    ph = info["phases"]
    d = ph["deal"]
    lines.append("")
    lines.append("Hand:")
    lines.append(f"  1. deal: {d['hand_size']} each" + (f", stock {d['stock']}" if d["stock"] else "")
                 + "; first dealer " + (f"seat {d['first_dealer']}" if d["first_dealer"] >= 0
                                       else "by lot") + f"; next dealer: {d['next_dealer']}")
    if d.get("turn"):
        lines.append(f"     turn (whose hand it is): {' '.join(str(d['turn']).split())}")
    a = ph["auction"]
    if a.get("contract"):
        lines.append(f"  2. no auction: every hand is played as '{a['contract']}'")
    else:
        lines.append(f"  2. auction: one round from {a.get('first', 'next(dealer)')}")
    if "beats" in a:
        lines.append(f"     a bid beats the high bid when: {' '.join(str(a['beats']).split())}")
    if a.get("forced"):
        lines.append(f"     forced to bid when: {a['forced'].get('when')}; "
                     f"only: {a['forced'].get('bids', 'any bid')}")
    if a.get("contract"):
        pass
    elif isinstance(a.get("all_pass"), dict):
        lines.append(f"     all pass: seat {a['all_pass'].get('seat')} must bid: "
                     f"{a['all_pass'].get('bids', 'any bid')}")
    elif ph.get("pass_out", True) is None and a.get("forced"):
        lines.append("     all pass: not known: the sample deal stopped (the note says where)")
    elif ph.get("pass_out", True) or not a.get("forced"):
        lines.append("     all pass: the hand is thrown in and dealt again")
    else:
        lines.append(f"     all pass: cannot happen with these options (none of {SAMPLE_DEALS} "
                     "sample deals passes out): the last seat to speak must bid (the forced rule "
                     "above)")
    lines.append("  3. contracts:")
    for c in ph["contracts"]:
        lines.append(f"     {c['name']}: {c['title']}; bids {c['bids']}"
                     + (f"; requires {c['requires']}" if c["requires"] else "")
                     + (f"  (like {c['like']})"
                        if c.get("like") else ""))
        exs = c["exchange"] if isinstance(c["exchange"], list) else [c["exchange"]]
        for i, ex in enumerate(x for x in exs if x):
            what = "the stock" if "take" not in ex else f"{' '.join(str(ex['take']).split())} " \
                f"of the stock" + (f" from {ex['from']}" if "from" in ex else "")
            lines.append(f"       exchange: {ex['by']} takes {what}"
                         + (" or leaves it" if ex["optional"] else "")
                         + f", buries {ex['bury']}"
                         + (f" ({' '.join(str(ex['legal']).split())})" if "legal" in ex else "")
                         + ("" if i else f", after declaration {', '.join(map(str, ex['after']))}"
                            if "after" in ex else f", {'before' if ex['first'] else 'after'} "
                            "the declarations")
                         + _from(c, next((k for k in c["inherited"] if k.startswith("exchange.")),
                                         "")))
        for dn, dv in c["declare"].items():
            lines.append(f"       declare {dn} by {dv['by']}: {', '.join(dv['choices'])}"
                         + _from(c, f"declare.{dn}"))
        for k, v in c["play"].items():
            if k == "follows" and isinstance(v, list):  # tiers, tried in order
                v = ", else ".join(str(x) for x in v) + ", else anything"
            lines.append(f"       {k}: {' '.join(str(v).split())}" + _from(c, f"play.{k}"))
        for k, v in c["outcome"].items():
            lines.append(f"       {k}: {' '.join(str(v).split())}" + _from(c, f"outcome.{k}"))
    if ph["disabled_contracts"]:
        lines.append(f"     disabled by options: {', '.join(ph['disabled_contracts'])}")
    sc = ph["scoring"]
    lines.append(f"  4. score each side: {_flat(sc.get('hand'))}")
    chips = sc.get("chips")
    if chips:
        lines.append(f"  5. settle in chips (each seat starts with {_flat(chips.get('stake'))}; "
                     "the most chips win): what payer pays payee")
        for k, v in (chips.get("pays") or {}).items():
            lines.append(f"     {k}: {_flat(v)}")
    lines.append(f"Match ends when: {_flat(sc.get('match_over'))}")
    return "\n".join(lines)
