"""Profiles, the config file and their precedence; the pre-flight check and `check`."""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from webfovea.cli.main import build_parser
from webfovea.console.options import RunFlags, flags_from
from webfovea.core.config import AgentConfig, SmartResize
from webfovea.core.errors import ConfigError, ModelError
from webfovea.dialects.loopback.fake_provider import FakeRequest, ScriptedPolicy
from webfovea.models.preflight import preflight
from webfovea.models.profiles import ConfigFile, builtin_profiles, load_config, resolve
from webfovea.models.retry import RetryPolicy
from webfovea.testing import FakeProvider
from webfovea.tools.calibrate import COLOURS, MARKERS

CONFIG = """
[run]
coords = "norm1000"

[profiles.my-vllm]
model = "openai:my-qwen"
coords = "smart_resize"
image_cap = "1280x720"
base_url = "http://127.0.0.1:8000/v1"
smart_resize = { factor = 28, min_pixels = 3136, max_pixels = 1000000 }
temperature = 0.2

[prices."openai:my-qwen"]
input = 0.5
output = 1.5
"""


def agent_config(ns: argparse.Namespace) -> AgentConfig:
    """The agent configuration ``run`` builds from its command line."""
    return RunFlags(**flags_from(ns)).options().agent


def _ns(*argv: str) -> argparse.Namespace:
    return build_parser()[0].parse_args(["run", "--url", "http://x.test/", "--task", "t", *argv])


