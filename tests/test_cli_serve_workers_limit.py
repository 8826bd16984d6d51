"""``--workers`` has an upper bound: a host who typed ``--workers 100000`` got that
many processes spawned, and the machine's load went past 600 before they were
killed. Checked in process: without the bound, the command would spawn them."""

from __future__ import annotations

import pytest

from bonanza.cli.hosting import MAX_WORKERS, workers_from
from bonanza.core.errors import BonanzaError


@pytest.mark.parametrize("text", ["100000", str(MAX_WORKERS + 1)])
def test_too_many_workers_is_refused_in_one_line(text: str) -> None:
    with pytest.raises(BonanzaError) as refused:
        workers_from(text)
    assert str(refused.value) == (
        f"--workers must be a whole number from 1 to {MAX_WORKERS}, not {text!r}"
    )


def test_up_to_the_bound_is_taken() -> None:
    assert workers_from(str(MAX_WORKERS)) == MAX_WORKERS
