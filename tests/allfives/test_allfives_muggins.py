"""House rule `muggins` (`play.claim`): a count is scored only when claimed. After a lay that
scores, the player decides `claim` or `pass`; if the player passes, each opponent in turn from
the player's left decides, and the first to claim scores the count for its own side."""

from __future__ import annotations

import io
import json
import random

from jsonschema import Draft202012Validator

from support import cli
from tablerules.engine.worlds import worlds
from tablerules.records.replay import replay
from tablerules.records.runner import simulate

from .helpers import FULL_SET, act, events, game, legal, new_hand, pinned_game
from .test_allfives_invariants import SCHEMA
from .test_allfives_rules import EXAMPLE


def _set_down(**options):
    """East (left of the shaker North) sets the 6-4: ends 6 + 4 = 10."""
    st = new_hand(EXAMPLE, dealer=0, muggins=True, **options)
    act(st, "6-4")
    return st


def test_the_player_who_scores_decides_claim_or_pass():
    st = _set_down()
    assert st.current_player() == 1 and legal(st) == ["pass", "claim"]
    assert events(st, "lay")[-1]["scored"] == 10 and st.score == [0, 0]  # counted, not scored
    act(st, "claim")
    assert st.score == [0, 10] and st.points == [0, 10]
    assert events(st, "claim") == [{"type": "claim", "seat": 1, "side": 1, "scored": 10,
                                    "passed": [], "score": [0, 10]}]
    assert st.current_player() == 2 and "claim" not in legal(st)


def test_when_the_player_passes_an_opponent_claims_it_for_their_side():
    st = _set_down()
    act(st, "pass")
    assert st.current_player() == 2 and legal(st) == ["pass", "claim"]  # South, left of East
    act(st, "claim")
    assert st.score == [10, 0]
    assert events(st, "claim")[-1] == {"type": "claim", "seat": 2, "side": 0, "scored": 10,
                                       "passed": [1], "score": [10, 0]}
    assert st.current_player() == 2 and "6-6 west" in legal(st)  # play goes on left of East


def test_the_opponents_are_asked_in_turn_and_partners_never():
    st = _set_down()
    act(st, "pass")
    asked = [st.current_player()]
    act(st, "pass")
    asked.append(st.current_player())
    act(st, "claim")  # North, after South passed; West (East's partner) is never asked
    assert asked == [2, 0] and st.score == [10, 0]
    assert events(st, "claim")[-1]["passed"] == [1, 2]


def test_a_count_nobody_claims_is_lost():
    st = _set_down()
    act(st, "pass", "pass", "pass")
    assert st.score == [0, 0] and st.points == [0, 0]
    assert events(st, "claim")[-1] == {"type": "claim", "seat": -1, "side": -1, "scored": 0,
                                       "passed": [1, 2, 0], "score": [0, 0]}
    assert st.current_player() == 2 and "6-6 west" in legal(st)


def test_cutthroat_every_other_player_may_claim():
    st = _set_down(teams="cutthroat")
    act(st, "pass", "pass", "pass", "pass")
    assert events(st, "claim")[-1]["passed"] == [1, 2, 3, 0]


def test_a_lay_that_scores_nothing_asks_nobody():
    st = _set_down()
    act(st, "claim", "6-6 west")  # 6-6 spinner 12 + 4 = 16: no count
    assert st.current_player() == 3 and "claim" not in legal(st)
    assert len(events(st, "claim")) == 1


def test_without_muggins_the_count_is_scored_at_once():
    st = new_hand(EXAMPLE, dealer=0)
    act(st, "6-4")
    assert st.score == [0, 10] and st.current_player() == 2 and "claim" not in legal(st)
    assert not events(st, "claim")


def test_going_out_on_a_count_ends_the_hand_after_the_claim():
    hands = [["6-6"], ["5-5"], ["1-0"], ["2-1"]]
    stock = [p for p in FULL_SET if p not in ("6-6", "5-5", "1-0", "2-1")]
    st = new_hand(hands + [stock], dealer=0, hand_4=1, muggins=True)
    act(st, "5-5")  # the spinner alone: 10, and East is out
    assert not st.is_terminal() and legal(st) == ["pass", "claim"]
    act(st, "pass", "claim")  # South takes it
    assert st.is_terminal()
    hand = events(st, "hand")[0]
    assert hand["went_out"] == 1 and hand["points"] == [10, 0]
    assert hand["scored"] == [0, 15]  # the domino: 12 + 1 + 3 = 16 -> 15 for East-West


