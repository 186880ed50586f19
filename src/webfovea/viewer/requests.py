"""The viewer's requests panel: each step's XHR and fetch requests from ``network.jsonl``
(method, URL, status, post data, the body folded), and the task's count of them.

Bodies are shown up to :data:`SHOWN` characters: the page carries its data inline, and the
whole text stays in ``network.jsonl``. A damaged line is skipped and counted in the task's
line, never raised.
"""

from __future__ import annotations

from typing import Any

from ..rundir.network import NetworkRead, NetworkRecord, read_network
from ..rundir.store import TaskRun

SHOWN = 4000  # characters of a body or post data the page carries


def add_requests(task: TaskRun, steps: list[dict[str, Any]]) -> str | None:
    """Put each request under the step it was sent in (``requests``); the ones sent before
    the first step go to the first step, and one of a step not recorded (the run stopped
    in it) to the last step before it. Returns the task's line about them (None: none)."""
    read = read_network(task.dir)
    numbers = [s.step for s in task.steps]
    for record in read.records:
        if not numbers:
            break
        shown = max((n for n in numbers if n <= record.step), default=numbers[0])
        steps[numbers.index(shown)].setdefault("requests", []).append(
            _request_json(record, shown))
    return summary(read)


def summary(read: NetworkRead) -> str | None:
    if not read.records and not read.bad_lines:
        return None
    bodies = sum(r.body_size or 0 for r in read.records if r.body is not None)
    cut = sum(r.body_truncated for r in read.records)
    failed = sum(r.status is None for r in read.records)
    parts = [f"{len(read.records)} XHR/fetch recorded", f"{bodies:,} bytes of bodies"]
    parts += [f"{cut} body cut at the cap"] if cut else []
    parts += [f"{failed} failed"] if failed else []
    line = ", ".join(parts)
    if read.bad_lines:
        line += (f"; network.jsonl line{'s' if len(read.bad_lines) > 1 else ''} "
                 f"{', '.join(map(str, read.bad_lines[:10]))} unreadable (skipped)")
    return line


def _request_json(r: NetworkRecord, shown_at: int) -> dict[str, Any]:
    post = r.post_data if r.post_data is not None else (
        f"(binary, {len(r.post_data_hex) // 2} bytes)" if r.post_data_hex else None)
    return {
        "method": r.method, "url": r.url, "status": r.status, "failure": r.failure,
        "type": r.resource_type, "content_type": r.content_type,
        "frame": r.frame_url if r.frame_url != r.page_url else None,
        "sent_at": "before the first step" if r.step == 0 else
                   None if r.step == shown_at else f"during step {r.step} (not recorded)",
        "post": _cut(post), "body": _cut(r.body), "body_size": r.body_size,
        "body_truncated": r.body_truncated,  # at the record's cap
        "shown_cut": any(t is not None and len(t) > SHOWN for t in (post, r.body)),
    }


def _cut(text: str | None) -> str | None:
    return text if text is None or len(text) <= SHOWN else text[:SHOWN] + "…"
