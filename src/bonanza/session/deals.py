"""Where random deals come from: the operating system's secure source, everywhere."""

from __future__ import annotations

import secrets

from bonanza.core.deal import Deal

DEAL_NUMBER_BITS = 64


def random_deal() -> Deal:
    """A deal chosen by the program: a secret 64-bit deal number, not guessable."""
    return Deal.from_number(secrets.randbits(DEAL_NUMBER_BITS))
