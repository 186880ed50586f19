"""Issue 45 end to end: a real bench run (Chromium on a local page, the agent and the judge
real OpenAI-protocol HTTP servers) over references shaped like the published Protocol III
sample, scored with three verdicts; the judge decides the undecided answers and only those;
``score --rescore`` says which verdicts changed.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from test_bench_support import PAGES, TaskPolicy, finish, provider, run_cli, write_tasks
from webfovea.testing import FakeProvider, FakeRequest, LocalServer

pytestmark = pytest.mark.usefixtures("openai_key")

RANKING = "第一名：复旦大学\n第二名：华东师范大学\n第三名：同济大学"
# id: (instruction, reference, the agent's answer, verdict, who decided, the typed rule)
TASKS = {
    "t-views": ("Eli Manning 2024年2月的总浏览量是多少?", "210007", "210,000",
                "wrong", "integer", "integer"),
    "t-share": ("图表上hover显示的值是多少(%)?", "0.437", "43.7%",
                "correct", "percent", "percent"),
    "t-rank": ("在上海市排名前3的学校是哪些。", RANKING, "复旦大学、华东师范大学、同济大学",
               "correct", "ranking", "ranking"),
    "t-date": ("NVIDIA公司首次提交10-K年报的日期", "1999-04-29 00:00:00", "April 29, 1999",
               "correct", "date", "date"),
    "t-country": ("哪个国家排名第一？", "西班牙", "Spain", "correct", "judge", "script"),
    "t-city": ("Which city?", "New York City", "NYC", "wrong", "judge", "text"),
}


def judge_policy(request: FakeRequest) -> str:
    return "YES" if "Candidate answer: Spain" in request.turns[0].text else "NO"


@pytest.fixture(scope="module")
def judged_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, int]]:
    """The bench with ``--judge``: (run directory, the judge's requests)."""
    tmp = tmp_path_factory.mktemp("verdicts")
    with LocalServer(PAGES) as site:
        tasks = write_tasks(tmp / "tasks.jsonl", [
            {"id": task_id, "instruction": text, "url": site.url("index.html"), "answer": ref}
            for task_id, (text, ref, *_) in TASKS.items()])
        policy = TaskPolicy({text: [finish(answer)] for text, _, answer, *_ in TASKS.values()})
        with provider(policy) as agent, FakeProvider(judge_policy) as judge:
            assert run_cli(["bench", str(tasks), "--out", str(tmp / "run"), "--workers", "2",
                            "--model", "openai:agent", "--base-url", agent.base_url,
                            "--judge", "openai:judge", "--judge-base-url", judge.base_url,
                            "--viewport", "800x600", "--max-steps", "3",
                            "--time-limit", "30"]) == 0
            yield tmp / "run", len(judge.requests)


def _score(run: Path, task_id: str) -> dict:
    return json.loads((run / "tasks" / task_id / "score.json").read_text(encoding="utf-8"))


def test_the_bench_records_each_verdict_with_its_rule(judged_run: tuple[Path, int],
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    run, asked = judged_run
    for task_id, (_, ref, _, verdict, matcher, rule) in TASKS.items():
        score = _score(run, task_id)
        assert (score["verdict"], score["matcher"], score["rule"], score["reference"]) == \
            (verdict, matcher, rule, ref), (task_id, score["detail"])
    assert asked == 2  # the two undecided answers, and only those
    assert _score(run, "t-country")["judge"] == "openai:judge"
    assert "Spain" not in _score(run, "t-views")["detail"]
    capsys.readouterr()
    assert run_cli(["score", str(run)]) == 0
    table = capsys.readouterr().out
    assert "the judge (openai:judge) decided 2 answer(s)" in table
    assert "success: 66.7%" in table and "undecided:" not in table


def test_rescore_says_which_verdicts_changed(judged_run: tuple[Path, int], tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    run = Path(shutil.copytree(judged_run[0], tmp_path / "run"))
    capsys.readouterr()
    # Without a judge the two answers it decided are undecided again: not correct, listed.
    assert run_cli(["score", str(run), "--rescore"]) == 0
    out, err = capsys.readouterr()
    assert "rescored 6 verdicts: 2 changed" in err
    assert "t-country: correct → undecided (script:" in err
    assert "t-city: wrong → undecided (text:" in err
    assert "undecided: 2 answer(s) the typed rules cannot tell" in out
    assert "t-country (script): answer 'Spain', reference '西班牙'" in out
    assert "success: 50.0%" in out
    score = _score(run, "t-country")
    assert (score["verdict"], score["matcher"], score["judge"]) == ("undecided", "script", None)
    assert "LATIN script" in score["detail"]

    assert run_cli(["score", str(run), "--rescore", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["undecided"], report["judged"], report["success"]["correct"]) == (2, 0, 3)
    lines = {line["id"]: line for line in report["lines"]}
    assert (lines["t-views"]["decision"], lines["t-views"]["rule"]) == ("wrong", "integer")

    with FakeProvider(judge_policy) as judge:
        assert run_cli(["score", str(run), "--judge", "openai:judge", "--judge-base-url",
                        judge.base_url]) == 0
        assert len(judge.requests) == 2
    out, err = capsys.readouterr()
    assert "rescored 6 verdicts: 2 changed" in err
    assert "t-country: undecided → correct (judge:" in err
    assert "success: 66.7%" in out
