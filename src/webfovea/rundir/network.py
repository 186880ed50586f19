"""``network.jsonl``: the XHR and fetch requests a task's pages made (the run directory
contract, docs/contracts.md), its redaction, and its one writer and reader.

One JSON object per line, appended as each response finishes (or the request fails). The
browser's listener (:mod:`webfovea.browser.network`) fills the records; the viewer, the
evidence judge and the WebRetriever export read them back through :func:`read_network`,
which skips a damaged line instead of failing: a bad line costs that request, never the run's
page or score.
"""

from __future__ import annotations

import codecs
import contextlib
import json
import os
import re
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote, quote_plus, urlencode, urlsplit, urlunsplit

from pydantic import BaseModel, ValidationError

NETWORK = "network.jsonl"
BODY_CAP = 64 * 1024  # bytes of a response body (and of a request's post data) kept
REDACTED = "[redacted]"
# Headers whose values are credentials whatever they hold.
SECRET_HEADERS = frozenset({"cookie", "set-cookie", "authorization", "proxy-authorization"})
# Environment variables whose values are keys (OPENAI_API_KEY, GITHUB_TOKEN, ...).
_KEY_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSWORD", re.I)
# A shorter value is no key (``OPENAI_API_KEY=x`` for a local server): redacting it would
# cut every "x" out of the record.
MIN_SECRET = 8
RECORDED_TYPES: frozenset[str] = frozenset({"xhr", "fetch"})  # Playwright's resource types


class NetworkRecord(BaseModel):
    """One line of ``network.jsonl``: a request a page sent and what came back."""

    time: float  # epoch seconds when the request was sent
    step: int = 0  # the step during which it was sent; 0 before the first step
    frame_url: str | None = None  # the frame that sent it
    page_url: str | None = None  # the top page at that moment
    url: str
    method: str
    resource_type: str
    headers: dict[str, str] = {}  # lower-case names, secrets redacted
    post_data: str | None = None  # the request body as UTF-8 text
    post_json: Any = None  # written only when post_data parses as JSON
    post_data_hex: str | None = None  # the raw request body in hex
    post_data_truncated: bool = False  # the request body was cut at the cap
    status: int | None = None  # None: the request failed
    content_type: str | None = None
    body: str | None = None  # JSON and text responses, at most BODY_CAP bytes of it
    body_size: int | None = None  # the full body's size in bytes, when known
    body_truncated: bool = False  # the body was cut at the cap (or too large to read)
    failure: str | None = None  # why the request failed, when it did

    @property
    def has_post_json(self) -> bool:
        return "post_json" in self.model_fields_set

    def line(self) -> str:
        """The record as one JSON line (``post_json`` only when the post data parsed)."""
        data = self.model_dump(mode="json")
        if not self.has_post_json:
            del data["post_json"]
        return json.dumps(data, ensure_ascii=False)


# -- redaction ------------------------------------------------------------------------------


def known_secrets(*env_names: str | None) -> tuple[str, ...]:
    """The keys a run knows: every key-like environment variable's value (the providers'
    ``OPENAI_API_KEY``, ``ANTHROPIC_API_KEY``, ``GEMINI_API_KEY``, ...), and the values of the
    variables named for a role (``--grounder-api-key-env``), longest first."""
    values = {v for k, v in os.environ.items() if _KEY_NAME.search(k)}
    values |= {os.environ.get(n, "") for n in env_names if n}
    return tuple(sorted((v for v in values if len(v) >= MIN_SECRET), key=len, reverse=True))


