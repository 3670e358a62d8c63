"""tablerules: a rules language and interpreter for domino and card games.

The pipeline from a ruleset to a runnable game is `tablerules.game` (`load_game`, `check`, `Game`).
"""

__version__ = "0.1.0"
