"""One model of a run: what ``bench`` writes is what ``view``, ``diagnose``, ``replay`` and
``score --rescore`` read. Every run directory here is written by a real ``webfovea bench``
(real Chromium on tests/pages/viewer, the model a real OpenAI-protocol server whose policy
reacts to the notes), never by hand.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from test_bench_support import WAIT, by_task, finish, run_cli, write_tasks
from viewer_helpers import REVEAL, click, opened, reply, reveal_policy, search_policy
from webfovea.bench.store import Store
from webfovea.browser.session import BrowserSession
from webfovea.rundir.store import load_run
from webfovea.testing import FakeProvider, FakeRequest, LocalServer
from webfovea.tools.diagnose import diagnose
from webfovea.tools.replay import replay

TASKS = [  # id, instruction, reference, tags, policy
    ("t-reveal", "Reveal the total.", "48,210", ["shop", "easy"], reveal_policy),
    ("t-wrong", "Guess the total.", "48,210", ["shop"],
     # The first step clicks; once a reply of its own is in the history, it guesses.
     lambda req: reply(click(REVEAL)) if not any(t.role == "assistant" for t in req.turns)
     else reply("finished(content='41,800')", "The total must be 41,800.")),
    ("t-search", "Search the laptop.", "1,234", ["search"], search_policy("laptop\\n")),
    ("t-stuck", "Wait forever.", "1", [], lambda req: WAIT),
    ("t-city", "Which city?", "New York City", [], lambda req: finish("NYC")),
    ("t-open", "Say hello.", None, [], lambda req: finish("hello")),
]


def _bench(pages: LocalServer, out: Path, *extra: str) -> int:
    lines = [{"id": i, "instruction": text, "url": pages.url("viewer/shop.html"), "tags": tags,
              **({"answer": ref} if ref is not None else {})}
             for i, text, ref, tags, _ in TASKS]
    tasks = write_tasks(out.parent / f"{out.name}.jsonl", lines)
    policy = by_task({text: p for _, text, _, _, p in TASKS})
    with FakeProvider(policy) as fp:
        return run_cli(["bench", str(tasks), "--out", str(out), "--model", "openai:fake",
                        "--base-url", fp.base_url, "--max-steps", "4", "--time-limit", "60",
                        "--workers", "2", *extra])


@pytest.fixture(scope="module")
def bench(pages: LocalServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One bench run; the search task runs with Enter broken (``--ablate enter``)."""
    out = tmp_path_factory.mktemp("rundir") / "run"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("OPENAI_API_KEY", "test-key")
        assert _bench(pages, out, "--ablate", "enter") == 0
    yield out


