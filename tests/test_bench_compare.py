"""``webfovea compare``: tasks paired by id, fixed / broken / unchanged, and noise.

The two runs are real result stores written through the store's own API.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from test_bench_support import run_cli
from webfovea.bench.compare import compare, mcnemar_exact
from webfovea.bench.scorer import Verdict
from webfovea.bench.store import Store
from webfovea.core.task import Task
from webfovea.rundir.trajectory import ResultRecord


def make_run(path: Path, outcomes: dict[str, bool | None], *,
             references: dict[str, str] | None = None) -> Path:
    """A run whose task ``id`` was answered correctly (True), wrongly (False) or unscored."""
    path.mkdir()
    store = Store(path / "results.sqlite")
    references = references or {}
    tasks = [Task(instruction=f"task {i}", url="https://example.org/", id=i,
                  answer=None if ok is None else references.get(i, "42"))
             for i, ok in outcomes.items()]
    store.add_tasks(tasks)
    run_id = store.begin_run(executor="local", workers=1, command="test", invocation={},
                             versions={})
    for task in tasks:
        ok = outcomes[task.id]
        store.mark_running(task.id, 1, run_id=run_id, worker="w")
        result = ResultRecord(task=task.instruction, url=task.url, task_id=task.id,
                              status="finished", answer="42" if ok else "41", steps=1)
        verdict = Verdict(ok, "none" if ok is None else "numeric", "")
        store.finish(task.id, 1, run_id=run_id, result=result, verdict=verdict, steps=[],
                     worker="w", browser_replaced=False)
    store.end_run(run_id, "completed")
    store.close()
    return path


def test_mcnemar_exact_values() -> None:
    assert mcnemar_exact(0, 0) == 1.0
    assert mcnemar_exact(6, 2) == pytest.approx(2 * (1 + 8 + 28) / 256)
    assert mcnemar_exact(8, 0) == pytest.approx(2 / 256)
    assert mcnemar_exact(12, 0) == pytest.approx(2 / 4096)  # the paper's +12/−0


def test_pairs_by_id_and_says_when_it_is_noise(tmp_path: Path) -> None:
    a = {f"t{i}": i < 4 for i in range(10)}
    b = {f"t{i}": i < 2 or i >= 4 for i in range(10)}
    a["only-a"], b["only-b"], a["unscored"], b["unscored"] = True, True, None, False
    result = compare(Store(make_run(tmp_path / "a", a) / "results.sqlite").rows(),
                     Store(make_run(tmp_path / "b", b) / "results.sqlite").rows(),
                     run_a="A", run_b="B")
    assert result.fixed == [f"t{i}" for i in range(4, 10)]
    assert result.broken == ["t2", "t3"]
    assert result.still_correct == ["t0", "t1"] and result.still_wrong == []
    assert (result.only_a, result.only_b, result.unpaired) == (["only-a"], ["only-b"],
                                                                ["unscored"])
    assert (result.paired, result.correct_a, result.correct_b) == (10, 4, 8)
    assert result.within_noise and "within noise" in result.conclusion()
    assert result.difference == pytest.approx(0.4)


def test_a_clear_improvement_is_not_noise(tmp_path: Path) -> None:
    a = {f"t{i}": i < 8 for i in range(24)}
    b = {f"t{i}": i < 20 for i in range(24)}
    result = compare(Store(make_run(tmp_path / "a", a) / "results.sqlite").rows(),
                     Store(make_run(tmp_path / "b", b) / "results.sqlite").rows(),
                     run_a="A", run_b="B")
    assert (len(result.fixed), len(result.broken)) == (12, 0)
    assert not result.within_noise
    assert "unlikely to be noise" in result.conclusion()


def test_compare_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = make_run(tmp_path / "a", {"x": False, "y": True, "z": True},
                 references={"z": "old answer"})
    b = make_run(tmp_path / "b", {"x": True, "y": True, "z": True})
    capsys.readouterr()
    assert run_cli(["compare", str(a), str(b), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["fixed"], data["broken"], data["still_correct"]) == (["x"], [], ["y", "z"])
    assert data["reference_changed"] == ["z"]
    assert data["within_noise"] is True and data["p_value"] == 1.0
    assert run_cli(["compare", str(a), str(b)]) == 0
    table = capsys.readouterr().out
    assert "fixed (+) 1: x" in table and "broken (−) 0: –" in table
    assert "reference answer differs between runs: z" in table
    assert run_cli(["compare", str(a), str(tmp_path / "missing")]) == 2
    assert "holds no bench run" in capsys.readouterr().err
