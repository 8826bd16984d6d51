"""Bonanza for learning agents: a Gymnasium environment and an OpenSpiel game.

The environment needs the optional extra ``bonanza[rl]``; the OpenSpiel game
needs ``bonanza[openspiel]``. ``bonanza.rl.actions`` (the action numbering)
needs neither.
"""
