"""Failure attribution: which stage of the round trip broke first, with the evidence.

Each failed task is checked stage by stage (the round trip: parse, execute, feedback,
observe, then the guardrails and the model around it, and crashes of the site, the browser or
the harness itself). A finding is *strong* when it shows the harness misbehaving and *weak*
when it only explains how the task ended (the step limit, tokens the parser removed as it
should). The task is attributed to the earliest strong finding (by step, then by stage order),
else the earliest weak one, else to the model's own decision.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal

from ..actions.geometry import ModelSpace, OutsideImage, to_page
from ..actions.registry import REGISTRY, ActionSpec, Point
from ..core.config import Size
from ..dialects.text.parse import TOKEN_PATTERN, parse_reply
from ..rundir.store import TaskRun, load_run
from ..rundir.trajectory import StepRecord
from .replay import compare_step

# "correct" is no stage: it is what a task scored correct is called (``--all``).
Stage = Literal["parse", "grounding", "execute", "feedback", "observe", "guardrails", "model",
                "crash", "decision", "correct"]
# grounding: the grounder (--grounder) placing the planner's target='…' (issue 33).
STAGES: tuple[Stage, ...] = ("parse", "grounding", "execute", "feedback", "observe",
                             "guardrails", "model", "crash", "decision", "correct")
# Statuses that end a run before any stage can be judged: the site, the browser, the harness,
# or a process killed mid-task (its result still says "running").
CRASHES = ("unreachable", "browser_error", "harness_error", "running")
STREAK = 3  # consecutive no-change actions on clickable elements that make a feedback finding
TOLERANCE = 2  # pixels between the expected and the recorded page point

_ACTION_LINE = re.compile(r"^[\W_]*action\s*:", re.I | re.M)
_NUMBER = re.compile(r"\d(?:[\d,.\u00a0 ]*\d)?")


@dataclass(frozen=True)
class Finding:
    stage: Stage
    step: int | None  # None: about the task as a whole
    evidence: str
    strong: bool = True

    def key(self) -> tuple[float, int]:
        return (math.inf if self.step is None else self.step, STAGES.index(self.stage))


@dataclass(frozen=True)
class TaskDiagnosis:
    task: str
    status: str
    stage: Stage
    step: int | None
    evidence: str
    findings: list[Finding]


@dataclass(frozen=True)
class Diagnosis:
    tasks: int
    diagnosed: list[TaskDiagnosis]

    def counts(self) -> dict[Stage, int]:
        counted = Counter(d.stage for d in self.diagnosed)
        return {stage: counted[stage] for stage in STAGES}

    def to_json(self) -> dict[str, Any]:
        return {"tasks": self.tasks, "diagnosed": len(self.diagnosed), "stages": self.counts(),
                "failures": [asdict(d) for d in self.diagnosed]}


def diagnose(run_dir: Path, *, every_task: bool = False) -> Diagnosis:
    """Attribute each task of ``run_dir`` that ended without an answer or was scored wrong
    (every task with ``every_task``: those scored correct are called "correct")."""
    run = load_run(run_dir)
    chosen = [t for t in run.tasks if every_task or t.failed]
    return Diagnosis(tasks=len(run.tasks), diagnosed=[diagnose_task(t) for t in chosen])


def diagnose_task(task: TaskRun) -> TaskDiagnosis:
    if task.result.config.get("imported"):  # another agent's log: only what it shows
        findings = imported_findings(task)
    else:
        findings = [f for record in task.steps for f in _step_findings(record)]
        findings += _streaks(task.steps) + _task_findings(task)
    findings.sort(key=Finding.key)
    first = next((f for f in findings if f.strong), findings[0] if findings else None)
    if task.verdict == "correct":
        first = Finding("correct", None, f"the answer {task.result.answer!r} matches the "
                                         f"reference {task.reference!r} ({task.matcher})")
    elif first is None:
        first = Finding("decision", None, _decision_evidence(task))
    return TaskDiagnosis(task=task.label, status=task.result.status, stage=first.stage,
                         step=first.step, evidence=first.evidence, findings=findings)


def _step_findings(r: StepRecord) -> list[Finding]:
    checks = (_parse, _grounding, _execute, _frame_feedback, _guardrail)
    return [Finding(stage, r.step, text, strong) for check in checks
            for stage, text, strong in check(r)]


Check = list[tuple[Stage, str, bool]]


def _parse(r: StepRecord) -> Check:
    if r.parse_error is not None:
        return [("parse", f"the reply did not parse: {_short(r.parse_error)}", True)]
    out: Check = []
    texts = [v for k, v in (r.action or {}).items() if k != "name" and isinstance(v, str)]
    tokens = [t for v in texts for t in TOKEN_PATTERN.findall(v)]
    if tokens:
        out.append(("parse", f"chat-template token(s) {_list(tokens)} reached the page in "
                             f"{r.action_source}", True))
    reread = _reread(r)
    if reread:
        out.append(("parse", reread, True))
    if any(_ACTION_LINE.search(s) for s in r.stripped):
        out.append(("parse", "the reply held more than one action; only the first ran, the "
                             f"rest was discarded: {_short(' | '.join(r.stripped))}", True))
    stripped = [t for s in r.stripped for t in TOKEN_PATTERN.findall(s)]
    if stripped:
        out.append(("parse", f"the parser stripped token(s) {_list(stripped)}", False))
    return out


def _reread(r: StepRecord) -> str:
    """The current parser reads the reply as another action: the recorded parse was wrong."""
    change = compare_step("", r, parse_reply)
    if change is None or change.kind == "now_parses":
        return ""  # a recorded parse error is a finding of its own
    return f"the run executed {change.before}, but the current parser reads {change.after}"


def _grounding(r: StepRecord) -> Check:
    """The grounder could not place a target (strong), or placed it where the action changed
    nothing (weak: the planner may have named the wrong element)."""
    out: Check = []
    for form in r.point_forms:
        call = form.get("grounder")
        if not call:
            continue
        if call.get("error"):
            out.append(("grounding", _short(r.note), True))
        elif r.outcome == "no_change":
            out.append(("grounding", f"the grounder put {form['given']!r} at "
                                     f"{tuple(form.get('point') or ())}, and the action changed "
                                     f"nothing: {_short(r.note)}", False))
    return out


def _execute(r: StepRecord) -> Check:
    out: Check = []
    if r.outcome == "error" and not any((f.get("grounder") or {}).get("error")
                                        for f in r.point_forms):
        out.append(("execute", _short(r.note), True))
    if r.guardrail == "image_bounds":
        out.append(("execute", f"the point was refused: {_short(r.note)}", True))
    typed, held = r.details.get("typed"), r.details.get("readback")
    if typed is not None and held is not None and typed != held:
        out.append(("execute", f"typed {typed!r} but the field read back {held!r}", True))
    mismatch = _mapping_mismatch(r)
    if mismatch:
        out.append(("execute", mismatch, True))
    content = (r.action or {}).get("content")
    if (spec := _spec(r)) and spec.types and isinstance(content, str) \
            and content.endswith("\n") and r.outcome not in ("error", "refused") \
            and not r.details.get("enter_pressed"):
        out.append(("execute", f"{r.action_source} ends with \\n but Enter was not pressed "
                               f"(note: {_short(r.note)})", True))
    return out


def _mapping_mismatch(r: StepRecord) -> str:
    """The page points the run used differ from model point x page size / model size."""
    if not r.action or not r.page_points or 0 in (*r.model_size, *r.page_size):
        return ""
    spec = REGISTRY[r.action["name"]]
    names = [a.name for a in spec.args if a.kind == "point"]
    space, page = ModelSpace(*r.model_size), Size(*r.page_size)
    formed = {f["arg"]: f["point"] for f in r.point_forms if f.get("point")}
    for name, got in zip(names, r.page_points, strict=False):
        if name not in r.action and name not in formed:
            return ""
        x, y = r.action.get(name) or formed[name]
        try:
            want = to_page(Point(x, y), space=space, page=page)
        except OutsideImage:
            return ""
        if max(abs(want[0] - got[0]), abs(want[1] - got[1])) > TOLERANCE:
            return (f"coordinate mapping: the model's ({x:g},{y:g}) in its {space.width:g}x"
                    f"{space.height:g} space is page ({want[0]},{want[1]}) on the "
                    f"{page.width}x{page.height} viewport, but the action went to "
                    f"({got[0]},{got[1]})")
    return ""


def _frame_feedback(r: StepRecord) -> Check:
    # Only a print that left the child frames out (details["frames"] counts the frames
    # fingerprinted) cannot see what happened in one; with them in, "no detectable change"
    # there is evidence like anywhere else (a click on blank frame space did nothing).
    if r.outcome == "no_change" and r.frame and r.details.get("frames", 1) <= 1:
        return [("feedback", f"the {_name(r)} landed inside frame {r.frame} and was reported as "
                             "no detectable change, but the frame was not fingerprinted", True)]
    return []


def _guardrail(r: StepRecord) -> Check:
    # The verifier's rejections are its verdicts on the model's answer, not a guardrail that
    # stood in the way: a disputed answer is a decision finding (_task_findings); nor is the
    # note that an answer is expected after a bare finished() (the model's decision).
    if r.guardrail and r.guardrail not in ("image_bounds", "answer_verifier", "answer_expected"):
        return [("guardrails", f"refused by {r.guardrail}: {_short(r.note)}", True)]
    return []


def _streaks(steps: list[StepRecord]) -> list[Finding]:
    """Runs of STREAK+ consecutive no-change actions on elements that are clickable."""
    out: list[Finding] = []
    run: list[StepRecord] = []
    for r in [*steps, None]:
        if r is not None and r.outcome == "no_change" and r.details.get("clickable"):
            run.append(r)
            continue
        if len(run) >= STREAK:
            out.append(Finding("feedback", run[0].step,
                               f"{len(run)} actions in a row on clickable elements reported no "
                               f"detectable change (steps {run[0].step}-{run[-1].step}): "
                               f"{_short(run[0].note)}"))
        run = []
    return out


def _task_findings(task: TaskRun) -> list[Finding]:
    result = task.result
    out: list[Finding] = []
    if result.status in ("step_limit", "time_limit"):
        limit = "step limit" if result.status == "step_limit" else "time limit"
        out.append(Finding("guardrails", None, f"the task ran out of its {limit} after "
                                               f"{result.steps} steps", strong=False))
    elif result.status == "model_error":
        out.append(Finding("model", None, f"the model could not be used: {result.error}"))
    elif result.status in CRASHES:
        why = result.error or "the run stopped without a final status"
        out.append(Finding("crash", None, f"{result.status}: {why}"))
    verifier = result.verifier
    if verifier is not None and verifier.verdict == "disputed":
        out.append(Finding("decision", None, f"the verifier disputed the answer "
                                             f"{result.answer!r} after {verifier.rejections} "
                                             f"rejection(s): {_short(verifier.reason)}"))
    unseen = _unseen_answer(task)
    if unseen:
        out.append(Finding("observe", None, unseen))
    return out


def _unseen_answer(task: TaskRun) -> str:
    """Answer values that appear neither on the evidence page's text nor in any note."""
    answer = task.result.answer
    if answer is None or task.evidence_text is None:
        return ""  # without the page's text there is no telling what the screenshot showed
    seen = _norm(" ".join([task.evidence_text, *(r.note for r in task.steps)]))
    values = _NUMBER.findall(answer) or [answer]
    missing = [v for v in values if _norm(v) not in seen]
    if not missing:
        return ""
    hovers = [r.step for r in task.steps if (spec := _spec(r)) and spec.holds_pointer]
    hint = f"; it may have shown only on hover (hovers at steps {_list(hovers)})" if hovers else ""
    return (f"the answer's {_list(missing)} was on neither the page it was given on nor in any "
            f"read_text or note{hint}")


