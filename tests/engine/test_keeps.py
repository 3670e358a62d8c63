"""The per-piece records (who played, whose trick took, who buried each piece) are kept only for
a ruleset whose expressions read them; reading them gives the same game either way."""

from __future__ import annotations

import pytest

from tablerules.game import load_game


@pytest.mark.parametrize("name, keeps", [("texas42", set()), ("moon", set()),
                                         ("allfives", set()),
                                         ("taroky", {"plays", "taken", "laid"})])
def test_shipped_rulesets_keep_what_they_read(name, keeps):
    assert load_game(name).definition.keeps == keeps


def _with(tmp_path, expr: str, function: str | None = None):
    body = ["extends: texas42", "name: keeps-probe", "contracts:", "  points:",
            "    outcome:", f"      over: \"early_end and ({expr})\""]
    if function:
        body += ["functions:", f"  \"probe(t: tile)\": \"{function}\""]
    p = tmp_path / "probe.yaml"
    p.write_text("\n".join(body) + "\n")
    return load_game(str(p)).definition


def test_a_hook_reading_played_by_keeps_plays(tmp_path):
    gd = _with(tmp_path, "played_by(piece(6, 6)) == bidder and tricks(bidder_side) == 7")
    assert gd.keeps == {"plays"}


def test_a_function_body_counts_as_read(tmp_path):
    gd = _with(tmp_path, "probe(piece(6, 6)) > 7", function="trick_of(t) + taken_by(t)")
    assert gd.keeps == {"taken"}
