"""Text that cannot be written: a lone UTF-16 surrogate from a model or a page.

JSON may carry one (``"\\ud83d"``): a model server that cut an emoji at a token boundary,
a page that shortened its title by UTF-16 length. Python keeps it, and no UTF-8 file,
SQLite row or HTTP request can hold it. Before ``text.well_formed`` such a task ended as
``harness_error`` (the path this file first covered: the bench went on and ``score``
counted it, commit "harness_error path test with a real trigger"); now it is replaced by
U+FFFD where it enters, and the task runs to its end.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from webfovea.browser.local_server import LocalServer
from webfovea.dialects.loopback.fake_provider import FakeProvider, FakeRequest

ENV = {**os.environ, "OPENAI_API_KEY": "sk-test"}
DONE = "Thought: done.\nAction: finished(content='Saved')"


def _reply(request: FakeRequest) -> str:
    task = request.turns[0].text
    if "reply" in task:
        return "Thought: half an emoji \ud83d here.\nAction: finished(content='ok \ud83d')"
    if len(request.turns) == 1:  # the page task's first step: open the dialog
        return "Thought: save.\nAction: click(start_box='(140,80)')"
    return DONE


def test_a_lone_surrogate_from_a_model_or_a_page_is_replaced(pages: LocalServer,
                                                              tmp_path: Path) -> None:
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text("".join(json.dumps(t) + "\n" for t in [
        {"id": "reply", "instruction": "reply task", "answer": "ok \ufffd",
         "url": pages.url("roundtrip/form.html")},
        {"id": "page", "instruction": "page task", "answer": "Saved",
         "url": pages.url("reliability/cut_emoji.html")}]))
    out = tmp_path / "bench"
    with FakeProvider(_reply) as fp:
        bench = subprocess.run([sys.executable, "-m", "webfovea", "bench", str(tasks), "--out",
                                str(out), "--workers", "1", "--max-steps", "4", "--model",
                                "openai:fake-vlm", "--base-url", fp.base_url, "--coords",
                                "image"], capture_output=True, text=True, env=ENV, timeout=240)
    assert bench.returncode == 0, bench.stderr
    for task in ("reply", "page"):
        result = json.loads((out / "tasks" / task / "result.json").read_text())
        assert result["status"] == "finished", result["error"]
    reply_steps = (out / "tasks/reply/steps.jsonl").read_text().splitlines()
    assert "half an emoji \ufffd here" in json.loads(reply_steps[0])["raw_reply"]
    page_steps = [json.loads(x) for x in (out / "tasks/page/steps.jsonl").read_text().splitlines()]
    assert page_steps[0]["title"] == "Saved \ufffd"
    assert "Saved \ufffd" in page_steps[0]["note"]  # the dialog's text, in the note
    assert "Saved \ufffd" in json.dumps(page_steps[0]["details"], ensure_ascii=False)  # the label
    asked = [r for r in fp.requests if "page task" in r.turns[0].text]
    assert any("Saved \ufffd" in t.text for t in asked[1].turns)  # ... and in the next request
    score = subprocess.run([sys.executable, "-m", "webfovea", "score", str(out), "--format",
                            "json"], capture_output=True, text=True, env=ENV, check=True)
    assert json.loads(score.stdout)["buckets"]["correct"] == 2
