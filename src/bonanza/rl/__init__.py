"""Bonanza for learning agents: a Gymnasium environment and an OpenSpiel game.

The environment needs the optional extra ``rl`` (``pip install -e '.[rl]'`` in a
checkout); the OpenSpiel game needs ``openspiel``; the Stable-Baselines3 adapter
(``bonanza.rl.sb3``) needs ``sb3``. ``bonanza.rl.actions`` (the action numbering)
needs none of them.

When Gymnasium is installed, importing this package registers the environment
``bonanza/Klondike-v0`` (see docs/rl.md); Gymnasium 1.x loads no plugin entry
points, so ``gymnasium.make("bonanza.rl:bonanza/Klondike-v0")`` is the form
that needs no import first.
"""

from importlib.util import find_spec

if find_spec("gymnasium") is not None:
    from bonanza.rl.registration import register

    register()
