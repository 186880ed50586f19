"""MkDocs hooks: the reference pages are generated from the code itself, so they cannot rot.

- ``<!-- generated: cli -->`` becomes every command's ``--help`` text, read from the real
  parser (``webfovea.cli.main.build_parser``), sub-commands of sub-commands included;
- ``<!-- generated: api -->`` becomes the public names of ``webfovea`` (its ``__all__``) with
  their signatures and docstrings.
"""

from __future__ import annotations

import argparse
import inspect
import os
from collections.abc import Iterator
from typing import Any

CLI_MARK = "<!-- generated: cli -->"
API_MARK = "<!-- generated: api -->"


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if CLI_MARK in markdown:
        markdown = markdown.replace(CLI_MARK, cli_reference())
    if API_MARK in markdown:
        markdown = markdown.replace(API_MARK, api_reference())
    return markdown


def _commands(parser: argparse.ArgumentParser, prefix: str) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    yield prefix, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _commands(sub, f"{prefix} {name}")


def cli_reference() -> str:
    from webfovea.cli.main import build_parser

    os.environ["COLUMNS"] = "100"  # argparse wraps help to the terminal's width
    parser, _ = build_parser()
    parts = []
    for name, command in _commands(parser, "webfovea"):
        level = "##" if name.count(" ") <= 1 else "###"
        parts.append(f"{level} `{name}`\n\n```text\n{command.format_help().rstrip()}\n```\n")
    return "\n".join(parts)


def api_reference() -> str:
    import webfovea

    parts = []
    for name in sorted(n for n in webfovea.__all__ if not n.startswith("_")):
        obj = getattr(webfovea, name)
        home = getattr(obj, "__module__", "webfovea")
        # Its own docstring only: an inherited one (pydantic's BaseModel) describes another project.
        own = obj.__dict__.get("__doc__") if inspect.isclass(obj) else getattr(obj, "__doc__", None)
        doc = inspect.cleandoc(own) if isinstance(own, str) and callable(obj) else None
        if inspect.isclass(obj) or inspect.isfunction(obj):
            try:
                sig = f"{name}{inspect.signature(obj)}"
            except (TypeError, ValueError):
                sig = name
            kind = "class" if inspect.isclass(obj) else "def"
            head = f"```python\n{kind} {sig}\n```"
        else:
            head = f"`{name}`: a `{type(obj).__name__}` (`len` {len(obj)})" if hasattr(obj, "__len__") \
                else f"`{name}`"
        parts.append(f"## `webfovea.{name}`\n\n<small>defined in `{home}`</small>\n\n{head}\n\n"
                     f"{doc or 'No docstring.'}\n")
    return "\n".join(parts)
