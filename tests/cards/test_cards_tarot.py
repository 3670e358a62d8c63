"""Rule tests for the tarot pack and the follow rule in tiers, from the rule text
(../shared/rules/004_f26017e68a50bf4c.txt, the Taroky part), with constructed deals."""

from __future__ import annotations

import random

from tablerules.engine.worlds import worlds
from tablerules.records.runner import play_game

from helpers import TAROKY, TAROT4, game, hand, legal, mask, play

STOCK = "XVII XVIII XIX XX XXI Skyz"
# Seat 0 leads (dealer 3). Hearts lie one pip card a seat: the trick of the red order.
RED = ["2♥ J♥ 7♠ 7♣ 8♣ 9♣ 4♦ I II III IV V",
       "A♥ R♥ 10♠ 10♣ J♣ R♣ 3♦ VI VII VIII IX X",
       "4♥ Q♥ 8♠ Q♣ K♣ 2♦ A♦ XI XII XIII XIV XV",
       "3♥ K♥ 9♠ J♠ R♠ Q♠ K♠ J♦ R♦ Q♦ K♦ XVI", STOCK]
# Seat 1 has no hearts but taroky; seat 2 has neither.
TIERS = ["A♥ 4♥ 3♥ 7♠ 8♠ 7♣ 8♣ I II III IV V",
         "9♠ 10♠ 9♣ 10♣ 4♦ 3♦ VI VII VIII IX X XI",
         "J♠ R♠ Q♠ K♠ J♣ R♣ Q♣ K♣ 2♦ A♦ J♦ R♦",
         "2♥ J♥ R♥ Q♥ K♥ Q♦ K♦ XII XIII XIV XV XVI", STOCK]


def test_the_pack_is_54_cards_22_taroky_and_counts_106():
    gd = game().definition
    a = gd.pieces.attrs
    assert len(gd.pieces) == 54
    assert [n for i, n in enumerate(gd.pieces.names) if a["trump"][i]] == TAROKY
    assert sum(a["count"]) == 106 == gd.constants["pack_points"]
    count = dict(zip(gd.pieces.names, a["count"]))
    assert [count[n] for n in ("I", "XXI", "Skyz", "K♥", "Q♠", "R♦", "J♣", "II", "A♥", "10♠")] == \
        [5, 5, 5, 5, 4, 3, 2, 1, 1, 1]


def test_in_the_red_suits_the_pips_run_reversed_the_ace_highest():
    g = game()
    a = g.definition.pieces.attrs
    rank = dict(zip(g.definition.pieces.names, a["rank"]))
    assert rank["A♥"] > rank["2♥"] > rank["3♥"] > rank["4♥"]
    assert rank["A♦"] > rank["2♦"] > rank["3♦"] > rank["4♦"]
    assert rank["10♠"] > rank["9♠"] > rank["8♠"] > rank["7♠"]
    assert rank["K♥"] > rank["Q♥"] > rank["R♥"] > rank["J♥"] > rank["A♥"]
    st = hand(g, RED)
    play(st, "2♥", "A♥", "4♥", "3♥")
    assert st.tricks == [0, 1] and st.points == [0, 4]  # the Ace took it, for seat 1's side
    play(st, "10♠", "8♠", "9♠", "7♠")  # in black the higher pip wins
    assert st.tricks == [0, 2]


def test_the_plain_red_order_is_an_option():
    st = hand(game(red_pips="plain"), RED)
    play(st, "2♥", "A♥", "4♥", "3♥")
    assert st.tricks == [1, 0]  # the 4 is the highest red pip: seat 2, seat 0's side


def test_follow_suit_else_a_tarok_else_anything():
    g = game()
    st = hand(g, TIERS)
    assert len(legal(st)) == 12  # the leader plays anything
    play(st, "A♥")
    assert legal(st) == sorted(["VI", "VII", "VIII", "IX", "X", "XI"])  # no heart: a tarok
    play(st, "VI")
    assert len(legal(st)) == 12  # neither heart nor tarok: anything
    play(st, "K♠")
    assert legal(st) == sorted(["2♥", "J♥", "R♥", "Q♥", "K♥"])  # hearts first, taroky held too
    play(st, "2♥")
    assert st.tricks == [0, 1] and st.points == [0, 8]  # the tarok took it: 1 + 1 + 5 + 1


