"""A small multi-page site for the web-archive tests, its servers and its crawlers.

The site (built into a directory at test time) has two pages sharing a stylesheet, a
web font (the suite's vendored Inter) and a PNG; a third page the crawl's depth limit
leaves out (so it is "not in the archive"); a 301; and, when an https twin runs, a 302
from http to https (a self-signed certificate made by trustme). The stylesheet and the
about page go out gzip-compressed, the about page also chunked, as many servers send them.
"""

from __future__ import annotations

import gzip
import shutil
import ssl
import subprocess
import threading
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import trustme
from PIL import Image, ImageDraw

FONT = (Path(__file__).parents[1] / "src" / "webfovea" / "suite" / "static" / "vendor" / "inter"
        / "inter-latin-700-normal.woff2")
CSS = """@font-face { font-family: Archived; src: url("fonts/inter.woff2") format("woff2"); }
body { margin: 0; background: #f3efe4; font-family: Archived, serif; color: #223; }
h1 { font-size: 64px; margin: 24px; }
a.block { display: block; width: 900px; height: 400px; background: #2a6f97; color: #fff;
          font-size: 40px; margin: 24px; text-decoration: none; }
img { margin: 24px; }
"""


def page(title: str, link: str, label: str) -> str:
    return (f"<!doctype html><html><head><meta charset=utf-8><title>{title}</title>"
            f'<link rel=stylesheet href="/style.css"></head><body><h1>{title}</h1>'
            f'<a class=block href="{link}">{label}</a><img src="/logo.png" width=160 '
            'height=80 alt=logo></body></html>')


def build_site(root: Path) -> Path:
    """The site's files under ``root`` (returned)."""
    (root / "fonts").mkdir(parents=True)
    shutil.copy(FONT, root / "fonts" / "inter.woff2")
    (root / "style.css").write_text(CSS, encoding="utf-8")
    logo = Image.new("RGB", (160, 80), "#e07a5f")
    ImageDraw.Draw(logo).ellipse((50, 10, 110, 70), fill="#3d405b")
    logo.save(root / "logo.png")
    (root / "index.html").write_text(page("Harbour timetable", "/about.html", "About us"),
                                     encoding="utf-8")
    (root / "about.html").write_text(page("About the harbour", "/deeper.html", "Deeper"),
                                     encoding="utf-8")
    (root / "deeper.html").write_text(page("Deeper page", "/index.html", "Home"),
                                      encoding="utf-8")
    (root / "secure.html").write_text(page("Secure page", "/index.html", "Home"),
                                      encoding="utf-8")
    return root


class _Handler(SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # chunked transfer coding needs 1.1
    server: SiteServer

    def __init__(self, request: Any, address: Any, server: SiteServer) -> None:
        super().__init__(request, address, server, directory=str(server.root))

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        self.server.hits += 1
        path = self.path.split("?")[0]
        if path == "/moved":
            self._send(301, b"", [("Location", "/about.html")])
        elif path == "/secure" and self.server.twin is not None:
            self._send(302, b"", [("Location", self.server.twin.url("secure.html"))])
        elif path in ("/style.css", "/about.html"):
            self._gzipped(path)
        else:
            super().do_GET()

    def _gzipped(self, path: str) -> None:
        body = gzip.compress((self.server.root / path.lstrip("/")).read_bytes())
        kind = "text/css" if path.endswith(".css") else "text/html; charset=utf-8"
        if path.endswith(".html"):  # chunked as well: two chunks and the last
            self.send_response(200)
            for key, value in (("Content-Type", kind), ("Content-Encoding", "gzip"),
                               ("Transfer-Encoding", "chunked")):
                self.send_header(key, value)
            self.end_headers()
            half = len(body) // 2
            for chunk in (body[:half], body[half:], b""):
                self.wfile.write(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
            return
        self._send(200, body, [("Content-Type", kind), ("Content-Encoding", "gzip")])

    def _send(self, status: int, body: bytes, headers: list[tuple[str, str]]) -> None:
        self.send_response(status)
        for key, value in headers:
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class SiteServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, root: Path, *, tls: ssl.SSLContext | None = None) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.root = root
        self.scheme = "https" if tls else "http"
        self.twin: SiteServer | None = None
        self.hits = 0
        if tls is not None:
            self.socket = tls.wrap_socket(self.socket, server_side=True)
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str = "") -> str:
        return f"{self.scheme}://127.0.0.1:{self.server_address[1]}/{path.lstrip('/')}"

    def stop(self) -> None:
        self.shutdown()
        self.server_close()


@dataclass
class Pair:
    http: SiteServer
    https: SiteServer
    ca: trustme.CA


@contextmanager
def http_and_https(root: Path) -> Iterator[Pair]:
    """The site over http and over https (self-signed for 127.0.0.1); http's /secure
    redirects to https."""
    ca = trustme.CA()
    tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1").configure_cert(tls)
    secure = SiteServer(root, tls=tls)
    plain = SiteServer(root)
    plain.twin = secure
    try:
        yield Pair(plain, secure, ca)
    finally:
        plain.stop()
        secure.stop()


def wget_warc(out: Path, *urls: str, level: int = 1, extra: tuple[str, ...] = ()) -> Path:
    """Crawl ``urls`` with GNU wget into ``out``.warc.gz (pages, their requisites, one
    link deep); returns the WARC's path."""
    work = out.parent / (out.name + "-files")
    cmd = ["wget", f"--warc-file={out}", "--recursive", f"--level={level}",
           "--page-requisites", "--no-verbose", "--tries=1", "--no-check-certificate", "--span-hosts",
           "--domains=127.0.0.1", "--compression=auto", "-e", "robots=off",
           f"--directory-prefix={work}", *extra, *urls]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if proc.returncode not in (0, 8):  # 8: some URL answered an error (the crawl went on)
        raise AssertionError(f"wget failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return out.with_name(out.name + ".warc.gz")


@dataclass
class WarcioCrawl:
    """Crawls recorded by warcio's ``capture_http`` into one gzipped WARC, each dated as
    told (a crawl "on" a given day), a body already captured written as a revisit record
    (identical-payload-digest), as deduplicating crawlers write them."""

    path: Path
    seen: dict[str, tuple[str, str]] = field(default_factory=dict)  # digest → (URI, date)
    revisits: int = 0

    def crawl(self, urls: list[str], date: str) -> None:
        from warcio.capture_http import capture_http  # patches http.client: only here

        def dated(request: Any, response: Any, recorder: Any) -> tuple[Any, Any]:
            response.rec_headers.replace_header("WARC-Date", date)
            digest = response.rec_headers.get_header("WARC-Payload-Digest")
            uri = response.rec_headers.get_header("WARC-Target-URI")
            if digest not in self.seen:
                self.seen[digest] = (uri, date)
                return request, response
            first_uri, first_date = self.seen[digest]
            self.revisits += 1
            return request, recorder.writer.create_revisit_record(
                uri, digest, first_uri, first_date, http_headers=response.http_headers,
                warc_headers_dict={"WARC-Date": date})

        with capture_http(str(self.path), dated, gzip=True):
            for url in urls:
                with urllib.request.urlopen(urllib.request.Request(
                        url, headers={"Accept-Encoding": "gzip"}), timeout=10) as answer:
                    answer.read()
