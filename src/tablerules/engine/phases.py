"""Phase numbers of a state, the two special players, and the signals of a phase change.

A role module never calls another: when its part of a hand is over it returns a signal, and
the State starts the next part (`State.advance`).
"""

CHANCE = -1
TERMINAL = -2
LOT = -3  # the player of the history entry that draws the first dealer (a chance action)

DEAL, AUCTION, DECLARE, PLAY, LEAD, DONE, EXCHANGE, LAYOUT = range(8)
PHASE_NAMES = ("deal", "auction", "declare", "play", "lead", "done", "exchange", "layout")

# what a role module returns when its part is over (None: the same part goes on)
DEALT, BID, SET_UP, HAND_OVER, THROWN_IN, INTERRUPTED = range(1, 7)
