"""The loop's side of the dialect interface, with a dialect given to run_task directly (as the
MCP server gives its bridge): a vendor's safety check stops the task unless acknowledged, and
the oracle speaks each dialect on the offline suite."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from as_seen import suite_images_after_moves
from webfovea.actions.registry import Action, Point
from webfovea.browser.local_server import LocalServer
from webfovea.browser.session import BrowserSession
from webfovea.core.config import AgentConfig
from webfovea.core.task import Task
from webfovea.dialects.base import Call, Decision, Observation, SafetyCheck
from webfovea.loop.agent import run_task
from webfovea.models.base import Usage
from webfovea.rundir.store import read_result, read_steps

CHECK = SafetyCheck("malicious_instructions", "The page asks to ignore the user.", "cu_sc_1")


class Checking:
    """A dialect whose provider flags its first action with a safety check."""

    name = "checking"

    def __init__(self) -> None:
        self.seen: list[Observation] = []

    async def decide(self, obs: Observation, *, timeout: float) -> Decision:
        self.seen.append(obs)
        if obs.step == 1:
            click = Action("click", {"start_box": Point(218, 240)})
            return Decision("{}", "", [Call("c1", {"name": "click"}, click)], Usage(calls=1),
                            safety_checks=[CHECK])
        done = Action("finished", {"content": "ok"})
        return Decision("{}", "", [Call("c2", {"name": "finished"}, done)], Usage(calls=1))

    async def aclose(self) -> None:
        """Nothing held."""


@pytest.mark.parametrize("acknowledge", [False, True])
async def test_a_safety_check_stops_the_task_unless_acknowledged(
        acknowledge: bool, browser: BrowserSession, pages: LocalServer, tmp_path: Path) -> None:
    dialect = Checking()
    config = AgentConfig(max_steps=4, acknowledge_safety_checks=acknowledge)
    result = await run_task(Task("t", pages.url("dialects/offsite.html")), dialect=dialect,
                            session=browser, config=config, out=tmp_path)
    steps = read_steps(tmp_path)
    recorded = {"code": CHECK.code, "message": CHECK.message, "id": CHECK.id}
    if acknowledge:
        assert result.status == "finished" and len(steps) == 2
        assert steps[0].acknowledged_safety_checks == [recorded]
        assert steps[0].outcome == "changed"
    else:
        assert result.status == "needs_confirmation" and len(steps) == 1
        assert read_result(tmp_path).safety_checks == [recorded]
        assert "--acknowledge-safety-checks" in (result.error or "")
        assert steps[0].page_points == []  # nothing ran
    assert result.model == "checking"


def _suite(out: Path, dialect: str, *args: str) -> dict[str, dict]:
    proc = subprocess.run([sys.executable, "-m", "webfovea", "suite", "run", "--out", str(out),
                           "--dialect", dialect, "--workers", "2", *args],
                          capture_output=True, text=True, timeout=1800, env=os.environ.copy())
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    score = subprocess.run([sys.executable, "-m", "webfovea", "score", str(out), "--format",
                            "json"], capture_output=True, text=True, timeout=60)
    return {t["id"]: t for t in json.loads(score.stdout)["lines"]}


# A select, a fill with Enter, a hover and a read_text: each dialect's translation of them.
SAMPLE = "stats-production-cell,energy-value"


@pytest.mark.parametrize("dialect", ["tools", "anthropic-computer"])
def test_the_oracle_speaks_each_dialect_on_suite_tasks(dialect: str, tmp_path: Path) -> None:
    by_id = _suite(tmp_path / "run", dialect, "--only", SAMPLE)
    assert set(by_id) == set(SAMPLE.split(",")) and all(t["correct"] for t in by_id.values())


@pytest.mark.slow
@pytest.mark.parametrize("dialect", ["text", "tools", "anthropic-computer",
                                     "anthropic-computer@computer_toolset_20260801"])
async def test_the_oracle_solves_the_whole_suite_in_each_dialect(dialect: str, tmp_path: Path
                                                                 ) -> None:
    name, _, version = dialect.partition("@")
    by_id = _suite(tmp_path / "run", name, *(["--dialect-version", version] if version else []))
    assert len(by_id) == 42
    assert [i for i, t in by_id.items() if not t["correct"]] == []
    assert await suite_images_after_moves(tmp_path / "run") >= 5  # issue 35, in every dialect
