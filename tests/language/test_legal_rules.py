"""Legality rules that read the suit led, rules in layout play, and functions over open ends."""

from __future__ import annotations

import random
from pathlib import Path

from tablerules.game import load_game

ROOT = Path(__file__).resolve().parents[2]

TINY = """\
name: tiny
title: Two-hand tricks
seats:
  count: 2
  sides: [[0], [1]]
pieces:
  max_pip: 3
deal:
  hand_size: 5
auction:
  first: "next(dealer)"
contracts:
  tricks:
    bid:
      levels: "range(1, 4)"
    play:
      leader: bidder
      lead: "tile.high"
      rank: "tile.pips"
      legal: "{legal}"
    outcome:
      made: "tricks(bidder_side) >= bid.level"
scoring:
  hand: "bid.marks if made == (side == bidder_side) else 0"
  match_over: "any(score(s) >= 3 for s in sides)"
"""


def tiny(tmp_path, legal: str):
    p = tmp_path / "tiny.yaml"
    p.write_text(TINY.format(legal=legal), encoding="utf-8")
    return load_game(str(p))


def decisions(g, hands=200, seed=3):
    """(state before, action) for every play decision of random matches."""
    rng = random.Random(seed)
    out = []
    for _ in range(hands):
        st = g.new_match()
        while not st.is_terminal() and st.hands_played == 0:
            if st.is_chance_node():
                st.deal_random(rng)
                continue
            legal = st.legal_actions()
            if st.tables is not None:
                out.append((st.clone(), legal))
            st.apply_action(rng.choice(legal))
    return out


def test_a_legality_rule_reads_the_suit_led(tmp_path):
    # the follower must play a piece of the suit led when it holds one, by a legality rule alone
    g = tiny(tmp_path, "leading or led == -1 or tile.high == led or "
                       "not any(t.high == led for t in hand)")
    names = g.definition.pieces.ends
    seen_follow = 0
    for st, legal in decisions(g):
        if not st.trick:
            continue
        led = st.tables.suits[st.led]
        held = [t for t in st.game.mask_pieces(st.hands[st.current_player()])]
        if any(names[t][0] == led for t in held):
            assert all(names[t][0] == led for t in legal)
            seen_follow += 1
    assert seen_follow > 20


def test_the_suit_led_is_minus_one_when_leading(tmp_path):
    g = tiny(tmp_path, "not leading or led == -1")
    assert decisions(g, hands=20)  # a leader always has a legal piece: led is -1 then


def test_a_legality_rule_holds_in_layout_play(tmp_path):
    text = (ROOT / "rulesets" / "allfives.yaml").read_text(encoding="utf-8")
    text = text.replace("      mode: layout\n", "      mode: layout\n"
                        "      legal: \"not tile.double or all(t.double for t in hand)\"\n")
    p = tmp_path / "nodoubles.yaml"
    p.write_text(text, encoding="utf-8")
    g = load_game(str(p))
    gd = g.definition
    rng = random.Random(5)
    doubles_laid = 0
    for _ in range(100):
        st = g.new_match()
        st.deal_random(rng)
        while not st.is_terminal() and st.hands_played == 0:
            legal = st.legal_actions()
            hand = gd.mask_pieces(st.hands[st.current_player()])
            for a in legal:
                kind = gd.actions.kind(a)
                piece = a if kind == "piece" else gd.actions.lay_of(a)[0] if kind == "lay" else None
                if piece is not None and gd.pieces.attrs["double"][piece]:
                    assert all(gd.pieces.attrs["double"][t] for t in hand)
                    doubles_laid += 1
            st.apply_action(rng.choice(legal))
    assert doubles_laid > 0


def test_a_function_takes_a_list_of_ends(tmp_path):
    text = (ROOT / "rulesets" / "allfives.yaml").read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    at = lines.index("      scores: >-\n")
    end = next(i for i in range(at + 1, len(lines)) if not lines[i].startswith("        "))
    lines[at:end] = ["      scores: \"doubled(ends) * 0\"\n"]  # the folded scalar's lines
    text = "".join(lines)
    assert text.count("\nfunctions:\n") == 1
    text = text.replace("\nfunctions:\n", "\nfunctions:\n  \"doubled(es: list[end])\": "
                        "\"sum(e.pips * (2 if e.double else 1) for e in es)\"\n", 1)
    p = tmp_path / "ends.yaml"
    p.write_text(text, encoding="utf-8")
    g = load_game(str(p))
    st = g.new_match(record=True)
    rng = random.Random(1)
    st.deal_random(rng)
    while not st.is_terminal() and st.hands_played == 0:
        st.apply_action(rng.choice(st.legal_actions()))
    lays = [e for e in st.events if e["type"] == "lay"]
    assert lays and all(e["scored"] == 0 for e in lays)
