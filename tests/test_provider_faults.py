"""Malformed provider replies (HTTP 200 that is not a reply) are provider faults: retried,
reported with what was sent (trimmed, key scrubbed), ``model_error`` when they persist."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from webfovea.browser.local_server import LocalServer
from webfovea.core.errors import ModelError
from webfovea.models.anthropic import AnthropicModel
from webfovea.models.base import Model, ModelRequest, Turn
from webfovea.models.openai_compat import OpenAICompatModel
from webfovea.models.retry import RetryPolicy
from webfovea.testing import FakeProvider

FAST = RetryPolicy(max_attempts=3, base_delay=0.001, max_delay=0.01)
KEY = "sk-test-0123456789abcdef"
BAD_BODIES = {
    "invalid JSON": (b'{"choices": [', "a body that is not JSON"),
    "HTML": (b"<html><body><h1>502 Bad Gateway</h1></body></html>", "a body that is not JSON"),
    "JSON array": (b'[{"text": "hello"}]', "a JSON list instead of an object"),
    "non-UTF-8": (b'{"text": "\xff\xfe\xfa"}', "bytes that are not UTF-8"),
    "error in a 200": (json.dumps({"error": {"message": "upstream overloaded",
                                             "type": "server_error"}}).encode(), "an error object"),
    "wrong shape": (b'{"id": "x", "object": "chat.completion"}', "JSON without a valid"),
}
REQUEST = ModelRequest(system="You are a web agent.", turns=(Turn("user", "hello"),))


@pytest.fixture
def fp() -> Iterator[FakeProvider]:
    with FakeProvider(lambda r: "Thought: ok\nAction: wait()") as provider:
        yield provider


@pytest.fixture
async def clients(fp: FakeProvider) -> AsyncIterator[dict[str, Model]]:
    made: dict[str, Model] = {
        "openai": OpenAICompatModel("m", base_url=fp.base_url, api_key=KEY, retry=FAST),
        "anthropic": AnthropicModel("m", base_url=fp.anthropic_base_url, api_key=KEY, retry=FAST),
    }
    yield made
    for model in made.values():
        await model.aclose()


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
@pytest.mark.parametrize("case", sorted(BAD_BODIES))
async def test_one_malformed_reply_is_retried(fp: FakeProvider, clients: dict[str, Model],
                                              provider: str, case: str) -> None:
    fp.fail_next(200, body=BAD_BODIES[case][0])
    reply = await clients[provider].complete(REQUEST, timeout=10)
    assert reply.text.startswith("Thought: ok")
    assert reply.usage.retries == 1 and reply.usage.calls == 2


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
@pytest.mark.parametrize("case", sorted(BAD_BODIES))
async def test_a_persisting_malformed_reply_is_a_model_error_saying_what_was_sent(
        fp: FakeProvider, clients: dict[str, Model], provider: str, case: str) -> None:
    body, said = BAD_BODIES[case]
    fp.fail_next(200, body=body, times=3)
    with pytest.raises(ModelError) as raised:
        await clients[provider].complete(REQUEST, timeout=10)
    message = str(raised.value)
    assert "after 3 attempt(s)" in message and "HTTP 200 with" in message and said in message
    assert raised.value.status == "model_error"


async def test_the_key_is_scrubbed_and_a_long_body_trimmed(fp: FakeProvider,
                                                           clients: dict[str, Model]) -> None:
    body = f"<html>invalid key {KEY} {'x' * 5000}</html>".encode()
    fp.fail_next(200, body=body, times=3)
    with pytest.raises(ModelError) as raised:
        await clients["openai"].complete(REQUEST, timeout=10)
    message = str(raised.value)
    assert KEY not in message and "[API key]" in message
    assert len(message) < 1000


def test_run_ends_as_model_error_exit_3_when_the_provider_keeps_sending_html(
        fp: FakeProvider, tmp_path: Path, pages: LocalServer) -> None:
    fp.fail_next(200, body=b"<html>maintenance</html>", times=50)
    proc = subprocess.run(
        [sys.executable, "-m", "webfovea", "run", "--url", pages.url("roundtrip/form.html"),
         "--task", "t",
         "--model", "openai:m", "--base-url", fp.base_url, "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=300)
    assert proc.returncode == 3, proc.stderr
    assert "Traceback" not in proc.stderr
    result = json.loads((tmp_path / "result.json").read_text())
    assert result["status"] == "model_error" and "maintenance" in result["error"]


@pytest.mark.parametrize("url", ["::::", "http://127.0.0.1:99999/v1", "http://:80/v1",
                                 "127.0.0.1:8000/v1", "ftp://127.0.0.1/v1"])
def test_a_bad_base_url_is_a_usage_error(tmp_path: Path, url: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "webfovea", "run", "--url", "http://127.0.0.1:9/", "--task", "t",
         "--model", "openai:m", "--base-url", url, "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=60)
    # One line naming the flag and the value (the input checks or the loader say which
    # part is wrong: scheme, port, host).
    assert proc.returncode == 2 and "--base-url" in proc.stderr and url in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr and not (tmp_path / "result.json").exists()
