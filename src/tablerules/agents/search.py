"""The search agent: perfect-information Monte Carlo over worlds consistent with its observation.

For each decision it draws worlds (full states that agree with everything its seat has seen,
`engine/worlds.py`), plays each legal action on in each world to the end of the hand with a
play-out policy (any registered agent), or searches the rest of the hand exactly (alpha-beta)
once few pieces remain, and takes the action with the best average outcome. Nothing in it knows
a game: the auction, the exchange, the declarations and play are all decisions like any other.
Its budget is counted in work (worlds, play-outs, the alpha-beta threshold and node cap), never
in seconds, so the same seed gives the same choices.
"""

from __future__ import annotations

import math
import random

from ..definition import GameDef
from ..engine.phases import DEAL, DONE, LAYOUT, LEAD, PLAY
from ..engine.worlds import worlds as draw_worlds
from ..errors import GameError
from ..kept import Kept
from .base import AgentSpec, Param


# level -> (worlds, play-outs per world and action, pieces left at or below which to search
# exactly); see docs/agents.md for what each costs. One play-out per world: the default policy
# (a strategy) is deterministic, so a second play-out of the same world repeats the first.
LEVELS = {
    "easy": (4, 1, 0),
    "normal": (8, 1, 8),
    "hard": (24, 1, 12),
}
# play-out policies: registered agents (not search); auto is the ruleset's strategy (rules) when
# it names one, else cautious (random play-out bidders overcall every bid, so every bid looks lost)
POLICIES = ("auto", "random", "cautious", "rules")
NODES = 20000  # alpha-beta nodes per world and action at most; past it, play-outs decide
# engine=batch: the compiled play-outs of a game and strategy, made once in a process (an agent
# is made for every seat of every match); the last 16
_KERNELS = Kept(16)

PARAMS = (
    Param("level", "choice", "normal", "budget preset: worlds, play-outs and exact-search "
          "threshold", choices=tuple(LEVELS)),
    Param("worlds", "int", 0, "worlds sampled per decision (0: the level's)", min=0, max=4096),
    Param("playouts", "int", 0, "play-outs per world and action (0: the level's)", min=0,
          max=256),
    Param("exact", "int", -1, "search the rest of the hand exactly (alpha-beta) once at most "
          "this many pieces are left in play (0: never, -1: the level's)", min=-1, max=64),
    Param("policy", "choice", "auto", "the registered agent that plays the play-outs (auto: "
          "rules when the ruleset names a strategy, else cautious)", choices=POLICIES),
    Param("margin", "float", 1.0, "keep the play-out policy's own choice unless another action "
          "beats it by more than this many standard errors over the worlds (0: always the best "
          "average; only a policy that is deterministic, as rules is, is consulted)", min=0.0,
          max=10.0),
    Param("objective", "choice", "match", "what to maximise: the hand's score difference for "
          "its side, or the chance of winning the match", choices=("hand", "match")),
    Param("engine", "choice", "step", "where the play-outs are played: step (the step "
          "engine), or batch (in compiled code with the rules policy: the same choices, many "
          "times faster; the fast extra, and a kernel to compile the first time)",
          choices=("step", "batch")),
)


