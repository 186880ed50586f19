"""`webfovea export RUN --format webretriever`: a real bench run (real Chromium, the model a
real OpenAI-protocol HTTP server) on a local site that calls its own JSON API, written as the
WebRetriever reference runner writes its output, checked field by field; then read back by
`import-trajectory --from webretriever` and exported again (the round trip keeps actions,
URLs, answers and requests); and checked against exactly what the benchmark's evaluator,
NavEval (Mininglamp-AI/WebRetriever ``eval/naveval.py``), reads of it.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from PIL import Image

from network_site import SELECT_AT, NetworkSite, network_site
from test_bench_support import WAIT, TaskPolicy, finish, provider, run_cli
from webfovea.rundir.network import read_network

KEY = "sk-test-wrexport-0123456789"  # the run's key, which the site's page echoes
FLIGHTS, IDLE = "cheapest flight to Tokyo", "wait for nothing"
# The model answers in the sent image's pixels: 1440x810 for the 1920x1080 viewport.
CHOOSE = (f"Thought: 选东京。\nAction: select(start_box='({SELECT_AT[0] * 0.75:g},"
          f"{SELECT_AT[1] * 0.75:g})', option='Tokyo')")


@dataclass
class Exported:
    run: Path
    out: Path
    site: NetworkSite

    def folder(self, task_id: str) -> Path:
        found = [d for d in self.out.iterdir() if d.name.endswith(f"_{task_id}")]
        assert len(found) == 1, sorted(p.name for p in self.out.iterdir())
        return found[0]

    def result(self, task_id: str) -> dict:
        return json.loads((self.folder(task_id) / "result.json").read_text("utf-8"))

    def capture(self, task_id: str) -> dict:
        return json.loads((self.folder(task_id) / "capture.json").read_text("utf-8"))


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Exported]:
    tmp = tmp_path_factory.mktemp("wrexport")
    with pytest.MonkeyPatch.context() as patch, network_site(KEY) as site:
        patch.setenv("OPENAI_API_KEY", KEY)
        tasks = tmp / "protocol3.json"  # the published shape: one JSON array
        tasks.write_text(json.dumps([
            {"task_idx": 7, "task_id": "t-flights", "website": site.url, "task": FLIGHTS,
             "answer": "09:40", "keytra": "1. choose the city\n2. read the time",
             "reference_length": 3},
            {"task_id": "t-idle", "website": site.url, "task": IDLE}],  # no task_idx
            ensure_ascii=False), "utf-8")
        policy = TaskPolicy({FLIGHTS: [CHOOSE, finish("09:40")], IDLE: [WAIT]})
        with provider(policy) as fp:
            code = run_cli(["bench", str(tasks), "--out", str(tmp / "run"), "--model",
                            "openai:agent", "--base-url", fp.base_url, "--max-steps", "2",
                            "--time-limit", "60"])
        assert code in (0, 1)
        assert run_cli(["export", str(tmp / "run"), "--format", "webretriever", "--out",
                        str(tmp / "wr")]) == 0
        yield Exported(tmp / "run", tmp / "wr", site)


def test_the_tree_is_the_reference_runners(exported: Exported) -> None:
    # t-idle had no task_idx: the next number after the largest of the export.
    assert sorted(p.name for p in exported.out.iterdir()) == ["7_t-flights", "8_t-idle", "logs"]
    folder = exported.folder("t-flights")
    assert sorted(p.name for p in folder.iterdir()) == [
        "capture.json", "result.json", "trajectory", "trajectory_visual"]
    # Nothing but <n>.png in trajectory/: NavEval takes its last entry as the final screenshot.
    assert sorted(p.name for p in (folder / "trajectory").iterdir()) == ["0.png", "1.png"]
    screens = exported.run / "tasks" / "t-flights" / "screens"
    for n in (0, 1):
        sent = (screens / f"{n + 1:03d}.png").read_bytes()
        assert (folder / "trajectory" / f"{n}.png").read_bytes() == sent  # as sent
        drawn = Image.open(folder / "trajectory_visual" / f"{n}.png")
        assert drawn.size == Image.open(screens / f"{n + 1:03d}.png").size == (1440, 810)
    # The select's point drawn in red where it was, in the sent image's pixels.
    x, y = round(SELECT_AT[0] * 0.75), round(SELECT_AT[1] * 0.75)
    red = [Image.open(folder / "trajectory_visual" / "0.png").convert("RGB").getpixel(
        (x + dx, y)) for dx in range(-16, 17)]
    assert any(r > 200 and g < 80 and b < 80 for r, g, b in red)
    summary = json.loads((exported.out / "logs" / "summary.json").read_text("utf-8"))
    assert (summary["total"], summary["success"], summary["failed"]) == (2, 1, 1)
    assert {t["task_id"]: t["status"] for t in summary["tasks"]} == {
        "t-flights": "SUCCESS", "t-idle": "FAIL"}


def test_result_json_field_by_field(exported: Exported) -> None:
    r = exported.result("t-flights")
    assert (r["task_idx"], r["task_id"], r["task"]) == (7, "t-flights", FLIGHTS)
    assert r["website"] == exported.site.url
    assert (r["key_points"], r["reference_length"]) == ("1. choose the city\n2. read the time", 3)
    assert (r["status"], r["agent_answer"], r["final_result_response"]) == (
        "SUCCESS", "09:40", "09:40")
    # UI-TARS grammar, the point in the page's CSS pixels (the model's x 1920/1440).
    assert r["actions"] == [
        f"select(start_box='<|box_start|>({SELECT_AT[0]},{SELECT_AT[1]})<|box_end|>', "
        "option='Tokyo')",
        "finished(content='09:40')"]
    assert r["predict_length"] == 2
    assert r["thoughts"] == ["选东京。", "the page shows it."]
    assert r["history_resps"] == [CHOOSE, finish("09:40")]
    assert r["urls"] == [exported.site.url] * 2
    assert r["viewport"] == [1920, 1080]
    idle = exported.result("t-idle")
    assert (idle["status"], idle["agent_answer"], idle["final_result_response"]) == (
        "FAIL", None, "")
    assert idle["webfovea_status"] == "step_limit" and idle["actions"] == ["wait()"] * 2
    assert idle["key_points"] == "" and idle["reference_length"] is None
    assert idle["task_idx"] == 8


def test_capture_json_holds_the_sites_requests_without_secrets(exported: Exported) -> None:
    capture = exported.capture("t-flights")
    recorded = read_network(exported.run / "tasks" / "t-flights").records
    assert set(capture) == {"capture_time", "total_requests", "all_requests"}
    requests = capture["all_requests"]
    assert capture["total_requests"] == len(requests) == len(recorded) > 0
    for request in requests:
        assert set(request) >= {"timestamp", "url", "method", "headers", "resource_type",
                                "post_data", "post_text", "json_data"}
        assert request["resource_type"] in ("xhr", "fetch")
        assert not {"cookie", "authorization"} & set(request["headers"])
    posted = next(r for r in requests if r["url"].endswith("/api/filter"))
    assert (posted["method"], posted["resource_type"]) == ("POST", "fetch")
    assert posted["json_data"] == {"city": "tokyo", "stops": 0}
    assert bytes.fromhex(posted["raw_post_data"]).decode() == posted["post_data"]
    search = next(r for r in requests if "/api/search" in r["url"])
    assert search["url"].endswith("?city=tokyo&sort=price") and search["post_data"] is None
    assert "raw_post_data" not in search  # as the collector: only when there is a body
    text = json.dumps(capture)
    for secret in (KEY, "cookie-secret-1234", "page-token-5678"):
        assert secret not in text


def test_naveval_reads_it(exported: Exported) -> None:
    """What NavEval reads, restated from its code (read, never copied) with its lines."""
    folders = sorted(exported.out.glob("*/capture.json"))  # run_filter: naveval.py:410
    assert len(folders) == 2
    for capture_path in folders:
        folder = capture_path.parent
        result = json.loads((folder / "result.json").read_text("utf-8"))
        # naveval.py:420 keeps SUCCESS, FAIL_CALL_USER, FAIL_SCROLLDOWN and "": an exported
        # FAIL is found and left unjudged, as the reference runner's other failures are.
        assert result["status"] in ("SUCCESS", "FAIL")
        capture = json.loads(capture_path.read_text("utf-8"))
        requests = capture["all_requests"]  # naveval.py:103
        # type_filter.py:13-14, then domain_filter.py:5-26 against result.json's website
        # (naveval.py:108): tldextract's domain, for 127.0.0.1 and localhost the host itself.
        site = urlsplit(result["website"]).hostname
        kept = [r for r in requests if r["resource_type"] in ("fetch", "xhr")
                and urlsplit(r["url"]).hostname == site]
        if result["task_id"] == "t-flights":
            paths = {urlsplit(r["url"]).path for r in kept}
            assert {"/api/search", "/api/filter", "/api/config"} <= paths
            other = {urlsplit(r["url"]).hostname for r in requests} - {site}
            assert other == {"localhost"}  # the other site's requests: dropped by the filter
        # eval_task: the task (naveval.py:318), the URL list (321), the last screenshot (323)
        assert isinstance(result["task"], str) and isinstance(result["urls"], list)
        names = [p.name for p in (folder / "trajectory").iterdir()]
        assert names and all(n.removesuffix(".png").isdigit() for n in names)
        steps = len(result["actions"])
        assert sorted(names, key=lambda n: int(n[:-4])) == [f"{n}.png" for n in range(steps)]


def test_round_trip_keeps_actions_urls_answers_and_requests(exported: Exported,
                                                           tmp_path: Path) -> None:
    assert run_cli(["import-trajectory", "--from", "webretriever", str(exported.out),
                    "--out", str(tmp_path / "imported")]) == 0
    imported = tmp_path / "imported" / "tasks"
    assert sorted(p.name for p in imported.iterdir()) == ["t-flights", "t-idle"]
    again = tmp_path / "again"
    assert run_cli(["export", str(tmp_path / "imported"), "--format", "webretriever",
                    "--out", str(again)]) == 0
    for task_id in ("t-flights", "t-idle"):
        first = exported.result(task_id)
        folder = next(again.glob(f"*_{task_id}"))
        assert folder.name == exported.folder(task_id).name  # the same task_idx
        second = json.loads((folder / "result.json").read_text("utf-8"))
        for field in ("task_idx", "task", "website", "key_points", "reference_length",
                      "status", "agent_answer", "final_result_response", "actions",
                      "thoughts", "history_resps", "urls", "viewport"):
            assert second[field] == first[field], field
        requests = json.loads((folder / "capture.json").read_text("utf-8"))["all_requests"]
        assert requests == exported.capture(task_id)["all_requests"]
        for n in range(len(first["actions"])):
            assert (folder / "trajectory" / f"{n}.png").read_bytes() == (
                exported.folder(task_id) / "trajectory" / f"{n}.png").read_bytes()


def test_a_missing_or_damaged_screenshot_is_named_and_stood_in_for(
        exported: Exported, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "run"
    shutil.copytree(exported.run, run)
    screens = run / "tasks" / "t-flights" / "screens"
    (screens / "001.png").unlink()
    (screens / "002.png").write_bytes(b"\x89PNG\r\n\x1a\n not really")
    with (run / "tasks" / "t-idle" / "steps.jsonl").open("a") as steps:
        steps.write("not a record\n")  # one task that cannot be read ends nothing
    capsys.readouterr()
    assert run_cli(["export", str(run), "--format", "webretriever", "--out",
                    str(tmp_path / "wr")]) == 0
    err = capsys.readouterr().err
    assert f"{run / 'tasks' / 't-idle'}: " in err and "steps.jsonl line 3" in err
    assert sorted(p.name for p in (tmp_path / "wr").iterdir()) == ["7_t-flights", "logs"]
    assert f"{screens / '001.png'}: image missing" in err
    assert f"{screens / '002.png'}: image unreadable" in err and "Traceback" not in err
    folder = next((tmp_path / "wr").glob("*_t-flights"))
    for n in (0, 1):  # the step keeps its number; a grey stand-in of the sent size
        stand_in = Image.open(folder / "trajectory" / f"{n}.png")
        assert stand_in.size == (1440, 810) and stand_in.convert("RGB").getpixel((700, 700)) \
            == (200, 200, 200)
    summary = json.loads((tmp_path / "wr" / "logs" / "summary.json").read_text("utf-8"))
    assert len(summary["warnings"]) == 3