def test_a_claim_that_reaches_the_target_wins_the_match():
    g = pinned_game(muggins=True)
    st = g.new_match(record=True)
    st.score[:] = [245, 0]
    st.apply_deal(g.deal_ids(EXAMPLE))
    act(st, "6-4", "pass", "claim")  # South claims East's 10
    assert st.is_terminal() and events(st, "match")[0]["score"] == [255, 0]
    assert events(st, "match")[0]["winner"] == [0]


def test_with_exact_target_a_seat_is_asked_only_when_the_count_scores_for_it():
    g = pinned_game(muggins=True, exact_target=True)
    st = g.new_match(record=True)
    st.score[:] = [245, 0]
    st.apply_deal(g.deal_ids(EXAMPLE))
    act(st, "6-4", "pass")  # 10 would take North-South past 250: neither is asked
    assert events(st, "claim")[-1]["seat"] == -1 and events(st, "claim")[-1]["passed"] == [1]
    assert st.score == [245, 0] and st.current_player() == 2 and "claim" not in legal(st)


def _claim_states(g, count: int, seed: int):
    """Match states at a claim decision, after random play."""
    rng = random.Random(seed)
    out = []
    st = g.new_match()
    while len(out) < count:
        if st.is_terminal():
            st = g.new_match()
        if st.is_chance_node():
            st.deal_random(rng)
            continue
        if "claim" in legal(st) and rng.random() < 0.3:
            out.append(st.clone())
        st.apply_action(rng.choice(st.legal_actions()))
    return out


def test_worlds_at_a_claim_agree_with_the_observation():
    g = game(muggins=True)
    gd = g.definition
    rng = random.Random(3)
    for st in _claim_states(g, 10, 5):
        seat = st.current_player()
        obs = st.observation(seat)
        assert obs["history"][-1][1] in ("pass",) or obs["history"][-1][1].split()[0] in FULL_SET
        for w in worlds(gd, obs, rng, 3):
            seen = w.observation(seat)
            this_hand = sum(1 for p, _ in obs["hand_actions"] if p != -1)
            assert seen.pop("history") == obs["history"][len(obs["history"]) - this_hand:]
            assert seen == {k: v for k, v in obs.items() if k != "history"}
            assert w.legal_actions() == st.legal_actions() == (gd.actions.pass_action,
                                                                 gd.actions.claim_action)
            w.apply_action(gd.actions.claim_action)  # play goes on from a world


def _record(games=3, seed=9, **options) -> str:
    out = io.StringIO()
    simulate(game(muggins=True, **options), games=games, seed=seed, out=out)
    return out.getvalue()


def test_random_agents_claim_and_pass_and_opponents_claim():
    lines = [json.loads(x) for x in _record(games=10).splitlines()]
    claims = [x for x in lines if x["type"] == "claim"]
    lays = [x for x in lines if x["type"] == "lay" and x["scored"]]
    assert len(claims) == len(lays) > 50
    own = [c for c in claims if c["seat"] >= 0 and not c["passed"]]
    stolen = [c for c in claims if c["seat"] >= 0 and c["passed"]]
    lost = [c for c in claims if c["seat"] < 0]
    assert own and stolen and lost
    validator = Draft202012Validator(SCHEMA)
    for x in lines:
        assert not list(validator.iter_errors(x)), x


def test_muggins_records_replay_with_readable_claims(tmp_path):
    text = _record()
    path = tmp_path / "muggins.jsonl"
    path.write_text(text, encoding="utf-8")
    assert replay(str(path)).verified == 3
    r = cli("replay", str(path))  # every game
    assert r.exit_code == 0, r.output
    assert " claims " in r.stdout and "-> counts " in r.stdout
    assert "nobody claims the count" in r.stdout and " passed)" in r.stdout
    # a changed claim is refused
    lines = text.splitlines()
    i = next(i for i, x in enumerate(lines) if '"type":"claim"' in x and '"seat":-1' not in x)
    ev = json.loads(lines[i])
    ev["scored"] += 5
    lines[i] = json.dumps(ev, separators=(",", ":"))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = cli("replay", str(path))
    assert r.exit_code != 0 and "scored" in r.output
