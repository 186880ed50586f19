"""The benchmark's own evaluator, NavEval, run unchanged on an export: its source taken from
the Mininglamp-AI/WebRetriever mirror into a temporary folder (never into the project), its
judge a real OpenAI-protocol HTTP server on 127.0.0.1 that streams, as NavEval asks.

Opt-in: NavEval needs packages the project does not (openai, tiktoken with its cl100k_base
file cached, tldextract, requests, graphql-core). Set ``WEBFOVEA_NAVEVAL_PYTHON`` to a Python
that has them and ``WEBFOVEA_NAVEVAL_SOURCE`` to a git repository of
Mininglamp-AI/WebRetriever (a clone or a bare mirror); without them the test is skipped and
says why.
``test_webretriever_export.test_naveval_reads_it`` checks the same fields without it.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import tarfile
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from test_webretriever_export import FLIGHTS, Exported, exported  # noqa: F401 (the fixture)

SOURCE = os.environ.get("WEBFOVEA_NAVEVAL_SOURCE", "")
PYTHON = os.environ.get("WEBFOVEA_NAVEVAL_PYTHON", "")
VERDICT = {"all_passed": True, "score": 0.9, "reasoning": "the filter request holds tokyo",
           "details": [{"action": "choose Tokyo", "passed": True, "reason": "POST /api/filter"}]}

pytestmark = [
    pytest.mark.skipif(not SOURCE or not Path(SOURCE).is_dir(),
                       reason="set WEBFOVEA_NAVEVAL_SOURCE to a git repository of "
                              "Mininglamp-AI/WebRetriever (NavEval's source)"),
    pytest.mark.skipif(not PYTHON, reason="set WEBFOVEA_NAVEVAL_PYTHON to a Python with "
                                          "NavEval's dependencies to run it"),
]


@pytest.fixture
def judge() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    seen: list[dict[str, Any]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            seen.append(json.loads(self.rfile.read(int(self.headers["content-length"]))))
            text = json.dumps(VERDICT)
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            for piece in (text[:20], text[20:]):
                chunk = {"id": "c", "object": "chat.completion.chunk", "created": 0,
                         "model": "judge", "choices": [{"index": 0, "delta": {
                             "content": piece}, "finish_reason": None}]}
                self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
            self.wfile.write(b"data: [DONE]\n\n")

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet."""

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", seen
    finally:
        server.shutdown()
        server.server_close()


def _naveval(tmp: Path) -> Path:
    archive = tmp / "eval.tar"
    subprocess.run(["git", "-C", SOURCE, "archive", "-o", str(archive), "HEAD", "eval"],
                   check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(tmp / "naveval", filter="data")
    return tmp / "naveval" / "eval" / "naveval.py"


def test_naveval_filters_and_judges_the_export(exported: Exported,  # noqa: F811
                                               judge: tuple[str, list[dict[str, Any]]],
                                               tmp_path: Path) -> None:
    script, (base_url, seen) = _naveval(tmp_path), judge
    common = ["--test-dir", str(exported.out), "--save-dir", str(tmp_path / "eval"),
              "--max-workers", "1"]
    for mode in ("filter", "eval"):
        done = subprocess.run([PYTHON, str(script), "--mode", mode, *common, "--api-key", "k",
                               "--api-base", base_url, "--model", "judge"],
                              capture_output=True, text=True, timeout=300, cwd=script.parent)
        assert done.returncode == 0, done.stderr[-2000:]
        assert "Done: 1 ok, 0 errors" in done.stdout, done.stdout[-2000:]
    flights = exported.folder("t-flights")
    kept = json.loads((flights / "filtered_requests.json").read_text("utf-8"))
    assert {r["url"].split("/", 3)[3].split("?")[0] for r in kept} == {
        "api/config", "api/big", "api/search", "api/filter"}  # the other site's are dropped
    assert not (exported.folder("t-idle") / "filtered_requests.json").exists()  # FAIL: skipped
    assert json.loads((tmp_path / "eval" / f"{flights.name}.json").read_text()) == VERDICT
    assert len(seen) == 1 and seen[0]["stream"] is True
    text, image = seen[0]["messages"][1]["content"]
    assert f"- task: {FLIGHTS}" in text["text"] and exported.site.url in text["text"]
    assert "'json_data': {'city': 'tokyo'}" in text["text"]
    sent = base64.b64decode(image["image_url"]["url"].split(",", 1)[1])
    last = os.listdir(flights / "trajectory")[-1]  # NavEval's "last": the directory's order
    assert sent == (flights / "trajectory" / last).read_bytes()
