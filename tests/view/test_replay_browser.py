"""The replay page in a real headless chromium, opened from disk: step through the first hand
with the Next button (clicked with the mouse at the hand's first and last steps, by the page in
between, to keep the test quick), and at every step the pieces each seat shows, the rings on
the marked pieces (solid or dashed, as the ruleset's display.marks say) and the score bar agree
with the game rebuilt here through the Game/State API from the record; then the slider, the keyboard and
Previous; a screenshot of each (tests/screenshots/replay-*.png)."""

from __future__ import annotations

import json
from pathlib import Path

from browser import browser, open_page, screenshot  # noqa: F401 (browser is a fixture)
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from tablerules.game import load_game

from support import allfives_with_arms, cli, played_page

# what the page shows now, read from its DOM in one call
READ = """
const seats = [...document.querySelectorAll('#seats .seat')].map((s) => ({
  seat: Number(s.dataset.seat),
  pieces: [...s.querySelectorAll('.piece')].map((p) => ({
    name: p.dataset.piece, marks: p.dataset.marks,
    rings: [...p.querySelectorAll('.ring')].map((r) => [r.dataset.mark, r.dataset.ring])}))}));
const score = [...document.querySelectorAll('#bar .side')].map((s) =>
  Number(s.querySelector('.score').textContent));
const board = [...document.querySelectorAll('#board .piece')].map((p) => p.dataset.piece);
return {seats, score, board, step: document.getElementById('step').textContent,
        slider: Number(document.getElementById('slider').value),
        words: document.getElementById('words').textContent,
        spinner: document.querySelectorAll('#board [data-spinner]').length};
"""


def make_page(tmp: Path, name: str, seed: int, agents: str, *options: str) -> tuple[Path, list]:
    rec = tmp / f"{name}.jsonl"
    args = ["simulate", name, "--games", "1", "--seed", str(seed), "--record", str(rec),
            "--no-progress", "--agents", agents, *options]
    assert cli(*args).exit_code == 0
    out = tmp / f"{name}.html"
    r = cli("replay", str(rec), "--html", str(out))
    assert r.exit_code == 0, r.output
    lines = [json.loads(x) for x in rec.read_text(encoding="utf-8").splitlines()]
    return out, lines


def expected(st, gd) -> tuple[list, dict]:
    """Each seat's piece names now, and each piece's marks (names, in drawing order)."""
    marks = st.marks()
    hands = [[gd.pieces.names[p] for p in gd.mask_pieces(m)] for m in st.hands]
    on = {gd.pieces.names[p]: [m.name for m in gd.marks if p in marks[m.name]]
          for p in range(len(gd.pieces))}
    return hands, on


def check_step(view: dict, hands: list, on: dict, rings: dict, score: list) -> None:
    assert [s["seat"] for s in view["seats"]] == list(range(len(hands)))
    for s, want in zip(view["seats"], hands):
        assert [p["name"] for p in s["pieces"]] == want, (view["words"], s["seat"])
        for p in s["pieces"]:
            assert p["marks"].split() == on[p["name"]], p
            assert p["rings"] == [[m, rings[m]] for m in on[p["name"]]], p
    assert view["score"] == score, view["words"]


def step_through_first_hand(driver, page: Path, lines: list, name: str, shot_at: int) -> dict:
    """Click Next through hand 1, checking every step; a screenshot at step `shot_at`."""
    head = lines[0]
    game = load_game(head["source"], head["options"])
    gd = game.definition
    rings = {m.name: m.ring for m in gd.marks}
    assert set(rings.values()) == {"solid", "dashed"}
    hand = next(x for x in lines if x["type"] == "hand")
    st = game.new_match()
    if st.by_lot:
        st.apply_action(hand["dealer"])
    piece = gd.string_to_action
    st.apply_deal(tuple(tuple(map(piece, h)) for h in hand["dealt"])
                  + ((tuple(map(piece, hand.get("stock", []))),) if gd.stock else ()))
    open_page(driver, page)
    total = int(driver.find_element(By.ID, "step").text.split()[-1])
    view = driver.execute_script(READ)
    assert view["step"] == f"step 1 of {total}" and view["words"].startswith("Hand 1: ")
    hands, on = expected(st, gd)
    check_step(view, hands, on, rings, list(st.score))
    nxt = driver.find_element(By.ID, "next")
    marked = set()
    for k, action in enumerate(hand["actions"], 2):
        before = [list(h) for h in hands]
        seat = st.current_player()
        st.apply_action(piece(action))
        if k <= 6 or k > len(hand["actions"]):  # a mouse click (about 90 ms each) ...
            nxt.click()
            view = driver.execute_script(READ)
        else:  # ... or the same button's click in the page (10 ms): the hand stays quick
            view = driver.execute_script("document.getElementById('next').click();" + READ)
        assert view["step"] == f"step {k} of {total}" and view["slider"] == k - 1
        if k - 1 < len(hand["actions"]):
            hands, on = expected(st, gd)
            check_step(view, hands, on, rings, list(st.score))
            marked |= {m for h in hands for p in h for m in on[p]}
        else:  # the hand is over: its last piece is down, the bar has the hand line's score
            laid = action.split(" ")[0]
            before[seat] = [p for p in before[seat] if p != laid]
            check_step(view, before, on, rings, hand["score"])
        if k == shot_at:
            screenshot(driver, f"replay-{name}")
    assert marked == set(rings), "both marks were seen on pieces in the hand"
    return {"total": total, "hand_steps": len(hand["actions"]) + 1, "view": view}


