"""tablerules: a rules language and interpreter for domino games."""

__version__ = "0.1.0"
