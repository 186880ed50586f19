"""Issue 25: the documentation site builds strictly, its generated reference agrees with the
real parser, and every command a page marks as offline runs."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
MKDOCS = [sys.executable, "-m", "mkdocs"]
OFFLINE = re.compile(r"<!-- test: offline -->\s*```sh\n(.*?)```", re.S)
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "COLUMNS": "100"}


def build(root: Path, site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*MKDOCS, "build", "--strict", "-f", str(root / "mkdocs.yml"), "-d",
                           str(site)], capture_output=True, text=True, env=ENV, timeout=300)


@pytest.fixture(scope="session")  # session, not module: the other docs tests spread over workers
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's own site, built once for the tests that read it."""
    out = tmp_path_factory.mktemp("docs") / "site"
    proc = build(ROOT, out)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return out


def test_the_site_builds_strictly_with_every_page_in_the_navigation(site: Path) -> None:
    pages = {p.relative_to(DOCS).with_suffix("") for p in DOCS.rglob("*.md")}
    built = {p.parent.relative_to(site) for p in site.rglob("index.html")}
    assert {Path(".") if str(p) == "index" else p for p in pages} <= built


@pytest.mark.parametrize("extra, named", [("orphan.md", "orphan.md"), ("broken-link", "missing.md")])
def test_an_orphan_page_or_a_broken_link_fails_the_build(extra: str, named: str,
                                                         tmp_path: Path) -> None:
    """The strict build is a check that can fail: a page left out of the navigation and a
    link to a page that does not exist each stop it."""
    copy = tmp_path / extra.removesuffix(".md")
    shutil.copytree(ROOT / "docs", copy / "docs")
    shutil.copy(ROOT / "mkdocs.yml", copy / "mkdocs.yml")
    (copy / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "mkdocs_hooks.py", copy / "scripts")
    if extra == "orphan.md":
        (copy / "docs" / extra).write_text("# Nobody links here\n")
    else:
        index = copy / "docs" / "index.md"
        index.write_text(index.read_text() + "\nSee [the missing page](missing.md).\n")
    proc = build(copy, copy / "site")
    assert proc.returncode != 0, extra
    assert named in proc.stderr, proc.stderr[-2000:]


def test_the_command_line_reference_is_the_parsers_own_help(site: Path) -> None:
    page = (site / "reference-cli" / "index.html").read_text()
    for command in ("run", "bench", "score", "suite", "view", "diagnose", "miniwob"):
        helped = subprocess.run([sys.executable, "-m", "webfovea", command, "--help"],
                                capture_output=True, text=True, env=ENV, check=True).stdout
        first_option = next(line.strip() for line in helped.splitlines() if "--" in line)
        assert first_option.split()[0] in page, command
        assert f"webfovea {command}" in page


def offline_blocks() -> dict[str, list[str]]:
    """Each marked block's commands, by page and block: a block's commands run in order in
    one directory (a later one reads what an earlier one wrote); blocks are independent."""
    found: dict[str, list[str]] = {}
    for page in sorted(DOCS.rglob("*.md")):
        for i, block in enumerate(OFFLINE.findall(page.read_text())):
            lines = (line.split("#", 1)[0].strip() for line in block.splitlines())
            found[f"{page.relative_to(DOCS)}#{i}"] = [line for line in lines if line]
    return found


def offline_commands() -> list[str]:
    return [command for block in offline_blocks().values() for command in block]


def test_some_pages_mark_offline_commands() -> None:
    commands = offline_commands()
    assert any(c.startswith("webfovea demo") for c in commands)
    assert any(c.startswith("webfovea score") for c in commands)