def slider_keys_and_previous(driver, total: int) -> None:
    """The slider (clicked), the arrow keys and Previous move the page to the step they say."""
    slider = driver.find_element(By.ID, "slider")
    ActionChains(driver).move_to_element(slider).click().perform()  # its middle
    view = driver.execute_script(READ)
    k = view["slider"]
    assert abs(k - (total - 1) / 2) <= total / 10 and view["step"] == f"step {k + 1} of {total}"
    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_RIGHT)
    body.send_keys(Keys.ARROW_RIGHT)
    assert driver.execute_script(READ)["slider"] == k + 2
    body.send_keys(Keys.ARROW_LEFT)
    driver.find_element(By.ID, "prev").click()
    assert driver.execute_script(READ)["slider"] == k
    body.send_keys(Keys.HOME)
    assert driver.execute_script(READ)["step"] == f"step 1 of {total}"
    assert driver.find_element(By.ID, "prev").get_attribute("disabled")


def test_texas42_page(browser, tmp_path):
    page, lines = make_page(tmp_path, "texas42", 3, "rules")
    got = step_through_first_hand(browser, page, lines, "texas42", shot_at=14)
    assert got["view"]["board"], "the last trick is on the board"
    slider_keys_and_previous(browser, got["total"])
    assert browser.find_elements(By.CSS_SELECTOR, "#auction li")
    browser.find_element(By.ID, "nexthand").click()  # to the next hand's deal, and back
    view = browser.execute_script(READ)
    assert view["words"].startswith("Hand 2: ") and view["slider"] == got["hand_steps"]
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.PAGE_UP)
    assert browser.execute_script(READ)["step"] == f"step 1 of {got['total']}"


def test_allfives_page(browser, tmp_path):
    page, lines = make_page(tmp_path, "allfives", 3, "random")
    got = step_through_first_hand(browser, page, lines, "allfives", shot_at=24)
    view = got["view"]
    laid = [x for x in lines if x["type"] == "hand"][0]["actions"]
    assert len(view["board"]) == sum(1 for a in laid if a not in ("draw", "knock"))
    assert view["spinner"] == 1, "the spinner is marked in the layout"
    slider_keys_and_previous(browser, got["total"])


BOXES = """
return [...document.querySelectorAll('#board svg.layout g.piece')].map((p) => {
  const b = p.getBoundingClientRect();
  return [p.dataset.piece, b.left, b.top, b.right, b.bottom];});
"""


def test_a_spinner_with_three_arms_draws_each_apart(browser, tmp_path):
    """A ruleset whose spinner opens three arms (play.spinner_arms): at the end of the first
    hand, with pieces on all three, no piece of the layout is drawn over another."""
    rec, page = tmp_path / "arms.jsonl", tmp_path / "arms.html"
    args = ["simulate", str(allfives_with_arms(tmp_path, "[north, south, up]")), "--games", "1",
            "--seed", "1", "--record", str(rec), "--no-progress", "--agents", "random"]
    assert cli(*args).exit_code == 0
    assert cli("replay", str(rec), "--html", str(page)).exit_code == 0
    hand = next(json.loads(x) for x in rec.read_text(encoding="utf-8").splitlines()
                if '"type":"hand"' in x)
    assert {a.split(" ")[-1] for a in hand["actions"]} >= {"north", "south", "up"}
    open_page(browser, page)
    browser.execute_script(f"for (let i = 0; i < {len(hand['actions'])}; i++) "
                           "document.getElementById('next').click();")
    boxes = browser.execute_script(BOXES)
    assert len(boxes) == sum(1 for a in hand["actions"] if a not in ("draw", "knock"))
    for i, (p, l1, t1, r1, b1) in enumerate(boxes):
        for q, l2, t2, r2, b2 in boxes[i + 1:]:
            overlap = min(r1, r2) - max(l1, l2), min(b1, b2) - max(t1, t2)
            # (neighbours 2 px apart may touch by the rings of their marks, 1.5 px each)
            assert overlap[0] <= 4 or overlap[1] <= 4, f"{p} is drawn over {q}"
    screenshot(browser, "replay-three-arms")


