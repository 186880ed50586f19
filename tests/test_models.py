"""Model clients against a real local HTTP server speaking the providers' wire formats.

The official OpenAI and Anthropic SDKs make real HTTP requests to FakeProvider;
nothing in webfovea is patched. Backoff is made fast through the retry policy's
own parameters.
"""

from __future__ import annotations

import io
import json
import socket
import time
from collections.abc import AsyncIterator, Callable, Iterator
from email.utils import formatdate
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from webfovea.core.errors import ConfigError, ModelError
from webfovea.dialects.loopback.fake_provider import count_input_tokens
from webfovea.models.anthropic import AnthropicModel
from webfovea.models.base import Model, ModelRequest, SentImage, Turn
from webfovea.models.loader import load_model
from webfovea.models.openai_compat import OpenAICompatModel
from webfovea.models.retry import RetryPolicy, parse_retry_after
from webfovea.models.scripted import ScriptedModel
from webfovea.testing import FakeProvider, FakeRequest, ScriptedPolicy

FAST = RetryPolicy(base_delay=0.001, max_delay=0.01)
PROVIDERS = ["openai", "anthropic"]
KEY_VARS = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}

Factory = Callable[..., Any]


def png(width: int, height: int, color: str = "red") -> SentImage:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), color).save(buffer, "PNG")
    return SentImage(buffer.getvalue(), width, height)


def request(*images: SentImage, text: str = "click the button") -> ModelRequest:
    return ModelRequest(system="You are a web agent.", max_tokens=321,
                        turns=(Turn("user", text, images),))


def echo(req: FakeRequest) -> str:
    sizes = ",".join(f"{w}x{h}" for w, h in (image.size for image in req.images))
    return f"Thought: saw {sizes}\nAction: wait()"


@pytest.fixture
def fp() -> Iterator[FakeProvider]:
    with FakeProvider(echo) as provider:
        yield provider


@pytest.fixture
async def make_model() -> AsyncIterator[Factory]:
    """Builds a client of either provider for a FakeProvider; closes them all afterwards."""
    made: list[Model] = []

    def make(provider: str, fake: FakeProvider, *, name: str = "fake-vlm",
             **options: Any) -> Model:
        options.setdefault("retry", FAST)
        options.setdefault("api_key", "test-key")
        model: Model
        if provider == "openai":
            model = OpenAICompatModel(name, base_url=fake.base_url, **options)
        else:
            model = AnthropicModel(name, base_url=fake.anthropic_base_url, **options)
        made.append(model)
        return model

    yield make
    for model in made:
        await model.aclose()


# -- wire format ------------------------------------------------------------------------------


async def test_openai_wire_format(fp: FakeProvider, make_model: Factory) -> None:
    model = make_model("openai", fp)
    shot = SentImage(png(64, 48).png, 64, 48, label="Screenshot 3 of 3")
    reply = await model.complete(request(shot), timeout=10)
    [got] = fp.requests
    assert (got.provider, got.model, got.system, got.max_tokens) == (
        "openai", "fake-vlm", "You are a web agent.", 321)
    assert [(t.role, t.text) for t in got.turns] == [
        ("user", "click the button\nScreenshot 3 of 3")]
    assert got.received_sizes == ((64, 48),)
    assert got.images[0].getpixel((5, 5)) == (255, 0, 0)
    assert got.api_key == "test-key"
    assert reply.text == "Thought: saw 64x48\nAction: wait()"
    assert reply.model == "fake-vlm"
    assert (reply.usage.input_tokens, reply.usage.output_tokens) == (count_input_tokens(got), 5)
    assert (reply.usage.calls, reply.usage.retries) == (1, 0)


