"""`webfovea import-trajectory --from webretriever`: the WebRetriever reference runner's output,
laid out here by that runner's rules (its ``<task_idx>_<task_id>/`` folders with
``result.json``, ``trajectory/<n>.png`` taken before step n, ``capture.json`` as its
``RequestCollector`` saves it; UI-TARS grammar with points in screen pixels), read into a
bench-shaped run that `view`, `diagnose` and `score --task` read.
"""

from __future__ import annotations

import contextlib
import io
import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from test_bench_support import run_cli
from webfovea.rundir.network import read_network
from webfovea.rundir.store import read_result, read_steps

SCREEN = (1280, 720)  # the runner's viewport; its screenshots are at scale 1


@dataclass(frozen=True)
class Done:
    returncode: int
    stdout: str
    stderr: str


def _webfovea(*args: str) -> Done:
    """``webfovea ARGS`` in this process (as a shell runs it, minus the interpreter's start)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = run_cli(args)
    return Done(code, out.getvalue(), err.getvalue())


def _png(label: str, colour: tuple[int, int, int]) -> bytes:
    image = Image.new("RGB", SCREEN, (255, 255, 255))
    draw = ImageDraw.Draw(image)
    draw.rectangle((560, 330, 720, 390), fill=colour)
    draw.text((20, 20), label, fill=(0, 0, 0))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


HOME, RESULTS = _png("home", (30, 90, 200)), _png("results", (30, 160, 60))


def _task(root: Path, folder: str, result: dict, shots: list[bytes],
          capture: dict | None) -> None:
    """One task folder as the runner leaves it (its visual copies and result_visual.json
    too, which the import does not need)."""
    where = root / folder
    (where / "trajectory").mkdir(parents=True)
    (where / "trajectory_visual").mkdir()
    for n, png in enumerate(shots):
        (where / "trajectory" / f"{n}.png").write_bytes(png)
        (where / "trajectory_visual" / f"{n}.png").write_bytes(png)
    (where / "result.json").write_text(json.dumps(result, ensure_ascii=False, indent=4), "utf-8")
    (where / "result_visual.json").write_text("{}", "utf-8")
    if capture is not None:
        (where / "capture.json").write_text(json.dumps(capture, ensure_ascii=False, indent=4),
                                            "utf-8")


def _result(task_idx: int, task_id: str, status: str, replies: list[str],
            url: str) -> dict:
    actions = [r.split("Action:")[-1].strip() for r in replies]
    thoughts = [r.split("Action:")[0].removeprefix("Thought:").strip() for r in replies]
    return {"task_id": task_id, "task": f"任务 {task_id}", "key_points": "1. 打开筛选",
            "website": url, "task_index": task_idx, "status": status, "reference_length": 5,
            "predict_length": len(actions), "final_result_response": thoughts[-1],
            "actions": actions, "action_desps": actions, "thoughts": thoughts,
            "history_resps": replies, "image_path_list": [], "urls": [url] * len(actions)}


SITE = "https://shop.example.cn/list"
UITARS = [
    "Thought: 点击搜索框。\nAction: click(start_box='<|box_start|>(640,360)<|box_end|>')",
    "Thought: 输入关键词。\nAction: type(content='手机\\n')",
    "Thought: 点击筛选。\nAction: click(start_box='<|box_start|>(1814,1020)<|box_end|>')",
    "Thought: 共有 3 件。\nAction: finished()",
]
CALL_USER = [
    "Thought: 向下看看。\nAction: scroll(start_box='<|box_start|>(640,360)<|box_end|>', "
    "direction='down')",
    "Thought: 需要登录，请用户帮助。\nAction: call_user()",
]
SCROLLS = ["Thought: 继续向下。\nAction: scroll(direction='down')"] * 3
CAPTURE = {"capture_time": "2026-07-26 14:50:27", "total_requests": 2, "all_requests": [
    {"timestamp": 1785048627.5, "url": "https://api.shop.example.cn/search?q=%E6%89%8B%E6%9C%BA",
     "method": "GET", "headers": {"accept": "application/json", "cookie": "sid=secret-1"},
     "resource_type": "xhr", "post_data": None, "post_text": None, "json_data": None},
    {"timestamp": 1785048629.25, "url": "https://api.shop.example.cn/filter", "method": "POST",
     "headers": {"content-type": "application/json"}, "resource_type": "fetch",
     "post_data": '{"color": "红色"}', "post_text": None, "json_data": {"color": "红色"},
     "raw_post_data": '{"color": "红色"}'.encode().hex()}]}


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Done]:
    root = tmp_path_factory.mktemp("uitars")
    runner = root / "output"
    _task(runner, "0_t-uitars", _result(0, "t-uitars", "SUCCESS", UITARS, SITE),
          [HOME, RESULTS, RESULTS, RESULTS], CAPTURE)
    _task(runner, "1_t-calluser", _result(1, "t-calluser", "FAIL_CALL_USER", CALL_USER, SITE),
          [HOME, RESULTS], None)  # no capture.json
    _task(runner, "2_t-scroll", _result(2, "t-scroll", "FAIL_SCROLLDOWN", SCROLLS, SITE),
          [HOME, HOME, HOME, HOME], {"all_requests": []})
    nav = _result(4, "t-nav", "SUCCESS", UITARS[:1] + UITARS[-1:], SITE)
    nav["final_result_response"] = ""  # navigation only: nothing to answer
    _task(runner, "4_t-nav", nav, [HOME, RESULTS], CAPTURE)
    (runner / "3_t-broken").mkdir()
    (runner / "3_t-broken" / "result.json").write_text("{cut short", "utf-8")
    (runner / "logs").mkdir()
    (runner / "logs" / "worker_0.log").write_text("", "utf-8")
    done = _webfovea("import-trajectory", "--from", "webretriever", str(runner), "--out",
                     str(root / "run"))
    return root / "run", done


def test_every_folder_is_read_and_a_broken_one_named(
        imported: tuple[Path, Done]) -> None:
    run, done = imported
    assert done.returncode == 0, done.stderr
    assert "3_t-broken: result.json is not JSON" in done.stderr
    assert "Traceback" not in done.stderr
    assert sorted(p.name for p in (run / "tasks").iterdir()) == [
        "t-calluser", "t-nav", "t-scroll", "t-uitars"]
    assert "t-calluser: 2 steps, FAIL_CALL_USER -> gave_up, no capture.json" in done.stdout
    task = json.loads((run / "tasks" / "t-uitars" / "task.json").read_text("utf-8"))
    assert (task["id"], task["url"], task["task_idx"], task["keytra"]) == (
        "t-uitars", SITE, 0, "1. 打开筛选")
    assert task["reference_length"] == 5 and "webretriever" in task["tags"]


def test_the_grammar_in_screen_pixels_becomes_steps(
        imported: tuple[Path, Done]) -> None:
    run, _ = imported
    steps = read_steps(run / "tasks" / "t-uitars")
    assert [s.action for s in steps] == [
        {"name": "click", "start_box": [640.0, 360.0]},
        {"name": "type", "content": "手机\n"},
        {"name": "click", "start_box": [1814.0, 1020.0]},
        {"name": "finished", "content": ""}]
    assert all(s.model_size == s.sent_size == SCREEN for s in steps)
    assert [s.outcome for s in steps] == ["changed", "no_change", "no_change", "answer"]
    assert steps[0].raw_reply == UITARS[0] and steps[1].thought == "输入关键词。"
    assert steps[0].url == SITE and (run / "tasks" / "t-uitars" / steps[0].screenshot).is_file()
    result = read_result(run / "tasks" / "t-uitars")
    # SUCCESS with no agent_answer: the runner's final_result_response is the answer.
    assert (result.status, result.answer) == ("finished", "共有 3 件。")
    assert result.config["webretriever_status"] == "SUCCESS"
    scroll = read_steps(run / "tasks" / "t-scroll")
    assert scroll[0].action == {"name": "scroll", "start_box": [640.0, 360.0],
                                "direction": "down"}  # no point: the viewport's centre
    ended = read_result(run / "tasks" / "t-scroll")
    assert ended.status == "gave_up" and "FAIL_SCROLLDOWN" in (ended.error or "")
    called = read_result(run / "tasks" / "t-calluser")
    assert called.status == "gave_up" and "call_user()" in (called.error or "")
    assert read_steps(run / "tasks" / "t-calluser")[1].action is None


def test_capture_json_becomes_network_jsonl(
        imported: tuple[Path, Done]) -> None:
    run, _ = imported
    records = read_network(run / "tasks" / "t-uitars").records
    assert [(r.method, r.resource_type, r.url) for r in records] == [
        (q["method"], q["resource_type"], q["url"]) for q in CAPTURE["all_requests"]]
    assert records[0].headers == {"accept": "application/json", "cookie": "[redacted]"}
    assert records[1].post_json == {"color": "红色"} and records[1].post_data == '{"color": "红色"}'
    assert bytes.fromhex(records[1].post_data_hex or "").decode() == '{"color": "红色"}'
    assert records[1].time == 1785048629.25 and records[1].status is None
    assert not (run / "tasks" / "t-calluser" / "network.jsonl").exists()


def test_diagnose_view_and_score_read_it(
        imported: tuple[Path, Done], tmp_path: Path) -> None:
    run, _ = imported
    tasks = tmp_path / "protocol3.json"  # the published shape: one JSON array, a bare host
    tasks.write_text(json.dumps([
        {"task_idx": 0, "task_id": "t-uitars", "website": "shop.example.cn/list",
         "task": "任务 t-uitars", "answer": "5"},
        {"task_idx": 1, "task_id": "t-calluser", "website": "shop.example.cn/list",
         "task": "任务 t-calluser", "answer": "1"}], ensure_ascii=False), "utf-8")
    scored = _webfovea("score", str(run), "--task", str(tasks))  # no store: task by task
    assert scored.returncode == 0, scored.stderr
    assert "t-uitars  [finished]  wrong" in scored.stdout
    assert "t-scroll: not scored: --task:" in scored.stdout  # the file has no line for it
    assert "2 scored: 0 correct, 2 wrong" in scored.stdout and "t-nav: not scored" in scored.stdout
    assert json.loads((run / "tasks" / "t-uitars" / "score.json").read_text())["reference"] == "5"
    done = _webfovea("diagnose", str(run), "--json")
    assert done.returncode == 0, done.stderr
    found = {d["task"]: d for d in json.loads(done.stdout)["failures"]}
    assert set(found) == {"t-uitars", "t-calluser", "t-scroll"}  # t-nav finished, unscored
    uitars = found["t-uitars"]
    assert (uitars["stage"], uitars["step"]) == ("execute", 2)
    assert "never reached a field" in uitars["evidence"]
    outside = next(f for f in uitars["findings"] if f["step"] == 3)
    assert outside["stage"] == "execute" and "outside the 1280x720 screen" in outside["evidence"]
    assert found["t-calluser"]["stage"] == "decision"
    assert "asked for a person" in found["t-calluser"]["evidence"]
    assert found["t-scroll"]["stage"] == "execute"  # the scrolls moved nothing
    view = _webfovea("view", str(run))
    assert view.returncode == 0, view.stderr
    page = (run / "tasks" / "t-uitars" / "view.html").read_text("utf-8")
    assert "t-uitars" in (run / "report.html").read_text("utf-8") and "手机" in page


def test_exported_again_with_the_reference_runners_statuses(
        imported: tuple[Path, Done], tmp_path: Path) -> None:
    """By default only an answer is SUCCESS; --navigation writes finished() and call_user()
    as the reference runner does (which NavEval judges, where it skips FAIL)."""
    run, _ = imported
    assert read_result(run / "tasks" / "t-nav").status == "finished"
    statuses = {}
    for flag in ((), ("--navigation",)):
        out = tmp_path / ("nav" if flag else "plain")
        done = _webfovea("export", str(run), "--format", "webretriever", "--out", str(out),
                         *flag)
        assert done.returncode == 0, done.stderr
        statuses[flag] = {json.loads(p.read_text("utf-8"))["task_id"]: json.loads(
            p.read_text("utf-8"))["status"] for p in out.glob("*/result.json")}
    assert statuses[()] == {"t-uitars": "SUCCESS", "t-nav": "FAIL", "t-calluser": "FAIL",
                            "t-scroll": "FAIL"}
    assert statuses[("--navigation",)] == {"t-uitars": "SUCCESS", "t-nav": "SUCCESS",
                                           "t-calluser": "FAIL_CALL_USER", "t-scroll": "FAIL"}
    folders = sorted(p.name for p in (tmp_path / "nav").iterdir())
    assert folders == ["0_t-uitars", "1_t-calluser", "2_t-scroll", "4_t-nav", "logs"]
