"""Each named habit changes a constructed decision when on, and not when off.

The agent is given an observation built by hand (seats.py) and the legal actions: no State,
no other seat's hand, so these also show it reads nothing hidden.
"""

from __future__ import annotations

from seats import decide, game, observation

TRUMP_6 = {"trump": 6}


def bids(lowest: int) -> list[str]:
    return (["pass"] + [f"bid {x}" for x in range(lowest, 43)] + ["bid 84"]
            + ["bid nello 1", "bid nello 2", "bid sevens 1", "bid sevens 2"])


def test_count_to_partner_puts_the_count_on_the_partners_trick():
    gd = game("texas42")
    # seat 3 plays last; its partner (seat 1) tops the trick with the 3-3
    o = observation(gd, 3, ["2-1", "4-0", "5-5"], declarations=TRUMP_6, bidder=0,
                    trick=[(0, "3-1"), (1, "3-3"), (2, "3-0")])
    legal = ["2-1", "4-0", "5-5"]
    assert decide(gd, o, legal) == "5-5"
    assert decide(gd, o, legal, count_to_partner=False) != "5-5"


def test_cheap_into_lost_throws_the_cheapest_piece():
    gd = game("texas42")
    # an opponent leads the 4-1 (count 5); seat 1 has no four and no trump to take it
    o = observation(gd, 1, ["5-0", "6-1", "6-3"], declarations={"trump": 2}, bidder=0,
                    trick=[(0, "4-1")])
    legal = ["5-0", "6-1", "6-3"]
    assert decide(gd, o, legal) == "6-1"
    # off, no other rule applies: the documented fallback, the first legal action
    assert decide(gd, o, legal, cheap_into_lost=False) == "5-0"


def test_hold_trumps_on_defence():
    gd = game("texas42")
    # the bidder's side leads 4-2 (no count); the defender could trump in with the 6-2
    o = observation(gd, 1, ["6-2", "3-1", "5-0"], declarations=TRUMP_6, bidder=0,
                    trick=[(0, "4-2")])
    legal = ["3-1", "5-0", "6-2"]
    assert decide(gd, o, legal, hold_trumps=True) == "3-1"
    assert decide(gd, o, legal) == "6-2"  # off unless asked: measured to lose


def test_draw_trumps_as_the_bidder():
    gd = game("texas42")
    o = observation(gd, 0, ["6-6", "6-1", "5-5", "2-0"], declarations=TRUMP_6, bidder=0,
                    history=[(0, "6-5"), (1, "6-4"), (2, "5-4"), (3, "4-1")])
    legal = ["2-0", "5-5", "6-1", "6-6"]
    assert decide(gd, o, legal) == "6-6"
    assert decide(gd, o, legal, draw_trumps=False) == "5-5"


def test_walk_last_trump_is_off_unless_asked():
    gd = game("texas42")
    # every other trump is out: walking trump is the flag's choice, off by default
    history = [(1, "6-5"), (2, "6-4"), (3, "6-3"), (1, "6-2"), (2, "6-0")]
    o = observation(gd, 0, ["6-6", "6-1", "5-5", "2-0"], declarations=TRUMP_6, bidder=0,
                    history=history)
    legal = ["2-0", "5-5", "6-1", "6-6"]
    assert decide(gd, o, legal) == "5-5"
    assert decide(gd, o, legal, walk_last_trump=True) == "6-6"


def test_size_by_losers_bids_a_strong_hand():
    gd = game("texas42")
    o = observation(gd, 0, ["6-6", "6-5", "6-4", "6-3", "6-2", "5-5", "4-4"], phase="auction",
                    contract=None)
    on = decide(gd, o, bids(30))
    assert on.startswith("bid ") and 40 <= int(on.split()[-1]) <= 42
    assert decide(gd, o, bids(30), size_by_losers=False) == "pass"


def test_open_on_count():
    gd = game("texas42")
    o = observation(gd, 0, ["2-1", "3-1", "4-2", "5-0", "5-5", "6-3", "6-4"], phase="auction",
                    contract=None)
    assert decide(gd, o, bids(30), open_on_count=True) == "bid 30"
    assert decide(gd, o, bids(30)) == "pass"  # off unless asked: measured to make no difference


