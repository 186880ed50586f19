"""`webfovea export`: a real bench run (scripted model, Chromium on a local sign-in page) as a
training set; loaded back with Hugging Face `datasets` and checked against the openai SDK's
message types; the password typed and the API key never in it."""

from __future__ import annotations

import base64
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image
from pydantic import TypeAdapter

from webfovea.browser.local_server import LocalServer

SECRET = "hunter2-Secret-pw"
KEY = "sk-export-test-key-0123456789"
REPLIES = [
    "Thought: The user name first.\nAction: fill(start_box='(337,165)', content='ada')",
    f"Thought: Now the password.\nAction: fill(start_box='(337,240)', content='{SECRET}\\n')",
    "Thought: Signed in as ada.\nAction: finished(content='ada')",
]


def _webfovea(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "OPENAI_API_KEY": KEY}
    return subprocess.run([sys.executable, "-m", "webfovea", *args], capture_output=True,
                          text=True, timeout=600, env=env)


@pytest.fixture(scope="module")
def run(pages: LocalServer, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("export")
    replies = root / "replies.txt"
    replies.write_text("\n---\n".join(REPLIES))
    url = pages.url("research/login.html")
    tasks = root / "tasks.jsonl"
    tasks.write_text("".join(json.dumps({"id": i, "instruction": "Sign in; who are you?",
                                         "url": url, "answer": a}) + "\n"
                             for i, a in (("right", "ada"), ("wrong", "bob"))))
    done = _webfovea("bench", str(tasks), "--out", str(root / "run"), "--model",
                     f"scripted:{replies}", "--max-steps", "4")
    assert (root / "run" / "results.sqlite").is_file(), done.stderr[-2000:]
    steps = (root / "run" / "tasks" / "right" / "steps.jsonl").read_text()
    assert '"masked":true' in steps and SECRET in steps  # the run itself keeps what it did
    return root / "run"


def _bytes_of(out: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file())


def test_hf_export_loads_with_datasets_and_shows_the_images_as_sent(run: Path,
                                                                     tmp_path: Path) -> None:
    datasets = pytest.importorskip("datasets")
    done = _webfovea("export", str(run), "--out", str(tmp_path / "hf"), "--format", "hf")
    assert done.returncode == 0, done.stderr
    assert "exported 6 examples of 2 tasks" in done.stdout
    ds = datasets.load_dataset("parquet", data_dir=str(tmp_path / "hf"), split="train")
    assert len(ds) == 6 and set(ds["task_id"]) == {"right", "wrong"}
    row = next(r for r in ds if r["id"] == "right.s003")
    assert (row["coords"], row["image_width"], row["image_height"]) == ("image", 1440, 810)
    assert row["faithful"] is True and row["correct"] is True
    roles = [m["role"] for m in row["messages"]]
    assert roles[0] == "system" and roles[-1] == "assistant" and "assistant" in roles[1:-1]
    assert row["messages"][-1]["content"][0]["text"] == row["target"]
    placeholders = sum(p["type"] == "image" for m in row["messages"] for p in m["content"])
    assert placeholders == len(row["images"]) == 3  # every step's screenshot still shown
    sent = Image.open(run / "tasks" / "right" / "screens" / "003.png")
    assert row["images"][-1].size == sent.size and row["images"][-1].tobytes() == sent.tobytes()
    everything = _bytes_of(tmp_path / "hf")
    assert SECRET.encode() not in everything and KEY.encode() not in everything
    assert b"[redacted]" in everything


def test_openai_jsonl_is_the_fine_tuning_chat_format(run: Path, tmp_path: Path) -> None:
    from openai.types.chat import ChatCompletionMessageParam

    out = tmp_path / "oa"
    done = _webfovea("export", str(run), "--out", str(out), "--format", "openai-jsonl",
                     "--only", "correct")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(x) for x in (out / "train.jsonl").read_text().splitlines()]
    meta = [json.loads(x) for x in (out / "metadata.jsonl").read_text().splitlines()]
    assert len(lines) == len(meta) == 3 and {m["task_id"] for m in meta} == {"right"}
    adapter = TypeAdapter(list[ChatCompletionMessageParam])
    for line in lines:
        assert set(line) == {"messages"}
        messages = adapter.validate_python(line["messages"], strict=True)
        assert messages[0]["role"] == "system" and messages[-1]["role"] == "assistant"
    first = lines[0]["messages"][1]["content"]
    url = next(p["image_url"]["url"] for p in first if p["type"] == "image_url")
    assert url.startswith("data:image/png;base64,")
    png = base64.b64decode(url.split(",", 1)[1])
    assert png == (run / "tasks" / "right" / "screens" / "001.png").read_bytes()
    assert Image.open(io.BytesIO(png)).size == (meta[0]["image_width"], meta[0]["image_height"])
    # The password's step: its reply keeps the action, not what was typed.
    assert "content='[redacted]\\n'" in lines[1]["messages"][-1]["content"]
    assert SECRET.encode() not in _bytes_of(out) and KEY.encode() not in _bytes_of(out)

