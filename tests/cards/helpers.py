"""The card fixtures and constructed deals, through the public Game/State API."""

from __future__ import annotations

import functools
from pathlib import Path

from tablerules.game import load_game

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "cards"
PLAIN52 = str(FIXTURES / "plain52.yaml")
TAROT4 = str(FIXTURES / "tarot4.yaml")
TAROT_LIB = str(Path(__file__).resolve().parents[2] / "rulesets" / "lib" / "tarot.yaml")
TAROKY = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV",
          "XV", "XVI", "XVII", "XVIII", "XIX", "XX", "XXI", "Skyz"]


@functools.lru_cache(maxsize=None)
def _game(ref: str, items: tuple):
    return load_game(ref, dict(items))


def game(ref: str = TAROT4, **options):
    return _game(ref, tuple(sorted(options.items())))


def hand(g, dealt: list[str], dealer: int = 3):
    """A hand from five lists of card names (four hands, then the stock), checked whole."""
    gd = g.definition
    dealt = [part.split() if isinstance(part, str) else list(part) for part in dealt]
    names = [n for part in dealt for n in part]
    assert sorted(names) == sorted(gd.pieces.names), (
        sorted(set(gd.pieces.names) - set(names)), [n for n in names if names.count(n) > 1])
    return g.new_hand(dealt, dealer)


def legal(st) -> list[str]:
    return sorted(st.action_to_string(a) for a in st.legal_actions())


def play(st, *names: str):
    for n in names:
        a = st.game.string_to_action(n)
        assert a in st.legal_actions(), f"{n} not legal; legal: {legal(st)}"
        st.apply_action(a)
    return st


def mask(g, names) -> int:
    pcs = g.definition.pieces
    return sum(1 << pcs.names.index(n) for n in names)
