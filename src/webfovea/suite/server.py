"""One local HTTP server for every suite site, dispatching on the Host header.

Sites are addressed by realistic names (``http://stats.fovea.test/``); the harness
maps those names to this server with Chromium's ``--host-resolver-rules``
(:meth:`SuiteServer.host_rules`), which rewrite host *and* port, so task URLs
carry no port and stay the same whatever port the server got.

A server listens on one or more *lanes* (ports). All lanes serve the same sites;
layout reports are kept per lane, so a browser launched with a lane's host rules
is the only writer of that lane's layout (see layout.py).
"""

from __future__ import annotations

import mimetypes
import threading
import traceback
from collections import deque
from http.cookies import SimpleCookie
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from urllib.parse import parse_qsl, urlsplit

from pydantic import ValidationError

from .catalog import DOMAINS, build_sites
from .layout import LayoutStore, PageReport
from .sites.base import Site
from .spec import SuiteTask
from .web import STATIC, Request, Response, SuiteError, html_response, json_response, tag

CONTROL = "/__fovea/"
_TYPES = {".woff2": "font/woff2", ".js": "text/javascript; charset=utf-8",
          ".css": "text/css; charset=utf-8"}


class SuiteApp:
    """Everything the lanes share: the seeded sites and the layout store."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.sites: dict[str, Site] = {site.host: site for site in build_sites(seed)}
        self.store = LayoutStore()
        # Recent requests (host, path) and handler failures, for tests and `suite serve`.
        self.served: deque[tuple[str, str]] = deque(maxlen=5000)
        self.errors: list[str] = []
        self.lanes: list[int] = []

    def respond(self, req: Request, lane: int) -> Response:
        self.served.append((req.host, req.path))
        try:
            return self._route(req, lane)
        except Exception:
            self.errors.append(traceback.format_exc())
            return html_response("<h1>500 Internal Server Error</h1>", status=500)

    def _route(self, req: Request, lane: int) -> Response:
        if req.path.startswith(CONTROL):
            return self._control(req, lane)
        if req.path.startswith("/static/"):
            return _static(req.path[len("/static/"):])
        if req.path == "/favicon.ico":
            return Response(204, b"")
        site = self.sites.get(req.host)
        if site is None:
            return self._index() if req.path == "/" else _not_found(req)
        return site.handle(req) or _not_found(req)

    def _control(self, req: Request, lane: int) -> Response:
        name = req.path[len(CONTROL):]
        if name == "report" and req.method == "POST":
            try:
                report = PageReport.model_validate_json(req.body)
            except ValidationError as exc:
                return json_response({"error": f"bad layout report: {exc}"}, status=400)
            self.store.add(lane, report)
            return Response(204, b"")
        if name == "layout":
            return self._layout(req, lane)
        if name == "info":
            return json_response({"seed": self.seed, "lanes": self.lanes,
                                  "sites": {s.name: host for host, s in self.sites.items()}})
        return json_response({"error": f"no control endpoint {req.path}"}, status=404)

    def _layout(self, req: Request, lane: int) -> Response:
        try:
            lane = int(req.arg("lane", str(lane)))
            settle = min(float(req.arg("settle", "0")), 5.0)
        except ValueError:
            return json_response({"error": "lane must be an integer, settle a number"},
                                 status=400)
        if settle > 0:
            self.store.wait_quiet(lane, quiet=settle, timeout=settle + 2.0)
        layout = self.store.current(lane)
        if layout is None:
            return json_response({"error": f"no page has reported on lane {lane} yet"},
                                 status=404)
        return json_response(layout.model_dump())

    def _index(self) -> Response:
        items = "".join(tag("li", tag("a", f"{s.title} — {host}", href=f"http://{host}/"))
                        for host, s in self.sites.items())
        return html_response(f"<!doctype html><title>webfovea suite</title><h1>webfovea suite"
                             f" (seed {self.seed})</h1><ul>{items}</ul>")


def _static(rel: str) -> Response:
    path = (STATIC / rel).resolve()
    if STATIC.resolve() not in path.parents or not path.is_file():
        return html_response("<h1>404 Not Found</h1>", status=404)
    ctype = _TYPES.get(path.suffix) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    return Response(200, path.read_bytes(), ctype, (("Cache-Control", "max-age=3600"),))


def _not_found(req: Request) -> Response:
    return html_response(f"<!doctype html><title>Not found</title><h1>Page not found</h1>"
                         f"<p>{tag('code', req.host + req.path)} does not exist.</p>", status=404)


class _LaneServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, app: SuiteApp, port: int) -> None:
        super().__init__(("127.0.0.1", port), _Handler)
        self.app = app
        self.lane = int(self.server_address[1])


class _Handler(BaseHTTPRequestHandler):
    server: _LaneServer
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        self._serve()

    def do_POST(self) -> None:
        self._serve()

    def do_HEAD(self) -> None:
        self._serve(body=False)

    def _serve(self, *, body: bool = True) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        data = self.rfile.read(length) if length else b""
        url = urlsplit(self.path)
        cookies = SimpleCookie(self.headers.get("Cookie") or "")
        req = Request(method=self.command,
                      host=(self.headers.get("Host") or "").split(":")[0].lower(),
                      path=url.path, query=dict(parse_qsl(url.query, keep_blank_values=True)),
                      cookies={k: m.value for k, m in cookies.items()}, body=data)
        resp = self.server.app.respond(req, self.server.lane)
        try:
            self.send_response(resp.status)
            self.send_header("Content-Type", resp.content_type)
            self.send_header("Content-Length", str(len(resp.body)))
            for key, value in resp.headers:
                self.send_header(key, value)
            self.end_headers()
            if body:
                self.wfile.write(resp.body)
        except ConnectionError:
            # The browser went away mid-response (a closed tab, a navigation): nothing to do.
            self.close_connection = True

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: requests are recorded in ``SuiteApp.served`` instead."""