def _read(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def test_bench_writes_each_tasks_line_and_verdict_next_to_its_result(bench: Path) -> None:
    store = Store.open_existing(bench)
    rows = {r.task_id: r for r in store.rows()}
    store.close()
    for task_id, text, ref, tags, _ in TASKS:
        task_dir = bench / "tasks" / task_id
        line = _read(task_dir / "task.json")
        assert (line["id"], line["instruction"], line["answer"], line["tags"]) == \
            (task_id, text, ref, tags)
        score = _read(task_dir / "score.json")
        assert (score["correct"], score["matcher"], score["reference"]) == \
            (rows[task_id].correct, rows[task_id].matcher, ref)
    verdicts = {t.id: t.verdict for t in load_run(bench).tasks}
    assert verdicts == {"t-reveal": "correct", "t-wrong": "wrong", "t-search": "wrong",
                        "t-stuck": "wrong", "t-city": "undecided", "t-open": "unscored"}


def test_diagnose_examines_every_unfinished_or_wrong_task(bench: Path) -> None:
    stages = {d.task: d.stage for d in diagnose(bench).diagnosed}
    # t-city answered at once: the answer-grounding guardrail asked it to look again first.
    assert stages == {"t-wrong": "decision", "t-search": "execute", "t-stuck": "guardrails",
                      "t-city": "guardrails"}
    out = subprocess.run([sys.executable, "-m", "webfovea", "diagnose", str(bench), "--all",
                          "--json"], capture_output=True, text=True, check=True).stdout
    every = {f["task"]: f for f in json.loads(out)["failures"]}
    assert every["t-reveal"]["stage"] == "correct"
    assert "'48,210'" in every["t-reveal"]["evidence"]
    assert every["t-open"]["stage"] == "guardrails"
    assert any("Enter was not pressed" in f["evidence"] for f in every["t-search"]["findings"])


def test_replay_reads_every_task_of_the_bench(bench: Path) -> None:
    report = replay(bench)
    assert report.tasks == len(TASKS) and report.changes == []
    assert report.steps == sum(len(t.steps) for t in load_run(bench).tasks)


async def test_the_report_is_the_viewers_index_linked_both_ways(browser: BrowserSession,
                                                                bench: Path) -> None:
    index = bench / "report.html"
    assert index.is_file()  # the bench wrote it; `view` writes the same page again
    out = subprocess.run([sys.executable, "-m", "webfovea", "view", str(bench)],
                         capture_output=True, text=True, check=True).stdout
    assert Path(out.strip()) == index
    async with opened(browser, index) as (page, problems):
        main = await page.locator("main").inner_text()
        assert "success 20.0% ± 17.9 (1/5)" in main
        assert "correct 1" in main and "wrong_answer 2" in main and "step_limit 2" in main
        visible = page.locator("table.index tbody tr:not([hidden])")
        assert await page.locator("table.index tbody tr").count() == len(TASKS)
        for label, value, shown in (("verdicts", "wrong", 3), ("verdicts", "undecided", 1),
                                    ("tags", "shop", 2), ("stages", "execute", 1)):
            await page.get_by_label(label, exact=True).select_option(value)
            assert await visible.count() == shown, (label, value)
            await page.get_by_label(label, exact=True).select_option("")
        row = await page.locator("tr", has_text="t-reveal").inner_text()
        assert "correct" in row and "48,210" in row
        await page.get_by_role("link", name="t-reveal", exact=True).click()
        await page.wait_for_url(re.compile(r"tasks/t-reveal/view\.html$"))
        answer = await page.locator("#answer").inner_text()
        assert re.search(r"reference\s+48,210", answer) and "integer" in answer
        await page.get_by_role("link", name="← all tasks").click()
        await page.wait_for_url(re.compile(r"/run/report\.html$"))
        assert problems == []


def test_rescoring_rewrites_the_verdicts_every_reader_sees(bench: Path, tmp_path: Path) -> None:
    run = shutil.copytree(bench, tmp_path / "run")

    def judge(request: FakeRequest) -> str:
        return "YES" if "Candidate answer: NYC" in request.turns[0].text else "NO"

    with FakeProvider(judge) as fp, pytest.MonkeyPatch.context() as mp:
        mp.setenv("OPENAI_API_KEY", "test-key")
        assert run_cli(["score", str(run), "--judge", "openai:judge", "--judge-base-url",
                        fp.base_url]) == 0
    score = _read(run / "tasks" / "t-city" / "score.json")
    assert (score["verdict"], score["matcher"], score["judge"]) == ("correct", "judge",
                                                                   "openai:judge")
    assert _read(run / "tasks" / "t-reveal" / "score.json")["judge"] is None
    assert "t-city" not in {d.task for d in diagnose(run).diagnosed}
    assert "success 40.0%" in (run / "report.html").read_text(encoding="utf-8")


# -- repeated trials --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def trials(pages: LocalServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Two tasks, two trials each: t-reveal succeeds both times, t-flip only in its first."""
    out = tmp_path_factory.mktemp("trials") / "run"
    starts: list[int] = []

    def flip(req: FakeRequest) -> str:
        if not any(t.role == "assistant" for t in req.turns):  # a trial's first step
            starts.append(1)
            return reply(click(REVEAL))
        return finish("48,210" if len(starts) == 1 else "41,800")

    lines = [{"id": i, "instruction": text, "url": pages.url("viewer/shop.html"),
              "answer": "48,210"} for i, text in (("t-reveal", "Reveal the total."),
                                                  ("t-flip", "Flip a coin."))]
    tasks = write_tasks(out.parent / "trials.jsonl", lines)
    policy = by_task({"Reveal the total.": reveal_policy, "Flip a coin.": flip})
    with FakeProvider(policy) as fp, pytest.MonkeyPatch.context() as mp:
        mp.setenv("OPENAI_API_KEY", "test-key")
        args = ["bench", str(tasks), "--out", str(out), "--model", "openai:fake", "--base-url",
                fp.base_url, "--max-steps", "4", "--trials", "2"]
        assert run_cli(args) == 0
        assert run_cli([*args, "--resume"]) == 0  # every trial done: nothing runs again
        assert len(starts) == 2
    yield out


def test_each_trial_has_its_directory_and_its_row(trials: Path) -> None:
    for task_id in ("t-reveal", "t-flip"):
        for n in (1, 2):
            assert (trials / "tasks" / task_id / str(n) / "score.json").is_file()
    store = Store.open_existing(trials)
    rows = [(r.task_id, r.trial, r.correct) for r in store.rows()]
    store.close()
    assert rows == [("t-reveal", 1, True), ("t-reveal", 2, True), ("t-flip", 1, True),
                    ("t-flip", 2, False)]
    labels = {t.label: t.verdict for t in load_run(trials).tasks}
    assert labels == {"t-reveal #1": "correct", "t-reveal #2": "correct",
                      "t-flip #1": "correct", "t-flip #2": "wrong"}
    assert [d.task for d in diagnose(trials).diagnosed] == ["t-flip #2"]


def test_score_reports_success_per_task_and_pass_at_k(trials: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert run_cli(["score", str(trials), "--format", "json"]) == 0
    stats = json.loads(capsys.readouterr().out)["trials"]
    assert stats["per_task"] == {"t-reveal": {"correct": 2, "n": 2},
                                 "t-flip": {"correct": 1, "n": 2}}
    assert stats["mean"] == pytest.approx(0.75)
    assert stats["low"] < 0.75 < stats["high"] <= 1.0
    assert stats["pass_at"] == {"1": pytest.approx(0.75), "2": 1.0}
    assert stats["pass_all"] == {"1": pytest.approx(0.75), "2": 0.5}
    assert run_cli(["score", str(trials)]) == 0
    assert "pass@2 100.0%   pass^2 50.0%" in capsys.readouterr().out


def test_compare_pairs_tasks_over_their_trials(trials: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert run_cli(["compare", str(trials), str(trials), "--format", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["paired"], result["correct_a"], result["fixed"]) == (2, 1.5, [])
    assert result["still_correct"] == ["t-reveal"]
