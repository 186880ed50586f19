"""The package's shape: rooms on floors that point one way, no import cycles, a guarded public API.

The import graph is read from the source with ``ast`` (every import, also those inside
functions, since a late import is still a dependency), so the check needs no import side
effects and sees what a reader of the code sees.
"""

from __future__ import annotations

import ast
import functools
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
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

# The rooms, bottom floor first. A module imports from its own room or from a room on a lower
# floor, never from a higher floor and never from another room on its own floor: each floor's
# rooms stand side by side, each resting on the floors below. ``commands`` is the command line:
# cli/, every room's own ``cli`` module (its sub-commands), ``entry`` and ``__main__``; ``api``
# is the package's ``__init__`` (the public names, loaded on first use). ``testing`` is on the
# top floor, beside them: product code never imports it.
FLOORS: tuple[tuple[str, ...], ...] = (
    ("core", "demo"),
    ("matching", "actions", "rundir"),
    ("documents",),
    ("suite", "browser"),
    ("models", "snapshot"),
    ("dialects", "answers"),
    ("loop", "tools", "console"),
    ("viewer", "mcp"),
    ("bench",),
    ("miniwob", "research"),
    ("commands", "api", "testing"),
)
FLOOR = {room: i for i, rooms in enumerate(FLOORS) for room in rooms}
# The package top holds rooms, and these: the entry points and the marker.
TOP_FILES = {"__init__.py", "__main__.py", "entry.py", "py.typed"}
# The one import that runs up, on purpose and by name: replaying a run re-translates its
# recorded calls, and the MCP dialect's translation lives with the MCP server (a plug-in the
# registry names as a string and imports on use, as ``--dialect`` does for outside dialects).
# Any other import up or across a floor fails, strings included.
PLUG_INS = {("webfovea.dialects.recorded", "webfovea.mcp.recorded")}
MODULE_STRING = re.compile(r"webfovea(\.\w+)+(:\w+)?")


def _name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_name(p): p for p in SRC.rglob("*.py")}


def _package(module: str) -> str:
    return module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]


def _node_targets(module: str, node: ast.AST) -> Iterator[str]:
    if isinstance(node, ast.Import):
        yield from (a.name for a in node.names)
    elif isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            package = _package(module).split(".")
            base = ".".join([*package[: len(package) - node.level + 1],
                             *([node.module] if node.module else [])])
        for alias in node.names:
            yield f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
    elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
          and MODULE_STRING.fullmatch(node.value)):
        yield node.value.partition(":")[0]


