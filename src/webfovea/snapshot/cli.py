"""Site snapshot flags of ``run``/``bench`` and ``webfovea snapshot inspect SNAP_DIR`` (and
``import``/``export``, in archive/commands.py)."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from ..core.sites import UNMATCHED_FILE, Limit, Unmatched
from .archive import commands as archive_commands
from .manifest import Manifest, Snapshot
from .match import RANDOM_BODY

Handler = Callable[[argparse.Namespace], int]


def register(subparsers: Any) -> dict[str, Handler]:
    snap = subparsers.add_parser("snapshot", help="site snapshots: inspect one, import or "
                                                  "export a web archive")
    sub = snap.add_subparsers(dest="snapshot_command", required=True)
    p = sub.add_parser("inspect", help="origins, sizes, what cannot replay, and what was "
                                       "unmatched by the replays of a snapshot")
    p.add_argument("snapshot", type=Path, help="the snapshot directory (SNAP_DIR)")
    p.add_argument("--format", choices=("table", "json"), default="table")
    archive_commands.add_commands(sub)
    return {"snapshot": cmd_snapshot}


def cmd_snapshot(ns: argparse.Namespace) -> int:
    if ns.snapshot_command == "import":
        return archive_commands.cmd_import(ns)
    if ns.snapshot_command == "export":
        return archive_commands.cmd_export(ns)
    snapshot = Snapshot(ns.snapshot)
    manifest = snapshot.read()
    report = inspect(snapshot, manifest, _unmatched(snapshot))
    if ns.format == "json":
        json.dump(report, sys.stdout, indent=2)
        print()
    else:
        print_inspection(report, sys.stdout)
    return 0


def inspect(snapshot: Snapshot, manifest: Manifest,
            unmatched: list[Unmatched]) -> dict[str, Any]:
    by_origin: dict[str, dict[str, int]] = defaultdict(lambda: {"responses": 0, "bytes": 0})
    for entry in manifest.entries:
        by_origin[entry.origin]["responses"] += 1
        by_origin[entry.origin]["bytes"] += entry.size
    return {
        "snapshot": str(snapshot.root), "id": snapshot.identity(),
        "started_at": manifest.started_at, "entry_url": manifest.entry_url,
        "responses": len(manifest.entries),
        "bodies": len({e.body for e in manifest.entries}), "bytes_on_disk": snapshot.size(),
        "origins": dict(sorted(by_origin.items())),
        "types": dict(Counter(e.resource_type or "other" for e in manifest.entries)),
        "cannot_replay": [lim.model_dump() for lim in [*manifest.limits, *_random(unmatched)]],
        "unmatched": [u.model_dump() for u in unmatched],
    }


def _random(unmatched: list[Unmatched]) -> list[Limit]:
    """Requests a replay could not answer only because their bodies changed."""
    urls = sorted({u.url for u in unmatched if u.reason.startswith(RANDOM_BODY)})
    return [Limit(kind="random_body", url=url, detail="its request body changes between loads "
                  "beyond the ignore rules (add a rule in SNAP_DIR/rules.json)") for url in urls]


def _unmatched(snapshot: Snapshot) -> list[Unmatched]:
    """What replays of this snapshot could not answer (they append to SNAP_DIR's list)."""
    listed = snapshot.root / UNMATCHED_FILE
    if not listed.is_file():
        return []
    return [Unmatched.model_validate_json(line)
            for line in listed.read_text(encoding="utf-8").splitlines() if line.strip()]


def print_inspection(report: dict[str, Any], out: TextIO) -> None:
    w = out.write
    w(f"snapshot {report['snapshot']} (id {report['id']})\n")
    w(f"recorded from {report['entry_url']} at {_when(report['started_at'])}\n")
    w(f"{report['responses']} responses, {report['bodies']} distinct bodies, "
      f"{report['bytes_on_disk'] / 1024:.1f} KiB on disk\n\norigins:\n")
    for origin, n in report["origins"].items():
        w(f"  {origin:<48} {n['responses']:>5} responses {n['bytes'] / 1024:>9.1f} KiB\n")
    w("types: " + ", ".join(f"{k} {v}" for k, v in sorted(report["types"].items())) + "\n")
    limits = report["cannot_replay"]
    w(f"\ncannot replay: {len(limits) or 'nothing detected'}\n")
    for lim in limits:
        w(f"  {lim['kind']}: {lim['url']} {lim['detail']}\n")
    unmatched = report["unmatched"]
    w(f"\nunmatched in replays: {len(unmatched) or 'none'}\n")
    for u in unmatched:
        w(f"  {u['method']} {u['url']} — {u['reason']} (run {u['run']})\n")


def _when(epoch: float) -> str:
    import datetime

    return datetime.datetime.fromtimestamp(epoch, datetime.timezone.utc).isoformat(
        timespec="seconds")
