"""Driving ``webfovea mcp`` the way an MCP host does: a client from the official SDK, over
stdio (the server as a subprocess) or streamable HTTP (a server process on loopback)."""

from __future__ import annotations

import base64
import contextlib
import io
import json
import os
import re
import select
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters
from mcp_types import CallToolResult, ImageContent, TextContent
from PIL import Image

FAST = ("--time-limit", "300")


def stdio_client(*args: str) -> Client:
    """A client that launches ``webfovea mcp ARGS`` and talks over its stdin/stdout."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "webfovea", "mcp", *args],
                                   env=dict(os.environ))
    return Client(params, read_timeout_seconds=240)


@contextlib.contextmanager
def http_server(*args: str) -> Iterator[str]:
    """``webfovea mcp --http 127.0.0.1:0 ARGS`` running; yields its URL, stops it after."""
    proc = subprocess.Popen([sys.executable, "-m", "webfovea", "mcp", "--http", "127.0.0.1:0",
                             *args], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, env=dict(os.environ))
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()  # the server's first words: where it listens
        found = re.search(r"serving (http://\S+)", line)
        assert found, line + proc.stderr.read()
        yield found.group(1)
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def text(result: CallToolResult) -> str:
    return "\n".join(c.text for c in result.content if isinstance(c, TextContent))


def data(result: CallToolResult) -> dict[str, Any]:
    assert isinstance(result.structured_content, dict), result
    return result.structured_content


def image(result: CallToolResult) -> Image.Image:
    """The screenshot a result carries, decoded."""
    blocks = [c for c in result.content if isinstance(c, ImageContent)]
    assert len(blocks) == 1 and blocks[0].mime_type == "image/png", result
    return Image.open(io.BytesIO(base64.b64decode(blocks[0].data)))


def steps(run_dir: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (run_dir / "steps.jsonl").read_text().splitlines()]


def result_json(run_dir: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((run_dir / "result.json").read_text())
    return loaded


def session_dirs(out: Path) -> list[Path]:
    return sorted(p for p in out.iterdir() if p.is_dir()) if out.is_dir() else []


HOLD_PAGE = b"""<!doctype html><html><head><meta charset="utf-8"><title>Hold</title><style>
body { margin: 0 } #go { position: absolute; left: 100px; top: 100px; width: 200px; height: 100px }
</style></head><body><button id="go">Go</button><script>
document.getElementById("go").addEventListener("click", () => {
  const xhr = new XMLHttpRequest();  // synchronous: the page is busy until /hold answers
  xhr.open("GET", "/hold", false);
  xhr.send();
});
</script></body></html>"""


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
                    self.send_response(200)
                    self.send_header("Content-Type", "text/html")
                    self.end_headers()
                    self.wfile.write(HOLD_PAGE)
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
