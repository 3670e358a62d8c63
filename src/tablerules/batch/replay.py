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
    g = game
    sides = len(g.sides)
    problems: list[str] = []
    steps = hands.column("steps")
    for i in sample:
        i = int(i)
        st = new_hand(g, as_lists(g, hands.deals, hands.stocks, i), int(hands.dealers[i]))
        bad = None
        for j in range(int(steps[i])):
            if st.is_terminal():
                bad = f"the step engine ended the hand after {j} decisions, the batch went on"
                break
            legal = st.legal_actions()
            a = int(hands.actions[i, j])
            if len(legal) != int(hands.legal[i, j]) or a not in legal:
                bad = (f"decision {j + 1}: the batch chose {g.action_to_string(a)} of "
                       f"{int(hands.legal[i, j])} legal actions; the step engine allows "
                       f"{len(legal)}: {', '.join(g.action_to_string(x) for x in legal)}")
                break
            seat = st.current_player()
            agent = agents[seat] if agents is not None and 0 <= seat < len(agents) else None
            if agent is not None and len(legal) > 1:
                want = agent.act(seat, legal, lambda s=seat: st.observation(s))
                if want != a:
                    rule = getattr(agent, "last_rule", None)
                    bad = (f"decision {j + 1}: seat {seat}'s agent chooses "
                           f"{g.action_to_string(want)}" + (f" (rule {rule})" if rule else "")
                           + f" in the step engine, the batch chose {g.action_to_string(a)}")
                    break
            st.apply_action(a)
        if bad is None and not st.is_terminal():
            bad = f"the batch ended the hand after {int(steps[i])} decisions, the step engine did not"
        if bad is None:
            r = st.hand_result()
            row = hands.results[i]
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
            if want != got:
                bad = f"the result differs: step engine {want}, batch {got}"
        if bad is not None:
            problems.append(f"hand {i + 1}: {bad}")
    return problems
