"""Issue 44 items 1 and 6: WebRetriever's task files as published, and the 2026 Challenge's
rules as one switch (``bench --preset webretriever-2026``).

``tests/data/webretriever/example_tasks.json`` and ``protocol3_sample_8.json`` are copied
unchanged from the reference agent's repository (sw2011/WebDeepRetriever: ``data/`` and
``evaluation/``); ``own_tasks.json`` is laid out the same way, with a bare host, multi-line
answers, a ``keytra``, ``reference_length`` and one malformed element. Its sites are local
pages reached through Chromium's host resolver rules; the model is a real OpenAI-protocol
server whose requests are read back.
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from test_bench_support import PAGES, WAIT, TaskPolicy, finish, instruction_of, provider, run_cli
from webfovea.bench.store import Store
from webfovea.bench.tasks import read_tasks
from webfovea.core.domains import DomainPolicy
from webfovea.core.errors import ConfigError
from webfovea.dialects.task_prompt import DOCUMENTATION_HEADING
from webfovea.testing import FakeProvider, FakeRequest, LocalServer

DATA = Path(__file__).parent / "data" / "webretriever"
EXAMPLE, SAMPLE, OWN = (DATA / "example_tasks.json", DATA / "protocol3_sample_8.json",
                        DATA / "own_tasks.json")
KEYTRA_ID = "5c1d9e7a2b4f4e6c8a0d1f3b5e7c9a1d"  # own_tasks.json, element 0
BARE_ID = "8e2f4a6c0b1d4c3e9f7a5b3d1c0e2f4a"  # element 1: "website": "stats.fovea.test"
LIST_ID = "b3a5c7e9d1f24a6b8c0e2d4f6a8b0c1e"  # element 2: a two-line answer
FAST = ["--viewport", "800x600", "--time-limit", "60", "--grounding", "record",
        "--no-preflight"]

pytestmark = pytest.mark.usefixtures("openai_key")


# -- the files as published -------------------------------------------------------------------


def test_the_published_files_read_as_published() -> None:
    example, sample = read_tasks(EXAMPLE), read_tasks(SAMPLE)
    assert not example.problems and not sample.problems
    assert [t.task_idx for t in example.tasks] == [0, 1, 2]
    first = example.tasks[0]
    assert (first.id, first.url, first.answer) == ("f0fe04a2e725413097e7ea64c4fd2f5f",
                                                   "https://zh.ifixit.com/", None)
    assert first.instruction.startswith("查看\"iPad Air 3\"")
    assert len(sample.tasks) == 8 and all("webretriever" in t.tags for t in sample.tasks)
    assert sample.tasks[0].task_idx == 5
    assert sample.tasks[0].answer == ("2011年第一季度172千人次\n2010年第三季度154千人次\n"
                                      "2011年第三季度151千人次")  # several lines, kept as given


def test_own_file_keeps_every_field_and_names_the_bad_element() -> None:
    found = read_tasks(OWN)
    assert [str(p) for p in found.problems] == [
        "element 3: `task_idx` must be a whole number of at least 0, got 'three'"]
    keytra, bare, listed = found.tasks
    assert (keytra.task_idx, keytra.reference_length) == (0, 1)
    assert keytra.keytra is not None and keytra.keytra.startswith("首页的表格")
    assert bare.url == "https://stats.fovea.test"  # a bare host gets https://
    assert listed.answer == "Springfield\nShelbyville" and listed.reference_length == 4


def test_format_webretriever_reads_an_array_whose_first_element_says_nothing(
        tmp_path: Path) -> None:
    records = json.loads(OWN.read_text(encoding="utf-8"))
    del records[0]["task_idx"]  # the guess looks at the first element: now plain names
    array = tmp_path / "tasks.json"
    array.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(ConfigError, match="one JSON array"):
        read_tasks(array)
    forced = read_tasks(array, fmt="webretriever")
    assert forced.tasks[0].keytra and forced.tasks[0].task_idx is None
    assert [p.line for p in forced.problems] == [3]


def test_the_store_keeps_the_fields_and_a_changed_keytra_is_another_task(
        tmp_path: Path) -> None:
    keytra, *_ = read_tasks(OWN).tasks
    store = Store(tmp_path / "results.sqlite")
    store.add_tasks([keytra])
    assert store.rows()[0].task == keytra
    with pytest.raises(ConfigError, match="defined differently"):
        store.add_tasks([replace(keytra, keytra="other notes")])
    # A row stored before the fields were (NULL) still matches the task read today.
    store.conn.execute("UPDATE tasks SET extras = NULL")
    store.add_tasks([keytra])
    store.close()


# -- one bench on the file: keytra in the first request, step budgets, task.json, score --------


@dataclass
class Bench:
    out: Path
    code: int
    requests: list[FakeRequest]
    stderr: str


@pytest.fixture(scope="module")
def site() -> Iterator[LocalServer]:
    with LocalServer(PAGES) as server:
        yield server


def _rules(site: LocalServer, *hosts: str) -> str:
    return ",".join(f"MAP {host} 127.0.0.1:{site.port}" for host in ("*.fovea.test", *hosts))


@pytest.fixture(scope="module")
def bench(site: LocalServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Bench]:
    policy = TaskPolicy({
        # One step allowed (its reference_length): the second reply is never asked for.
        "查看斯普林菲尔德(Springfield)的人口数。": [WAIT, finish("1,234,567")],
        "List the cities in the population table, largest first.": [
            finish("Springfield\\nShelbyville")],
    })
    out = tmp_path_factory.mktemp("webretriever") / "run"
    with provider(policy) as fp, contextlib.redirect_stderr(io.StringIO()) as errors:
        code = run_cli(["bench", str(OWN), "--out", str(out), "--model", "openai:agent",
                        "--base-url", fp.base_url, "--host-resolver-rules", _rules(site),
                        "--step-budget", "reference_length", *FAST])
    yield Bench(out, code, fp.requests, errors.getvalue())


def _task_dir(bench: Bench, task_id: str) -> Path:
    return bench.out / "tasks" / task_id


def test_keytra_reaches_the_model_in_the_first_request(bench: Bench) -> None:
    assert bench.code == 0
    mine = [r for r in bench.requests if instruction_of(r).startswith("查看斯普林菲尔德")]
    first = mine[0].turns[0].text
    assert DOCUMENTATION_HEADING in first
    assert "首页的表格列出各城市的人口；找到Springfield一行，读取Population列。" in first
    others = [r for r in bench.requests if r not in mine]
    assert others and all(DOCUMENTATION_HEADING not in r.turns[0].text for r in others)


def test_the_bad_element_is_named_and_the_rest_ran(bench: Bench) -> None:
    assert "element 3: `task_idx` must be a whole number" in bench.stderr
    store = Store.open_existing(bench.out)
    rows = {r.task_id: r for r in store.rows()}
    assert set(rows) == {KEYTRA_ID, BARE_ID, LIST_ID}
    assert "element 3" in store.events("bad_line")[0]["detail"]
    # The step budget: reference_length 1 ends the keytra task after one step; the listed
    # task (reference_length 4) answers at its first and is right, item by item.
    assert (rows[KEYTRA_ID].status, rows[KEYTRA_ID].steps) == ("step_limit", 1)
    assert (rows[LIST_ID].status, rows[LIST_ID].correct) == ("finished", True)
    # The bare host was tried over https (nothing serves TLS there).
    assert rows[BARE_ID].status == "unreachable"
    assert rows[BARE_ID].url == "https://stats.fovea.test"


def test_task_json_and_the_config_carry_the_webretriever_fields(bench: Bench) -> None:
    task = json.loads((_task_dir(bench, KEYTRA_ID) / "task.json").read_text(encoding="utf-8"))
    assert (task["id"], task["task_idx"], task["reference_length"]) == (KEYTRA_ID, 0, 1)
    assert task["keytra"].startswith("首页的表格")
    bare = json.loads((_task_dir(bench, BARE_ID) / "task.json").read_text(encoding="utf-8"))
    assert "keytra" not in bare and "reference_length" not in bare  # only when set
    assert bare["answer"].count("\n") == 2
    steps = {task_id: json.loads((_task_dir(bench, task_id) / "result.json").read_text())
             ["config"]["max_steps"] for task_id in (KEYTRA_ID, LIST_ID)}
    assert steps == {KEYTRA_ID: 1, LIST_ID: 4}
    # The store keeps them too: a rescore rewrites task.json without losing them.
    assert run_cli(["score", str(bench.out), "--rescore", "--format", "json"]) == 0
    again = json.loads((_task_dir(bench, KEYTRA_ID) / "task.json").read_text(encoding="utf-8"))
    assert again == task


def test_score_finds_a_task_of_the_array_by_its_task_id(bench: Bench,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    capsys.readouterr()
    assert run_cli(["score", str(_task_dir(bench, LIST_ID)), "--task", str(OWN),
                    "--format", "json"]) == 0
    scored = json.loads(capsys.readouterr().out)
    assert (scored["task"], scored["verdict"]) == (LIST_ID, "correct")
    assert scored["reference"] == "Springfield\nShelbyville"


# -- the Challenge preset -------------------------------------------------------------------------


def test_the_preset_refuses_more_workers_or_steps_than_the_challenge_allows(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for extra, flag in ((["--workers", "9"], "--workers 9"),
                        (["--max-steps", "150"], "--max-steps 150")):
        code = run_cli(["bench", str(OWN), "--out", str(tmp_path / "run"), "--preset",
                        "webretriever-2026", "--model", "openai:agent", *extra])
        said = capsys.readouterr().err
        assert code == 2 and flag in said and "webretriever-2026 preset" in said, said
        assert not (tmp_path / "run").exists() or not any((tmp_path / "run").iterdir())


def test_the_preset_refuses_search_engines_in_the_lock_rule() -> None:
    from webfovea.bench.presets import load_preset

    preset = load_preset("webretriever-2026")
    policy = DomainPolicy.for_task("https://tongji.baidu.com/", ("bing.com",),
                                   block_domains=preset.block_domains,
                                   block_reason=preset.block_reason)
    assert policy.verdict("https://tongji.baidu.com/web/demo") is None  # a Challenge site
    assert "search engine" in (policy.verdict("https://www.baidu.com/s?wd=x") or "")
    assert "search engine" in (policy.verdict("https://cn.bing.com/search?q=x") or "")


def test_the_preset_is_printed_recorded_and_applied(site: LocalServer, tmp_path: Path) -> None:
    """One run of two tasks under the preset (and --no-keytra): the model fails once and the
    task fails without a retry, with the keytra left out of that one request; the task whose
    site is a search engine is refused by the browser's domain lock."""
    records = [
        {"task_idx": 0, "task_id": "model-fails", "website": site.url("index.html"),
         "task": "population of Springfield", "answer": "1234567",
         "keytra": "Read the Population column."},
        {"task_idx": 1, "task_id": "search-engine", "website": "http://www.bing.com/index.html",
         "task": "search for it", "answer": "1"},
    ]
    tasks = tmp_path / "tasks.json"
    tasks.write_text(json.dumps(records, indent=4), encoding="utf-8")
    out = tmp_path / "run"
    with FakeProvider(TaskPolicy({"population of Springfield": [finish("1234567")]})) as fp, \
            contextlib.redirect_stderr(io.StringIO()) as errors:
        fp.fail_next(500, times=10)
        code = run_cli(["bench", str(tasks), "--out", str(out), "--preset", "webretriever-2026",
                        "--no-keytra", "--workers", "2", "--model", "openai:agent",
                        "--base-url", fp.base_url,
                        "--host-resolver-rules", _rules(site, "www.bing.com"), *FAST])
        requests = fp.requests
    said = errors.getvalue()
    for line in ("preset webretriever-2026 (the 2026 WebRetriever Challenge's rules)",
                 "steps per task: at most 100", "one model request: at most 180 s",
                 "model retries: none", "tasks at once: 2 (at most 8)", "www.baidu.com",
                 "exported as agent_answer"):
        assert line in said, said
    assert code == 0
    store = Store.open_existing(out)
    rows = {r.task_id: r for r in store.rows()}
    failed = json.loads((out / "tasks" / "model-fails" / "result.json").read_text())
    # One request, answered HTTP 500 (which the default policy retries): not retried.
    assert failed["status"] == "model_error" and "after 1 attempt(s)" in failed["error"]
    assert len(requests) == 1 and "Read the Population column" not in requests[0].turns[0].text
    config = failed["config"]
    assert (config["max_steps"], config["model_timeout"], config["model_retries"],
            config["keytra"]) == (100, 180.0, 0, False)
    assert rows["search-engine"].status == "unreachable"
    assert "a search engine, which the webretriever-2026 preset refuses" in (
        rows["search-engine"].error or "")
    settings = store.get_meta("settings")
    assert (settings["preset"], settings["max_steps"], settings["no_keytra"]) == (
        "webretriever-2026", 100, True)
    invocation = store.runs()[-1]["invocation"]
    assert invocation["preset"]["max_workers"] == 8
    assert (invocation["effective"]["model_timeout"], invocation["effective"]["model_retries"]
            ) == (180.0, 0)
