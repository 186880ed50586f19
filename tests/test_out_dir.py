"""A run directory that cannot be created is a usage error (issue 21, item 3): one line on
stderr, exit 2, before a browser starts, for every command that writes one."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from webfovea.testing import LocalServer

WAIT = "Thought: wait.\nAction: wait()\n"


def _webfovea(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "webfovea", *args], capture_output=True,
                          text=True, timeout=120)


def _commands(out: str, replies: Path, tasks: Path) -> dict[str, list[str]]:
    return {
        "run": ["run", "--url", "http://127.0.0.1:9/", "--task", "t", "--model",
                f"scripted:{replies}", "--out", out],
        "bench": ["bench", str(tasks), "--out", out, "--model", f"scripted:{replies}"],
        "suite run": ["suite", "run", "--out", out, "--limit", "1"],
        "miniwob": ["miniwob", "--model", "miniwob-oracle", "--out", out],
        "demo": ["demo", "--tasks", "1", "--out", out],
        "demo --scripted": ["demo", "--scripted", "--out", out],
    }


@pytest.fixture
def inputs(tmp_path: Path) -> tuple[Path, Path]:
    replies = tmp_path / "replies.txt"
    replies.write_text(WAIT, encoding="utf-8")
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text('{"id": "a", "instruction": "t", "url": "http://127.0.0.1:9/"}\n',
                     encoding="utf-8")
    return replies, tasks


def _assert_refused(proc: subprocess.CompletedProcess[str], out: str) -> None:
    assert proc.returncode == 2, proc.stdout + proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and out in lines[0] and "Traceback" not in proc.stderr, proc.stderr


@pytest.mark.parametrize("command", ["run", "bench", "suite run", "miniwob", "demo",
                                     "demo --scripted"])
@pytest.mark.parametrize("where", ["/proc", "under a file"])
def test_an_impossible_out_is_one_line_and_exit_2(tmp_path: Path, inputs: tuple[Path, Path],
                                                  command: str, where: str) -> None:
    if where == "/proc":
        out = "/proc/webfovea-probe/run"
    else:
        (tmp_path / "a-file").write_text("x", encoding="utf-8")
        out = str(tmp_path / "a-file" / "run")
    proc = _webfovea(*_commands(out, *inputs)[command])
    _assert_refused(proc, out)
    assert "--out" in proc.stderr


def _lock(folder: Path) -> None:
    """Make ``folder`` refuse new entries, also to the superuser (whom no mode stops: the
    immutable attribute does, where the filesystem has it)."""
    folder.chmod(0o555)
    if os.geteuid() == 0:
        locked = subprocess.run(["chattr", "+i", str(folder)], capture_output=True, text=True)
        if locked.returncode != 0:
            pytest.skip(f"as root, and chattr +i is not available here: {locked.stderr.strip()}")


def _unlock(folder: Path) -> None:
    if os.geteuid() == 0 and shutil.which("chattr"):
        subprocess.run(["chattr", "-i", str(folder)], capture_output=True)
    folder.chmod(0o755)


PERMISSION = ("(Permission denied)", "(Operation not permitted)")  # a mode, the attribute


def test_run_into_a_folder_without_write_permission_is_refused(tmp_path: Path,
                                                               inputs: tuple[Path, Path]) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    _lock(folder)
    try:
        out = str(folder / "run")
        proc = _webfovea(*_commands(out, *inputs)["run"])
    finally:
        _unlock(folder)
    _assert_refused(proc, out)
    assert any(reason in proc.stderr for reason in PERMISSION), proc.stderr


def test_view_of_a_run_it_cannot_write_into_is_refused(pages: LocalServer,
                                                       tmp_path: Path) -> None:
    replies = tmp_path / "replies.txt"
    replies.write_text("Thought: done.\nAction: finished(content='x')\n", encoding="utf-8")
    run = tmp_path / "run"
    made = _webfovea("run", "--url", pages.url("roundtrip/form.html"), "--task", "t", "--model",
                     f"scripted:{replies}", "--out", str(run))
    assert (run / "result.json").is_file(), made.stderr  # the writer made the run directory
    _lock(run)
    try:
        proc = _webfovea("view", str(run))
    finally:
        _unlock(run)
    _assert_refused(proc, str(run))
    assert any(reason in proc.stderr for reason in PERMISSION), proc.stderr
    assert not (run / "view.html").exists()