def _norm(text: str) -> str:
    """Casefolded, single-spaced, thousands separators dropped: '48,210' matches '48210'."""
    text = re.sub(r"(?<=\d)[,\u00a0 ](?=\d{3}\b)", "", text)
    return " ".join(text.casefold().split())


def _decision_evidence(task: TaskRun) -> str:
    result = task.result
    if result.answer is not None:
        reference = f" (reference {task.reference!r})" if task.reference is not None else ""
        return f"no harness stage shows a fault; the model answered {result.answer!r}{reference}"
    why = f" ({result.error})" if result.error else ""  # e.g. call_user(): asked for a person
    return f"no harness stage shows a fault; the task ended {result.status}{why}"


def _spec(r: StepRecord) -> ActionSpec | None:
    return REGISTRY.get(str((r.action or {}).get("name")))


def _name(r: StepRecord) -> str:
    return str((r.action or {}).get("name", "action"))


def _list(items: list[Any]) -> str:
    shown = ", ".join(str(i) for i in dict.fromkeys(items))
    return _short(shown, 120)


def _short(text: str, limit: int = 200) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def format_diagnosis(d: Diagnosis) -> str:
    total = len(d.diagnosed)
    lines = [f"{total} of {d.tasks} task(s) diagnosed", "", f"{'stage':<12}{'tasks':>6}{'share':>8}"]
    for stage, count in d.counts().items():
        share = f"{100 * count / total:.0f}%" if total else "-"
        lines.append(f"{stage:<12}{count:>6}{share:>8}")
    if d.diagnosed:
        lines.append("")
    for t in d.diagnosed:
        where = f"step {t.step}" if t.step is not None else "task"
        lines.append(f"{t.task}  [{t.status}]  {t.stage} ({where}): {t.evidence}")
    return "\n".join(lines)


