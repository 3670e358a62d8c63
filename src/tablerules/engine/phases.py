"""Phase numbers of a state, and the two special players."""

CHANCE = -1
TERMINAL = -2

DEAL, AUCTION, DECLARE, PLAY, LEAD, DONE, EXCHANGE, LAYOUT = range(8)
PHASE_NAMES = ("deal", "auction", "declare", "play", "lead", "done", "exchange", "layout")
