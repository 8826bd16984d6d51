"""``bonanza serve``: the web game on a local address."""

from __future__ import annotations

import argparse
import os
import webbrowser
from pathlib import Path
from typing import Any


def default_db() -> Path:
    """The SQLite file in the user's data directory (XDG_DATA_HOME or ~/.local/share)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "bonanza" / "bonanza.db"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("serve", help="play in the browser: start the web game")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on")
    parser.add_argument("--db", type=Path, default=None, help="SQLite file for games and stats")
    parser.add_argument("--open", action="store_true", help="open the game in a web browser")
    parser.add_argument("--log-level", default="warning", help="uvicorn log level")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from bonanza.web import create_app
    from bonanza.web.sqlite_storage import SQLiteStorage

    db = args.db if args.db is not None else default_db()
    app = create_app(SQLiteStorage(db))
    host = args.host
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{args.port}/"
    print(f"Bonanza is being served at {url} (games in {db}); Ctrl+C stops it.", flush=True)
    if args.open:
        webbrowser.open(url)
    uvicorn.run(app, host=host, port=args.port, log_level=args.log_level, access_log=False)
    return 0
