"""Requests, responses, a regex router and HTML rendering for the suite's sites.

Templates are real files under ``templates/`` filled with :class:`string.Template`
(``$name`` placeholders). Plain strings are HTML-escaped; :class:`Markup`
(HTML built by :func:`tag` or another template) is inserted as is.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from string import Template
from urllib.parse import urlencode

from ..core.errors import ConfigError

HERE = Path(__file__).parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"


class SuiteError(ConfigError):
    """The suite was asked for something it does not have (a site, a template, a task)."""


class Markup(str):
    """HTML that must not be escaped again."""


def esc(value: object) -> Markup:
    return value if isinstance(value, Markup) else Markup(html.escape(str(value), quote=True))


def tag(name: str, *children: object, **attrs: object) -> Markup:
    """``<name attrs>children</name>``; attribute names use ``_`` for ``-`` and a trailing ``_``
    for Python keywords (``class_``); ``True`` writes a bare attribute, ``None``/``False`` none."""
    parts = [name]
    for key, val in attrs.items():
        attr = key.rstrip("_").replace("_", "-")
        if val is True:
            parts.append(attr)
        elif val is not None and val is not False:
            parts.append(f'{attr}="{esc(val)}"')
    inner = "".join(esc(c) for c in children)
    return Markup(f"<{' '.join(parts)}>{inner}</{name}>")


def json_script(data: object) -> Markup:
    """JSON safe to place inside a ``<script type="application/json">`` element."""
    return Markup(json.dumps(data).replace("<", "\\u003c"))


def join(items: Iterable[object]) -> Markup:
    return Markup("".join(esc(i) for i in items))


@cache
def _template(name: str) -> Template:
    path = TEMPLATES / name
    if not path.is_file():
        raise SuiteError(f"suite template {name!r} does not exist under {TEMPLATES}")
    return Template(path.read_text(encoding="utf-8"))


def render(name: str, **values: object) -> Markup:
    """Fill template ``name``; a placeholder with no value is an error naming it."""
    try:
        return Markup(_template(name).substitute({k: esc(v) for k, v in values.items()}))
    except KeyError as exc:
        raise SuiteError(f"template {name!r} needs a value for ${exc.args[0]}") from exc


@dataclass(frozen=True)
class Request:
    method: str
    host: str
    path: str
    query: Mapping[str, str]
    cookies: Mapping[str, str]
    body: bytes = b""

    def arg(self, name: str, default: str = "") -> str:
        return self.query.get(name, default)

    def int_arg(self, name: str, default: int) -> int:
        raw = self.query.get(name, "")
        return int(raw) if raw.isdigit() else default


@dataclass(frozen=True)
class Response:
    status: int
    body: bytes
    content_type: str = "text/html; charset=utf-8"
    headers: tuple[tuple[str, str], ...] = field(default_factory=tuple)


def html_response(markup: str, *, status: int = 200,
                  headers: tuple[tuple[str, str], ...] = ()) -> Response:
    return Response(status, markup.encode("utf-8"), headers=headers)


def json_response(data: object, *, status: int = 200) -> Response:
    return Response(status, json.dumps(data).encode("utf-8"), "application/json")


def query_string(**params: object) -> str:
    kept = {k: str(v) for k, v in params.items() if v not in ("", None)}
    return "?" + urlencode(kept) if kept else ""


Handler = Callable[..., Response | None]


class Router:
    """Regex routes over the path; named groups become keyword arguments."""

    def __init__(self) -> None:
        self._routes: list[tuple[re.Pattern[str], Handler]] = []

    def add(self, pattern: str, handler: Handler) -> None:
        self._routes.append((re.compile(pattern), handler))

    def dispatch(self, req: Request) -> Response | None:
        for pattern, handler in self._routes:
            m = pattern.fullmatch(req.path)
            if m:
                return handler(req, **m.groupdict())
        return None
