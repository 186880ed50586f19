"""The command line contract: `webfovea run` end to end, exit codes, the demo."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from webfovea.browser.local_server import LocalServer
from webfovea.dialects.loopback.fake_provider import FakeProvider, ScriptedPolicy


def _webfovea(*args: str, env: dict[str, str] | None = None,
              timeout: float = 120) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", "webfovea", *args], capture_output=True,
                          text=True, timeout=timeout, env=full_env)


def test_run_completes_a_multi_step_task_against_an_openai_endpoint(
        pages: LocalServer, tmp_path: Path) -> None:
    replies = [
        "Thought: fill the search.\nAction: fill(start_box='(450,128)', content='millet\\n')",
        "Thought: the results page shows it.\nAction: read_text(label='Results for')",
        "Thought: done.\nAction: finished(content='Results for: millet')",
    ]
    out = tmp_path / "run"
    with FakeProvider(ScriptedPolicy(replies), resize_images_to=(1440, 810)) as fp:
        proc = _webfovea("run", "--url", pages.url("roundtrip/form.html"), "--task",
                         "Search for millet", "--model", "openai:fake-vlm", "--base-url",
                         fp.base_url, "--out", str(out), env={"OPENAI_API_KEY": "sk-test"})
    assert proc.returncode == 0, proc.stderr
    result = json.loads((out / "result.json").read_text())
    assert result["status"] == "finished" and result["answer"] == "Results for: millet"
    assert result["answer_url"].endswith("results.html?q=millet")
    assert result["usage"]["input_tokens"] > 0 and result["usage"]["calls"] == 3
    steps = [json.loads(line) for line in (out / "steps.jsonl").read_text().splitlines()]
    assert [s["step"] for s in steps] == [1, 2, 3]
    assert sorted(p.name for p in (out / "screens").iterdir()) == ["001.png", "002.png",
                                                                   "003.png"]
    assert (out / "evidence.png").stat().st_size > 0


def test_unauthorised_key_exits_3_with_a_clear_message(pages: LocalServer,
                                                      tmp_path: Path) -> None:
    with FakeProvider(ScriptedPolicy([]), api_key="sk-right") as fp:
        proc = _webfovea("run", "--url", pages.url("roundtrip/form.html"), "--task", "t",
                         "--model", "openai:fake-vlm", "--base-url", fp.base_url,
                         "--out", str(tmp_path / "r"), env={"OPENAI_API_KEY": "sk-wrong"})
        assert len(fp.requests) == 1  # 401 is never retried
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert "OPENAI_API_KEY" in proc.stdout + proc.stderr
    assert json.loads((tmp_path / "r" / "result.json").read_text())["status"] == "model_error"


def test_usage_errors_exit_2() -> None:
    proc = _webfovea("run", "--url", "http://127.0.0.1:9/", "--task", "t", "--model", "nope")
    assert proc.returncode == 2 and "bad model spec" in proc.stderr
    proc = _webfovea("run", "--url", "http://127.0.0.1:9/", "--task", "t",
                     "--model", "scripted:x", "--viewport", "big")
    assert proc.returncode == 2 and "--viewport" in proc.stderr


def test_unreachable_site_exits_4(tmp_path: Path) -> None:
    replies = tmp_path / "r.txt"
    replies.write_text("Thought: x\nAction: wait()")
    proc = _webfovea("run", "--url", "http://127.0.0.1:9/", "--task", "t",
                     "--model", f"scripted:{replies}", "--out", str(tmp_path / "o"))
    assert proc.returncode == 4, proc.stdout + proc.stderr
    assert json.loads((tmp_path / "o" / "result.json").read_text())["status"] == "unreachable"


def test_demo_runs_the_built_in_default(tmp_path: Path) -> None:
    proc = _webfovea("demo", "--tasks", "3", "--out", str(tmp_path / "demo"), timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "success: 100.0%" in proc.stdout and "(3/3)" in proc.stdout
    assert "--model openai:" in proc.stdout  # says how to use a real model
    view = _webfovea("view", str(tmp_path / "demo"))
    page = Path(view.stdout.strip()).read_text(encoding="utf-8")
    data = json.loads(page.split('<script type="application/json" id="report-data">')[1]
                      .split("</script>")[0])
    assert [t["verdict"] for t in data["tasks"]] == ["correct"] * 3
    assert all(t["reference"] and t["stage"] is None for t in data["tasks"])
    diagnosis = _webfovea("diagnose", str(tmp_path / "demo"), "--all")
    assert "correct          3    100%" in diagnosis.stdout


def test_scripted_demo_runs_the_bundled_page(tmp_path: Path) -> None:
    proc = _webfovea("demo", "--scripted", "--out", str(tmp_path / "demo"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "answer: 48,210" in proc.stdout