# --- another agent's trajectory (webfovea import-trajectory) ------------------------------
# The log holds the screenshots, the calls and the final text; no page text, DOM, harness
# note or guardrail. So the findings are those the log shows — a call that means no action
# (parse), an action after which the screenshot did not change or that the agent's own tool
# reported failing (execute), an answer before
# any action, an agent that gave up (decision) — and the rest is said to have no evidence.

NO_EVIDENCE = ("no evidence for the observe, feedback and guardrails stages: the imported "
               "trajectory holds no page text, DOM or harness notes")
_PASSIVE = ("wait", "finish", "observe")  # budget classes that act on nothing


def imported_findings(task: TaskRun) -> list[Finding]:
    out: list[Finding] = []
    acted = False
    for r in task.steps:
        spec = REGISTRY.get(str((r.action or {}).get("name")))
        if r.parse_error is not None:
            out.append(Finding("parse", r.step, f"the call means no action: {r.parse_error}"))
        elif spec is not None and spec.budget not in _PASSIVE:
            acted = True
            outside = _outside_point(r, spec)
            if outside:
                out.append(Finding("execute", r.step, outside))
            elif r.outcome == "no_change" and spec.types:
                out.append(Finding("execute", r.step, f"{r.action_source} never reached a "
                                   "field: the screenshot after it is "
                                   f"{r.details.get('unchanged', 'identical')} (nothing that "
                                   "takes text had the focus)"))
            elif r.outcome == "no_change":
                same = r.details.get("unchanged", "identical")
                out.append(Finding("execute", r.step, f"{r.action_source} changed nothing: "
                                                      f"the screenshot after it is {same}"))
            elif r.outcome == "error":  # the other agent's own tool said so
                out.append(Finding("execute", r.step, f"{r.action_source} failed in the "
                                   f"agent's own tool: {r.details.get('failed', r.note)}"))
    result = task.result
    if result.status == "finished" and not acted:
        ended = ("the agent finished (no answer)" if result.answer is None  # finished()
                 else f"the answer {result.answer!r} was given")
        out.append(Finding("decision", None, f"{ended} before any action on the page"))
    elif result.status == "gave_up":
        why = f": {result.error}" if result.error else ""
        out.append(Finding("decision", None, f"the agent ended without an answer (gave up){why}"))
    elif result.status == "step_limit":
        out.append(Finding("guardrails", None, f"the task ran out of its step limit after "
                                               f"{result.steps} steps ({result.error})",
                           strong=False))
    out.append(Finding("decision", None, NO_EVIDENCE, strong=False))
    return out


def _outside_point(r: StepRecord, spec: ActionSpec) -> str:
    """A point beyond the screen the log's points are in: mapped from another space (the
    model's 0-1000 or resized-image coordinates taken for screen pixels, or scaled twice)."""
    width, height = r.model_size
    if not (width and height):
        return ""
    for arg in spec.args:
        value = (r.action or {}).get(arg.name)
        if arg.kind == "point" and isinstance(value, list | tuple) and not (
                0 <= value[0] <= width and 0 <= value[1] <= height):
            return (f"coordinate mapping: {r.action_source} points at ({value[0]:g},"
                    f"{value[1]:g}), outside the {width:g}x{height:g} screen: a point in "
                    "another space (the model's coordinates not mapped to screen pixels)")
    return ""
