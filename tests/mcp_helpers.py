"""Test-side pieces of the MCP tests: run directories as the server wrote them, and a page
whose click the MCP server is in the middle of."""

from __future__ import annotations

import json
import select
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any


def steps(run_dir: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (run_dir / "steps.jsonl").read_text().splitlines()]


def result_json(run_dir: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((run_dir / "result.json").read_text())
    return loaded


def session_dirs(out: Path) -> list[Path]:
    return sorted(p for p in out.iterdir() if p.is_dir()) if out.is_dir() else []


PAGES = Path(__file__).parent / "pages" / "mcp"


class Hold:
    """A page whose button's click waits on ``/hold``, which this server answers only when
    the test ends: an action the MCP server is in the middle of. ``started`` is set when the
    click reached the page, ``dropped`` when the page's connection closed (its context went)."""

    def __init__(self) -> None:
        self.started, self.dropped, self.release = (threading.Event(), threading.Event(),
                                                    threading.Event())
        hold = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                if self.path != "/hold":
                    name = "hold.js" if self.path == "/hold.js" else "hold.html"
                    self.send_response(200)
                    self.send_header("Content-Type", "text/javascript" if name.endswith(".js")
                                     else "text/html")
                    self.end_headers()
                    self.wfile.write((PAGES / name).read_bytes())
                    return
                hold.started.set()
                while not hold.release.wait(0.05):
                    readable, _, _ = select.select([self.connection], [], [], 0)
                    if readable and not self.connection.recv(1, socket.MSG_PEEK):
                        hold.dropped.set()
                        return
                self.send_response(204)
                self.end_headers()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"

    def __enter__(self) -> Hold:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()
