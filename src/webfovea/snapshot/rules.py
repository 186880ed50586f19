"""What may differ between a recorded request and its replay, and still match.

A request is matched exactly first (method, URL, body). Failing that, both sides
are *normalised* and compared: query parameters and JSON/form body fields named
like cache-busters or request ids are dropped, and any value that looks like a
timestamp, a UUID or a long random token is replaced by a placeholder. The rules
have sensible defaults and can be replaced per snapshot by ``SNAP_DIR/rules.json``
(the same fields as :class:`Rules`).

``passthrough`` URLs are the harness's own channel, not the site: the offline
suite's pages report their layout to ``/__fovea/`` for the oracle. They are never
recorded and are let through on replay, and counted apart.
"""

from __future__ import annotations

import json
import re
from functools import cached_property
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from pydantic import BaseModel, ValidationError

from ..core.errors import ConfigError

RULES_FILE = "rules.json"

DEFAULT_IGNORED_NAMES = (
    "_", "_t", "_ts", "t", "ts", "timestamp", "time", "now", "cb", "cachebust",
    "cachebuster", "cache_buster", "nocache", "no_cache", "nc", "rnd", "rand", "random", "r",
    "nonce", "requestid", "request_id", "reqid", "req_id", "rid", "traceid", "trace_id",
    "correlationid", "correlation_id", "uuid",
)
DEFAULT_VOLATILE_VALUES = (
    r"1\d{9}(\d{3})?(\.\d+)?",  # epoch seconds or milliseconds (2001-2033)
    r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}",  # UUID
    r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?",  # ISO date-time
    r"0\.\d{8,}",  # Math.random() printed whole
    r"[0-9a-f]{24,}",  # long hex tokens (request ids, nonces)
)
DEFAULT_PASSTHROUGH = (r"^https?://[^/]+/__fovea/",)
PLACEHOLDER = "*"


class Rules(BaseModel):
    ignored_names: tuple[str, ...] = DEFAULT_IGNORED_NAMES  # query/body fields dropped
    volatile_values: tuple[str, ...] = DEFAULT_VOLATILE_VALUES  # full-match → placeholder
    passthrough: tuple[str, ...] = DEFAULT_PASSTHROUGH  # URL regexes: the harness's channel

    model_config = {"frozen": True}

    @cached_property
    def _names(self) -> frozenset[str]:
        return frozenset(n.lower() for n in self.ignored_names)

    @cached_property
    def _volatile(self) -> re.Pattern[str]:
        return re.compile("|".join(f"(?:{p})" for p in self.volatile_values) or r"(?!)")

    @cached_property
    def _passthrough(self) -> re.Pattern[str] | None:
        return re.compile("|".join(f"(?:{p})" for p in self.passthrough)) if self.passthrough \
            else None

    def is_passthrough(self, url: str) -> bool:
        return self._passthrough is not None and bool(self._passthrough.search(url))

    def url(self, url: str) -> str:
        """The URL with ignored parameters dropped, volatile values masked, params sorted."""
        parts = urlsplit(url)
        query = self._pairs(parse_qsl(parts.query, keep_blank_values=True))
        path = "/".join(self._value(seg) for seg in parts.path.split("/"))
        return urlunsplit((parts.scheme, parts.netloc.lower(), path, urlencode(query), ""))

    def body(self, data: bytes, content_type: str) -> bytes:
        """A request body normalised the same way (JSON and form bodies; others as they are)."""
        if not data:
            return data
        if "json" in content_type or data[:1] in (b"{", b"["):
            try:
                parsed = json.loads(data)
            except (ValueError, UnicodeDecodeError):
                return data
            return json.dumps(self._json(parsed), sort_keys=True).encode()
        if "x-www-form-urlencoded" in content_type:
            text = data.decode("utf-8", "replace")
            return urlencode(self._pairs(parse_qsl(text, keep_blank_values=True))).encode()
        return data

    def _pairs(self, pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
        kept = [(k, self._value(v)) for k, v in pairs if k.lower() not in self._names]
        return sorted(kept)

    def _value(self, value: str) -> str:
        return PLACEHOLDER if self._volatile.fullmatch(value) else value

    def _json(self, value: object) -> object:
        if isinstance(value, dict):
            return {k: self._json(v) for k, v in value.items() if k.lower() not in self._names}
        if isinstance(value, list):
            return [self._json(v) for v in value]
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return self._value(repr(value)) if self._volatile.fullmatch(repr(value)) else value
        if isinstance(value, str):
            return self._value(value)
        return value


def load_rules(snapshot_dir: Path) -> Rules:
    """The snapshot's own ``rules.json`` if it has one, else the defaults."""
    path = snapshot_dir / RULES_FILE
    if not path.is_file():
        return Rules()
    try:
        rules = Rules.model_validate_json(path.read_text(encoding="utf-8"))
        for pattern in (*rules.volatile_values, *rules.passthrough):
            re.compile(pattern)
    except (ValidationError, ValueError, re.error) as e:
        raise ConfigError(f"{path}: bad snapshot rules: {str(e).splitlines()[0]}") from e
    return rules
