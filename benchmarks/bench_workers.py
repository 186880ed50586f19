"""Wall time, tasks/hour and peak memory per task of `webfovea bench` at 1, 2 and 4 workers.

Each run is its own `python -m webfovea bench` (or `suite run`) process; a sampler reads
the proportional set size (PSS, shared pages split fairly) of its whole process tree
(Python, the Playwright driver, every Chromium process) four times a second. "MiB/task"
is that peak divided by the tasks running at once (the workers): everything a
concurrent task costs, its share of the bench process and driver included. The sampler
also keeps each process's CPU time: "CPU s/task" is the tree's CPU seconds per task, and
"ceiling" the tasks/hour this machine's cores could give if the CPU were all ours
(cores / CPU per task): where more workers stop helping on a small or busy machine.
"of ceiling" is the run's tasks/hour as a share of that ceiling: the cores' time the run
kept busy. Model waits that no other worker's steps fill, the tail (the last tasks'
waits once the queue is empty) and the bench's own start and end lower it. "limits" puts
the ceiling beside the waits' bound: a worker finishes a task no faster than the task's
model waits, so N workers finish at most N × 3600 / (those seconds) tasks an hour. Near
the waits' bound more workers help; near the ceiling, more cores.

    python benchmarks/bench_workers.py --suite            # the offline suite, the oracle
    python benchmarks/bench_workers.py --suite --limit 16
    python benchmarks/bench_workers.py TASKS.jsonl --bench-args "--model SPEC ..."
    python benchmarks/bench_workers.py --demo 12 --latency 1.5

After each harness run the same workers run a bare Playwright loop on the same tasks
(``bare_loop.py``: the steps the harness took, a screenshot, the same model wait and a click
per step, each worker its own browser with webfovea's flags and a fresh context per task),
measured the same way, and the harness's tasks/hour are printed as a share of the loop's:
what the harness costs against doing only a step's bare work (``--no-bare-loop`` skips it;
with ``--suite`` it is skipped: the suite's pages live inside its run).

``--demo N`` runs N copies of the bundled demo task (a local page, three steps) against a
local OpenAI-protocol server replaying the demo's replies after ``--latency`` seconds,
so the numbers include a model's think time without needing a model.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shlex
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webfovea import demo
from webfovea.models.scripted import read_replies
from webfovea.testing import FakeProvider, FakeRequest, LocalServer

BARE_LOOP = Path(__file__).with_name("bare_loop.py")


@dataclass
class Peaks:
    total: int = 0
    python: int = 0
    per_worker: dict[int, int] = field(default_factory=dict)
    cpu_ticks: dict[int, int] = field(default_factory=dict)  # pid → its user+system time
    names: dict[int, str] = field(default_factory=dict)  # pid → its program (comm)

    @property
    def cpu_seconds(self) -> float:
        return sum(self.cpu_ticks.values()) / os.sysconf("SC_CLK_TCK")

    def cpu_by_program(self) -> dict[str, float]:
        """CPU seconds per program: the bench's Python, the Playwright driver, Chromium."""
        out: dict[str, float] = {}
        for pid, ticks in self.cpu_ticks.items():
            name = self.names.get(pid, "?")
            out[name] = out.get(name, 0.0) + ticks / os.sysconf("SC_CLK_TCK")
        return out


def pss_kib(pid: int) -> int:
    with contextlib.suppress(OSError, ValueError):
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    return 0