class SearchAgent:
    """Perfect-information Monte Carlo with exact search near the end of a hand."""

    name = "search"

    def __init__(self, rng: random.Random, game: GameDef, *, level: str = "normal",
                 worlds: int = 0, playouts: int = 0, exact: int = -1, policy: str = "auto",
                 margin: float = 1.0, objective: str = "match", engine: str = "step"):
        if level not in LEVELS:
            raise ValueError(f"unknown level '{level}' (levels: {', '.join(LEVELS)})")
        if objective not in ("hand", "match"):
            raise ValueError(f"unknown objective '{objective}' (objectives: hand, match)")
        from . import AGENTS
        if policy == "auto":
            policy = "rules" if getattr(game, "strategy", None) else "cautious"
        if policy == self.name or policy not in AGENTS:
            names = sorted(a for a in AGENTS if a != self.name)
            raise ValueError(f"the play-out policy must name an agent other than search "
                             f"(agents: {', '.join(names)})")
        w, p, e = LEVELS[level]
        self.rng = rng
        self.game = game
        self.worlds = worlds or w
        self.playouts = playouts or p
        self.exact = e if exact < 0 else exact
        self.policy = policy
        self.margin = margin
        self.objective = objective
        self.sign = -1 if game.match.lowest_wins else 1
        # what a hand is worth, to scale a hand's result under the match objective: the
        # ruleset's hand_points, else the pips of the set shared among the sides
        # (a pack of cards has no pips: a card a point)
        pips = sum(a + b for a, b in game.pieces.ends) if game.pieces.ends else len(game.pieces)
        self.scale = game.bounds.hand_points or max(1, pips // max(1, len(game.sides)))
        self.work = {"decisions": 0, "worlds": 0, "playouts": 0, "nodes": 0}
        # the play-out agents, made once and sharing one generator reseeded per play-out
        # (making a strategy agent costs more than a play-out; reseeding gives the same draws)
        self._policy_rng = random.Random()
        from . import make_agent  # made now, so a policy that cannot play this game says so first
        self._policy = [make_agent(self.policy, self._policy_rng, game)
                        for _ in range(game.seat_count)]
        self._deterministic = bool(getattr(self._policy[0], "deterministic", False))
        self._steps = self._kernel(engine) if engine != "step" else None

    def _kernel(self, engine: str):
        """The play-outs in compiled code (batch/steps.py): the rules policy, which draws no
        random number, chooses there as in Python, so the search chooses the same."""
        if engine != "batch":
            raise ValueError(f"unknown engine '{engine}' (engines: step, batch)")
        if self.policy != "rules":
            raise ValueError(f"engine=batch plays the rules policy's play-outs, not {self.policy}'s")
        if self.game.match.stake is not None:
            raise ValueError("engine=batch: a match for chips has no play-out in the kernel "
                             "(the step engine plays it)")
        from ..batch import BatchUnavailable, NotBatchable, compile_steps
        key = (id(self.game), id(getattr(self._policy[0], "strategy", None)))
        got = _KERNELS.get(key)
        if got is not None:
            return got[1]
        try:
            steps = compile_steps(self.game, self._policy)
        except (NotBatchable, BatchUnavailable) as e:
            raise ValueError(f"engine=batch: {e.message}") from None
        # the game kept with it (and the strategy, by the steps' agents): their ids stay theirs
        _KERNELS.put(key, (self.game, steps))
        return steps

    def act(self, seat: int, legal: tuple[int, ...], observe) -> int:
        if len(legal) == 1:
            return legal[0]
        self.work["decisions"] += 1
        obs = observe()
        try:
            ws = draw_worlds(self.game, obs, self.rng, self.worlds)
        except GameError:
            ws = []
        ws = [w for w in ws if w.current_player() == seat and tuple(w.legal_actions()) == legal]
        if not ws:  # no consistent world drawn: let the play-out policy decide from the view
            return self._policy_agents(self.rng.getrandbits(64))[seat].act(seat, legal, observe)
        self.work["worlds"] += len(ws)
        left = sum(obs["hand_sizes"][s] for s in (obs["active"] or range(len(obs["hand_sizes"]))))
        left += obs["stock_size"]
        exact = self.exact > 0 and left <= self.exact and ws[0].phase in (PLAY, LEAD, LAYOUT)
        seeds = [[self.rng.getrandbits(64) for _ in range(self.playouts)] for _ in ws]
        values: list[list[float]] = [[] for _ in legal]  # per action, its value in each world
        for w, world_seeds in zip(ws, seeds):
            before = list(w.ctx.score)  # what the action itself scores counts too
            for i, a in enumerate(legal):
                c = w.clone()
                c.apply_action(a)
                v = self._exact(c, seat, before) if exact else None
                if v is None:
                    v = sum(self._playout(c.clone() if k < len(world_seeds) - 1 else c, seat, sd,
                                          before)
                            for k, sd in enumerate(world_seeds)) / len(world_seeds)
                values[i].append(v)
        totals = [sum(v) for v in values]
        best = max(range(len(legal)), key=lambda i: (totals[i], -i))  # ties: the lowest id
        if self.margin > 0 and self._deterministic:
            mine = legal.index(self._policy[seat].act(seat, legal, observe))
            if best != mine and not self._clearly_better(values[best], values[mine]):
                best = mine
        return legal[best]

    def _clearly_better(self, a: list[float], b: list[float]) -> bool:
        """Whether values `a` beat `b` (paired by world) by more than `margin` standard errors:
        with few worlds a small lead is noise, and the policy's own choice knows the game."""
        d = [x - y for x, y in zip(a, b)]
        n = len(d)
        mean = sum(d) / n
        if n < 2:
            return mean > 0
        var = sum((x - mean) ** 2 for x in d) / (n - 1)
        return mean > self.margin * math.sqrt(var / n)

    # -- outcomes --------------------------------------------------------------------------

    def _value(self, st, seat: int, before: list) -> float:
        """The outcome for `seat` of a state whose hand is over."""
        ended = st.phase == DONE and not st.single_hand
        return self._outcome(st.ctx.score, seat, before, st.returns() if ended else None)

    def _outcome(self, score, seat: int, before: list, returns: list | None) -> float:
        """The outcome for `seat` of a hand that took the match score from `before` to `score`
        (`returns`: the match's, when it ended with the hand)."""
        side = self.game.side_of[seat]
        gain = [a - b for a, b in zip(score, before)]
        others = [g for s, g in enumerate(gain) if s != side]
        d = self.sign * (gain[side] - (sum(others) / len(others) if others else 0))
        if self.objective == "hand":
            return d
        if returns is not None:
            return returns[seat]
        # the match goes on: a hand's result counts for less than winning or losing it
        return 0.5 * math.tanh(d / self.scale)

    def _policy_agents(self, seed: int) -> list:
        """The play-out policy for every seat, sharing one generator seeded `seed`."""
        self._policy_rng.seed(seed)
        return self._policy

    def _playout(self, st, seat: int, seed: int, before: list) -> float:
        """Play `st` to the end of its hand with the policy; the outcome for `seat`."""
        self.work["playouts"] += 1
        if self._steps is not None and st.phase not in (DEAL, DONE):
            score = self._steps.playout(st)  # None: the match ends with the hand
            if score is not None:
                return self._outcome(score, seat, before, None)
        agents = self._policy_agents(seed)
        while st.phase not in (DEAL, DONE):
            p = st.current_player()
            legal = st.legal_actions()
            a = legal[0] if len(legal) == 1 else agents[p].act(
                p, legal, st.observer(p))
            st.apply_action(a)
        return self._value(st, seat, before)

    def _exact(self, st, seat: int, before: list) -> float | None:
        """The value of `st` for `seat` with every seat playing perfectly (its side maximises,
        the others minimise), or None past the node cap."""
        side = self.game.side_of[seat]
        budget = [NODES]

        def search(s, alpha: float, beta: float) -> float:
            if s.phase in (DEAL, DONE):
                return self._value(s, seat, before)
            budget[0] -= 1
            if budget[0] < 0:
                raise _OutOfNodes
            legal = s.legal_actions()
            mine = self.game.side_of[s.current_player()] == side
            best = -math.inf if mine else math.inf
            for k, a in enumerate(legal):
                c = s.clone() if k < len(legal) - 1 else s
                c.apply_action(a)
                v = search(c, alpha, beta)
                if mine:
                    best = max(best, v)
                    alpha = max(alpha, v)
                else:
                    best = min(best, v)
                    beta = min(beta, v)
                if alpha >= beta:
                    break
            return best

        try:
            v = search(st.clone(), -math.inf, math.inf)
        except _OutOfNodes:
            return None
        finally:
            self.work["nodes"] += NODES - max(budget[0], 0)
        return v


class _OutOfNodes(Exception):
    """The exact search went past its node cap."""


def make(rng: random.Random, game: GameDef, params: dict) -> SearchAgent:
    """A search agent from parsed parameters (missing ones take their defaults)."""
    values = {p.name: params.get(p.name, p.default) for p in PARAMS}
    return SearchAgent(rng, game, **values)


SPEC = AgentSpec("search", "perfect-information Monte Carlo over sampled worlds, exact search "
                 "near the end of a hand", PARAMS, make,
                 lambda params: "play-outs" if params["engine"] == "batch" else None)