def test_contest_thin():
    gd = game("texas42")
    # worth about 28: too little to open, enough to contest a 30 bid at 31
    o = observation(gd, 1, ["6-6", "6-5", "6-4", "6-3", "5-5", "5-0", "4-4"], phase="auction",
                    contract=None, history=[(0, "bid 30")])
    assert decide(gd, o, bids(31)) == "bid 31"
    assert decide(gd, o, bids(31), contest_thin=False) == "pass"


def test_read_auction_counts_the_passes_against():
    gd = game("texas42")
    o = observation(gd, 2, ["0-0", "1-1", "3-2", "5-0", "5-3", "5-4", "5-5"], phase="auction",
                    contract=None, history=[(0, "pass"), (1, "pass")])
    assert decide(gd, o, bids(30)) == "bid 32"  # one pass against: two points more
    assert decide(gd, o, bids(30), read_auction=False) == "bid 30"


def test_specials_when_held():
    gd = game("texas42")
    o = observation(gd, 0, ["1-0", "2-0", "2-1", "3-0", "3-1", "4-0", "4-1"], phase="auction",
                    contract=None)
    assert decide(gd, o, bids(30)) == "bid nello 1"
    assert decide(gd, o, bids(30), specials_when_held=False) == "pass"
    # a hand that does not hold them: no special contract
    o = observation(gd, 0, ["6-6", "2-0", "2-1", "3-0", "3-1", "4-0", "4-1"], phase="auction",
                    contract=None)
    assert "nello" not in decide(gd, o, bids(30))


def test_trump_is_the_longest_suit():
    gd = game("texas42")
    o = observation(gd, 0, ["5-5", "5-4", "5-2", "5-0", "6-6", "3-1", "2-0"], phase="declare",
                    bidder=0)
    legal = [f"trump {v}" for v in (0, 1, 2, 3, 4, 5, 6, "doubles", "followme")]
    assert decide(gd, o, legal) == "trump 5"


def test_moon_bids_on_trump_length_and_half_a_trick_for_the_widow():
    gd = game("moon")
    hand = ["6-5", "6-4", "6-3", "6-2", "6-1", "5-4", "3-2"]
    o = observation(gd, 1, hand, phase="auction", contract=None, dealer=0, stock_size=1)
    legal = ["pass", "bid 4", "bid 5", "bid 6", "bid 7", "bid moon"]
    assert decide(gd, o, legal, strategy="moon") == "bid 4"  # four trump tricks and half a trick
    assert decide(gd, o, legal, strategy="moon", widow_half=False) == "bid 5"
    assert decide(gd, o, legal, strategy="moon", trump_length=False) == "pass"


def test_moon_buries_for_shortness():
    gd = game("moon")
    hand = ["6-6", "6-5", "6-4", "6-3", "6-2", "5-1", "4-3", "2-1"]
    o = observation(gd, 0, hand, phase="exchange", bidder=0, contract="tricks")
    legal = [f"bury {p}" for p in hand]
    assert decide(gd, o, legal, strategy="moon") == "bury 4-3"  # short in fours and threes
    assert decide(gd, o, legal, strategy="moon", bury_short=False) == "bury 2-1"  # the fallback


def test_allfives_leaves_no_easy_count():
    gd = game("allfives")
    o = observation(gd, 2, ["1-0", "3-1", "5-0", "6-0", "6-5"], contract="layout",
                    history=[(0, "6-4 west"), (1, "4-2 east")], layout={"line": "6-4 4-2"})
    legal = ["6-0 west", "6-5 west"]
    # after 6-5 the ends show 5 and 2: a 5-3 or 2-... gives the next player an easy count
    assert decide(gd, o, legal, strategy="allfives") == "6-0 west"
    assert decide(gd, o, legal, strategy="allfives", no_easy_count=False,
                  shed_heavy=False) == "6-5 west"


def test_allfives_sheds_heavy_pieces_when_the_scoring_is_a_wash():
    gd = game("allfives")
    o = observation(gd, 2, ["2-0", "2-1", "3-3", "4-3", "5-1"], contract="layout",
                    history=[(0, "6-4 west"), (1, "4-2 east")], layout={"line": "6-4 4-2"})
    legal = ["2-0 east", "2-1 east"]
    assert decide(gd, o, legal, strategy="allfives") == "2-1 east"
    assert decide(gd, o, legal, strategy="allfives", shed_heavy=False) == "2-0 east"
