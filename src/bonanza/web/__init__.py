"""The web game: a Starlette app that holds the truth and a static browser front end."""

from bonanza.web.app import create_app

__all__ = ["create_app"]
