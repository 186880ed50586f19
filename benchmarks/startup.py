"""Start-up time of `import webfovea` and `webfovea --help`, medians of fresh processes.

The command's first second is the window in which a Ctrl-C used to end in Python's
KeyboardInterrupt traceback (the package imported everything before ``main()`` could
install its handlers); the package now loads its names lazily. Each measurement is a
new ``python`` process, timed from spawn to exit.

    .venv/bin/python benchmarks/startup.py [--rounds 5] [--src OTHER_CHECKOUT/src]

``--src`` puts another checkout's ``src`` first on ``PYTHONPATH`` and measures it in the
same run too (e.g. a ``git archive`` of the commit before), so the two are compared
under the same load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

CASES = {
    "import webfovea": ["-c", "import webfovea"],
    "python -m webfovea --help": ["-m", "webfovea", "--help"],
    "import webfovea.cli.main": ["-c", "import webfovea.cli.main"],
}


def seconds(args: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, *args], env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--src", type=Path, action="append", default=[],
                        help="another checkout's src directory to compare (repeatable)")
    ns = parser.parse_args()
    trees = {"this checkout": None, **{str(p): p for p in ns.src}}
    for case, args in CASES.items():
        for label, src in trees.items():
            env = dict(os.environ)
            if src is not None:
                env["PYTHONPATH"] = str(src.resolve())
            seconds(args, env)  # warm the file cache and __pycache__ first
            times = [seconds(args, env) for _ in range(ns.rounds)]
            print(f"{case:28} {label:40} median {statistics.median(times) * 1000:7.0f} ms "
                  f"(min {min(times) * 1000:.0f}, max {max(times) * 1000:.0f}, n={ns.rounds})")


if __name__ == "__main__":
    main()
