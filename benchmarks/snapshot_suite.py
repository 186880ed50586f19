"""Site snapshots over the offline suite: size, recording overhead, replay success.

Runs the oracle three times on the same tasks: live, recording a snapshot per task,
and replaying those snapshots after the recording's suite server was stopped (a
fresh server on another port carries only the oracle's layout channel; the script
checks it was asked for nothing else). Prints snapshot size per task, the harness's
time per step live vs recording (medians and their ratio, measured in this run), how
many tasks the replay answered as live, and how requests were matched.

    .venv/bin/python benchmarks/snapshot_suite.py [--only a,b] [--workers 2] [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from webfovea.bench import cli as bench_cli
from webfovea.bench.store import Store
from webfovea.snapshot.manifest import Snapshot
from webfovea.suite.catalog import tasks
from webfovea.suite.cli import choose
from webfovea.suite.server import CONTROL, SuiteServer


def bench(server: SuiteServer, task_file: Path, out: Path, workers: int, *extra: str) -> None:
    argv = ["bench", str(task_file), "--out", str(out), "--workers", str(workers),
            "--model", "oracle"]
    for lane in server.lanes:
        argv += ["--host-resolver-rules", ",".join(server.host_rules(lane=lane))]
    parser = argparse.ArgumentParser(prog="webfovea")
    handlers = bench_cli.register(parser.add_subparsers(dest="command"))
    handlers["bench"](parser.parse_args([*argv, *extra]))


def serve(seed: int, workers: int) -> SuiteServer:
    server = SuiteServer(seed=seed).start()
    for _ in range(workers - 1):
        server.add_lane()
    return server


def task_dirs(run: Path) -> dict[str, Path]:
    return {p.name: p for p in sorted((run / "tasks").iterdir()) if p.is_dir()}


def result(task_dir: Path) -> dict[str, Any]:
    return json.loads((task_dir / "result.json").read_text(encoding="utf-8"))


def step_seconds(run: Path, ids: set[str]) -> list[float]:
    out = []
    for name, d in task_dirs(run).items():
        if name not in ids:
            continue
        for line in (d / "steps.jsonl").read_text(encoding="utf-8").splitlines():
            if line.strip():
                out.append(float(json.loads(line)["harness_seconds"]))
    return out


def correct(run: Path) -> dict[str, bool]:
    store = Store.open_existing(run)
    try:
        return {row.task_id: bool(row.correct) for row in store.rows()}
    finally:
        store.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="comma-separated task ids (default: the whole suite)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=None, help="keep the runs here")
    ap.add_argument("--live", type=int, default=None,
                    help="run live (for the overhead comparison) only the first N tasks, "
                         "spread over the sites (default: all)")
    ns = ap.parse_args()
    root = ns.out or Path(tempfile.mkdtemp(prefix="snapshot-bench-"))
    chosen = choose(tasks(ns.seed), only=ns.only, limit=None)
    root.mkdir(parents=True, exist_ok=True)
    task_file, live_file = root / "tasks.jsonl", root / "live-tasks.jsonl"
    task_file.write_text("".join(json.dumps(t.to_json()) + "\n" for t in chosen), "utf-8")
    some = choose(chosen, only=None, limit=ns.live)
    live_file.write_text("".join(json.dumps(t.to_json()) + "\n" for t in some), "utf-8")
    snaps = root / "snapshots"

    recording = serve(ns.seed, ns.workers)
    try:
        bench(recording, live_file, root / "live", ns.workers)
        bench(recording, task_file, root / "record", ns.workers, "--record-sites", str(snaps))
    finally:
        recording.close()  # the recorded site is gone from here on
    channel = serve(ns.seed, ns.workers)
    try:
        bench(channel, task_file, root / "replay", ns.workers, "--replay-sites", str(snaps))
        site_requests = [f"{h}{p}" for h, p in channel.app.served if not p.startswith(CONTROL)]
    finally:
        channel.close()
    report(root, len(chosen), site_requests)


def report(root: Path, n: int, site_requests: list[str]) -> None:
    sizes = [Snapshot(d).size() for d in sorted((root / "snapshots").iterdir()) if d.is_dir()]
    live_ids = set(task_dirs(root / "live"))
    live_steps = step_seconds(root / "live", live_ids)
    rec_steps = step_seconds(root / "record", live_ids)
    live, rec, rep = correct(root / "live"), correct(root / "record"), correct(root / "replay")
    answers = {k: result(d).get("answer") for k, d in task_dirs(root / "record").items()}
    same = sum(result(d).get("answer") == answers.get(k) and result(d).get("answer") is not None
               for k, d in task_dirs(root / "replay").items())
    sites = [result(d)["site"] for d in task_dirs(root / "replay").values()]
    exact, rules = sum(s["matched_exact"] for s in sites), sum(s["matched_rules"] for s in sites)
    unmatched, channel = sum(s["unmatched"] for s in sites), sum(s["passthrough"] for s in sites)
    limits = sum(len(result(d)["site"]["limits"]) for d in task_dirs(root / "record").values())
    w = sys.stdout.write
    w(f"runs in {root}; {n} tasks\n")
    w(f"snapshot size per task: median {statistics.median(sizes) / 1024:.1f} KiB, "
      f"max {max(sizes) / 1024:.1f} KiB, total {sum(sizes) / 1024 / 1024:.2f} MiB "
      f"({len(sizes)} snapshots)\n")
    ml, mr = statistics.median(live_steps), statistics.median(rec_steps)
    w(f"harness seconds per step on the {len(live_ids)} tasks run live too: live median "
      f"{ml:.3f} ({len(live_steps)} steps), recording median {mr:.3f} ({len(rec_steps)} steps),"
      f" ratio {mr / ml:.2f}\n")
    w(f"oracle correct: live {sum(live.values())}/{len(live)}, recording {sum(rec.values())}/{n},"
      f" replay {sum(rep.values())}/{n}; replay answers equal to the recording's: {same}/{n}\n")
    total = exact + rules + unmatched
    w(f"replayed requests: {total}; exact {exact} ({100 * exact / max(total, 1):.1f} %), "
      f"by ignore rules {rules} ({100 * rules / max(total, 1):.1f} %), unmatched {unmatched}; "
      f"harness channel relayed: {channel}\n")
    w(f"site requests that reached a server during replay: {len(site_requests)}\n")
    w(f"cannot-replay findings while recording: {limits}\n")


if __name__ == "__main__":
    main()