def test_the_highest_tarok_takes_the_trick():
    st = hand(game(), TIERS, dealer=0)  # seat 1 leads
    play(st, "VII", "K♠", "XVI", "V")  # a tarok led: seat 2 may play anything
    assert st.tricks == [0, 1]  # XVI, seat 3
    assert st.points == [0, 8]


def test_an_illegal_card_says_which_rule_holds():
    from tablerules.records.replay import explain_illegal
    g = game()
    st = play(hand(g, TIERS), "A♥")
    why = explain_illegal(st, g.definition.string_to_action("9♠"))
    assert "hearts was led" in why and "holds none of it" in why and "VI" in why


def test_worlds_know_a_seat_off_a_tier_held_nothing_of_it():
    g = game()
    gd = g.definition
    st = play(hand(g, TIERS), "A♥", "VI", "K♠")
    hearts = mask(g, [n for n in gd.pieces.names if n.endswith("♥")])
    taroky = mask(g, TAROKY)
    obs = st.observation(3)
    ws = worlds(gd, obs, random.Random(0), 40)
    assert len(ws) == 40
    for w in ws:
        assert not w.hands[1] & hearts  # played a tarok to hearts: no heart
        assert not w.hands[2] & (hearts | taroky)  # played a spade: neither
        assert w.legal_actions() == st.legal_actions()
    assert any(w.hands[1] != st.hands[1] for w in ws)


def test_random_hands_count_the_pack_and_deal_every_card_once():
    g = game()
    gd = g.definition
    count = gd.pieces.attrs["count"]
    for seed in range(30):
        st = g.new_match(record=True)
        rng = random.Random(seed)
        st.deal_random(rng)
        dealt = [m for m in st.hands] + [sum(1 << t for t in st.stock)]
        assert sum(bin(m).count("1") for m in dealt) == 54
        assert sum(dealt) == (1 << 54) - 1  # disjoint and whole
        stock_points = sum(count[t] for t in st.stock)
        while st.hands_played == 0:
            st.apply_action(rng.choice(st.legal_actions()))
        assert sum(st.score) + stock_points == 106


def test_search_plays_the_tarot_fixture():
    result = play_game(game(hands=1), ["search:level=easy", "random", "random", "random"], seed=3, index=0)
    assert result is not None


def test_the_play_the_tarot_library_tells_a_game_to_write_is_a_game(tmp_path):
    # rulesets/lib/tarot.yaml's header says what a card game extending it writes for its play;
    # written into the tarot4 fixture's contract (its leader and trick points kept), it checks
    import re
    from pathlib import Path

    from support import RULESETS, cli
    head = Path(RULESETS, "lib", "tarot.yaml").read_text(encoding="utf-8")
    example = re.search(r"^#\s+(play: \{.*\})$", head, re.M).group(1)
    fixture = Path(TAROT4).read_text(encoding="utf-8")
    old = ('      lead: "tile.suit"\n      follows: ["tile.suit == led", "tile.trump"]\n'
           '      rank: "tarot_rank(tile, led)"\n')
    assert old in fixture
    play = example.split(": ", 1)[1].strip("{}")
    game_text = fixture.replace(old, "".join(f"      {part.strip()}\n" for part in
                                             re.split(r",\s*(?=\w+:)", play)))
    game_text = game_text.replace("extends: ../../../rulesets/lib/tarot.yaml",
                                  f"extends: {Path(RULESETS, 'lib', 'tarot.yaml')}")
    p = tmp_path / "mine.yaml"
    p.write_text(game_text, encoding="utf-8")
    r = cli("validate", str(p), "--hands", "4")
    assert r.exit_code == 0, r.output
