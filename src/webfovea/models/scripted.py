"""``scripted:<file>``: a deterministic model that answers from a fixed list of replies.

For demos and tests. A reply file is either plain text, replies separated by
lines consisting of exactly ``---``, or a ``.json`` file holding a list of
strings, or a ``.jsonl`` file holding one JSON string per line.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from webfovea.core.errors import ConfigError, ModelError
from webfovea.models.base import ModelReply, ModelRequest, Usage

SEPARATOR = "---"


class ScriptedModel:
    """Replies in order; raises a non-retryable ModelError once they run out.

    Every request it answered is kept in ``requests`` so tests can check what
    the harness sent.
    """

    def __init__(self, replies: Sequence[str], *, name: str = "scripted") -> None:
        self.name = name
        self.requests: list[ModelRequest] = []
        self._replies = list(replies)

    @classmethod
    def from_file(cls, path: str | Path) -> ScriptedModel:
        return cls(read_replies(Path(path)), name=f"scripted:{path}")

    async def complete(self, request: ModelRequest, *, timeout: float) -> ModelReply:
        if len(self.requests) >= len(self._replies):
            raise ModelError(f"scripted model ran out of replies after {len(self._replies)}")
        text = self._replies[len(self.requests)]
        self.requests.append(request)
        return ModelReply(text=text, usage=Usage(calls=1), model=self.name)

    async def aclose(self) -> None:
        return None


def read_replies(path: Path) -> list[str]:
    """The replies in a reply file; ConfigError naming the file when it is unusable."""
    try:
        content = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ConfigError(f"cannot read scripted replies from {path}: {error}") from error
    suffix = path.suffix.lower()
    if suffix == ".json":
        replies = _json_list(path, content)
    elif suffix == ".jsonl":
        replies = [_json_line(path, number, line)
                   for number, line in enumerate(content.splitlines(), start=1) if line.strip()]
    else:
        replies = split_replies(content)
    if not replies:
        raise ConfigError(f"no replies in {path}")
    return replies


def split_replies(content: str) -> list[str]:
    """Plain-text replies: blocks between lines that are exactly ``---``, trimmed;
    empty blocks (e.g. after a trailing separator) are skipped."""
    blocks: list[list[str]] = [[]]
    for line in content.splitlines():
        if line == SEPARATOR:
            blocks.append([])
        else:
            blocks[-1].append(line)
    texts = ("\n".join(block).strip() for block in blocks)
    return [text for text in texts if text]


def _json_list(path: Path, content: str) -> list[str]:
    try:
        value = json.loads(content)
    except json.JSONDecodeError as error:
        raise ConfigError(f"{path} is not valid JSON: {error}") from error
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ConfigError(f"{path} must hold a JSON list of strings")
    return list(value)


def _json_line(path: Path, number: int, line: str) -> str:
    try:
        value = json.loads(line)
    except json.JSONDecodeError as error:
        raise ConfigError(f"{path} line {number} is not valid JSON: {error}") from error
    if not isinstance(value, str):
        raise ConfigError(f"{path} line {number} must be a JSON string")
    return value
