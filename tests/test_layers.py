"""The package's shape: no import cycles, layers that point one way, a guarded public API.

The import graph is read from the source with ``ast`` (every import, also those inside
functions, since a late import is still a dependency), so the check needs no import side
effects and sees what a reader of the code sees.
"""

from __future__ import annotations

import ast
import functools
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import webfovea
from webfovea.core.errors import (
    BrowserError,
    ConfigError,
    ModelError,
    SiteUnreachable,
    WebfoveaError,
    error_exit,
)
from webfovea.suite.web import SuiteError

SRC = Path(webfovea.__file__).parent
# Modules of the core (DESIGN's round trip without the page): they never reach up.
CORE = ("actions", "parse", "prompt", "feedback", "evidence", "geometry", "guard", "hotkeys",
        "keys", "trajectory", "rundir", "outcomes", "options", "errors", "config", "task")
UPPER = ("browser", "viewer", "bench", "suite")


def _name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_name(p): p for p in SRC.rglob("*.py")}


def _targets(module: str, path: Path) -> Iterator[str]:
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, *([node.module] if node.module else [])])
            for alias in node.names:
                yield f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base


@functools.cache
def _edges() -> tuple[tuple[str, frozenset[str]], ...]:
    return tuple((m, frozenset(t for t in _targets(m, p) if t in MODULES and t not in (m, "webfovea")))
                 for m, p in MODULES.items())


def _graph() -> dict[str, set[str]]:
    return {m: set(targets) for m, targets in _edges()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _unit(module: str) -> str:
    """A module's place at package level: its subpackage; each ``cli`` module (the command
    layer, registering subcommands into ``webfovea.cli``) counts as part of that layer."""
    parts = module.split(".")
    if parts[-1] in ("cli", "__main__", "entry"):
        return "webfovea.cli"
    return ".".join(parts[:2])


def _top(module: str) -> str:
    """``bench`` for webfovea.bench.store, ``parse`` for webfovea.dialects.text.parse."""
    return module.split(".")[1] if "." in module else ""


def test_no_import_cycle_between_modules() -> None:
    assert _cycles(_graph()) == []


def test_no_import_cycle_between_packages() -> None:
    packages: dict[str, set[str]] = {}
    for module, targets in _graph().items():
        packages.setdefault(_unit(module), set()).update(
            _unit(t) for t in targets if _unit(t) != _unit(module))
    assert _cycles(packages) == []


def test_only_the_command_layer_imports_a_cli_module() -> None:
    wrong = sorted((m, t) for m, targets in _graph().items() for t in targets
                   if _unit(t) == "webfovea.cli" and _unit(m) != "webfovea.cli")
    assert wrong == []


def test_core_never_imports_the_layers_above_it() -> None:
    wrong = sorted((m, t) for m, targets in _graph().items() if _top(m) in CORE
                   for t in targets if _top(t) in UPPER)
    assert wrong == []


def test_the_public_api_is_what_all_says() -> None:
    assert sorted(webfovea.__all__) == sorted([
        "REGISTRY", "Action", "ActionSpec", "AgentConfig", "BrowserConfig", "BrowserError",
        "BrowserSession", "ConfigError", "ModelError", "ParseError", "ParsedReply", "Point",
        "ResultRecord", "SiteUnreachable", "Size", "SmartResize", "StepRecord", "Task",
        "TimeLimit", "WebfoveaError", "__version__", "load_model", "parse_reply", "run_task",
    ])
    assert all(hasattr(webfovea, name) for name in webfovea.__all__)
    public = {n for n in vars(webfovea) if not n.startswith("_") and n != "annotations"}
    submodules = {n for n in public if isinstance(getattr(webfovea, n), type(webfovea))}
    assert public - submodules == set(webfovea.__all__) - {"__version__"}


def test_only_the_browser_package_imports_playwright() -> None:
    """Playwright's errors are translated at the browser's boundary (browser/errors.py). Site
    snapshots are browser-side too: recording and replay are the browser's network."""
    wrong = sorted(m for m, p in MODULES.items() if _top(m) not in ("browser", "snapshot")
                   and any(t.split(".")[0] == "playwright" for t in _targets(m, p)))
    assert wrong == []


def test_every_error_meets_its_exit_code_in_one_place() -> None:
    cases = {ConfigError("bad flag"): ("bad flag", 2), SuiteError("no port"): ("no port", 2),
             ModelError("gone"): ("model error: gone", 3), BrowserError("crashed"): ("crashed", 4),
             SiteUnreachable("down"): ("down", 4), WebfoveaError("bug"): ("bug", 4)}
    assert {e: error_exit(e) for e in cases} == cases
    assert WebfoveaError.status == "harness_error"  # neutral: never "browser_error" by default


def test_the_command_line_parses_without_the_heavy_parts() -> None:
    """Building the parser (``--help``, every command's start) imports no browser, model SDK,
    Ray or results store: each handler imports what it runs. Measured by a fresh process,
    since this one has imported everything already."""
    heavy = ("playwright", "ray", "PIL", "openai", "anthropic", "httpx", "tldextract",
             "dateparser", "webfovea.browser", "webfovea.agent", "webfovea.bench.store",
             "webfovea.suite.server", "webfovea.miniwob.runner")
    probe = ("import sys, webfovea.cli\nwebfovea.cli.build_parser()\n"
             f"heavy = {heavy!r}\n"
             "print(sorted({m.split('.')[0] if not m.startswith('webfovea') else m for m in "
             "sys.modules if any(m == h or m.startswith(h + '.') for h in heavy)}))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, timeout=120).stdout
    assert out.strip() == "[]", out