async def test_anthropic_wire_format(fp: FakeProvider, make_model: Factory) -> None:
    model = make_model("anthropic", fp, name="claude-fake")
    history = (Turn("user", "step one", (png(30, 20, "blue"),)),
               Turn("assistant", "Thought: go\nAction: wait()"),
               Turn("user", "step two", (png(40, 10),)))
    reply = await model.complete(ModelRequest(system="Be brief.", turns=history), timeout=10)
    [got] = fp.requests
    assert (got.provider, got.model, got.system) == ("anthropic", "claude-fake", "Be brief.")
    assert [t.role for t in got.turns] == ["user", "assistant", "user"]
    assert got.turns[1].text == "Thought: go\nAction: wait()"
    assert got.received_sizes == ((30, 20), (40, 10))
    assert got.images[0].getpixel((1, 1)) == (0, 0, 255)
    assert got.api_key == "test-key"
    assert reply.text == "Thought: saw 30x20,40x10\nAction: wait()"
    assert reply.usage.input_tokens == count_input_tokens(got)
    assert reply.usage.output_tokens == 5


async def test_clients_satisfy_model_protocol(fp: FakeProvider, make_model: Factory) -> None:
    for provider in PROVIDERS:
        model = make_model(provider, fp)
        assert isinstance(model, Model)
        assert model.name == f"{provider}:fake-vlm"


async def test_provider_downsizes_large_images_before_the_policy(make_model: Factory) -> None:
    with FakeProvider(echo, resize_images_to=(1440, 810)) as fake:
        reply = await make_model("openai", fake).complete(request(png(1920, 1080)), timeout=10)
        assert reply.text.startswith("Thought: saw 1440x810")
        assert fake.requests[0].received_sizes == ((1920, 1080),)
        small = await make_model("anthropic", fake).complete(request(png(800, 600)), timeout=10)
        assert small.text.startswith("Thought: saw 800x600")


async def test_scripted_policy_answers_in_order(make_model: Factory) -> None:
    with FakeProvider(ScriptedPolicy(["first", "second"])) as fake:
        model = make_model("openai", fake)
        texts = [(await model.complete(request(), timeout=10)).text for _ in range(2)]
        assert texts == ["first", "second"]
        with pytest.raises(ModelError, match="no replies left"):
            await model.complete(request(), timeout=10)


# -- retries ----------------------------------------------------------------------------------


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_429_with_retry_after_is_retried(fp: FakeProvider, make_model: Factory,
                                               provider: str) -> None:
    fp.fail_next(429, retry_after=0.3)
    start = time.monotonic()
    reply = await make_model(provider, fp).complete(request(), timeout=10)
    assert time.monotonic() - start >= 0.3  # waited as told, not the 1 ms backoff
    assert (reply.usage.calls, reply.usage.retries) == (2, 1)
    assert len(fp.requests) == 2
    assert reply.text.startswith("Thought:")


@pytest.mark.parametrize("status", [403, 408, 409, 500, 503, 529])
async def test_retryable_statuses(fp: FakeProvider, make_model: Factory, status: int) -> None:
    fp.fail_next(status)
    reply = await make_model("anthropic", fp).complete(request(), timeout=10)
    assert reply.usage.retries == 1


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_500_twice_then_success(fp: FakeProvider, make_model: Factory,
                                      provider: str) -> None:
    fp.fail_next(500, times=2)
    reply = await make_model(provider, fp).complete(request(), timeout=10)
    assert (reply.usage.calls, reply.usage.retries) == (3, 2)
    assert len(fp.requests) == 3


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_401_fails_at_once_naming_the_key_variable(make_model: Factory,
                                                         provider: str) -> None:
    with FakeProvider(echo, api_key="right-key") as fake:
        model = make_model(provider, fake, api_key="wrong-key")
        with pytest.raises(ModelError, match=KEY_VARS[provider]) as caught:
            await model.complete(request(), timeout=10)
        assert len(fake.requests) == 1
        assert (caught.value.status_code, caught.value.retryable) == (401, False)


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_404_names_model_and_base_url(make_model: Factory, provider: str) -> None:
    with FakeProvider(echo, models={"real-model"}) as fake:
        model = make_model(provider, fake, name="no-such-model")
        with pytest.raises(ModelError) as caught:
            await model.complete(request(), timeout=10)
        message = str(caught.value)
        assert "'no-such-model'" in message
        assert f"127.0.0.1:{fake.port}" in message
        assert "does not exist" in message  # the provider's own words
        assert len(fake.requests) == 1


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_400_fails_at_once_with_provider_message(fp: FakeProvider, make_model: Factory,
                                                       provider: str) -> None:
    fp.fail_next(400, body="image exceeds 5 MB")
    with pytest.raises(ModelError, match=r"rejected the request \(HTTP 400\): image exceeds 5 MB"):
        await make_model(provider, fp).complete(request(), timeout=10)
    assert len(fp.requests) == 1


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_timeout_is_retried(fp: FakeProvider, make_model: Factory, provider: str) -> None:
    fp.stall_next(3.0)
    start = time.monotonic()
    reply = await make_model(provider, fp, timeout=0.5).complete(request(), timeout=10)
    assert time.monotonic() - start < 2.0
    assert (reply.usage.calls, reply.usage.retries) == (2, 1)


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_deadline_bounds_a_slow_call(make_model: Factory, provider: str) -> None:
    with FakeProvider(echo, delay_seconds=5.0) as fake:
        model = make_model(provider, fake)  # per-call timeout 120 s: the deadline must win
        start = time.monotonic()
        with pytest.raises(ModelError, match="deadline") as caught:
            await model.complete(request(), timeout=1.0)
        elapsed = time.monotonic() - start
        assert 0.9 <= elapsed < 2.0
        assert caught.value.retryable is False


