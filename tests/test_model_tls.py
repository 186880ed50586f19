"""Model clients over https: every client of a process verifies with one shared TLS context
(webfovea.models.tls), which must trust what httpx's own would: the certificate bundle that
``SSL_CERT_FILE`` names. A real https fake provider with a certificate from a local CA."""

from __future__ import annotations

import os
import ssl
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import trustme

from webfovea.testing import FakeProvider

# In a fresh process (the shared context reads the environment once, when first built):
# "check" runs the endpoint check a run starts with; "call" asks two models for one reply
# each, printing each reply or the error and the attempts it took.
CALLS = """
import asyncio, sys
from webfovea.core.errors import ModelError
from webfovea.models.base import ModelRequest, Turn
from webfovea.models.loader import load_model
from webfovea.models.preflight import preflight

async def main(what: str, openai_url: str, anthropic_url: str) -> None:
    if what == "check":
        await preflight("openai:m", openai_url)
        return
    for spec, url in (("openai:m", openai_url), ("anthropic:m", anthropic_url)):
        model = load_model(spec, base_url=url)
        request = ModelRequest(system="Be brief.", turns=(Turn("user", "hello"),))
        try:
            print(spec, (await model.complete(request, timeout=60)).text)
        except ModelError as e:
            print(spec, "error:", e)
        await model.aclose()

asyncio.run(main(*sys.argv[1:]))
"""


@pytest.fixture(scope="module")
def ca() -> trustme.CA:
    return trustme.CA()


@pytest.fixture(scope="module")
def https_provider(ca: trustme.CA) -> Iterator[FakeProvider]:
    tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1").configure_cert(tls)
    with FakeProvider(lambda request: "Thought: hi.\nAction: wait()", tls=tls) as fp:
        yield fp


def _calls(what: str, fp: FakeProvider, *,
           bundle: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("SSL_CERT_FILE", "SSL_CERT_DIR")}
    if bundle is not None:
        env["SSL_CERT_FILE"] = str(bundle)
    return subprocess.run([sys.executable, "-c", CALLS, what, fp.base_url,
                           fp.anthropic_base_url], capture_output=True, text=True, timeout=120,
                          env={**env, "OPENAI_API_KEY": "sk-test", "ANTHROPIC_API_KEY": "sk-test"})


def test_clients_trust_the_bundle_ssl_cert_file_names(https_provider: FakeProvider,
                                                      ca: trustme.CA, tmp_path: Path) -> None:
    assert https_provider.base_url.startswith("https://127.0.0.1:")
    bundle = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(bundle))
    checked = _calls("check", https_provider, bundle=bundle)
    assert checked.returncode == 0, checked.stderr
    done = _calls("call", https_provider, bundle=bundle)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["openai:m Thought: hi.", "Action: wait()",
                                        "anthropic:m Thought: hi.", "Action: wait()"]


def test_an_untrusted_certificate_is_named_at_once(https_provider: FakeProvider) -> None:
    before = len(https_provider.requests)
    checked = _calls("check", https_provider)
    assert checked.returncode != 0
    error = checked.stderr.strip().splitlines()[-1]
    assert error.startswith("webfovea.core.errors.ConfigError: https://127.0.0.1:"), error
    assert "certificate is not trusted" in error and "SSL_CERT_FILE" in error, error
    assert "--no-preflight" in error and "CERTIFICATE_VERIFY_FAILED" in error, error

    # A model call is not retried: one attempt, and the error says what to set.
    done = _calls("call", https_provider)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    for line, spec in zip(lines, ("openai:m", "anthropic:m"), strict=True):
        assert line.startswith(f"{spec} error: ") and "could not be reached: its certificate is " \
            "not trusted" in line and "SSL_CERT_FILE" in line, line
        assert "attempt(s)" not in line, line  # given up at once, not after the retries
    assert len(https_provider.requests) == before  # none got through the handshake