@pytest.fixture
def config_file(tmp_path: Path) -> Path:
    path = tmp_path / "webfovea.toml"
    path.write_text(CONFIG, encoding="utf-8")
    return path


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    for var in ("WEBFOVEA_MODEL", "WEBFOVEA_BASE_URL", "WEBFOVEA_COORDS", "WEBFOVEA_IMAGE_CAP",
                "WEBFOVEA_HISTORY", "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "no-user-config"))
    monkeypatch.chdir(tmp_path)
    yield


def test_builtin_profiles_cover_the_model_families(clean_env: None) -> None:
    names = builtin_profiles()
    assert {"claude", "gpt-4.1", "gpt-5", "ui-tars-1.5", "qwen2.5-vl", "gemini-2.5-flash"} <= set(names)
    for name in names:
        r = resolve(_ns("--model", name), load_config())
        assert r.profile == name and ":" in r.model
    tars = resolve(_ns("--model", "ui-tars-1.5"), load_config())
    assert tars.coords == "smart_resize" and tars.smart_resize.max_pixels == 2116800
    assert resolve(_ns("--model", "gemini-2.5-flash"), load_config()).coords == "norm1000"
    claude = agent_config(_ns("--model", "claude"))
    assert claude.coords == "image" and claude.price is not None and claude.price.cache_read == 0.3


def test_precedence_flag_env_config_profile_default(
        clean_env: None, config_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = load_config(config_file)
    # profile beats default; the config file's [run] beats the profile
    r = resolve(_ns("--model", "my-vllm"), config, env={})
    assert (r.model, r.image_cap, r.coords) == ("openai:my-qwen", "1280x720", "norm1000")
    assert r.smart_resize == SmartResize(28, 3136, 1000000) and r.sampling == {"temperature": 0.2}
    assert r.base_url == "http://127.0.0.1:8000/v1"
    assert r.price is not None and r.price.input == 0.5  # the config file's price
    # environment beats the config file
    r = resolve(_ns("--model", "my-vllm"), config, env={"WEBFOVEA_COORDS": "image",
                                                         "WEBFOVEA_IMAGE_CAP": "800x600"})
    assert (r.coords, r.image_cap) == ("image", "800x600")
    # a flag beats the environment
    r = resolve(_ns("--model", "my-vllm", "--coords", "smart_resize", "--image-cap", "640x480"),
                config, env={"WEBFOVEA_COORDS": "image", "WEBFOVEA_IMAGE_CAP": "800x600"})
    assert (r.coords, r.image_cap) == ("smart_resize", "640x480")
    # the model itself: flag > environment > config
    r = resolve(_ns("--model", "openai:a"), config, env={"WEBFOVEA_MODEL": "openai:b"})
    assert r.model == "openai:a"
    monkeypatch.setenv("WEBFOVEA_MODEL", "claude")
    assert resolve(_ns(), config).model.startswith("anthropic:")
    # defaults when nothing gives a value
    r = resolve(_ns("--model", "openai:x"), ConfigFile(), env={})
    assert (r.coords, r.image_cap, r.history, r.price) == ("image", "1440x810", "blocks", None)


def test_config_file_is_found_in_the_working_directory_and_checked(
        clean_env: None, config_file: Path, tmp_path: Path) -> None:
    assert agent_config(_ns("--model", "my-vllm")).smart_resize.max_pixels == 1000000
    (tmp_path / "bad.toml").write_text("[run]\ncolour = 'red'\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"unknown key.*colour"):
        load_config(tmp_path / "bad.toml")
    with pytest.raises(ConfigError, match=r"bad model spec .* neither a profile"):
        resolve(_ns("--model", "no-such-profile"), load_config(), env={})


@pytest.fixture
def fp() -> Iterator[FakeProvider]:
    with FakeProvider(ScriptedPolicy([]), models=["served-a", "served-b"]) as provider:
        yield provider


async def test_preflight_names_each_base_url_mistake(fp: FakeProvider, clean_env: None) -> None:
    root = fp.anthropic_base_url  # http://127.0.0.1:PORT, no /v1

    async def said(spec: str, url: str | None) -> str:
        checked = await preflight(spec, url)
        return checked.said if checked else ""

    assert "answers and serves served-a" in await said("openai:served-a", fp.base_url)
    with pytest.raises(ConfigError, match=r"is missing /v1.*use http://127\.0\.0\.1:\d+/v1"):
        await preflight("openai:served-a", root)
    with pytest.raises(ConfigError, match="has /v1 twice"):
        await preflight("openai:served-a", f"{root}/v1/v1")
    with pytest.raises(ConfigError, match="which the Anthropic SDK adds itself"):
        await preflight("anthropic:served-a", f"{root}/v1")
    assert "serves served-a" in await said("anthropic:served-a", root)
    with pytest.raises(ConfigError, match=r"'nope' is not served.*served-a, served-b"):
        await preflight("openai:nope", fp.base_url)
    quick = RetryPolicy(max_attempts=2, base_delay=0.01, max_delay=0.02)
    with pytest.raises(ModelError, match=r"cannot reach .* after 2 attempt\(s\)"):
        await preflight("openai:served-a", "http://127.0.0.1:9/v1", policy=quick)
    assert await preflight("oracle", None) is None  # nothing to check for the built-in policies


def test_run_fails_before_the_browser_on_a_missing_v1(fp: FakeProvider, tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "webfovea", "run", "--url", "http://127.0.0.1:9/", "--task", "t",
            "--model", "openai:served-a", "--base-url", fp.anthropic_base_url,
            "--out", str(tmp_path / "run")]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "missing /v1" in proc.stderr, proc.stderr
    assert not (tmp_path / "run" / "result.json").exists()  # nothing started
    skipped = subprocess.run([*argv, "--no-preflight"], capture_output=True, text=True,
                             timeout=120)
    assert "missing /v1" not in skipped.stderr  # without the check the run goes ahead


def _knows_the_markers(request: FakeRequest) -> str:
    """A 'model' that answers where each disc truly is (in the image it received)."""
    width, height = request.images[-1].size
    index = next(i for i, (name, _) in enumerate(COLOURS) if f"the {name} disc" in request.turns[-1].text)
    fx, fy = MARKERS[index]
    return f"Thought: there.\nAction: click(start_box='({fx * width:.0f},{fy * height:.0f})')"


def test_check_command_runs_preflight_and_a_calibration() -> None:
    with FakeProvider(_knows_the_markers, models=["served-a"]) as fake:
        argv = [sys.executable, "-m", "webfovea", "check", "--base-url", fake.base_url]
        good = subprocess.run([*argv, "--model", "openai:served-a"], capture_output=True,
                              text=True, timeout=60)
        bad = subprocess.run([*argv, "--model", "openai:other"], capture_output=True, text=True,
                             timeout=60)
    assert good.returncode == 0, good.stderr
    assert "pre-flight: openai:served-a" in good.stdout and "suggested: --coords image" in good.stdout
    assert bad.returncode == 2 and "'other' is not served" in bad.stderr