async def test_retry_after_past_deadline_gives_up_without_waiting(fp: FakeProvider,
                                                                  make_model: Factory) -> None:
    fp.fail_next(429, retry_after=30)
    start = time.monotonic()
    with pytest.raises(ModelError, match=r"waiting 30\.0 s more would pass the deadline"):
        await make_model("openai", fp).complete(request(), timeout=5)
    assert time.monotonic() - start < 1.0


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_exhausted_retries(fp: FakeProvider, make_model: Factory, provider: str) -> None:
    fp.fail_next(500, times=10, body="backend on fire")
    policy = RetryPolicy(max_attempts=3, base_delay=0.001)
    with pytest.raises(ModelError, match="after 3 attempt") as caught:
        await make_model(provider, fp, retry=policy).complete(request(), timeout=10)
    assert "backend on fire" in str(caught.value)
    assert (caught.value.status_code, caught.value.retryable) == (500, False)
    assert len(fp.requests) == 3


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_connection_refused_is_retried_then_fails(provider: str) -> None:
    with socket.socket() as sock:  # a port that was free a moment ago: nothing listens
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}" + ("/v1" if provider == "openai" else "")
    policy = RetryPolicy(max_attempts=2, base_delay=0.001)
    model: Model = (OpenAICompatModel("m", base_url=url, retry=policy) if provider == "openai"
                    else AnthropicModel("m", base_url=url, retry=policy))
    try:
        with pytest.raises(ModelError, match="could not be reached") as caught:
            await model.complete(request(), timeout=10)
        assert "after 2 attempt" in str(caught.value)
    finally:
        await model.aclose()


def test_parse_retry_after_forms() -> None:
    now = 1_700_000_000.0
    assert parse_retry_after({"retry-after": "2"}) == 2.0
    assert parse_retry_after({"retry-after": "0.25"}) == 0.25
    assert parse_retry_after({"retry-after-ms": "1500", "retry-after": "9"}) == 1.5
    http_date = formatdate(now + 7, usegmt=True)
    assert parse_retry_after({"retry-after": http_date}, now=now) == pytest.approx(7.0)
    assert parse_retry_after({"retry-after": formatdate(now - 60, usegmt=True)}, now=now) == 0.0
    assert parse_retry_after({"retry-after": "soon"}) is None
    assert parse_retry_after({}) is None


def test_retry_policy_rejects_nonsense() -> None:
    with pytest.raises(ConfigError, match="max_attempts"):
        RetryPolicy(max_attempts=0)
    backoffs = [RetryPolicy(base_delay=1.0, max_delay=4.0).backoff(10) for _ in range(50)]
    assert all(0.0 <= b <= 4.0 for b in backoffs)


# -- keys and endpoints -----------------------------------------------------------------------


async def test_base_url_and_placeholder_key_from_environment(
        fp: FakeProvider, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("OPENAI_BASE_URL", fp.base_url)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fp.anthropic_base_url)
    for spec in ("openai:local-vlm", "anthropic:local-claude"):
        model = load_model(spec)
        try:
            await model.complete(request(), timeout=10)
        finally:
            await model.aclose()
    openai_call, anthropic_call = fp.requests
    assert openai_call.api_key == anthropic_call.api_key == "EMPTY"
    assert [openai_call.model, anthropic_call.model] == ["local-vlm", "local-claude"]


