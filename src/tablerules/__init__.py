"""tablerules: a rules language and interpreter for domino games."""

__version__ = "0.1.0"
__all__ = ["Game", "check", "load_game", "__version__"]


def __getattr__(name: str):
    """`Game`, `check` and `load_game` from `tablerules.game`, imported on first use."""
    if name in ("Game", "check", "load_game"):
        from . import game
        return getattr(game, name)
    raise AttributeError(f"module 'tablerules' has no attribute '{name}'")
