"""Signal soak: stop `webfovea run` and `webfovea bench` with real signals at random moments.

Each round starts a real `python -m webfovea` subprocess against the bundled demo page and
a slow FakeProvider, waits for a moment (Chromium starting: Playwright's driver is up; or
mid-run: after a model request, plus up to 3 s), sends SIGINT or SIGTERM (sometimes
twice), and records what was left behind: the exit
code, the status in result.json (or the bench invocation's state), and whether stderr
held a traceback or an asyncio complaint. Prints one line per round, then a summary.

    .venv/bin/python scripts/signal_soak.py --rounds 40 [--seed 1]
    .venv/bin/python scripts/signal_soak.py --rounds 6 --kinds bench --executor ray

``--executor ray`` runs the bench rounds on a local Ray (a minute or more to start under
load, which is why no test does it); ``--kinds`` picks the commands tried.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from webfovea import demo
from webfovea.browser.local_server import LocalServer
from webfovea.dialects.loopback.fake_provider import FakeProvider

WAIT = "Thought: nothing yet.\nAction: wait()"
NOISE = ("Traceback", "Task exception was never retrieved", "client has been closed",
         "BrokenPipeError", "Exception ignored")


def _left_behind(kind: str, out: Path) -> str:
    if kind == "run":
        path = out / "result.json"
        return json.loads(path.read_text())["status"] if path.is_file() else "(no run dir yet)"
    db = out / "results.sqlite"
    if not db.is_file():
        return "(no store yet)"
    with sqlite3.connect(db) as conn:
        states = [s for (s,) in conn.execute("SELECT state FROM runs")]
        rows = sorted({s for (s,) in conn.execute("SELECT state FROM tasks")})
    dirs = sorted({json.loads(p.read_text())["status"] for p in out.glob("tasks/*/result.json")})
    return f"invocation {states[-1] if states else '(none)'}; store tasks {rows}; task dirs {dirs}"


def one_round(rng: random.Random, server: LocalServer, fp: FakeProvider, work: Path,
              number: int, kinds: list[str], executor: str) -> tuple[str, int, str, str]:
    kind = rng.choice(kinds)
    sig = rng.choice((signal.SIGINT, signal.SIGTERM))
    twice = rng.random() < 0.2
    out = work / f"{kind}-{number}"
    url = server.url("index.html")
    if kind == "run":
        args = ["run", "--url", url, "--task", "wait", "--out", str(out)]
    else:
        tasks = work / f"tasks-{number}.jsonl"
        tasks.write_text("".join(json.dumps({"id": f"t{i}", "instruction": "wait", "url": url})
                                 + "\n" for i in range(3)))
        args = ["bench", str(tasks), "--out", str(out), "--workers", "2", "--executor", executor]
    env = {**os.environ, "OPENAI_API_KEY": "sk-soak"}
    proc = subprocess.Popen([sys.executable, "-m", "webfovea", *args, "--model", "openai:m",
                             "--base-url", fp.base_url, "--max-steps", "500"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    moment = rng.choice(("browser start", "mid-run"))
    if moment == "browser start":  # Playwright's driver is up: Chromium is starting
        _until(lambda: bool(_children(proc.pid)) or proc.poll() is not None)
        time.sleep(rng.uniform(0.0, 1.5))
    else:
        asked = len(fp.requests)
        _until(lambda: len(fp.requests) > asked or proc.poll() is not None)
        time.sleep(rng.uniform(0.0, 3.0))
    proc.send_signal(sig)
    if twice:
        time.sleep(rng.uniform(0.0, 0.5))
        if proc.poll() is None:
            proc.send_signal(sig)
    _, stderr = proc.communicate(timeout=120)
    noisy = next((line for line in stderr.splitlines() if any(w in line for w in NOISE)), "")
    name = signal.Signals(sig).name + (" x2" if twice else "")
    return f"{kind} {name} @{moment}", proc.returncode, _left_behind(kind, out), noisy


def _children(pid: int) -> list[str]:
    """The child process ids of ``pid`` (Linux /proc)."""
    found: list[str] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        found += task.read_text().split()
    return found


def _until(condition: Callable[[], bool], timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.05)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kinds", nargs="+", choices=("run", "bench"), default=["run", "bench"])
    parser.add_argument("--executor", choices=("local", "ray"), default="local",
                        help="the bench rounds' executor")
    ns = parser.parse_args()
    rng = random.Random(ns.seed)
    tally: collections.Counter[tuple[str, int, str]] = collections.Counter()
    noisy = 0
    with tempfile.TemporaryDirectory() as tmp, LocalServer(demo.root()) as server, \
            FakeProvider(lambda request: WAIT, delay_seconds=0.3) as fp:
        for number in range(ns.rounds):
            what, code, left, loud = one_round(rng, server, fp, Path(tmp), number, ns.kinds,
                                         ns.executor)
            noisy += bool(loud)
            tally[(what, code, left)] += 1
            print(f"{number:3d}  {what:32s} exit {code:3d}  {left}" + (f"  NOISY: {loud}" if loud else ""),
                  flush=True)
    print(f"\n{ns.rounds} rounds; stderr with a traceback or asyncio complaint: {noisy}")
    for (what, code, left), count in sorted(tally.items()):
        print(f"{count:3d} x {what:32s} exit {code:3d}  {left}")


if __name__ == "__main__":
    main()
