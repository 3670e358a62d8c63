"""A batch's hands replayed through the step engine: every decision and result must agree."""

from __future__ import annotations

from ..engine.state import new_hand
from .deals import as_lists


def replay_hands(game, hands, sample) -> list[str]:
    """The disagreements of hands `sample` (indexes), in words; [] when all agree."""
    return _replay(game, hands, sample, None)


def replay_agents(game, hands, sample, agents) -> list[str]:
    """As replay_hands, and at each decision of a seat whose agent is not None (a rules agent,
    which draws no random numbers: its choice is a function of what it sees) the agent, asked
    in the step engine, must choose the action the batch chose."""
    return _replay(game, hands, sample, agents)


def _replay(game, hands, sample, agents) -> list[str]:
    problems: list[str] = []
    for i in sample:
        i = int(i)
        st = new_hand(game, as_lists(game, hands.deals, hands.stocks, i), int(hands.dealers[i]))
        bad = _follow(game, st, hands, i, single=True, agents=agents)
        if bad is not None:
            problems.append(f"hand {hands.first + i + 1}: {bad}")
    return problems


def _follow(g, st, hands, i: int, *, single: bool, agents=None) -> str | None:
    """Row i's decisions applied to `st` (at the hand's first decision), checked one by one,
    then its result; None when all agree, else what differs."""
    steps = int(hands.column("steps")[i])
    for j in range(steps):
        if _hand_over(st, single):
            return f"the step engine ended the hand after {j} decisions, the batch went on"
        legal = st.legal_actions()
        a = int(hands.actions[i, j])
        if len(legal) != int(hands.legal[i, j]) or a not in legal:
            return (f"decision {j + 1}: the batch chose {g.action_to_string(a)} of "
                    f"{int(hands.legal[i, j])} legal actions; the step engine allows "
                    f"{len(legal)}: {', '.join(g.action_to_string(x) for x in legal)}")
        seat = st.current_player()
        agent = agents[seat] if agents is not None and 0 <= seat < len(agents) else None
        if agent is not None and len(legal) > 1:
            want = agent.act(seat, legal, st.observer(seat))
            if want != a:
                rule = getattr(agent, "last_rule", None)
                return (f"decision {j + 1}: seat {seat}'s agent chooses "
                        f"{g.action_to_string(want)}" + (f" (rule {rule})" if rule else "")
                        + f" in the step engine, the batch chose {g.action_to_string(a)}")
        st.apply_action(a)
    if not _hand_over(st, single):
        return f"the batch ended the hand after {steps} decisions, the step engine did not"
    r = st.hand_result()
    row = hands.results[i]
    sides = len(g.sides)
    if r["thrown_in"]:
        want = {"thrown_in": True}
        got = {"thrown_in": bool(row[1])}
    else:
        want = {"thrown_in": False, "contract": r["contract"], "bidder": r["bidder"],
                "made": r["made"], "forced": r["forced"], "points": r["points"],
                "scored": r["scored"]}
        got = {"thrown_in": bool(row[1]), "contract": g.contracts[int(row[2])].name,
               "bidder": int(row[4]), "made": bool(row[5]), "forced": bool(row[6]),
               "points": [int(x) for x in hands.points(sides)[i]],
               "scored": [int(x) for x in hands.scored(sides)[i]]}
        if g.auction.fixed_contract < 0:
            want["bid"], got["bid"] = r["bid"], g.bids[int(row[3])].label
        if g.match.stake is not None:
            want["paid"], got["paid"] = r["paid"], hands.paid(g, i)
    if want != got:
        return f"the result differs: step engine {want}, batch {got}"
    return None


def _hand_over(st, single: bool) -> bool:
    """The hand is over: the state is terminal, or (in a match) at the next deal."""
    return st.is_terminal() or (not single and st.is_chance_node())


def replay_matches(game, block, sample, agents=None) -> list[str]:
    """The disagreements of matches `sample` (indexes in the block) replayed whole through the
    step engine: every deal's dealer, every decision, every hand's result, the winners; with
    `agents` (per seat, None: random) a rules seat must choose what the batch chose."""
    from ..engine.state import State

    g = game
    problems: list[str] = []
    for m in sample:
        m = int(m)
        rows = block.rows(m)
        hands = block.hands
        st = State(g, first_dealer=int(hands.dealers[rows[0]]))
        bad = None
        for k, r in enumerate(rows):
            if st.is_terminal():
                bad = f"the step engine ended the match after {k} deals, the batch went on"
                break
            if st.ctx.dealer != int(hands.dealers[r]):
                bad = (f"deal {k + 1}: the step engine's dealer is seat {st.ctx.dealer}, the "
                       f"batch's {int(hands.dealers[r])}")
                break
            st.apply_deal(as_lists(g, hands.deals, hands.stocks, int(r)))
            bad = _follow(g, st, hands, int(r), single=False, agents=agents)
            if bad is not None:
                bad = f"deal {k + 1}: {bad}"
                break
        if bad is None and not st.is_terminal():
            bad = f"the batch ended the match after {len(rows)} deals, the step engine did not"
        if bad is None and sorted(st.winner_sides) != block.winners(m):
            bad = f"the winners differ: step engine {st.winner_sides}, batch {block.winners(m)}"
        if bad is None and g.match.stake is not None and \
                list(st.ctx.chips) != block.chips(m, len(g.sides)):
            bad = (f"the chips at the end differ: step engine {list(st.ctx.chips)}, batch "
                   f"{block.chips(m, len(g.sides))}")
        if bad is not None:
            problems.append(f"game {block.first + m + 1}: {bad}")
    return problems
