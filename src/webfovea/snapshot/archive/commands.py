"""``webfovea snapshot import ARCHIVE SNAP_DIR`` and ``webfovea snapshot export SNAP_DIR OUT``."""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from .importer import ImportReport

_LISTED = 20  # skipped records printed in the table (all of them in --format json)


def add_commands(sub: Any) -> None:
    p = sub.add_parser("import", help="a web archive (WARC, ARC, WACZ, HAR) into a snapshot")
    p.add_argument("archive", type=Path, help="the archive: .warc, .warc.gz, .arc, .arc.gz, "
                                              ".wacz or .har")
    p.add_argument("snapshot", type=Path, help="a new snapshot directory (SNAP_DIR)")
    p.add_argument("--format", choices=("table", "json"), default="table")
    p = sub.add_parser("export", help="a snapshot as a standard WARC or WACZ")
    p.add_argument("snapshot", type=Path, help="the snapshot directory (SNAP_DIR)")
    p.add_argument("out", type=Path, help="OUT.warc.gz, OUT.warc or OUT.wacz")


def cmd_import(ns: argparse.Namespace) -> int:
    from .importer import import_archive

    report = import_archive(ns.archive, ns.snapshot)
    if ns.format == "json":
        json.dump(report.to_json(), sys.stdout, indent=2)
        print()
    else:
        print_report(report, sys.stdout)
    return 0


def cmd_export(ns: argparse.Namespace) -> int:
    from .export import export

    done = export(ns.snapshot, ns.out)
    print(f"wrote {done.path}: {done.responses} responses ({done.revisits} as revisits of an "
          f"identical body), {done.records} records, {done.bytes / 1024:.1f} KiB in "
          f"{done.seconds:.2f} s")
    return 0


def print_report(r: ImportReport, out: TextIO) -> None:
    w = out.write
    w(f"imported {r.archive} ({r.kind}, sha256 {r.sha256[:16]}…) into {r.snapshot} "
      f"in {r.seconds:.2f} s\n")
    w(f"{len(r.pages)} pages, {r.responses} responses, {r.revisits} revisit records resolved, "
      f"{r.redirects} redirects\n")
    w(f"captured {_when(r.first_ms)} to {_when(r.last_ms)}\n")
    for page in r.pages[:_LISTED]:
        w(f"  page {page}\n")
    if len(r.pages) > _LISTED:
        w(f"  … and {len(r.pages) - _LISTED} more pages\n")
    if r.others:
        w("not web responses (kept out): " + ", ".join(
            f"{n} {kind}" for kind, n in sorted(r.others.items())) + "\n")
    w(f"could not use: {len(r.skipped) or 'nothing'}\n")
    for s in r.skipped[:_LISTED]:
        w(f"  {s.url}: {s.why}\n")
    if len(r.skipped) > _LISTED:
        w(f"  … and {len(r.skipped) - _LISTED} more (--format json lists all)\n")


def _when(ms: float | None) -> str:
    if ms is None:
        return "?"
    return datetime.datetime.fromtimestamp(ms / 1000, datetime.timezone.utc).isoformat(
        timespec="seconds")