@pytest.mark.timeout(900)
@pytest.mark.parametrize("block", offline_blocks())
def test_every_offline_command_in_the_docs_runs(block: str, tmp_path: Path) -> None:
    for command in offline_blocks()[block]:
        argv = shlex.split(command)
        assert argv[0] == "webfovea", command
        proc = subprocess.run([sys.executable, "-m", "webfovea", *argv[1:]], cwd=tmp_path,
                              capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, f"{command}: {proc.stderr[-2000:]}"


def test_the_readme_lists_the_mcp_servers_tools_in_its_order() -> None:
    """Issue 24: the front door names the tools an MCP host will see; they come from the
    action registry, so a new action must reach the README too."""
    from webfovea.mcp.tools import tool_list

    readme = (ROOT / "README.md").read_text()
    listed = re.search(r"The tools:\n?(.*?)\. A worked session", readme, re.S)
    assert listed, "README's MCP section lost its tool list"
    names = re.findall(r"`(\w+)`", listed.group(1))
    assert names == [tool.name for tool in tool_list()]
    assert '"mcpServers"' in readme and "http://127.0.0.1:8765/mcp" in readme


# -- issue 29 item 4: the contracts live in the repository ----------------------------------

CONTRACTS = DOCS / "contracts.md"
# What a clone does not have: the developers' shared folder and its design document.
OUTSIDE = re.compile(r"\.\./shared|shared/DESIGN|\bDESIGN\b|DIALECT-DESIGN|/work/")
MARKDOWN_LINK = re.compile(r"\]\(([^)\s#]+)")


def project_files() -> list[Path]:
    """Every file of the project: tracked, or new and not ignored (about to be committed)."""
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard",
                             "-z"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [ROOT / name for name in listed.split("\0") if name and (ROOT / name).is_file()]


def test_no_file_of_the_project_refers_to_a_path_outside_it() -> None:
    this = Path(__file__).resolve()  # it names the patterns it looks for
    found = []
    for path in project_files():
        if path.resolve() == this:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # images, archives
        rel = path.relative_to(ROOT)
        found += [f"{rel}: {m.group(0)!r}" for m in OUTSIDE.finditer(text)]
        if path.suffix == ".md":
            for target in MARKDOWN_LINK.findall(text):
                if re.match(r"[a-z]+:", target):
                    continue  # a URL, not a path
                resolved = (path.parent / target).resolve()
                if not resolved.is_relative_to(ROOT) or not resolved.exists():
                    found.append(f"{rel}: link {target}")
    assert not found, found


def test_the_pattern_finds_what_a_clone_would_miss() -> None:
    for line in ("are in `../shared/DESIGN.md`.", "(DESIGN's run directory)",
                 "see /work/shared/reference"):
        assert OUTSIDE.search(line), line
    assert not OUTSIDE.search("a design choice: the contracts are in docs/contracts.md")


def test_the_readme_links_the_contracts_page() -> None:
    assert "](docs/contracts.md)" in (ROOT / "README.md").read_text()
    assert "contracts.md" in (ROOT / "mkdocs.yml").read_text()


def test_the_contracts_page_lists_every_exit_code_feedback_word_and_action() -> None:
    """Read from the code, so the page cannot drift: each exit code with its status, each
    step outcome, the feedback words, and each action of the reply grammar."""
    from typing import get_args

    from webfovea.actions.registry import TEXT_ACTIONS
    from webfovea.browser.feedback import NO_CHANGE
    from webfovea.core.errors import EXIT_CODES, TaskStatus
    from webfovea.dialects.base import NOT_EXECUTED
    from webfovea.rundir.trajectory import Outcome

    page = CONTRACTS.read_text()
    rows = dict(re.findall(r"^\| `(\w+)` \| (\d+) \|", page, re.M))
    assert rows == {status: str(code) for status, code in EXIT_CODES.items()}
    assert set(get_args(TaskStatus)) <= set(rows)  # every task status has its exit code
    outcomes = re.findall(r"^\| `(\w+)` \| [^\d]", page, re.M)
    assert set(get_args(Outcome)) <= set(outcomes), outcomes
    assert f"**{NO_CHANGE}**" in page
    assert NOT_EXECUTED.format(why="refused") in page
    for spec in TEXT_ACTIONS.values():
        assert f"`{spec.signature}`" in page or f"`{spec.name}(" in page, spec.name