@dataclass(frozen=True)
class Redactor:
    """Puts ``[redacted]`` where a credential would land in a record."""

    forms: tuple[str, ...] = ()  # each key as it may appear, longest first

    @classmethod
    def of(cls, secrets: Iterable[str]) -> Redactor:
        # A key inside a URL or a form body is often percent-encoded.
        forms = {f for s in secrets if s for f in (s, quote(s, safe=""), quote_plus(s))}
        return cls(tuple(sorted(forms, key=len, reverse=True)))

    def holds_secret(self, text: str) -> bool:
        return any(f in text for f in self.forms)

    def text(self, text: str) -> str:
        for form in self.forms:
            text = text.replace(form, REDACTED)
        return text

    def data(self, raw: bytes) -> bytes:
        for form in self.forms:
            raw = raw.replace(form.encode("utf-8"), REDACTED.encode("ascii"))
        return raw

    def headers(self, headers: Mapping[str, str]) -> dict[str, str]:
        """Lower-case names; a credential header's value, or any value holding a key,
        replaced whole."""
        return {k.lower(): REDACTED if k.lower() in SECRET_HEADERS or self.holds_secret(v)
                else v for k, v in headers.items()}

    def url(self, url: str) -> str:
        """A query value holding a key is replaced whole; a key anywhere else is cut out."""
        if not self.forms:
            return url
        parts = urlsplit(url)
        if parts.query and self.holds_secret(parts.query):
            pairs = parse_qsl(parts.query, keep_blank_values=True)
            query = urlencode([(k, REDACTED if self.holds_secret(v) else v) for k, v in pairs],
                              safe="[]")
            parts = parts._replace(query=query)
        return self.text(urlunsplit(parts))


# -- bodies ---------------------------------------------------------------------------------

_TEXTUAL = re.compile(r"^text/|json|xml|javascript|ecmascript|x-www-form-urlencoded|graphql",
                      re.I)
_CHARSET = re.compile(r"charset=[\"']?([\w.:-]+)", re.I)


def textual(content_type: str | None) -> bool:
    """A JSON or text response, whose body is recorded."""
    return bool(content_type) and _TEXTUAL.search(content_type or "") is not None


def decoded(raw: bytes, content_type: str | None, *, cap: int = BODY_CAP) -> tuple[str, bool]:
    """At most ``cap`` bytes of ``raw`` as text in the charset the content type names (UTF-8
    when none or unknown), and whether it was cut. A character the cut splits is left out."""
    match = _CHARSET.search(content_type or "")
    charset = match.group(1) if match else "utf-8"
    try:
        decoder = codecs.getincrementaldecoder(charset)(errors="replace")
    except LookupError:
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    cut = len(raw) > cap
    return decoder.decode(raw[:cap], final=not cut), cut


def post_fields(raw: bytes | None, redactor: Redactor, *, cap: int = BODY_CAP) -> dict[str, Any]:
    """The record's ``post_data``, ``post_json``, ``post_data_hex`` and ``post_data_truncated``
    for a request body (redacted, cut at ``cap``)."""
    if raw is None:
        return {}
    raw = redactor.data(raw)
    kept, cut = raw[:cap], len(raw) > cap
    fields: dict[str, Any] = {"post_data_hex": kept.hex(), "post_data_truncated": cut}
    try:
        text = kept.decode("utf-8")
    except UnicodeDecodeError:
        return fields
    fields["post_data"] = text
    # NaN and Infinity are no JSON a record may hold; nesting too deep for Python is no parse.
    with contextlib.suppress(ValueError, RecursionError):
        fields["post_json"] = json.loads(text, parse_constant=_no_constant)
    return fields


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


# -- writing and reading --------------------------------------------------------------------


class NetworkLog:
    """Appends records to ``OUT/network.jsonl``; safe to call from worker threads (the browser's
    listener writes off the event loop)."""

    def __init__(self, out: Path) -> None:
        self.path = out / NETWORK
        self._lock = threading.Lock()
        out.mkdir(parents=True, exist_ok=True)
        self.path.write_text("", encoding="utf-8")

    def extend(self, records: Iterable[NetworkRecord]) -> None:
        text = "".join(r.line() + "\n" for r in records)
        if not text:
            return
        with self._lock, self.path.open("a", encoding="utf-8", errors="replace") as fh:
            fh.write(text)


@dataclass(frozen=True)
class NetworkRead:
    """What ``network.jsonl`` held: its readable records and the lines that were not."""

    records: list[NetworkRecord]
    bad_lines: list[int]  # 1-based numbers of lines that are not a record


def read_network(task_dir: Path) -> NetworkRead:
    """The task's recorded requests; no file, no records. A line that is not a record (cut
    short by a crash, edited) is skipped and counted, never raised."""
    path = task_dir / NETWORK
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return NetworkRead([], [])
    records: list[NetworkRecord] = []
    bad: list[int] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            records.append(NetworkRecord.model_validate_json(line))
        except ValidationError:
            bad.append(number)
    return NetworkRead(records, bad)