def cpu_ticks(pid: int) -> int:
    with contextlib.suppress(OSError, IndexError, ValueError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    return 0


def children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                ppid = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
                tree.setdefault(ppid, []).append(int(entry))
    return tree


def subtree(tree: dict[int, list[int]], root: int) -> list[int]:
    found, todo = [root], [root]
    while todo:
        for child in tree.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def sample(root: int, peaks: Peaks, stop: threading.Event) -> None:
    while not stop.wait(0.25):
        tree = children()
        python = pss_kib(root)
        total = python
        for driver in tree.get(root, []):  # the Playwright driver(s) and their browsers
            size = sum(pss_kib(p) for p in subtree(tree, driver))
            peaks.per_worker[driver] = max(peaks.per_worker.get(driver, 0), size)
            total += size
        for pid in subtree(tree, root):
            peaks.cpu_ticks[pid] = max(peaks.cpu_ticks.get(pid, 0), cpu_ticks(pid))
            if pid not in peaks.names:
                with contextlib.suppress(OSError):
                    peaks.names[pid] = Path(f"/proc/{pid}/comm").read_text().strip()
        peaks.python = max(peaks.python, python)
        peaks.total = max(peaks.total, total)


def run_bench(command: list[str], out: Path, workers: int) -> tuple[float, Peaks]:
    command = [*command, "--out", str(out), "--workers", str(workers)]
    peaks, stop = Peaks(), threading.Event()
    start = time.monotonic()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    sampler = threading.Thread(target=sample, args=(proc.pid, peaks, stop), daemon=True)
    sampler.start()
    _, err = proc.communicate()
    wall = time.monotonic() - start
    stop.set()
    sampler.join()
    if proc.returncode != 0:
        raise SystemExit(f"bench failed ({proc.returncode}): {err.decode()[-2000:]}")
    return wall, peaks


def outcome(out: Path) -> tuple[int, int, int, float]:
    """Tasks done, correct, steps, and the seconds spent waiting on the model."""
    with sqlite3.connect(out / "results.sqlite") as db:
        done, correct = db.execute("SELECT COUNT(*), COALESCE(SUM(correct), 0) FROM tasks "
                                   "WHERE state = 'done'").fetchone()
        steps, waited = db.execute("SELECT COUNT(*), COALESCE(SUM(model_seconds), 0) "
                                   "FROM steps").fetchone()
    return done, correct, steps, waited


def bare_plan(out: Path, base_url: str | None, path: Path) -> Path:
    """The bare loop's plan from a harness run: each finished task's URL and the seconds
    each of its steps waited on the model; the fake model server's URL if there is one."""
    with sqlite3.connect(out / "results.sqlite") as db:
        urls = db.execute("SELECT task_id, trial, url FROM tasks WHERE state = 'done' "
                          "ORDER BY position").fetchall()
        waits = [[w for (w,) in db.execute(
            "SELECT COALESCE(model_seconds, 0) FROM steps WHERE task_id = ? AND trial = ? "
            "ORDER BY step", (task, trial))] for task, trial, _ in urls]
    path.write_text(json.dumps({
        "tasks": [{"url": url, "waits": w} for (_, _, url), w in zip(urls, waits, strict=True)],
        "model": {"base_url": base_url, "name": "demo"} if base_url else None}))
    return path


def run_bare(out: Path, base_url: str | None, workers: int) -> dict[str, Any]:
    """The bare loop on the harness run ``out``'s tasks and steps, measured like the bench."""
    plan = bare_plan(out, base_url, out.with_name(out.name + "-bare-plan.json"))
    folder = out.with_name(out.name + "-bare")
    wall, peaks = run_bench([sys.executable, str(BARE_LOOP), str(plan)], folder, workers)
    done = json.loads((folder / "bare.json").read_text())
    return {"tasks": done["tasks"], "steps": done["steps"], "wall_s": wall,
            "tasks_per_hour": 3600 * done["tasks"] / wall,
            "cpu_s_per_task": peaks.cpu_seconds / max(done["tasks"], 1),
            "cpu_s_per_task_by_program": {name: round(seconds / max(done["tasks"], 1), 3)
                                          for name, seconds in sorted(peaks.cpu_by_program().items())}}


def steps_taken(request: FakeRequest) -> int:
    """The steps already taken: the model's own turns (the ``blocks`` history layout), or
    the history lines of the one user turn (``--history rolling``)."""
    answered = sum(turn.role == "assistant" for turn in request.turns)
    return answered or len(re.findall(r"^Step \d+:", request.turns[0].text, re.MULTILINE))


@contextlib.contextmanager
def demo_setup(count: int, latency: float, folder: Path) -> Iterator[tuple[Path, str]]:
    """N demo tasks on a local server and a fake provider replaying the demo's replies."""
    replies = read_replies(demo.replies_file())

    def policy(request: FakeRequest) -> str:
        return replies[min(steps_taken(request), len(replies) - 1)]

    with LocalServer(demo.root()) as site, FakeProvider(policy, delay_seconds=latency) as fp:
        tasks = folder / "demo-tasks.jsonl"
        tasks.write_text("".join(json.dumps({
            "id": f"demo-{i:03d}", "instruction": demo.TASK, "url": site.url("index.html"),
            "answer": demo.ANSWER}) + "\n" for i in range(count)))
        yield tasks, fp.base_url


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("tasks", nargs="?", type=Path)
    parser.add_argument("--suite", action="store_true",
                        help="the offline suite with the oracle (`webfovea suite run`)")
    parser.add_argument("--limit", type=int, help="with --suite: at most N tasks")
    parser.add_argument("--demo", type=int, metavar="N", help="N copies of the demo task")
    parser.add_argument("--latency", type=float, default=0.0,
                        help="seconds the demo's model takes per reply")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--out", type=Path, help="keep the runs here (default: a temp dir)")
    parser.add_argument("--json", type=Path, help="also write the numbers here")
    parser.add_argument("--no-bare-loop", dest="bare_loop", action="store_false",
                        help="skip the bare Playwright loop run after each harness run")
    parser.add_argument("--bench-args", default="",
                        help="more `webfovea bench` options, e.g. \"--model oracle --max-steps 40\"")
    ns = parser.parse_args()
    extra = shlex.split(ns.bench_args)
    if [ns.tasks is not None, ns.demo is not None, ns.suite].count(True) != 1:
        parser.error("give a task file, --demo N or --suite")
    folder = ns.out or Path(tempfile.mkdtemp(prefix="webfovea-bench-workers-"))
    folder.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("OPENAI_API_KEY", "benchmark")
    with contextlib.ExitStack() as stack:
        tasks, base_url = ns.tasks, None
        if ns.demo:
            tasks, base_url = stack.enter_context(demo_setup(ns.demo, ns.latency, folder))
            extra = ["--model", "openai:demo", "--base-url", base_url, *extra]
        command = [sys.executable, "-m", "webfovea", "bench", str(tasks), *extra]
        if ns.suite:
            limit = ["--limit", str(ns.limit)] if ns.limit else []
            command = [sys.executable, "-m", "webfovea", "suite", "run", *limit, *extra]
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        print(f"{'workers':>7} {'tasks':>5} {'correct':>7} {'steps':>5} {'wall s':>7} "
              f"{'tasks/h':>8} {'MiB/task':>8} {'bench MiB':>9} {'total MiB':>9} "
              f"{'CPU s/task':>10} {'ceiling':>8} {'of ceiling':>10}")
        rows = []
        for workers in ns.workers:
            out = folder / f"run-{workers}w-{time.strftime('%H%M%S')}"
            wall, peaks = run_bench(command, out, workers)
            done, correct, steps, waited = outcome(out)
            cpu = peaks.cpu_seconds / max(done, 1)
            # A worker cannot finish a task faster than the task's model waits.
            wait_bound = 3600 * workers / max(waited / max(done, 1), 1e-9)
            row = {"workers": workers, "tasks": done, "correct": correct, "steps": steps,
                   "wall_s": wall, "tasks_per_hour": 3600 * done / wall,
                   "mib_per_task": peaks.total / 1024 / workers,
                   "bench_mib": peaks.python / 1024, "total_mib": peaks.total / 1024,
                   "cpu_s_per_task": cpu, "cpu_ceiling_per_hour": 3600 * (os.cpu_count() or 1) / cpu,
                   "share_of_ceiling": done * cpu / wall / (os.cpu_count() or 1),
                   "model_s_per_task": waited / max(done, 1), "wait_bound_per_hour": wait_bound,
                   "cpu_s_per_task_by_program": {name: round(seconds / max(done, 1), 3) for name, seconds
                                                 in sorted(peaks.cpu_by_program().items())},
                   "load_average": os.getloadavg()[0]}
            rows.append(row)
            print(f"{workers:>7} {done:>5} {correct:>7} {steps:>5} {wall:>7.1f} "
                  f"{row['tasks_per_hour']:>8.0f} {row['mib_per_task']:>8.0f} "
                  f"{row['bench_mib']:>9.0f} {row['total_mib']:>9.0f} {cpu:>10.2f} "
                  f"{row['cpu_ceiling_per_hour']:>8.0f} {row['share_of_ceiling']:>10.0%}", flush=True)
            print("        CPU s/task by program: " + ", ".join(
                f"{name} {sec:.2f}" for name, sec in row["cpu_s_per_task_by_program"].items()))
            bound = min(wait_bound, row["cpu_ceiling_per_hour"])
            print(f"        limits: cores {row['cpu_ceiling_per_hour']:.0f}/h, waits "
                  f"{wait_bound:.0f}/h ({workers} workers, {row['model_s_per_task']:.2f} s of "
                  f"model waits per task); this run {row['tasks_per_hour'] / bound:.0%} of the "
                  "lower")
            if ns.bare_loop and not ns.suite:
                bare = run_bare(out, base_url, workers)
                row["bare_loop"] = {**bare, "load_average": os.getloadavg()[0]}
                row["share_of_bare_loop"] = row["tasks_per_hour"] / bare["tasks_per_hour"]
                print(f"        bare Playwright loop ({workers} workers, same tasks and steps, "
                      f"screenshot + model wait + click per step): "
                      f"{bare['tasks_per_hour']:.0f} tasks/h, {bare['cpu_s_per_task']:.2f} CPU "
                      f"s/task; harness {row['share_of_bare_loop']:.0%} of it", flush=True)
                print("        bare loop CPU s/task by program: " + ", ".join(
                    f"{name} {sec:.2f}" for name, sec in bare["cpu_s_per_task_by_program"].items()))
        for row in rows[1:]:
            print(f"throughput at {row['workers']} workers: "
                  f"{row['tasks_per_hour'] / rows[0]['tasks_per_hour']:.2f}x "
                  f"{rows[0]['workers']} worker(s)")
        if ns.json:
            ns.json.write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
