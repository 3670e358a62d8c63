"""The frames of an HTML replay: a verified record's games rebuilt through the engine, one frame
per deal and per decision (every seat's pieces, the trick or layout, the marks in force, the
score bar, the auction so far, the step's words).

The record is verified whole first (records/replay.py), so rebuilding it cannot fail; frames are
plain JSON values, so the same record always gives the same page.
"""

from __future__ import annotations

from typing import Any

from ..definition import value_str
from ..engine.phases import DEAL, DONE, LAYOUT, PHASE_NAMES, PLAY
from ..engine.state import State
from ..game import Game
from ..engine.events import ends_text
from ..records.replay import by_side, read_lines, replay, side_name, turn_text

MAX_GAMES = 20  # games on one page when no --game is given (the first ones)


def build_frames(path: str, *, only_game: int | None = None, ruleset: str | None = None,
                 max_games: int | None = None) -> dict:
    """The page's data for a record: verified first (RecordError if it is not a good record).
    Without `only_game`, its first `max_games` games (MAX_GAMES)."""
    max_games = max_games or MAX_GAMES
    rep = replay(path, only_game=only_game, ruleset=ruleset, keep=0, text=False)  # verify only
    head = rep.header
    game = rep.game
    # the games come in order from the record's first (a shard's record starts further on)
    wanted = {only_game} if only_game is not None else \
        set(range(rep.first, rep.first + max_games))
    last = max(wanted)
    games = []
    builder = None
    for _, obj in read_lines(path):
        t = obj["type"]
        if t == "game":
            if obj["game"] > last:
                break  # verified already: nothing after the last game shown is read again
            builder = _GameFrames(game, obj["game"]) if obj["game"] in wanted else None
            if builder is not None:
                games.append(builder)
        elif builder is not None:
            builder.line(obj)
    meta = _meta(game, head, rep.verified, len(games))
    meta["max_games"] = max_games
    # a run stopped before all its games (a game a person stopped in a hand): as replay -q says
    meta["stopped"] = rep.stopped
    meta["promised"] = rep.promised
    # a call besides the auction's (a declaration, the stock): the page lists them even in a
    # game that has no auction
    meta["calls"] = any(h["calls"] for g in games for h in g.hands)
    return {"meta": meta, "pieces": pieces(game),
            "marks": marks(game), "games": [g.as_dict() for g in games]}


def _meta(game: Game, head: dict, verified: int, shown: int) -> dict:
    gd = game.definition
    return {"title": gd.title, "canonical": head["canonical"], "seed": head["seed"],
            "agents": list(head["agents"]), "seats": list(gd.seat_names),
            "sides": [side_name(gd, s) for s in range(len(gd.sides))],
            "side_of": list(gd.side_of), "kind": gd.pieces.kind,
            "decl_names": dict(gd.declaration_names),
            "chips": gd.match.stake is not None, "auction": gd.auction.fixed_contract < 0,
            "games_in_record": verified, "shown": shown}


def pieces(game: Game) -> list[dict]:
    """Each piece as the page draws it: a domino's two ends, or a card's face and suit mark."""
    p = game.definition.pieces
    if p.kind != "cards":
        return [{"n": name, "e": list(e)} for name, e in zip(p.names, p.ends)]
    faces = p.attrs.get("face", p.names)
    trump = p.attrs.get("trump", (False,) * len(p))
    out = []
    for name, face, tr in zip(p.names, faces, trump):
        face = str(face)
        mark = name[len(face):] if name.startswith(face) else ""
        out.append({"n": name, "f": face, "s": mark, "t": bool(tr) or not mark})
    return out


def marks(game: Game) -> list[dict]:
    """The ruleset's display.marks, in drawing order (a later ring is drawn over an earlier)."""
    return [{"name": m.name, "ring": m.ring, "colour": m.colour, "symbol": m.symbol,
             "description": m.description} for m in game.definition.marks]


