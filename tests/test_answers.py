"""Issue 23 without a browser: an answer's checkable parts, grounding against recorded page
text, page kinds, verdict parsing and the challenge rule of the answer gate.

The page texts are the inputs grounding reads (what ``frame_texts`` returns on a page);
the browser side is in test_answers_browser.py.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from webfovea.answers.excerpt import excerpt
from webfovea.answers.gate import Answered, AnswerGate
from webfovea.answers.grounding import ground
from webfovea.answers.pages import classify
from webfovea.answers.parts import answer_parts
from webfovea.answers.seen import SessionText
from webfovea.answers.verifier import parse_verdict
from webfovea.browser.capture import FrameText
from webfovea.core.config import AgentConfig
from webfovea.rundir.store import TrajectoryWriter

TABLE = "Region\tCrop\tYear\tTonnes\nEastern\tBarley\t2019\t92,536\nWestern\tBarley\t2019\t48,210"
URL = "http://stats.fovea.test/table/AGR01"


def seen(*texts: str, frame: str | None = None) -> SessionText:
    store = SessionText()
    for step, text in enumerate(texts, start=1):
        store.add_page(step, [FrameText(URL, frame, text)])
    return store


def test_parts_are_numbers_dates_names_and_quoted_phrases() -> None:
    parts = answer_parts('Eastern produced 1,234 tonnes on 14 April 2025, "per the table".')
    assert [(p.kind, p.text) for p in parts] == [
        ("name", "Eastern"), ("number", "1,234"), ("date", "14 April 2025"),
        ("phrase", "per the table")]
    assert [p.kind for p in answer_parts("The University of Kenmore")] == ["name"]
    assert answer_parts("increased") == answer_parts("ok") == []  # plain words: not checkable


def test_numbers_are_found_under_the_scorers_normalisation() -> None:
    store = seen(TABLE + "\nAudit fee: £606k\nShare 12.5%")
    for answer in ("92536", "92,536 tonnes", "92.54 thousand", "606", "£606,000", "12.5 percent"):
        assert ground(answer, seen=store).status == "grounded", answer
    assert ground("92,000", seen=store).status == "ungrounded"  # 0.58 % off: beyond 0.5 %


def test_partly_grounded_names_what_was_not_found() -> None:
    record = ground("Eastern: 77,777 tonnes", seen=seen(TABLE))
    assert record.status == "partly_grounded"
    assert "'77,777' not found in the page text (it may be drawn in an image or chart)" \
        in record.note


def test_where_names_the_newest_step_url_and_frame() -> None:
    store = seen("nothing here", TABLE, frame="http://charts.fovea.test/embed")
    part = ground("92536", seen=store).parts[0]
    assert (part.where[0].step, part.where[0].frame) == (2, "http://charts.fovea.test/embed")
    store.add_read_text(3, URL, "Audit fee for the year: £606k")
    assert ground("606", seen=store).parts[0].where[0].source == "read_text"


def test_a_computed_answer_is_derived_from_the_values_its_thought_names() -> None:
    store = seen(TABLE)
    total = ground("140746", seen=store, thought="Values read: 92,536; 48,210.")
    assert total.status == "grounded" and total.parts[0].state == "derived"
    assert total.parts[0].how == "sum of 2 values" and len(total.parts[0].where) == 2
    difference = ground("44326", seen=store, thought="92,536 and 48,210 read.")
    assert difference.parts[0].how == "difference"
    assert ground("140746", seen=store).status == "ungrounded"  # no working shown
    made_up = ground("140746", seen=store, thought="Values: 92,536; 48,211; 1.")
    assert made_up.status == "ungrounded"  # 48,211 was never seen: not an operand


def test_an_option_the_task_offers_rests_on_the_values_the_thought_names() -> None:
    task = 'Did it increase or decrease? Answer "increased" or "decreased".'
    store = seen("2015: 23.4 %\n2023: 31.2 %")
    assert ground("increased", seen=store, task=task, thought="23.4 then 31.2").status == \
        "grounded"
    assert ground("increased", seen=store, task=task).status == "not_checked"
    assert ground("increased", seen=store).status == "not_checked"


def test_whole_answers_are_looked_for_as_written() -> None:
    store = seen("Lead story: Greyhaven tram line opens to the public")
    assert ground("Greyhaven tram line opens", seen=store).status == "grounded"


def test_text_that_inline_elements_glued_together_is_still_found() -> None:
    # <time>12 February 2025</time><span>Caster Bay council…</span> in innerText
    store = seen("11 February 2025Ingleby council delays a budget\n"
                 "12 February 2025Caster Bay council consults on a concert hall")
    assert ground("Caster Bay council consults on a concert hall", seen=store).status == \
        "grounded"
    assert ground("Caster Bay", seen=store).status == "grounded"


@pytest.mark.parametrize(("title", "text", "kind"), [
    ("Checking your browser · Fovea Daily", "Please confirm that you are a person", "captcha"),
    ("Just a moment...", "Verify you are human by completing the action below.", "captcha"),
    ("Sign in", "Please sign in to continue to your account.", "login"),
    ("Access Denied", "You don't have permission.", "blocked"),
    ("Page not found", "Error 404", "error"),
    ("Annual report", "Capacity grew to 404 MW. " * 200, "ok"),  # a long page is not an error
])
def test_page_kinds(title: str, text: str, kind: str) -> None:
    assert classify(title, [FrameText(URL, None, text)]).kind == kind


def test_verdicts_are_parsed_strictly() -> None:
    assert parse_verdict("Verdict: accept\nReason: it is in the row.") == \
        ("accept", "it is in the row.")
    assert parse_verdict("**Verdict:** Rejected\nReason: wrong year")[0] == "reject"
    verdict, reason = parse_verdict("I think it is fine.")
    assert verdict == "error" and "malformed verdict" in reason


def test_excerpt_centres_on_the_answer_as_the_page_groups_it() -> None:
    text = "x" * 10_000 + " capacity 1,298 MW " + "y" * 10_000
    assert "1,298" in excerpt(text, "1298", 400)
    assert excerpt(text, "absent", 400) == text[:400]


def _answered(content: str, *, acted: bool, text: str = TABLE) -> Answered:
    return Answered(content, 2, "", URL, "AGR01", [FrameText(URL, None, text)], None,
                    acted=acted, time_left=60.0)


def test_the_gate_challenges_once_and_the_same_answer_stands_marked(tmp_path: Path) -> None:
    gate = AnswerGate(AgentConfig(), "task", TrajectoryWriter(tmp_path))
    first = asyncio.run(gate.decide(_answered("55555", acted=True)))
    assert not first.accepted and first.guardrail == "answer_grounding"
    assert "bring the page that shows it on screen" in first.note
    again = asyncio.run(gate.decide(_answered("55555", acted=True)))
    assert again.accepted and again.grounding is not None
    assert (again.grounding.status, again.grounding.challenged) == ("ungrounded", True)


def test_a_first_answer_before_acting_is_challenged_even_when_grounded(tmp_path: Path) -> None:
    gate = AnswerGate(AgentConfig(), "task", TrajectoryWriter(tmp_path))
    first = asyncio.run(gate.decide(_answered("92536", acted=False)))
    assert not first.accepted and "before doing anything on the page" in first.note
    assert "visible on the current page" in first.note and "'92536'" in first.note
    assert asyncio.run(gate.decide(_answered("92536", acted=False))).accepted


@pytest.mark.parametrize("policy", ["record", "off"])
def test_record_and_off_never_send_an_answer_back(tmp_path: Path, policy: str) -> None:
    gate = AnswerGate(AgentConfig(grounding=policy), "task",  # type: ignore[arg-type]
                      TrajectoryWriter(tmp_path))
    decision = asyncio.run(gate.decide(_answered("55555", acted=False)))
    assert decision.accepted and decision.grounding is not None
    assert decision.grounding.status == ("ungrounded" if policy == "record" else "not_checked")
