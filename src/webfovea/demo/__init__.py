"""The built-in demo: a bundled local page driven by a scripted model."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

TASK = "How many tonnes of grain did East Basin handle in 2023?"
ANSWER = "48,210"


def root() -> Path:
    return Path(str(resources.files("webfovea.demo")))


def replies_file() -> Path:
    return root() / "replies.txt"
