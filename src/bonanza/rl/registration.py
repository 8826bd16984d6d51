"""Register ``bonanza/Klondike-v0`` with Gymnasium (done on ``import bonanza.rl``).

Gymnasium 1.x reads no plugin entry points, so importing ``bonanza.rl``
registers the environment; ``gymnasium.make("bonanza.rl:bonanza/Klondike-v0")``
imports it on the way. Registering again replaces nothing and warns nothing.
"""

from __future__ import annotations

from typing import Final

import gymnasium

ENV_ID: Final = "bonanza/Klondike-v0"


def register() -> None:
    """Register the single and the vector environment under ``ENV_ID``."""
    if ENV_ID in gymnasium.registry:
        return
    gymnasium.register(
        id=ENV_ID,
        entry_point="bonanza.rl.env:KlondikeEnv",
        vector_entry_point="bonanza.rl.vector:KlondikeVectorEnv",
    )
