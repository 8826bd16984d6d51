"""Deal codes, cached: each is a big-number computation."""

from __future__ import annotations

from functools import lru_cache

from bonanza.core import Deal

CODE_CACHE_SIZE = 2048


@lru_cache(maxsize=CODE_CACHE_SIZE)
def deal_code(deal: Deal) -> str:
    """The deal's 39-character code."""
    return deal.code