def lane_url(host_rules: tuple[str, ...]) -> str | None:
    """The suite lane a browser's host rules send the suite hosts to (for the oracle)."""
    for rule in host_rules:
        words = rule.split()
        if len(words) == 3 and words[0] == "MAP" and words[1] == f"*.{DOMAINS[0]}":
            return f"http://{words[2]}"
    return None


class SuiteServer:
    """The suite's sites on 127.0.0.1, as a context manager.

    >>> with SuiteServer(seed=1) as suite:                       # doctest: +SKIP
    ...     args = launch_args(host_rules=suite.host_rules())
    ...     page.goto(suite.url("stats.fovea.test", "/"))
    """

    def __init__(self, *, seed: int = 0, port: int = 0) -> None:
        self.app = SuiteApp(seed)
        self._first_port = port
        self._servers: list[_LaneServer] = []
        self._threads: list[threading.Thread] = []

    @property
    def seed(self) -> int:
        return self.app.seed

    def start(self) -> SuiteServer:
        if not self._servers:
            self.add_lane(port=self._first_port)
        return self

    def add_lane(self, *, port: int = 0) -> int:
        """Listen on one more port (0: a free one) and return it."""
        try:
            server = _LaneServer(self.app, port)
        except OSError as exc:
            raise SuiteError(f"cannot listen on 127.0.0.1:{port}: {exc}") from exc
        thread = threading.Thread(target=server.serve_forever, name=f"suite-{server.lane}",
                                  daemon=True)
        thread.start()
        self._servers.append(server)
        self._threads.append(thread)
        self.app.lanes.append(server.lane)
        return server.lane

    @property
    def port(self) -> int:
        """The first lane's port."""
        if not self._servers:
            raise SuiteError("the suite server is not started")
        return self._servers[0].lane

    @property
    def lanes(self) -> tuple[int, ...]:
        return tuple(self.app.lanes)

    def _lane(self, lane: int | None) -> int:
        if lane is None:
            return self.port
        if lane not in self.app.lanes:
            raise SuiteError(f"no lane {lane}; lanes are {', '.join(map(str, self.lanes))}")
        return lane

    def url(self, host: str, path: str = "/") -> str:
        """The URL of ``path`` on a suite host, e.g. ``http://stats.fovea.test/``."""
        if host not in self.app.sites:
            raise SuiteError(f"unknown suite host {host!r}; hosts: {', '.join(self.app.sites)}")
        return f"http://{host}{path}"

    def host_rules(self, *, lane: int | None = None) -> tuple[str, ...]:
        """Chromium --host-resolver-rules entries sending every suite host to ``lane``."""
        port = self._lane(lane)
        return tuple(f"MAP *.{domain} 127.0.0.1:{port}" for domain in DOMAINS)

    def layout_url(self, *, lane: int | None = None) -> str:
        return f"http://127.0.0.1:{self._lane(lane)}{CONTROL}layout"

    def tasks(self) -> list[SuiteTask]:
        return [t for site in self.app.sites.values() for t in site.tasks()]

    def close(self) -> None:
        for server in self._servers:
            server.shutdown()
            server.server_close()
        for thread in self._threads:
            thread.join(timeout=5)
        self._servers.clear()
        self._threads.clear()
        self.app.lanes.clear()

    def __enter__(self) -> SuiteServer:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
