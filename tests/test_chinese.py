"""Chinese end to end: a Chinese task on a Chinese page, run by `webfovea run` with a scripted
model in UI-TARS's own grammar, scored and viewed. What is typed reaches the field and is read
back, find_text/read_text find Chinese phrases, and every file keeps the characters as text."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from webfovea.browser.local_server import LocalServer

TASK = "查询北京的天气，回答最高气温"
ANSWER = "北京：晴，最高气温 25°C"
REFERENCE = "25 摄氏度"  # a number with a Chinese unit: the numeric matcher decides
# Model points in the sent image (1440x810 of the 1920x1080 page: x0.75); see the page's CSS.
REPLIES = [
    "Thought: 在城市输入框中填写“北京”\nAction: fill(point='<point>225 90</point>', content='北京')",
    "Thought: 点击查询按钮\nAction: click(start_box='<|box_start|>(435,91)<|box_end|>')",
    "Thought: 在备注框里写点东西\nAction: click(start_box='(225,180)')",
    "Thought: 输入备注\nAction: type(content='你好，世界')",
    "Thought: 找到客服时间\nAction: find_text(text='客服时间')",
    "Thought: 回到上面\nAction: scroll(direction='up')",  # no point: the screenshot's centre
    # Words of a Chinese label are found inside the text, which has no spaces between them.
    "Thought: 读出北京的最高气温\nAction: read_text(label='北京 最高气温')",
    f"Thought: 回答\nAction: finished(content='{ANSWER}')",
]


def webfovea(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "webfovea", *args], capture_output=True,
                          text=True, encoding="utf-8", timeout=180, env=dict(os.environ))


@pytest.fixture(scope="module")
def run(pages: LocalServer, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("zh")
    replies = root / "replies.txt"
    replies.write_text("\n---\n".join(REPLIES), encoding="utf-8")
    out = root / "out"
    done = webfovea("run", "--url", pages.url("chinese/weather.html"), "--task", TASK,
                    "--model", f"scripted:{replies}", "--out", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    scored = webfovea("score", str(out), "--answer", REFERENCE)
    assert scored.returncode == 0, scored.stdout + scored.stderr
    viewed = webfovea("view", str(out))
    assert viewed.returncode == 0, viewed.stdout + viewed.stderr
    return {"out": out, "stdout": done.stdout, "html": Path(viewed.stdout.strip().splitlines()[-1])}


def steps_of(out: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (out / "steps.jsonl").read_text("utf-8").splitlines()]


def test_typed_chinese_reaches_the_field_and_the_note_reads_it_back(run: dict[str, Any]) -> None:
    steps = steps_of(run["out"])
    assert [s["outcome"] for s in steps] == ["changed"] * 7 + ["answer"]
    fill, shown, _, typed = steps[:4]
    assert "the field now holds '北京'" in fill["note"] and fill["details"]["readback"] == "北京"
    assert "北京天气预报：晴，最高气温 25°C" in shown["note"]  # the page's script got the value
    assert "the focused field now holds '你好，世界'" in typed["note"]
    assert typed["details"]["readback"] == "你好，世界"


def test_find_text_and_read_text_find_chinese_phrases(run: dict[str, Any]) -> None:
    found, scrolled, read = steps_of(run["out"])[4:7]
    assert "found '客服时间': match 1 of 1" in found["note"]
    assert scrolled["note"].startswith("No point was given: the scroll is at the screenshot's "
                                       "centre (720,405).")
    assert scrolled["point_forms"] == [{"arg": "start_box", "form": "omitted", "given": "",
                                        "point": [720.0, 405.0]}]
    assert read["scroll_offset"][1] < scrolled["scroll_offset"][1]  # it went up
    assert read["details"]["found"] and "最高气温 25°C" in read["note"]


def test_every_file_keeps_the_chinese_as_text(run: dict[str, Any]) -> None:
    out: Path = run["out"]
    result = json.loads((out / "result.json").read_text("utf-8"))
    assert (result["task"], result["answer"], result["status"]) == (TASK, ANSWER, "finished")
    task = json.loads((out / "task.json").read_text("utf-8"))
    assert (task["instruction"], task["answer"]) == (TASK, REFERENCE)
    score = json.loads((out / "score.json").read_text("utf-8"))
    assert score["correct"] is True and score["reference"] == REFERENCE
    assert steps_of(out)[-1]["action"] == {"name": "finished", "content": ANSWER}
    written = {"result.json": ANSWER, "steps.jsonl": "你好，世界", "score.json": REFERENCE,
               "task.json": TASK}
    for name, phrase in written.items():
        text = (out / name).read_text("utf-8")
        assert "\\u" not in text, name  # characters, not escapes: readable with any tool
        assert phrase in text, name
    assert f"answer: {ANSWER}" in run["stdout"]


def test_the_viewer_shows_the_chinese(run: dict[str, Any]) -> None:
    html = run["html"].read_text("utf-8")
    assert '<meta charset="utf-8">' in html.lower()
    assert ANSWER in html and TASK in html and "你好，世界" in html
