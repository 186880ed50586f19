"""``capture.json`` (the reference runner's request log) from and to ``network.jsonl``.

The reference runner's ``RequestCollector`` keeps XHR and fetch requests only, each as
``{timestamp, url, method, headers, resource_type, post_data, post_text, json_data}`` plus
``raw_post_data`` (the body's bytes in hex) when there is a body, and saves them as
``{capture_time, total_requests, all_requests}``. It records no response. NavEval's filter
keeps ``resource_type`` xhr/fetch whose URL's registrable domain is the task website's, and
its formatter drops ``headers``, ``post_data`` and ``raw_post_data`` before the judge sees
the rest.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ...rundir.network import NETWORK, REDACTED, SECRET_HEADERS, NetworkRecord, read_network

KINDS = ("xhr", "fetch")


def network_of(task_dir: Path) -> tuple[list[NetworkRecord], list[str]]:
    """The task's ``network.jsonl`` records, and a warning naming its lines that are not."""
    read = read_network(task_dir)
    bad = [f"{task_dir / NETWORK} line {n} is no request record: left out"
           for n in read.bad_lines]
    return read.records, bad


def to_capture(records: Iterable[NetworkRecord], *, at: float,
               secrets: tuple[str, ...]) -> dict[str, Any]:
    """``capture.json`` of the task: its XHR and fetch requests as the reference collector
    writes them, credentials and known secrets removed; ``at``: the capture time."""
    # In the order they were sent, as the collector appends them (network.jsonl has them
    # as their responses finished); NavEval cuts the oldest first when over its budget.
    sent = sorted((r for r in records if r.resource_type in KINDS), key=lambda r: r.time)
    requests = [_request(r, secrets) for r in sent]
    return {"capture_time": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(at)),
            "total_requests": len(requests), "all_requests": requests}


def _request(r: NetworkRecord, secrets: tuple[str, ...]) -> dict[str, Any]:
    headers = {k: _scrub(v, secrets) for k, v in r.headers.items()
               if k.lower() not in SECRET_HEADERS}
    body = _scrub(r.post_data, secrets) if r.post_data is not None else None
    out: dict[str, Any] = {
        "timestamp": r.time, "url": _scrub(r.url, secrets), "method": r.method,
        "headers": headers, "resource_type": r.resource_type, "post_data": body,
        "post_text": None, "json_data": _json_body(body)}
    raw = body.encode("utf-8").hex() if body is not None else _hex(r.post_data_hex, secrets)
    if raw:
        out["raw_post_data"] = raw
    return out


def _json_body(body: str | None) -> Any:
    if body is None:
        return None
    try:
        return json.loads(body)
    except ValueError:
        return None


def _hex(value: str | None, secrets: tuple[str, ...]) -> str | None:
    """A binary body's hex, or None when it holds a secret's bytes (it cannot be cut out
    of a body that is not text without changing what the body meant)."""
    if not value:
        return None
    if any(s.encode("utf-8").hex() in value for s in secrets):
        return None
    return value


def _scrub(text: str, secrets: tuple[str, ...]) -> str:
    for secret in secrets:
        text = text.replace(secret, REDACTED)
    return text


def from_capture(capture: Any) -> tuple[list[NetworkRecord], str | None]:
    """``network.jsonl`` records of a ``capture.json`` (its object, or a bare list as
    NavEval also accepts), and what was wrong when it is neither. The reference collector
    keeps no response and no step: ``status``, ``content_type`` and ``body`` are null and
    every request is step 0."""
    requests = capture if isinstance(capture, list) else \
        capture.get("all_requests") if isinstance(capture, dict) else None
    if not isinstance(requests, list):
        return [], "it holds no all_requests list"
    out = [record for r in requests if (record := _record(r)) is not None]
    skipped = len(requests) - len(out)
    return out, f"{skipped} request(s) that are no request record left out" if skipped else None


def _record(r: Any) -> NetworkRecord | None:
    if not isinstance(r, dict) or not isinstance(r.get("url"), str):
        return None
    text = r.get("post_data") if isinstance(r.get("post_data"), str) else None
    fields: dict[str, Any] = {
        "time": r.get("timestamp") or 0.0, "url": r["url"],
        "method": str(r.get("method") or "GET"),
        "resource_type": str(r.get("resource_type") or ""),
        "headers": {str(k).lower(): REDACTED if str(k).lower() in SECRET_HEADERS else str(v)
                    for k, v in (r.get("headers") or {}).items()},
        "post_data": text, "post_data_hex": r.get("raw_post_data") or None}
    if r.get("json_data") is not None:
        fields["post_json"] = r["json_data"]
    try:
        return NetworkRecord.model_validate(fields)
    except ValidationError:
        return None
