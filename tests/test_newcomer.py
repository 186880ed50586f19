"""What a new user meets first: ``--version``, ``--help``, and a quiet install."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import webfovea

ROOT = Path(webfovea.__file__).resolve().parents[2]  # the source tree: src/webfovea/..
SCRIPT = Path(sys.executable).parent / "webfovea"  # the console script pip installed


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True, timeout=60)


def test_version_from_the_command_and_from_python_m() -> None:
    module = _run(sys.executable, "-m", "webfovea", "--version")
    assert (module.returncode, module.stdout.strip()) == (0, f"webfovea {webfovea.__version__}")
    if not SCRIPT.is_file():
        pytest.skip(f"no console script at {SCRIPT} (webfovea not installed in this venv)")
    script = _run(str(SCRIPT), "--version")
    assert (script.returncode, script.stdout.strip()) == (0, f"webfovea {webfovea.__version__}")


def test_help_speaks_to_users() -> None:
    shown = _run(sys.executable, "-m", "webfovea", "--help")
    assert shown.returncode == 0, shown.stderr
    text = shown.stdout
    assert "screenshots" in text.split("positional arguments")[0]  # what it does, first
    for command in ("demo", "run --url", "check --model", "bench tasks.jsonl", "score", "view",
                    "compare", "suite run"):
        assert re.search(rf"^\s+webfovea {re.escape(command)}", text, re.MULTILINE), command
    assert "README.md" in text and "docs/" in text and "--version" in text
    # The maintainers' note on how the parser imports its modules is not for users (importing
    # an archive or a trajectory is).
    assert "parser imports" not in text and "handler imports" not in text, text
    assert "start-up" not in text and "``" not in text


def test_building_the_metadata_is_quiet(tmp_path: Path) -> None:
    """The backend pyproject.toml names (the dev extra installs it) prepares the metadata
    without a warning: ``license`` is an SPDX string, the version has one home."""
    hook = ("import setuptools.build_meta as b, sys; "
            "print(b.prepare_metadata_for_build_wheel(sys.argv[1]))")
    built = subprocess.run([sys.executable, "-W", "always", "-c", hook, str(tmp_path)], cwd=ROOT,
                           capture_output=True, text=True, timeout=120)
    assert built.returncode == 0, built.stderr
    assert "Warning" not in built.stderr and "deprecated" not in built.stderr, built.stderr
    metadata = (tmp_path / built.stdout.strip().splitlines()[-1] / "METADATA").read_text()
    assert "License-Expression: MIT" in metadata
    assert f"Version: {webfovea.__version__}" in metadata
