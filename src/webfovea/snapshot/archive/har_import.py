"""Reading HAR 1.2: Playwright's ``record_har_path`` and Chrome DevTools' "Save all as HAR".

Each ``log.entries[]`` item is one exchange; ``response.content.text`` holds the decoded
body (base64 when ``content.encoding`` says so). A HAR saved without content, or an
entry the browser never got a response for (status 0), cannot be replayed and is listed.
"""

from __future__ import annotations

import base64
import binascii
import datetime
import json
from pathlib import Path
from typing import Any

from ...core.errors import ConfigError
from .capture import Capture, Read, Skipped


def read_har(path: Path) -> Read:
    try:
        log = json.loads(path.read_text(encoding="utf-8"))["log"]
        entries = log["entries"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ConfigError(f"{path} is not a HAR file (JSON with log.entries): {e}") from e
    read = Read(kind="har")
    read.pages = [p.get("title", "") for p in log.get("pages") or []
                  if str(p.get("title", "")).startswith(("http://", "https://"))]
    for seq, entry in enumerate(entries):
        capture = _capture(entry, read)
        if capture is not None:
            capture.seq = seq
            read.captures.append(capture)
    read.captures.sort(key=lambda c: (c.captured_ms, c.seq))
    return read


def _capture(entry: dict[str, Any], read: Read) -> Capture | None:
    request, response = entry.get("request") or {}, entry.get("response") or {}
    url = str(request.get("url", ""))
    if not url.startswith(("http://", "https://")):
        read.skipped.append(Skipped(url or "?", "not an HTTP(S) request (data:, blob:, …)"))
        return None
    status = int(response.get("status") or 0)
    if status <= 0:
        read.skipped.append(Skipped(url, "the browser got no response (failed or blocked)"))
        return None
    body = _body(response.get("content") or {}, status)
    if body is None:
        read.skipped.append(Skipped(url, "the HAR holds no body for it (saved without "
                                         "content, or the body was not kept)"))
        return None
    post = request.get("postData") or {}
    return Capture(url=url, status=status, reason=str(response.get("statusText", "")),
                   headers=[(str(h["name"]), str(h["value"])) for h in response.get("headers")
                            or [] if "name" in h],
                   body=body, captured_ms=_epoch_ms(str(entry.get("startedDateTime", ""))),
                   method=str(request.get("method", "GET")),
                   request_body=str(post.get("text", "")).encode(),
                   request_type=str(post.get("mimeType", "")))


def _body(content: dict[str, Any], status: int) -> bytes | None:
    text = content.get("text")
    if text is None:
        # A redirect or an empty answer has nothing to keep; anything else lost its body.
        return b"" if 300 <= status < 400 or status == 204 or not content.get("size") else None
    if content.get("encoding") == "base64":
        try:
            return base64.b64decode(str(text), validate=True)
        except (binascii.Error, ValueError):
            return None
    return str(text).encode("utf-8")


def _epoch_ms(started: str) -> float:
    try:
        when = datetime.datetime.fromisoformat(started.replace("Z", "+00:00"))
    except ValueError:
        return 0.0
    if when.tzinfo is None:
        when = when.replace(tzinfo=datetime.timezone.utc)
    return when.timestamp() * 1000
