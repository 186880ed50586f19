"""A static file server on 127.0.0.1 for local pages (demo, tests, examples)."""

from __future__ import annotations

import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import Any


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass  # tests and the demo read results, not access logs

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()


class LocalServer:
    """Serve ``root`` on ``host`` (loopback only) in a background thread."""

    def __init__(self, root: Path, *, host: str = "127.0.0.1", port: int = 0) -> None:
        if not host.startswith("127.") and host != "localhost":
            raise ValueError(f"LocalServer binds loopback only, got {host!r}")
        handler = partial(_QuietHandler, directory=str(root))
        self._server = ThreadingHTTPServer((host, port), handler)
        self._server.daemon_threads = True
        self.host = host
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def url(self, path: str = "/") -> str:
        return f"http://{self.host}:{self.port}/{path.lstrip('/')}"

    def __enter__(self) -> LocalServer:
        self._thread.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._server.shutdown()
        self._server.server_close()