class _GameFrames:
    """One game's frames, built line by line from its (verified) record lines."""

    def __init__(self, game: Game, number: int):
        self.gd = game.definition
        self.number = number
        self.st = State(self.gd, record=True)
        self.frames: list[dict] = []
        self.hands: list[dict] = []  # per hand: its number, dealer and calls (auction and more)
        self.mark_sets: list[list] = []  # distinct marks in force; a frame names one by index
        self._mark_index: dict = {}
        self.trick: list[list[int]] = []  # [seat, piece] of the trick being played
        self.result: dict | None = None

    def as_dict(self) -> dict:
        return {"game": self.number, "hands": self.hands, "marks": self.mark_sets,
                "frames": self.frames, "result": self.result}

    def line(self, obj: dict) -> None:
        t = obj["type"]
        if t == "deal":
            self._deal(obj)
        elif t == "partial" or t == "hand" and "actions" in obj:
            # compact: the deal, then every action (a partial line: the hand a person stopped in)
            self._deal(obj)
            for name in obj["actions"]:
                self._act(name)
        elif t == "decision":
            self._act(obj["action"])

    def _piece(self, name: str) -> int:
        return self.gd.string_to_action(name)

    def _deal(self, obj: dict) -> None:
        st = self.st
        gd = self.gd
        dealt = obj["dealt"] if "dealt" in obj else obj["hands"]
        hands = tuple(tuple(map(self._piece, h)) for h in dealt)
        stock = tuple(map(self._piece, obj.get("stock", [])))
        if st.by_lot:
            st.apply_action(obj.get("dealer"))
        st.apply_deal(hands + ((stock,) if gd.stock else ()))
        st.events.clear()
        self.trick = []
        self.hands.append({"n": obj["hand"], "dealer": obj["dealer"], "calls": []})
        turn = turn_text(obj, gd.seat_names.__getitem__)
        self._frame(f"Hand {obj['hand']}: {gd.seat_names[obj['dealer']]} deals{turn}", None,
                    list(st.hands), st.layout)

    def _act(self, name: str) -> None:
        st = self.st
        gd = self.gd
        action = gd.string_to_action(name)
        name = gd.action_label(action)  # as people are shown it (a declaration by its name)
        seat = st.current_player()
        phase = st.phase
        before = list(st.hands)  # the hand's pieces, should this action end the hand
        lay = st.layout  # the layout object survives the end of the hand (it is dropped, not reset)
        if phase == PLAY and 0 <= action < len(gd.pieces):
            self.trick.append([seat, action])
        st.apply_action(action)
        if phase not in (PLAY, LAYOUT):
            self.hands[-1]["calls"].append([seat, name, PHASE_NAMES[phase]])
        words = [f"{gd.seat_names[seat]} {self._verb(phase, name)}"]
        won = None
        ended = None
        for ev in st.events:
            t = ev["type"]
            if t == "trick":
                won = [ev["winner"], ev["points"]]
                self.trick = [[s, self._piece(p)] for s, p in ev["plays"]]
                words.append(f"{gd.seat_names[ev['winner']]} takes trick {ev['n']} "
                             f"({ev['points']})")
            elif t == "lay":  # the ends as the text replay says them, then what they score
                words.append(f"ends {ends_text(gd, ev)}")
                if ev["scored"]:
                    words.append(f"scores {ev['scored']}")
            elif t == "claim":
                words.append(f"{gd.seat_names[ev['seat']]} claims {ev['scored']}"
                             if ev["seat"] >= 0 else "nobody claims the count")
            elif t == "draw":
                words[0] = f"{gd.seat_names[ev['seat']]} draws {ev['piece']}"
            elif t == "hand":
                ended = ev
                words.append(self._hand_words(ev))
            elif t == "match":
                won_by = " and ".join(side_name(gd, s) for s in ev["winner"])
                words.append(f"Game over: {won_by} win{'s' if len(ev['winner']) == 1 else ''}")
                self.result = {"score": ev["score"], "winner": ev["winner"]}
        st.events.clear()
        if ended is not None:  # the state is at the next deal: show the hand as it ended
            played = self._played(action)
            if played is not None:
                before[seat] &= ~(1 << played)
            self._frame("; ".join(words), [seat, name], before, lay, ended=ended, won=won)
            self.trick = []
            return
        self._frame("; ".join(words), [seat, name], list(st.hands), st.layout, won=won)
        if won is not None:
            self.trick = []

    def _played(self, action: int) -> int | None:
        """The piece an action puts down (played, laid or buried), if it puts one down."""
        acts = self.gd.actions
        kind = acts.kind(action)
        if kind == "piece":
            return action
        if kind == "lay":
            return acts.lay_of(action)[0]
        return None

    def _verb(self, phase: int, name: str) -> str:
        if phase == PLAY:
            return f"plays {name}"
        if name == "pass":
            return "passes"
        if phase == LAYOUT:
            return {"draw": "draws", "knock": "knocks", "claim": "claims"}.get(name, f"lays {name}")
        return name

    def _hand_words(self, ev: dict) -> str:
        gd = self.gd
        if ev.get("thrown_in"):
            return "all passed: thrown in"
        how = "made" if ev["made"] else "set"
        if "went_out" in ev:
            how = (f"{gd.seat_names[ev['went_out']]} went out" if ev["went_out"] >= 0
                   else "blocked" if ev["blocked"] else "not played out")
        return f"{how}: scored {by_side(gd, ev['scored'])}; score {by_side(gd, ev['score'])}"

    def _marks(self) -> int:
        m = self.st.marks()
        key = tuple(tuple(m[k.name]) for k in self.gd.marks)
        i = self._mark_index.get(key)
        if i is None:
            i = self._mark_index[key] = len(self.mark_sets)
            self.mark_sets.append([list(x) for x in key])
        return i

    def _frame(self, text: str, last, masks: list, lay, *, ended: dict | None = None,
               won=None) -> None:
        st = self.st
        gd = self.gd
        c = st.ctx
        f: dict[str, Any] = {"t": text, "hi": len(self.hands) - 1,
                             "hs": [list(gd.mask_pieces(m)) for m in masks],
                             "nc": len(self.hands[-1]["calls"])}
        if last is not None:
            f["la"] = last
        if self.trick:
            f["tr"] = [list(p) for p in self.trick]
        if won is not None:
            f["wn"] = won
        ly = layout_data(gd, lay)
        if ly is not None:
            f["ly"] = ly
        if ended is not None:
            f["mk"] = self.frames[-1]["mk"] if self.frames else self._marks()
            f["sc"] = list(ended["score"])
            f["end"] = 1
            if not ended.get("thrown_in"):
                f["pt"] = list(ended["points"])
                f["sd"] = list(ended["scored"])
                if ended["bidder"] >= 0:
                    f["bd"] = ended["bid"]
                    f["by"] = ended["bidder"]
                f["ct"] = self._title(ended["contract"])
                f["dc"] = {k: value_str(v) for k, v in ended["declarations"].items()
                           if v != self._default(k)}
                if "tricks" in ended:
                    f["tk"] = list(ended["tricks"])
            if "chips" in ended:
                f["cp"] = list(ended["chips"])
        else:
            f["mk"] = self._marks()
            f["sc"] = list(st.score)
            f["pt"] = list(st.points)
            if st.play is not None:  # trick play under way (a layout has no tricks)
                f["tk"] = list(st.tricks)
            bid, bidder = st.standing_bid  # the auction's highest bid so far, while it is on
            if bid > 0:
                f["bd"] = gd.bids[bid].label
            if bidder >= 0:
                f["by"] = bidder
            if st.contract >= 0:
                f["ct"] = gd.contracts[st.contract].title or gd.contracts[st.contract].name
            f["dc"] = {d.name: value_str(c.decl[d.index]) for d in gd.declarations
                       if c.decl[d.index] != d.default}
            if gd.match.stake is not None:
                f["cp"] = list(c.chips)
            turn = st.current_player()
            if turn >= 0 and st.phase not in (DEAL, DONE):
                f["tu"] = turn
                f["ph"] = PHASE_NAMES[st.phase]
            if gd.stock:
                f["sk"] = len(st.stock)
        if not f.get("dc", 1):
            del f["dc"]
        self.frames.append(f)

    def _title(self, name: str) -> str:
        for k in self.gd.contracts:
            if k.name == name:
                return k.title or k.name
        return name

    def _default(self, name: str):
        for d in self.gd.declarations:
            if d.name == name:
                return d.default
        return None


def layout_data(gd, lay) -> dict | None:
    """The layout as the page draws it: the line west to east, each piece [id, west end, east
    end]; the spinner's place in the line (-1: none yet); each open spinner arm outward, each
    piece [id, near end, far end]."""
    if lay is None or lay.center < 0:
        return None
    index = gd.pieces.index
    h, lo = lay.piece_ends[lay.center]

    def piece(text: str) -> list[int]:
        a, _, b = text.partition("-")
        a, b = int(a), int(b)
        return [index(a, b), a, b]

    # the west arm's pieces are laid outward (near-far): drawn west to east, they turn round
    west = [[p, b, a] for p, a, b in (piece(x) for x in reversed(lay.line[0].pieces))]
    line = west + [[lay.center, h, lo]] + [piece(p) for a in lay.line[1:] for p in a.pieces]
    spin = -1
    if lay.spinner >= 0:
        spin = next((i for i, p in enumerate(line) if p[0] == lay.spinner), -1)
    arms = [[a.name, [piece(p) for p in a.pieces]] for a in lay.spins if a.playable]
    return {"line": line, "spin": spin, "arms": arms}
