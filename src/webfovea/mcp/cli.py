"""``webfovea mcp``: serve the harness to an MCP client (stdio, or streamable HTTP on loopback).

Parsing stays light (see webfovea.cli.main): the handler imports the server, the SDK and the
browser when it runs.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..core.config import AgentConfig, BrowserConfig
from .settings import DEFAULT_IMAGE_CAP, DEFAULT_OUT

Handler = Callable[[argparse.Namespace], int]
_AGENT, _BROWSER = AgentConfig(), BrowserConfig()


def register(subparsers: Any) -> dict[str, Handler]:
    p = subparsers.add_parser(
        "mcp", help="serve the browser as an MCP server (stdio, or --http on loopback)",
        description="One MCP session is one task's run: tools are the closed action set plus "
                    "screenshot, open(url) and finish(answer); each session writes a run "
                    "directory under --out. See docs/mcp.md.")
    p.add_argument("--url", help="the entry page (default: the client's first open(url))")
    p.add_argument("--allow-domain", action="append", default=[],
                   help="another site top-level navigation may go to (repeatable)")
    p.add_argument("--viewport", default=str(_BROWSER.viewport),
                   help=f"default {_BROWSER.viewport}")
    p.add_argument("--image-cap", default=str(DEFAULT_IMAGE_CAP),
                   help=f"WxH of the screenshots the server sends (default {DEFAULT_IMAGE_CAP}; "
                        "'none' sends the viewport's size)")
    p.add_argument("--out", type=Path, default=DEFAULT_OUT,
                   help=f"one run directory per MCP session under it (default {DEFAULT_OUT})")
    p.add_argument("--budget", action="append", default=[], metavar="CLASS=N",
                   help="per-session budget of an action class (repeatable; e.g. reload=5)")
    p.add_argument("--max-steps", type=int, default=_AGENT.max_steps,
                   help=f"tool calls per session (default {_AGENT.max_steps})")
    p.add_argument("--time-limit", type=float, default=_AGENT.time_limit,
                   help=f"seconds per session (default {_AGENT.time_limit:g})")
    p.add_argument("--cdp-url", help="attach to a running Chromium instead of launching one")
    p.add_argument("--headed", action="store_true", help="show the browser window")
    p.add_argument("--host-resolver-rules", action="append", default=[], metavar="RULES",
                   help="Chromium host rules, e.g. 'MAP *.fovea.test 127.0.0.1:8000' "
                        "(what `webfovea suite serve` prints)")
    p.add_argument("--record-site", metavar="DIR",
                   help="record the session's site into the snapshot DIR (stdio only)")
    p.add_argument("--replay-site", metavar="DIR",
                   help="serve the pages only from the site snapshot DIR")
    p.add_argument("--http", metavar="127.0.0.1:PORT",
                   help="serve streamable HTTP at http://HOST:PORT/mcp instead of stdio")
    p.add_argument("--list-tools", action="store_true",
                   help="print the tools' JSON schemas and exit")
    return {"mcp": cmd_mcp}


def cmd_mcp(ns: argparse.Namespace) -> int:
    import json

    if ns.list_tools:
        from .tools import tool_list

        print(json.dumps([t.as_json() for t in tool_list()], indent=2))
        return 0
    from .server import serve
    from .settings import ServeSettings

    return serve(ServeSettings.from_args(ns))
