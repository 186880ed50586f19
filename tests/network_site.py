"""A site whose pages call their own JSON API (no tests here): ``fetch`` and
``XMLHttpRequest``, GET with query values and POST with a JSON body, one request to another
origin, one from an iframe of that other origin, a response larger than the record's cap.

The main origin is 127.0.0.1, the other ``localhost`` (each its own port). The page sets a
cookie (``Set-Cookie`` on the page), sends an ``Authorization`` header and echoes ``key`` (a
key the run knows, as a page that leaks one would) in a header, a query value and a response
body. Choosing a city in its select sends the search the agent asked for: XHR
``GET /api/search?city=…`` and fetch ``POST /api/filter`` with ``{"city": …}``.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

COOKIE = "sid=cookie-secret-1234"
PAGE_TOKEN = "Bearer page-token-5678"
BIG_SIZE = 70 * 1024  # over the 64 KiB cap
SELECT_AT = (110, 35)  # the city select's centre, in CSS pixels

PAGE = """<!doctype html><meta charset="utf-8"><title>Flights</title>
<style>body{margin:0;font:16px sans-serif} #city{position:absolute;left:10px;top:20px;
width:200px;height:30px} #out{position:absolute;left:10px;top:80px}
iframe{position:absolute;left:10px;top:200px;width:300px;height:80px}</style>
<select id="city"><option value="">choose a city</option><option value="paris">Paris</option>
<option value="tokyo">Tokyo</option></select>
<p id="out">no search yet</p>
<iframe src="@OTHER@/frame.html"></iframe>
<script>
const KEY = @KEY@;
fetch('/api/config?lang=en&token=' + encodeURIComponent(KEY),
      {headers: {'Authorization': '@TOKEN@', 'X-Echo': KEY}})
  .then(r => r.json());
fetch('@OTHER@/api/ping?from=main').then(r => r.text());
fetch('/api/big').then(r => r.text());
fetch('/__fovea/report', {method: 'POST', body: '{}'});  // as the offline suite's pages do
document.getElementById('city').addEventListener('change', e => {
  const city = e.target.value;
  const xhr = new XMLHttpRequest();
  xhr.open('GET', '/api/search?city=' + encodeURIComponent(city) + '&sort=price');
  xhr.onload = () => { document.getElementById('out').textContent = xhr.responseText; };
  xhr.send();
  fetch('/api/filter', {method: 'POST', headers: {'Content-Type': 'application/json'},
                        body: JSON.stringify({city: city, stops: 0})});
});
</script>"""

FRAME = """<!doctype html><meta charset="utf-8"><p>weather</p>
<script>fetch('/api/inframe?units=metric').then(r => r.json());</script>"""


@dataclass(frozen=True)
class NetworkSite:
    url: str  # the page
    other: str  # the other origin, e.g. http://localhost:1234


def _handler(key: str, other: list[str]) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            path, query = urlsplit(self.path).path, parse_qs(urlsplit(self.path).query)
            if path == "/index.html":
                page = (PAGE.replace("@OTHER@", other[0]).replace("@KEY@", json.dumps(key))
                        .replace("@TOKEN@", PAGE_TOKEN))
                self._send(page, "text/html; charset=utf-8", cookie=True)
            elif path == "/frame.html":
                self._send(FRAME, "text/html; charset=utf-8")
            elif path == "/api/config":
                self._json({"lang": query.get("lang", [""])[0], "echo": key})
            elif path == "/api/big":
                self._send("x" * BIG_SIZE, "text/plain; charset=utf-8")
            elif path == "/api/search":
                city = query.get("city", [""])[0]
                self._json({"city": city, "flights": [f"{city.title()} 09:40 €120"]})
            elif path in ("/api/ping", "/api/inframe"):
                self._json({"ok": True})
            else:
                self.send_error(404)

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length", 0)))
            self._json({"received": json.loads(body or b"null")})

        def _json(self, value: Any) -> None:
            self._send(json.dumps(value, ensure_ascii=False), "application/json")

        def _send(self, text: str, content_type: str, *, cookie: bool = False) -> None:
            data = text.encode("utf-8")
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Access-Control-Allow-Origin", "*")
            if cookie:
                self.send_header("Set-Cookie", f"{COOKIE}; Path=/")
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet."""

    return Handler


@contextmanager
def network_site(key: str) -> Iterator[NetworkSite]:
    """The site on two origins (127.0.0.1 and localhost), ``key`` echoed by its page."""
    other: list[str] = []
    handler = _handler(key, other)
    servers = [ThreadingHTTPServer((host, 0), handler) for host in ("127.0.0.1", "localhost")]
    other.append(f"http://localhost:{servers[1].server_address[1]}")
    threads = [threading.Thread(target=s.serve_forever, daemon=True) for s in servers]
    for thread in threads:
        thread.start()
    try:
        yield NetworkSite(f"http://127.0.0.1:{servers[0].server_address[1]}/index.html",
                          other[0])
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()