@pytest.mark.parametrize("spec", ["openai:gpt-4o", "anthropic:claude-sonnet-4-5"])
def test_missing_key_for_default_endpoint_is_a_config_error(
        spec: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(ConfigError, match=KEY_VARS[spec.split(":")[0]]):
        load_model(spec)


# -- scripted model ---------------------------------------------------------------------------


async def test_scripted_model_from_separator_file(tmp_path: Path) -> None:
    path = tmp_path / "replies.txt"
    path.write_text("Thought: one\nAction: wait()\n---\n\nThought: two\n--- not a separator\n"
                    "Action: go_back()\n---\n", encoding="utf-8")
    model = load_model(f"scripted:{path}")
    texts = [(await model.complete(request(), timeout=1)).text for _ in range(2)]
    assert texts == ["Thought: one\nAction: wait()",
                     "Thought: two\n--- not a separator\nAction: go_back()"]
    with pytest.raises(ModelError, match="ran out of replies after 2") as caught:
        await model.complete(request(), timeout=1)
    assert caught.value.retryable is False


async def test_scripted_model_from_json_and_jsonl(tmp_path: Path) -> None:
    replies = ["Action: wait()", "Action: finished(content='42')"]
    (tmp_path / "r.json").write_text(json.dumps(replies), encoding="utf-8")
    (tmp_path / "r.jsonl").write_text("\n".join(json.dumps(r) for r in replies) + "\n",
                                      encoding="utf-8")
    for name in ("r.json", "r.jsonl"):
        model = ScriptedModel.from_file(tmp_path / name)
        got = [(await model.complete(request(), timeout=1)).text for _ in replies]
        assert got == replies
        assert len(model.requests) == 2


@pytest.mark.parametrize(("name", "content", "error"), [
    ("bad.json", '{"a": 1}', "list of strings"),
    ("bad.json", "[1, 2", "not valid JSON"),
    ("bad.jsonl", '"ok"\n{"no": 1}\n', "line 2 must be a JSON string"),
    ("empty.txt", "---\n\n---\n", "no replies"),
])
def test_scripted_file_errors(tmp_path: Path, name: str, content: str, error: str) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ConfigError, match=error):
        ScriptedModel.from_file(path)


# -- loader -----------------------------------------------------------------------------------


async def test_load_model_keeps_colons_in_model_names(fp: FakeProvider) -> None:
    model = load_model("openai:qwen2.5vl:7b", base_url=fp.base_url)
    try:
        assert isinstance(model, OpenAICompatModel)
        assert model.name == "openai:qwen2.5vl:7b"
        await model.complete(request(), timeout=10)
    finally:
        await model.aclose()
    assert fp.requests[0].model == "qwen2.5vl:7b"


@pytest.mark.parametrize("spec", ["", "gpt-4o", "openai:", "anthropic:", "scripted:",
                                  "mystery:model"])
def test_load_model_rejects_bad_specs(spec: str) -> None:
    forms = r"openai:<model>, anthropic:<model>, gemini:<model>, scripted:<file>"
    with pytest.raises(ConfigError, match=forms):
        load_model(spec)


def test_load_model_rejects_base_url_for_offline_models(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="--base-url applies only"):
        load_model(f"scripted:{tmp_path / 'r.txt'}", base_url="http://127.0.0.1:1/v1")


def test_load_model_scripted_file_missing(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read scripted replies"):
        load_model(f"scripted:{tmp_path / 'absent.txt'}")


def test_load_model_oracle() -> None:
    with pytest.raises(ConfigError, match="webfovea suite run"):
        load_model("oracle")  # the oracle plays the offline suite only: it needs its server
    with pytest.raises(ConfigError, match="bad oracle spec"):
        load_model("oracle:extra", base_url="http://127.0.0.1:1")
    model = load_model("oracle:provider-resize", base_url="http://127.0.0.1:1")
    assert isinstance(model, Model) and model.name == "oracle:provider-resize"
