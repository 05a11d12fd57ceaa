"""Canasta: the rules engine, its agents and its simulator (sim/doc/python.md).

Where OpenSpiel's Python module imports, importing canasta also registers the
game with it: pyspiel.load_game("canasta") (canasta.openspiel).
"""
from ._canasta import *  # noqa: F401,F403  (the module's classes and functions)


def _register_with_openspiel():
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return  # no OpenSpiel here: the module's own load_game serves
    try:
        from . import openspiel  # noqa: F401  (registers "canasta")
    except Exception as e:  # an OpenSpiel this registration does not fit must not stop the module
        import warnings
        warnings.warn(f"canasta: not registered with OpenSpiel ({type(e).__name__}: {e})", RuntimeWarning)


_register_with_openspiel()
