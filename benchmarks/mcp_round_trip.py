"""``webfovea mcp`` against ``webfovea run``, in one invocation on one machine.

1. **Suite score through MCP**: the offline suite's reference policy drives each chosen task
   in its own MCP session (streamable HTTP), seeing every screenshot at ``--seen`` (not the
   size sent, as a host whose provider resizes would) and mapping its points back by the
   size the server states; the same tasks then go through ``webfovea suite run`` (the
   oracle through the text dialect). Both are scored with the bench's matcher.
2. **Per-call latency of an action tool**: the same no-op click on the bundled demo page,
   in alternating rounds, as an MCP tool call (client wall time from request to result, which
   holds the action, its feedback and the next screenshot) and as steps of ``webfovea run``
   with a scripted model (wall time from one step's start to the next's: the same action,
   feedback and screenshot, with no model time). Medians.

    python benchmarks/mcp_round_trip.py                    # 8 suite tasks, 4 x 10 clicks
    python benchmarks/mcp_round_trip.py --no-suite --rounds 6
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mcp import Client

from webfovea import demo
from webfovea.bench.scorer import match
from webfovea.core.config import Size
from webfovea.suite.catalog import tasks
from webfovea.suite.cli import choose
from webfovea.suite.server import SuiteServer
from webfovea.testing import LocalServer
from webfovea.testing.mcp_client import McpOracle, data, http_server, stdio_client

CAP = "1280x720"
NO_OP = (1200, 700)  # an empty corner of the demo page, in the 1280x720 screenshot


async def suite_through_mcp(ids: list[str], out: Path, seen: Size) -> dict[str, bool]:
    by_id = {t.id: t for t in tasks(0)}
    correct: dict[str, bool] = {}
    with SuiteServer(seed=0) as suite, http_server(
            "--out", str(out), "--host-resolver-rules", ",".join(suite.host_rules())) as url:
        oracle = McpOracle(suite.layout_url(), seen=seen)
        for task_id in ids:
            task = by_id[task_id]
            async with Client(url) as client:
                answer = data(await oracle.solve(client, task)).get("answer") or ""
            correct[task_id] = bool(match(task.answer, answer, task.answer_type).correct)
    return correct


def suite_through_run(ids: list[str], out: Path) -> dict[str, bool]:
    subprocess.run([sys.executable, "-m", "webfovea", "suite", "run", "--only", ",".join(ids),
                    "--workers", "1", "--out", str(out)], capture_output=True, check=False)
    score = subprocess.run([sys.executable, "-m", "webfovea", "score", str(out), "--format",
                            "json"], capture_output=True, text=True, check=True)
    return {line["id"]: bool(line["correct"]) for line in json.loads(score.stdout)["lines"]}


async def clicks_through_mcp(url: str, clicks: int, out: Path, *, http: bool) -> list[float]:
    args = ("--out", str(out), "--image-cap", CAP)
    async with contextlib.AsyncExitStack() as stack:
        server = stack.enter_context(http_server(*args)) if http else None
        client = await stack.enter_async_context(Client(server) if server else stdio_client(*args))
        await client.call_tool("open", {"url": url})
        times = []
        for _ in range(clicks):
            t0 = time.perf_counter()
            result = await client.call_tool("click", {"start_box": list(NO_OP)})
            times.append(time.perf_counter() - t0)
            assert data(result)["outcome"] == "no_change", data(result)
    return times


def clicks_through_run(url: str, clicks: int, out: Path) -> list[float]:
    reply = f"Thought: click the corner.\nAction: click(start_box='({NO_OP[0]},{NO_OP[1]})')"
    out.parent.mkdir(parents=True, exist_ok=True)
    replies = out.parent / "replies.txt"
    replies.write_text("\n---\n".join([reply] * clicks + [
        "Thought: done.\nAction: finished(content='x')"]))
    subprocess.run([sys.executable, "-m", "webfovea", "run", "--url", url, "--task", "t",
                    "--model", f"scripted:{replies}", "--image-cap", CAP, "--out", str(out),
                    "--quiet"], capture_output=True, check=True)
    starts = [json.loads(line)["started_at"] for line in
              (out / "steps.jsonl").read_text().splitlines()]
    return [b - a for a, b in itertools.pairwise(starts)][:clicks]


def suite(ids: list[str], root: Path, seen: str) -> None:
    mcp = asyncio.run(suite_through_mcp(ids, root / "mcp-suite", Size.parse(seen)))
    run = suite_through_run(ids, root / "run-suite")
    print(f"suite, {len(ids)} tasks (seed 0): through MCP {sum(mcp.values())}/{len(ids)} "
          f"correct (client sees {seen}), through run {sum(run.values())}/{len(ids)}")
    for task_id in ids:
        print(f"  {task_id:<28} mcp {'ok' if mcp[task_id] else 'WRONG':<6} "
              f"run {'ok' if run.get(task_id) else 'WRONG'}", flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--limit", type=int, default=8, help="suite tasks, spread over the sites")
    p.add_argument("--clicks", type=int, default=10, help="clicks per round and side")
    p.add_argument("--rounds", type=int, default=4)
    p.add_argument("--seen", default="1000x562", help="the size the client's model sees")
    p.add_argument("--no-suite", action="store_true", help="only the latency of the click")
    ns = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp, LocalServer(demo.root()) as pages:
        root = Path(tmp)
        if not ns.no_suite:
            suite([t.id for t in choose(tasks(0), only=None, limit=ns.limit)], root, ns.seen)
        url = pages.url("index.html")
        times: dict[str, list[float]] = {"MCP stdio": [], "MCP HTTP": [], "run": []}
        for r in range(ns.rounds):  # alternating, so a machine whose load drifts weighs on all
            times["MCP stdio"] += asyncio.run(clicks_through_mcp(
                url, ns.clicks, root / f"stdio-{r}", http=False))
            times["MCP HTTP"] += asyncio.run(clicks_through_mcp(
                url, ns.clicks, root / f"http-{r}", http=True))
            times["run"] += clicks_through_run(url, ns.clicks, root / f"run-{r}" / "run")
        print(f"no-op click, {ns.rounds} rounds of {ns.clicks} each, median per call/step: "
              + ", ".join(f"{k} {statistics.median(v) * 1000:.0f} ms" for k, v in times.items()))


if __name__ == "__main__":
    main()
