"""Bounds the state enforces itself: decisions per hand (bounds.max_steps) and deals per match."""

from __future__ import annotations

import random
import textwrap

import pytest

from tablerules.game import load_game
from tablerules.errors import RulesetFault

from support import cli


def test_a_hand_longer_than_max_steps_is_a_ruleset_fault_located_at_the_bound(tmp_path):
    p = tmp_path / "short.yaml"
    p.write_text(textwrap.dedent("""\
        name: short
        extends: texas42
        bounds:
          max_steps: 6
        """), encoding="utf-8")
    g = load_game(str(p))
    st = g.new_match()
    st.deal_random(random.Random(0))
    rng = random.Random(1)
    with pytest.raises(RulesetFault) as e:
        for _ in range(100):
            st.apply_action(rng.choice(st.legal_actions()))
    assert "within 6 decisions" in e.value.message
    located = g.locate(e.value)
    assert located.span.file == str(p) and located.span.line == 4


def test_validate_names_a_simulate_command_that_reproduces_the_fault(tmp_path):
    p = tmp_path / "short.yaml"
    p.write_text("name: short\nextends: texas42\nbounds:\n  max_steps: 6\n", encoding="utf-8")
    v = cli("validate", str(p), "--seed", "3")
    assert v.exit_code == 1
    msg = v.output
    assert "reproduce: tablerules simulate" in msg
    command = msg.split("reproduce: tablerules ", 1)[1].split(")")[0].split()
    s = cli(*command)
    assert s.exit_code == 1
    assert "within 6 decisions" in s.output
    assert "note:" not in s.output  # the random bidders' note is for a match, not a hand
