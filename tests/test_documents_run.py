"""The document view end to end: ``run_task`` with a scripted model on a PDF made at test
time, as ``webfovea run`` does (find_text, then an answer grounded on the PDF's page 3), the
documents in result.json, and a recorded PDF replaying with its server gone."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from counting_site import counting_site
from documents_site import DocumentSite, document_site
from webfovea.browser.session import BrowserSession
from webfovea.core.config import AgentConfig
from webfovea.core.sites import SiteOptions
from webfovea.core.task import Task
from webfovea.loop.agent import run_task
from webfovea.models.scripted import ScriptedModel
from webfovea.rundir.trajectory import ResultRecord

FIND = "Thought: look for the figure\nAction: find_text(text='4,321 million')"


def _answer(value: str) -> str:
    return f"Thought: Cloud revenue is {value}\nAction: finished(content='{value}')"


@pytest.fixture
def site() -> Iterator[DocumentSite]:
    with counting_site() as (away, _), document_site(away.rsplit("/", 1)[0]) as served:
        yield served


async def _run(browser: BrowserSession, url: str, out: Path, replies: tuple[str, ...],
               site: SiteOptions | None = None) -> ResultRecord:
    config = AgentConfig(max_steps=len(replies) + 1, time_limit=90.0,
                         site=site or SiteOptions())
    return await run_task(Task(instruction="What was the Cloud segment's revenue?", url=url,
                               id="t"), model=ScriptedModel(list(replies)), session=browser,
                          config=config, out=out)


def _notes(out: Path) -> list[str]:
    return [json.loads(line)["note"] for line in (out / "steps.jsonl").read_text().splitlines()]


async def test_an_answer_from_page_3_of_a_pdf_is_grounded_there(
        browser: BrowserSession, site: DocumentSite, tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = await _run(browser, site.url("report.pdf"), out, (FIND, _answer("4,321 million")))
    assert result.status == "finished", result.error
    assert result.grounding is not None and result.grounding.status == "grounded"
    assert result.grounding.parts[0].where[0].place == "page 3 of 4"
    assert "(in the document: page 3 of 4)" in result.grounding.note
    first = _notes(out)[0]  # the entry's page events come with the first step's note
    assert "a PDF document of 4 pages opened (report.pdf; saved as documents/01-report.pdf): " \
        "page 1 shown" in first and "match 1 of 1 on page 3 of 4 of the PDF" in first, first
    written = json.loads((out / "result.json").read_text())
    [document] = written["documents"]
    assert (document["kind"], document["pages"], document["shown"]) == ("pdf", 4, True)
    assert hashlib.sha256((out / document["path"]).read_bytes()).hexdigest() == \
        document["sha256"] == hashlib.sha256(site.pdf).hexdigest()


async def test_an_answer_in_no_document_stays_ungrounded(
        browser: BrowserSession, site: DocumentSite, tmp_path: Path) -> None:
    result = await _run(browser, site.url("report.pdf"), tmp_path / "run",
                        (FIND, _answer("9,876 million"), _answer("9,876 million")))
    assert result.grounding is not None and result.grounding.status == "ungrounded"
    assert not any(at.place for p in result.grounding.parts for at in p.where)


async def test_a_recorded_pdf_replays_with_its_server_gone(
        browser: BrowserSession, tmp_path: Path) -> None:
    snap = str(tmp_path / "snap")
    with counting_site() as (away, _), document_site(away.rsplit("/", 1)[0]) as served:
        url = served.url("report.pdf")
        recorded = await _run(browser, url, tmp_path / "rec", (FIND, _answer("4,321 million")),
                              SiteOptions("record", snap))
        assert recorded.status == "finished", recorded.error
    replayed = await _run(browser, url, tmp_path / "rep", (FIND, _answer("4,321 million")),
                          SiteOptions("replay", snap))
    assert replayed.status == "finished", replayed.error
    assert replayed.site.unmatched == 0
    assert "match 1 of 1 on page 3 of 4 of the PDF" in _notes(tmp_path / "rep")[0]
    assert replayed.grounding is not None and replayed.grounding.status == "grounded"


async def test_an_entry_url_over_the_cap_ends_unreachable_saying_why(
        browser: BrowserSession, site: DocumentSite, tmp_path: Path) -> None:
    config = AgentConfig(max_steps=1, time_limit=60.0, max_download_mb=5)
    result = await run_task(Task(instruction="read it", url=site.url("huge-sized.csv"), id="t"),
                            model=ScriptedModel([]), session=browser, config=config,
                            out=tmp_path / "run")
    assert result.status == "unreachable"
    assert "was blocked: it is larger than the cap of 5 MB (--max-download-mb)" in \
        (result.error or "")
    assert [d.size for d in result.documents] == [200 * (1 << 20)]
