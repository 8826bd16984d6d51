"""Bonanza: Klondike solitaire with a faithful rules engine, an exact solver, and games."""

from bonanza.core import *  # noqa: F403
from bonanza.core import __all__ as __all__

__version__ = "0.1.0"
