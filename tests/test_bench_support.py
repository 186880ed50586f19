"""Helpers shared by the bench tests (no tests here).

The model is a real local HTTP server speaking the OpenAI protocol (FakeProvider)
whose policy answers by task: it reads the task from the prompt and the step from
the history, so every task can behave differently in one run and a rerun gets the
same replies.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import threading
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from webfovea.cli.main import main
from webfovea.testing import FakeProvider, FakeRequest

PAGES = Path(__file__).parent / "pages" / "bench"
RAISE = "<raise>"  # a reply that makes the fake provider answer HTTP 400


def finish(answer: str) -> str:
    return f"Thought: the page shows it.\nAction: finished(content='{answer}')"


WAIT = "Thought: let the page settle.\nAction: wait()"


class TaskPolicy:
    """Replies per task instruction, indexed by the step (the number of history entries)."""

    def __init__(self, replies: dict[str, Sequence[str]],
                 on_request: Callable[[str, int], None] | None = None) -> None:
        self.replies = replies
        self.on_request = on_request
        self.seen: Counter[str] = Counter()
        self._lock = threading.Lock()

    def __call__(self, request: FakeRequest) -> str:
        instruction = instruction_of(request)
        # Earlier steps are the model's own turns in the request (structure, not wording).
        step = sum(turn.role == "assistant" for turn in request.turns)
        with self._lock:
            self.seen[instruction] += 1
        if self.on_request is not None:
            self.on_request(instruction, step)
        replies = self.replies[instruction]
        reply = replies[min(step, len(replies) - 1)]
        if reply == RAISE:
            raise RuntimeError("this task's model always fails")
        return reply


def instruction_of(request: FakeRequest) -> str:
    match = re.search(r"^Task: (.*)$", request.turns[0].text, re.MULTILINE)
    return match.group(1) if match else ""


def by_task(policies: dict[str, Callable[[FakeRequest], str]]) -> Callable[[FakeRequest], str]:
    """One policy per task instruction, so one bench run can hold tasks that act differently."""
    return lambda request: policies[instruction_of(request)](request)


@contextlib.contextmanager
def provider(policy: TaskPolicy, *, delay: float = 0.0) -> Iterator[FakeProvider]:
    with FakeProvider(policy, delay_seconds=delay) as fp:
        yield fp


def write_tasks(path: Path, records: Sequence[dict[str, Any] | str]) -> Path:
    lines = [r if isinstance(r, str) else json.dumps(r) for r in records]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def run_cli(args: Sequence[str]) -> int:
    """``webfovea <args>`` in this process; its exit code."""
    with pytest.raises(SystemExit) as exit_info:
        main(list(args))
    code = exit_info.value.code
    return code if isinstance(code, int) else 1


def closed_port_url() -> str:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/"


# -- processes ------------------------------------------------------------------------------------


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        with contextlib.suppress(OSError):
            stat = Path(f"/proc/{entry}/stat").read_text()
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            tree.setdefault(ppid, []).append(int(entry))
    return tree


def descendants(root: int) -> list[int]:
    tree, found, todo = _children(), [], [root]
    while todo:
        for child in tree.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def cmdline(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
    except OSError:
        return []


def browser_pids(root: int) -> list[int]:
    """Chromium main processes under ``root``: the renderers and helpers carry --type=
    (Chromium rewrites their command lines into one string, hence the join)."""
    pids = []
    for pid in descendants(root):
        args = cmdline(pid)
        if args and "chrom" in Path(args[0].split(" ")[0]).name and "--type=" not in " ".join(args):
            pids.append(pid)
    return pids


def kill(pids: Sequence[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
