"""A resumed bench runs with the settings it started with, as finally resolved: a config
file or profile that changed in between is refused (one line naming what differs) unless
``--force``. The bench runs as its own process in a directory of its own, so the
``./webfovea.toml`` it reads is the test's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from webfovea.bench.store import Store
from webfovea.browser.local_server import LocalServer
from webfovea.dialects.loopback.fake_provider import FakeProvider

DONE = "Thought: done.\nAction: finished(content='ok')"
PROFILE = """[profiles.mine]
model = "openai:m"
temperature = {temperature}
"""


def _env(home: Path) -> dict[str, str]:
    """No WEBFOVEA_* variable and no user config file: the test's files decide."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("WEBFOVEA_")}
    return {**env, "OPENAI_API_KEY": "sk-test", "XDG_CONFIG_HOME": str(home)}


def _bench(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "webfovea", "bench", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=240, env=_env(cwd / "home"))


def _tasks(path: Path, url: str, ids: list[str]) -> Path:
    path.write_text("".join(json.dumps({"id": i, "instruction": "say ok", "url": url,
                                        "answer": "ok"}) + "\n" for i in ids))
    return path


def _policy(request: object) -> str:
    return DONE


def _effective(out: Path) -> list[dict[str, object]]:
    store = Store.open_existing(out)
    try:
        return [run["invocation"]["effective"] for run in store.runs()]
    finally:
        store.close()


def test_a_changed_profile_in_the_config_file_is_refused_unless_forced(
        pages: LocalServer, tmp_path: Path) -> None:
    config = tmp_path / "mine.toml"
    config.write_text(PROFILE.format(temperature=0.2))
    url = pages.url("roundtrip/form.html")
    first, both = _tasks(tmp_path / "a.jsonl", url, ["a"]), _tasks(tmp_path / "ab.jsonl", url,
                                                                   ["a", "b"])
    out = tmp_path / "run"
    with FakeProvider(_policy) as fp:
        started = _bench(tmp_path, str(first), "--out", str(out), "--model", "mine",
                         "--config", str(config), "--max-steps", "3", "--base-url", fp.base_url)
        assert started.returncode == 0, started.stderr
        [recorded] = _effective(out)
        assert (recorded["model"], recorded["sampling.temperature"],
                recorded["max_steps"]) == ("openai:m", 0.2, 3)

        # Unchanged (only where it runs differs: a new endpoint): resumes.
        same = _bench(tmp_path, str(first), "--out", str(out), "--resume", "--base-url",
                      fp.base_url)
        assert same.returncode == 0, same.stderr

        config.write_text(PROFILE.format(temperature=0.7))
        refused = _bench(tmp_path, str(first), "--out", str(out), "--resume", "--base-url",
                         fp.base_url)
        assert refused.returncode == 2, refused.stderr
        assert refused.stderr.count("\n") == 1, refused.stderr
        for words in ("effective settings differ", "sampling.temperature: 0.2 → 0.7",
                      "add --force"):
            assert words in refused.stderr, refused.stderr
        assert "max_steps" not in refused.stderr  # only what differs is named
        assert len(_effective(out)) == 2  # the refused invocation ran nothing

        # --force takes the new settings (and, here, a task file with a new task too).

        forced = _bench(tmp_path, str(both), "--out", str(out), "--resume", "--force",
                        "--base-url", fp.base_url)
    assert forced.returncode == 0, forced.stderr
    assert (out / "tasks" / "b" / "result.json").is_file()
    # Every invocation records what it ran with: the forced one shows the new value.
    assert [e["sampling.temperature"] for e in _effective(out)] == [0.2, 0.2, 0.7]


def test_a_changed_webfovea_toml_in_the_working_directory_is_refused(
        pages: LocalServer, tmp_path: Path) -> None:
    (tmp_path / "webfovea.toml").write_text('[run]\nhistory = "rolling"\n')
    tasks = _tasks(tmp_path / "tasks.jsonl", pages.url("roundtrip/form.html"), ["a"])
    out = tmp_path / "run"
    with FakeProvider(_policy) as fp:
        started = _bench(tmp_path, str(tasks), "--out", str(out), "--model", "openai:m",
                         "--base-url", fp.base_url)
        assert started.returncode == 0, started.stderr
        (tmp_path / "webfovea.toml").unlink()
        refused = _bench(tmp_path, str(tasks), "--out", str(out), "--resume", "--base-url",
                         fp.base_url)
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1, refused.stderr
    assert "history: rolling → blocks" in refused.stderr, refused.stderr
