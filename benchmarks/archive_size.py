"""Import and export time of a large web archive: a GNU wget crawl of a local site.

Builds a site of N pages, each with its own image of S KiB (incompressible bytes), crawls
it with ``wget --warc-file`` from an index linking every page, then times
``snapshot import`` of the WARC, ``snapshot export`` of the snapshot to a WARC and to a
WACZ, and the import of that export.

    .venv/bin/python benchmarks/archive_size.py [--pages 400] [--kib 256] [--out DIR]
"""

from __future__ import annotations

import argparse
import functools
import os
import subprocess
import tempfile
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from webfovea.snapshot.archive.export import export
from webfovea.snapshot.archive.importer import import_archive


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def build(root: Path, pages: int, kib: int) -> None:
    root.mkdir(parents=True)
    links = "".join(f'<li><a href="p{i}.html">page {i}</a></li>' for i in range(pages))
    (root / "index.html").write_text(f"<!doctype html><ul>{links}</ul>", "utf-8")
    for i in range(pages):
        (root / f"p{i}.png").write_bytes(os.urandom(kib * 1024))
        (root / f"p{i}.html").write_text(f'<!doctype html><h1>Page {i}</h1><img src="p{i}.png">',
                                         "utf-8")


def timed(label: str, call: Any) -> Any:
    started = time.monotonic()
    value = call()
    print(f"{label}: {time.monotonic() - started:.2f} s")
    return value


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=int, default=400)
    ap.add_argument("--kib", type=int, default=256)
    ap.add_argument("--out", type=Path, default=None)
    ns = ap.parse_args()
    root = ns.out or Path(tempfile.mkdtemp(prefix="archive-size-"))
    build(root / "site", ns.pages, ns.kib)
    server = ThreadingHTTPServer(("127.0.0.1", 0),
                                 functools.partial(_Quiet, directory=str(root / "site")))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/index.html"
    try:
        timed("wget crawl", lambda: subprocess.run(
            ["wget", f"--warc-file={root / 'crawl'}", "-r", "-l", "1", "-p", "-q", "--tries=1",
             f"--directory-prefix={root / 'files'}", url], check=False, timeout=3600))
    finally:
        server.shutdown()
    warc = root / "crawl.warc.gz"
    print(f"WARC: {warc.stat().st_size / 1024 / 1024:.1f} MiB")
    report = timed("import", lambda: import_archive(warc, root / "snap"))
    print(f"  {report.responses} responses, {len(report.pages)} pages")
    done = timed("export WARC", lambda: export(root / "snap", root / "export.warc.gz"))
    print(f"  {done.bytes / 1024 / 1024:.1f} MiB, {done.records} records")
    timed("export WACZ", lambda: export(root / "snap", root / "export.wacz"))
    timed("import of the export", lambda: import_archive(root / "export.warc.gz", root / "back"))


if __name__ == "__main__":
    main()
