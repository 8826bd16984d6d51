"""Settings for every test: Hypothesis without its per-example deadline.

The tests run on a shared 2-core machine, many at once (``pytest -n auto``):
an example that takes 200 ms under load is not a slow engine, and a deadline
failure then says nothing. Speed is measured by the scripts in ``benchmarks/``.
"""

from __future__ import annotations

from hypothesis import settings

settings.register_profile("bonanza", deadline=None)
settings.load_profile("bonanza")
