"""The offline suite replayed from WARCs exported from its own recording (issue 32).

Records a snapshot per task with the oracle, exports each as a WARC
(``webfovea snapshot export``), stops the recording's server, imports every WARC into a
fresh snapshot (``webfovea snapshot import``) and replays those with the oracle (a fresh
server carries only the oracle's layout channel; the script checks it was asked for
nothing else). Prints how many tasks the replay answered correctly, the export and
import times (total and for the largest archive) and how requests were matched.

    .venv/bin/python benchmarks/archive_suite.py [--only a,b] [--workers 2] [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from snapshot_suite import bench, correct, result, serve, task_dirs

from webfovea.snapshot.archive.export import export
from webfovea.snapshot.archive.importer import import_archive
from webfovea.suite.catalog import tasks
from webfovea.suite.cli import choose
from webfovea.suite.server import CONTROL


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="comma-separated task ids (default: the whole suite)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=None, help="keep the runs here")
    ns = ap.parse_args()
    root = ns.out or Path(tempfile.mkdtemp(prefix="archive-bench-"))
    root.mkdir(parents=True, exist_ok=True)
    chosen = choose(tasks(ns.seed), only=ns.only, limit=None)
    task_file = root / "tasks.jsonl"
    task_file.write_text("".join(json.dumps(t.to_json()) + "\n" for t in chosen), "utf-8")
    snaps, warcs, back = root / "snapshots", root / "warcs", root / "imported"

    recording = serve(ns.seed, ns.workers)
    try:
        bench(recording, task_file, root / "record", ns.workers, "--record-sites", str(snaps))
    finally:
        recording.close()
    exported = {d.name: export(d, warcs / f"{d.name}.warc.gz")
                for d in sorted(snaps.iterdir()) if d.is_dir()}
    imported = {name: import_archive(Path(e.path), back / name) for name, e in exported.items()}
    channel = serve(ns.seed, ns.workers)
    try:
        bench(channel, task_file, root / "replay", ns.workers, "--replay-sites", str(back))
        site_requests = [f"{h}{p}" for h, p in channel.app.served if not p.startswith(CONTROL)]
    finally:
        channel.close()

    rec, rep = correct(root / "record"), correct(root / "replay")
    sites = [result(d)["site"] for d in task_dirs(root / "replay").values()]
    biggest = max(exported, key=lambda n: exported[n].bytes)
    w = sys.stdout.write
    w(f"runs in {root}; {len(chosen)} tasks\n")
    w(f"oracle correct: recording {sum(rec.values())}/{len(rec)}, replay from the exported "
      f"WARCs {sum(rep.values())}/{len(rep)}\n")
    w(f"export: {sum(e.seconds for e in exported.values()):.2f} s for {len(exported)} WARCs "
      f"({sum(e.bytes for e in exported.values()) / 1024 / 1024:.2f} MiB); import "
      f"{sum(i.seconds for i in imported.values()):.2f} s\n")
    w(f"largest archive: {biggest} {exported[biggest].bytes / 1024:.0f} KiB, "
      f"{exported[biggest].responses} responses: export {exported[biggest].seconds:.3f} s, "
      f"import {imported[biggest].seconds:.3f} s\n")
    w(f"replayed requests: exact {sum(s['matched_exact'] for s in sites)}, by rules "
      f"{sum(s['matched_rules'] for s in sites)}, unmatched {sum(s['unmatched'] for s in sites)}"
      f"; site requests that reached a server during replay: {len(site_requests)}\n")
    wrong = sorted(t for t, ok in rep.items() if not ok)
    if wrong:
        w(f"replay wrong: {', '.join(wrong)}\n")


if __name__ == "__main__":
    started = time.monotonic()
    main()
    print(f"({time.monotonic() - started:.0f} s)")