PIPS = """
return [...document.querySelectorAll('#seats .piece')].map((p) => [p.dataset.piece,
  p.querySelectorAll('circle.pip').length,
  [...p.querySelectorAll('text.num')].map((t) => t.textContent)]);
"""


def test_pips_and_numerals(browser, tmp_path):
    """A domino is drawn with its pips up to nine and a numeral past it (a double-twelve set)."""
    (tmp_path / "d12.yaml").write_text("name: fives-d12\ntitle: Double-twelve fives\n"
                                       "extends: allfives\npieces: {max_pip: 12}\n",
                                       encoding="utf-8")
    rec = tmp_path / "d12.jsonl"
    assert cli("simulate", str(tmp_path / "d12.yaml"), "-n", "1", "--seed", "1", "--agents",
               "random", "--record", str(rec), "--no-progress").exit_code == 0
    assert cli("replay", str(rec), "--html", str(tmp_path / "d12.html")).exit_code == 0
    open_page(browser, tmp_path / "d12.html")
    shown = browser.execute_script(PIPS)
    assert len(shown) == sum(len(h) for h in json.loads(rec.read_text().splitlines()[2])["dealt"])
    for name, pips, numerals in shown:
        ends = [int(x) for x in name.split("-")]
        assert pips == sum(e for e in ends if e <= 9), name
        assert numerals == [str(e) for e in ends if e > 9], name
    assert any(n for _, _, n in shown) and any(p > 6 for _, p, _ in shown)


def test_taroky_page(browser, tmp_path):
    page, lines = make_page(tmp_path, "taroky", 3, "random", "--option", "hands=1")
    got = step_through_first_hand(browser, page, lines, "taroky", shot_at=40)
    assert got["view"]["board"]
    slider_keys_and_previous(browser, got["total"])


def test_a_game_without_an_auction_has_no_auction_section(browser, tmp_path):
    """All Fives has no auction and no call: its page has no auction heading or list (it listed
    "1. none: no auction" at every step); Texas 42's shows its auction under its heading."""
    page, _ = make_page(tmp_path, "allfives", 3, "random")
    open_page(browser, page)
    for _ in range(2):  # the deal, then the first lay
        assert not browser.find_element(By.ID, "calls").is_displayed()
        assert not browser.find_element(By.ID, "auction").is_displayed()
        assert "auction" not in browser.find_element(By.ID, "side").text.lower()
        browser.find_element(By.ID, "next").click()
    page, _ = make_page(tmp_path, "texas42", 3, "rules")
    open_page(browser, page)
    heading = browser.find_element(By.ID, "calls")
    assert heading.is_displayed() and heading.text == "Auction and calls"
    assert browser.find_element(By.CSS_SELECTOR, "#auction li").text == "none yet"
    browser.find_element(By.ID, "next").click()
    (first,) = browser.find_elements(By.CSS_SELECTOR, "#auction li")  # the first call
    assert first.get_attribute("data-phase") == "auction" and first.text != "none yet"


def test_the_standing_high_bidder_is_not_called_the_bidder_during_the_auction(browser, tmp_path):
    """East bids 36 and the others pass: while the auction was on, the page tagged East
    `bidder` and the bar said `bid 36 by East`, though East was not yet the bidder; during the
    auction East is tagged `high bid so far` (the bar says so too), and `bidder` once it is over."""
    out = played_page(tmp_path, "texas42", "--seed", "5", "--seat", "South",
                      answers="pass\nquit\n")
    open_page(browser, out)
    seen = []
    for _ in range(5):  # the deal, East's bid, the three passes: then East names trump
        browser.find_element(By.ID, "next").click()
        seen.append(browser.execute_script(
            "return [document.querySelector('#seats .seat[data-seat=\"1\"] .tags').textContent,"
            " document.querySelector('#bar .bid').textContent];"))
    words = [w for w, _ in seen]
    assert all(w.endswith("high bid so far") for w in words[:3]), words
    assert seen[0][1] == "high bid so far 36 by East", seen
    assert words[3].endswith("bidder, to declare") and seen[3][1] == "bid 36 by East", seen
