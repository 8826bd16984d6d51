"""The web game: a Starlette app that holds the truth and a static browser front end.

``create_app`` is loaded on first use, so that importing one of this package's
small modules (the request log's formatters, the limits) does not load the app,
Starlette and the solver's search pool: every ``bonanza`` command imports those.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bonanza.web.app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from bonanza.web.app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
