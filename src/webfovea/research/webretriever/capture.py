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
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ..examples import REDACTED

NETWORK = "network.jsonl"  # the task directory's request log (docs/contracts.md)
KINDS = ("xhr", "fetch")
# Never exported, whatever the recorder kept of them: the session's credentials.
SECRET_HEADERS = frozenset({"cookie", "set-cookie", "authorization", "proxy-authorization"})


def read_network(task_dir: Path) -> tuple[list[dict[str, Any]], list[str]]:
    """The task's ``network.jsonl`` records, and a warning per line that is not one."""
    path = task_dir / NETWORK
    if not path.is_file():
        return [], []
    records: list[dict[str, Any]] = []
    warnings: list[str] = []
    for number, line in enumerate(path.read_text("utf-8", errors="replace").splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as e:
            warnings.append(f"{path} line {number} is not JSON ({e.msg}): left out")
            continue
        if isinstance(record, dict) and isinstance(record.get("url"), str):
            records.append(record)
        else:
            warnings.append(f"{path} line {number} is no request record: left out")
    return records, warnings


def to_capture(records: Iterable[Mapping[str, Any]], *, at: float,
               secrets: tuple[str, ...]) -> dict[str, Any]:
    """``capture.json`` of the task: its XHR and fetch requests as the reference collector
    writes them, credentials and known secrets removed; ``at``: the capture time."""
    requests = [_request(r, secrets) for r in records if r.get("resource_type") in KINDS]
    return {"capture_time": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(at)),
            "total_requests": len(requests), "all_requests": requests}


def _request(r: Mapping[str, Any], secrets: tuple[str, ...]) -> dict[str, Any]:
    headers = {str(k): _scrub(str(v), secrets) for k, v in (r.get("headers") or {}).items()
               if str(k).lower() not in SECRET_HEADERS}
    text = r.get("post_data")
    body = _scrub(text, secrets) if isinstance(text, str) else None
    out: dict[str, Any] = {
        "timestamp": r.get("time"), "url": _scrub(str(r["url"]), secrets),
        "method": r.get("method", "GET"), "headers": headers,
        "resource_type": r.get("resource_type"), "post_data": body, "post_text": None,
        "json_data": _json_body(body)}
    raw = body.encode("utf-8").hex() if body is not None else _hex(r.get("post_data_hex"),
                                                                     secrets)
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


def _hex(value: Any, secrets: tuple[str, ...]) -> str | None:
    """A binary body's hex, or None when it holds a secret's bytes (it cannot be cut out
    of a body that is not text without changing what the body meant)."""
    if not isinstance(value, str) or not value:
        return None
    if any(s.encode("utf-8").hex() in value for s in secrets):
        return None
    return value


def _scrub(text: str, secrets: tuple[str, ...]) -> str:
    for secret in secrets:
        text = text.replace(secret, REDACTED)
    return text


def from_capture(capture: Any) -> tuple[list[dict[str, Any]], str | None]:
    """``network.jsonl`` records of a ``capture.json`` (its object, or a bare list as
    NavEval also accepts), and what was wrong when it is neither. The reference collector
    keeps no response and no step: ``status``, ``content_type``, ``body`` and ``step`` are
    null."""
    requests = capture if isinstance(capture, list) else \
        capture.get("all_requests") if isinstance(capture, dict) else None
    if not isinstance(requests, list):
        return [], "it holds no all_requests list"
    out = [_record(r) for r in requests if isinstance(r, dict) and isinstance(r.get("url"), str)]
    skipped = len(requests) - len(out)
    return out, f"{skipped} request(s) without a url left out" if skipped else None


def _record(r: Mapping[str, Any]) -> dict[str, Any]:
    text = r.get("post_data")
    text = text if isinstance(text, str) else None
    record: dict[str, Any] = {
        "time": r.get("timestamp"), "step": None, "frame_url": None, "page_url": None,
        "url": r["url"], "method": r.get("method", "GET"), "resource_type": r.get("resource_type"),
        "headers": {str(k).lower(): (REDACTED if str(k).lower() in SECRET_HEADERS else str(v))
                    for k, v in (r.get("headers") or {}).items()},
        "post_data": text, "post_data_hex": r.get("raw_post_data") or None,
        "status": None, "content_type": None, "body": None, "body_size": None,
        "body_truncated": False, "failure": None}
    if r.get("json_data") is not None:
        record["post_json"] = r["json_data"]
    return record
