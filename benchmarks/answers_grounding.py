"""Answer grounding and the verifier over the whole offline suite: how often each policy's
answers are grounded, and what the verifier costs.

Four benches of all suite tasks on one suite server:

* ``honest``: the oracle (the reference policy), with a verifier that accepts (a fake
  provider named like a priced model, so the verifier's tokens, as the fake counts them,
  get a price: an estimate of its cost per task);
* ``memory``: answers the right value at step 1, before doing anything ("from memory");
* ``nowhere``: waits once, then answers a number that is nowhere on the site.

Prints grounding statuses, how many answers were challenged, verifier verdicts and the
verifier's tokens and cost per task.

    OPENAI_API_KEY=x .venv/bin/python benchmarks/answers_grounding.py [--only a,b] [--workers 2]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from webfovea.bench import cli as bench_cli
from webfovea.dialects.loopback.fake_provider import FakeProvider, FakeRequest
from webfovea.rundir.store import load_run
from webfovea.suite.catalog import tasks
from webfovea.suite.cli import choose
from webfovea.suite.server import SuiteServer

VERIFIER_MODEL = "openai:gpt-4o"  # a name with a price in the table; the fake answers it
NOWHERE = "987654"


def bench(server: SuiteServer, task_file: Path, out: Path, workers: int, *extra: str) -> None:
    argv = ["bench", str(task_file), "--out", str(out), "--workers", str(workers)]
    for lane in server.lanes:
        argv += ["--host-resolver-rules", ",".join(server.host_rules(lane=lane))]
    parser = argparse.ArgumentParser(prog="webfovea")
    handlers = bench_cli.register(parser.add_subparsers(dest="command"))
    handlers["bench"](parser.parse_args([*argv, *extra]))


def fabricator(answers: dict[str, str], *, act_first: bool) -> Callable[[FakeRequest], str]:
    """An agent that answers without looking: at once, or after one wait()."""

    asked: Counter[str] = Counter()

    def policy(request: FakeRequest) -> str:
        text = "\n".join(t.text for t in request.turns if t.role == "user")
        task = next(instruction for instruction in answers if instruction in text)
        asked[task] += 1
        if act_first and asked[task] == 1:
            return "Thought: let me wait for the page.\nAction: wait()"
        value = NOWHERE if act_first else answers[task]
        return f"Thought: I know this one.\nAction: finished(content='{value}')"

    return policy


def accept(request: FakeRequest) -> str:
    return "Verdict: accept\nReason: the page shows the answer."


def summary(name: str, run_dir: Path) -> dict[str, object]:
    runs = load_run(run_dir).tasks
    grounding = Counter(r.result.grounding.status if r.result.grounding else "none" for r in runs)
    challenged = sum(bool(r.result.grounding and r.result.grounding.challenged) for r in runs)
    verdicts = Counter(r.result.verifier.verdict for r in runs if r.result.verifier)
    usages = [r.result.verifier.usage for r in runs if r.result.verifier]
    costs = [u.cost for u in usages if u.cost is not None]
    out: dict[str, object] = {
        "policy": name, "tasks": len(runs), "finished": sum(r.result.status == "finished"
                                                           for r in runs),
        "grounding": dict(grounding), "challenged": challenged,
        "not_grounded": sorted(r.id for r in runs if r.result.grounding
                               and r.result.grounding.status != "grounded")}
    if usages:
        out.update(verifier=dict(verdicts),
                   verifier_tokens_per_task=round(sum(u.prompt_tokens + u.output_tokens
                                                      for u in usages) / len(usages)),
                   verifier_cost_per_task=round(sum(costs) / len(costs), 5) if costs else None)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--only", help="comma-separated suite task ids (default: all)")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out", type=Path, help="keep the runs here (default: a temporary dir)")
    ns = p.parse_args()
    os.environ.setdefault("OPENAI_API_KEY", "benchmark")
    chosen = choose(tasks(0), only=ns.only, limit=None)
    answers = {t.instruction: re.sub(r"'", "", t.answer or "") for t in chosen}
    with tempfile.TemporaryDirectory() as tmp, SuiteServer(seed=0) as server:
        for _ in range(ns.workers - 1):
            server.add_lane()
        root = ns.out or Path(tmp)
        task_file = root / "suite.jsonl"
        root.mkdir(parents=True, exist_ok=True)
        task_file.write_text("".join(json.dumps(t.to_json()) + "\n" for t in chosen), "utf-8")
        results = []
        with FakeProvider(accept) as verifier:
            bench(server, task_file, root / "honest", ns.workers, "--model", "oracle",
                  "--verifier", VERIFIER_MODEL, "--verifier-base-url", verifier.base_url)
        results.append(summary("honest (oracle)", root / "honest"))
        for name, act_first in (("memory", False), ("nowhere", True)):
            with FakeProvider(fabricator(answers, act_first=act_first)) as agent:
                bench(server, task_file, root / name, ns.workers, "--model", "openai:fake",
                      "--base-url", agent.base_url, "--no-preflight")
            results.append(summary(name, root / name))
    for result in results:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
