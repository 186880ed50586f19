"""The site's API requests as the evidence judge reads them: a few lines per XHR or fetch
request of ``network.jsonl`` (step, method, URL, post data, status and a bit of the response,
centred on the answer where the answer stands in it). A site answers its own filters through
these requests, so they show what the agent asked the site and what the site said, which a
screenshot may not."""

from __future__ import annotations

from pathlib import Path

from ..rundir.network import NetworkRecord, read_network
from .excerpt import excerpt

LAST = 15  # the requests shown: the last ones, nearest the answer
POST_CHARS = 300
BODY_CHARS = 400


def requests_text(task_dir: Path, answer: str) -> str:
    """The section for the judge's prompt; empty when the run recorded no request."""
    records = read_network(task_dir).records
    if not records:
        return ""
    shown = records[-LAST:]
    left = f", the last {len(shown)} shown" if len(shown) < len(records) else ""
    lines = [f"The site's API requests (XHR and fetch, {len(records)} recorded{left}):"]
    lines += [_line(r, answer) for r in shown]
    return "\n".join(lines)


def _line(r: NetworkRecord, answer: str) -> str:
    said = (f"{r.status} {r.content_type or ''}".strip() if r.status is not None
            else f"failed ({r.failure or 'no response'})")
    line = f"- step {r.step}: {r.method} {r.url} -> {said}"
    if r.post_data is not None:
        line += f"\n  post data: {_flat(r.post_data[:POST_CHARS])}"
    if r.body:
        line += f"\n  response: {_flat(excerpt(r.body, answer, BODY_CHARS))}"
    return line


def _flat(text: str) -> str:
    return " ".join(text.split())
