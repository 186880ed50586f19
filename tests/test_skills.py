"""Issue 33, skills (``--skills DIR``): the notes that apply reach the system text, only
those, and the system text is the same bytes at every step (the prompt cache's prefix)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from webfovea.bench.roles import run_roles
from webfovea.browser.local_server import LocalServer
from webfovea.browser.session import BrowserSession
from webfovea.console.options import RunFlags
from webfovea.core.config import AgentConfig, SkillsConfig
from webfovea.core.errors import ConfigError
from webfovea.core.task import Task
from webfovea.dialects.loopback.fake_provider import FakeProvider, FakeRequest, ScriptedPolicy
from webfovea.dialects.skills import skills_for
from webfovea.loop.agent import run_task
from webfovea.models.loader import load_model
from webfovea.rundir.store import read_result

pytestmark = pytest.mark.usefixtures("openai_key")


def _skills(root: Path) -> Path:
    (root / "sites").mkdir(parents=True)
    (root / "tasks").mkdir()
    (root / "all.md").write_text("ALL-NOTE: read the whole page before answering.\n")
    (root / "sites" / "127.0.0.1.md").write_text("SITE-NOTE: the search button is blue.\n")
    (root / "sites" / "example.com.md").write_text("EXAMPLE-NOTE: never shown here.\n")
    (root / "tasks" / "shopping.md").write_text("TAG-NOTE: " + "x" * 300 + "\n")
    (root / "tasks" / "travel.md").write_text("TRAVEL-NOTE: never shown here.\n")
    return root


def test_a_host_matches_itself_and_its_subdomains_only(tmp_path: Path) -> None:
    root = _skills(tmp_path / "skills")
    config = SkillsConfig(str(root))
    paths = [s.path for s in skills_for(Task("t", "https://www.shop.example.com/a"), config)]
    assert paths == ["all.md", "sites/example.com.md"]
    assert [s.path for s in skills_for(Task("t", "https://notexample.com/"), config)] == ["all.md"]
    assert [s.path for s in skills_for(Task("t", "https://example.com.evil.org/"),
                                       config)] == ["all.md"]


def test_a_tag_names_a_file_never_a_path(tmp_path: Path) -> None:
    root = _skills(tmp_path / "skills")
    (tmp_path / "secret.md").write_text("SECRET")
    task = Task("t", "https://a.org/", tags=("../../secret", "travel", "travel"))
    picked = skills_for(task, SkillsConfig(str(root)))
    assert [s.path for s in picked] == ["all.md", "tasks/travel.md"]


def test_the_flag_names_a_missing_directory(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"--skills .*not a directory"):
        RunFlags(model="oracle", skills=str(tmp_path / "nowhere")).options()
    with pytest.raises(ConfigError, match=r"--skill-cap"):
        SkillsConfig(str(tmp_path), cap=0)


async def test_skills_reach_the_system_text_for_their_host_and_tag_only(
        browser: BrowserSession, tmp_path: Path) -> None:
    root = _skills(tmp_path / "skills")
    replies = ["Thought: look.\nAction: wait()", "Thought: look again.\nAction: wait()",
               "Thought: done.\nAction: finished(content='ok')"]
    pages = Path(__file__).parent / "pages" / "roles"
    config = AgentConfig(max_steps=5, skills=SkillsConfig(str(root), cap=100))
    with LocalServer(pages) as site, FakeProvider(ScriptedPolicy(replies)) as fp:
        model = load_model("openai:fake-vlm", base_url=fp.base_url)
        task = Task("buy it", site.url("shop.html"), tags=("shopping",))
        result = await run_task(task, model=model, session=browser, config=config,
                                out=tmp_path / "bench" / "tasks" / "t1")
        await model.aclose()
        requests: list[FakeRequest] = fp.requests
    assert result.status == "finished" and len(requests) == 3
    system = requests[0].system
    for kept in ("ALL-NOTE", "SITE-NOTE", "TAG-NOTE", "=== skill: sites/127.0.0.1.md ===",
                 "[skill truncated: 211 more characters not shown (--skill-cap 100)]"):
        assert kept in system
    for absent in ("EXAMPLE-NOTE", "TRAVEL-NOTE"):
        assert absent not in system
    # The section sits after the rules and before any turn: the system text is one byte
    # string for the whole task, and the first blocks the cache sees are the same.
    assert system.index("Rules:") < system.index("ALL-NOTE")
    assert all(r.system == system for r in requests)
    assert len({r.blocks[0].key for r in requests}) == 1
    recorded = read_result(tmp_path / "bench" / "tasks" / "t1")
    shopping = (root / "tasks" / "shopping.md").read_bytes()
    assert [(s.path, s.truncated) for s in recorded.skills] == [
        ("all.md", False), ("sites/127.0.0.1.md", False), ("tasks/shopping.md", True)]
    assert recorded.skills[2].sha256 == hashlib.sha256(shopping).hexdigest()
    # What `compare` says of the run: the skills each run used, by task count.
    roles = run_roles(tmp_path / "bench")
    assert roles.skills == {"all.md": 1, "sites/127.0.0.1.md": 1, "tasks/shopping.md": 1}
    assert "skills all.md (1), sites/127.0.0.1.md (1)" in roles.line("roles A")


async def test_without_skills_the_system_text_has_no_section(
        browser: BrowserSession, tmp_path: Path, pages: LocalServer) -> None:
    replies = ["Thought: done.\nAction: finished(content='ok')"]
    with FakeProvider(ScriptedPolicy(replies)) as fp:
        model = load_model("openai:fake-vlm", base_url=fp.base_url)
        result = await run_task(Task("t", pages.url("roundtrip/targets.html")), model=model,
                                session=browser, config=AgentConfig(max_steps=2),
                                out=tmp_path / "run")
        await model.aclose()
        system = fp.requests[0].system
    assert result.skills == [] and "skill" not in system.lower()
