"""The local pool starts its workers' browsers one at a time (bench/pool.py).

Launches that overlap share the cores and leave the workers stepping in lockstep; this
runs a real three-worker bench (benchmarks/bench_workers.py --demo) through a Chromium
launcher script that notes when each launch begins and takes a second before it hands
over to Chromium. One at a time, the launches begin at least that second apart; started
together, they all begin within a moment of each other.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

from webfovea.browser.chromium import find_chromium

SCRIPT = Path(__file__).parent.parent / "benchmarks" / "bench_workers.py"
SLOW_START = 1.0  # seconds the launcher script waits before it becomes Chromium


def launcher(folder: Path) -> tuple[Path, Path]:
    log = folder / "launches.txt"
    script = folder / "chromium"
    script.write_text(f"#!/bin/sh\ndate +%s.%N >> {log}\nsleep {SLOW_START}\n"
                      f'exec {find_chromium()} "$@"\n')
    script.chmod(0o755)
    return script, log


def test_workers_browsers_start_one_at_a_time(tmp_path: Path) -> None:
    script, log = launcher(tmp_path)
    numbers = tmp_path / "numbers.json"
    subprocess.run(
        [sys.executable, str(SCRIPT), "--demo", "3", "--workers", "3", "--out", str(tmp_path),
         "--json", str(numbers), "--no-bare-loop"], check=True, timeout=300,
        env={**os.environ, "OPENAI_API_KEY": "test-key", "WEBFOVEA_CHROMIUM": str(script)})
    [row] = json.loads(numbers.read_text())
    assert (row["tasks"], row["correct"]) == (3, 3), row
    starts = sorted(float(line) for line in log.read_text().split())
    assert len(starts) == 3, starts  # one browser per worker, through the launcher
    gaps = [b - a for a, b in itertools.pairwise(starts)]
    assert min(gaps) >= 0.9 * SLOW_START, f"launches overlapped: began {gaps} s apart"