def _targets(module: str, path: Path) -> Iterator[str]:
    """Every module ``module`` imports: each import statement wherever it stands (in a
    function, under TYPE_CHECKING), and each string naming a module the way dynamic imports
    and registries do (``"webfovea.x.y"``, ``"webfovea.x.y:attr"``)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        yield from _node_targets(module, node)


@functools.cache
def _edges() -> tuple[tuple[str, frozenset[str]], ...]:
    return tuple((m, frozenset(t for t in _targets(m, p) if t in MODULES and t not in (m, "webfovea")))
                 for m, p in MODULES.items())


def _graph() -> dict[str, set[str]]:
    """Who imports whom, the declared plug-ins left out."""
    return {m: {t for t in targets if (m, t) not in PLUG_INS} for m, targets in _edges()}


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


def room(module: str) -> str:
    """The room a module lives in: its top-level package, or ``commands`` for the command
    line (cli/, each room's ``cli`` module, ``entry``, ``__main__``), ``api`` for the
    package's ``__init__``, ``""`` for a module loose at the package top."""
    parts = module.split(".")
    if module == "webfovea":
        return "api"
    if parts[1] == "cli" or parts[-1] in ("cli", "__main__") or module == "webfovea.entry":
        return "commands"
    return parts[1] if len(parts) > 2 or MODULES[module].name == "__init__.py" else ""


def back_arrows(graph: dict[str, set[str]], room_of: Callable[[str], str] = room) -> list[str]:
    """Each import that breaks the floors, as ``module → module (room floor → room floor)``:
    to a higher floor, or to another room on the same floor."""
    wrong = []
    for module, targets in sorted(graph.items()):
        a = room_of(module)
        for target in sorted(targets):
            b = room_of(target)
            if a != b and FLOOR.get(b, -1) >= FLOOR.get(a, -1):
                wrong.append(f"{module} → {target} ({a} {FLOOR.get(a)} → {b} {FLOOR.get(b)})")
    return wrong


def test_the_package_top_holds_rooms_only() -> None:
    loose = sorted(p.name for p in SRC.iterdir() if p.is_file() and p.name not in TOP_FILES)
    assert loose == [], "a module at the package top: put it in its room"


def test_every_room_is_on_a_floor() -> None:
    packages = {p.name for p in SRC.iterdir() if (p / "__init__.py").is_file()}
    rooms = packages - {"cli"} | {"commands", "api"}  # cli/ is the commands' home
    assert rooms == set(FLOOR), "a new room needs its floor in FLOORS"
    assert len(FLOOR) == sum(len(f) for f in FLOORS)  # each room on one floor only


def test_no_import_runs_up_a_floor_or_across_one() -> None:
    wrong = back_arrows(_graph())
    assert not wrong, "imports against the floors:\n" + "\n".join(wrong)


def test_product_code_never_imports_testing() -> None:
    wrong = sorted(f"{m} → {t}" for m, targets in _graph().items() if room(m) != "testing"
                   for t in targets if room(t) == "testing")
    assert not wrong, "product code importing testing:\n" + "\n".join(wrong)


def test_the_floors_catch_a_wrong_import() -> None:
    """The rule itself, on imports no module has: up a floor, across a floor, into testing."""
    assert back_arrows({"webfovea.core.config": {"webfovea.loop.agent"},
                        "webfovea.viewer.report": {"webfovea.mcp.run"},
                        "webfovea.loop.agent": {"webfovea.testing.timing"},
                        "webfovea.loop.guard": {"webfovea.core.errors"}}) == [
        "webfovea.core.config → webfovea.loop.agent (core 0 → loop 6)",
        "webfovea.loop.agent → webfovea.testing.timing (loop 6 → testing 10)",
        "webfovea.viewer.report → webfovea.mcp.run (viewer 7 → mcp 7)",
    ]


def test_each_plug_in_is_a_string_the_registry_imports_on_use() -> None:
    """A declared plug-in is named only in a string: an import statement would load it
    with its host, and then it is a plain import up a floor."""
    for host, plug_in in PLUG_INS:
        statements = {t for node in ast.walk(ast.parse(MODULES[host].read_text(encoding="utf-8")))
                      if isinstance(node, (ast.Import, ast.ImportFrom))
                      for t in _node_targets(host, node)}
        assert plug_in in dict(_edges())[host] and plug_in not in statements


def test_no_import_cycle_between_modules() -> None:
    assert _cycles(_graph()) == []


def test_no_import_cycle_between_rooms() -> None:
    rooms: dict[str, set[str]] = {}
    for module, targets in _graph().items():
        rooms.setdefault(room(module), set()).update(
            room(t) for t in targets if room(t) != room(module))
    assert _cycles(rooms) == []


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
    wrong = sorted(m for m, p in MODULES.items() if room(m) not in ("browser", "snapshot")
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
             "dateparser", "webfovea.browser", "webfovea.loop.agent", "webfovea.bench.store",
             "webfovea.suite.server", "webfovea.miniwob.runner")
    probe = ("import sys, webfovea.cli.main\nwebfovea.cli.main.build_parser()\n"
             f"heavy = {heavy!r}\n"
             "print(sorted({m.split('.')[0] if not m.startswith('webfovea') else m for m in "
             "sys.modules if any(m == h or m.startswith(h + '.') for h in heavy)}))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, timeout=120).stdout
    assert out.strip() == "[]", out
