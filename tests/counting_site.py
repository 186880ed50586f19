"""Another site (``localhost``, not 127.0.0.1) that counts every request reaching it: a
guardrail that held sent it nothing."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class Counter(BaseHTTPRequestHandler):
    hits = 0

    def do_GET(self) -> None:
        type(self).hits += 1
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"<p>escaped</p>")

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""


@contextmanager
def counting_site() -> Iterator[tuple[str, type[Counter]]]:
    """The URL of a page on the other site, and the handler class whose ``hits`` count."""
    counter = type("Counter", (Counter,), {"hits": 0})
    server = ThreadingHTTPServer(("localhost", 0), counter)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://localhost:{server.server_address[1]}/away.html", counter
    finally:
        server.shutdown()
        server.server_close()
