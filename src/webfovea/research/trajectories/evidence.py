"""What ``diagnose`` can tell from another agent's trajectory, and what it cannot.

The log holds the screenshots, the calls and the final text; no page text, DOM, harness
note or guardrail. So the findings are those the log shows — a call that means no action
(parse), an action after which the screenshot did not change (execute), an answer before
any action, an agent that gave up (decision) — and the rest is said to have no evidence.
"""

from __future__ import annotations

from ...actions import REGISTRY
from ...diagnose import Finding
from ...rundir import TaskRun

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
            if r.outcome == "no_change":
                out.append(Finding("execute", r.step, f"{r.action_source} changed nothing: "
                                                      "the screenshot after it is identical"))
    result = task.result
    if result.status == "finished" and not acted:
        out.append(Finding("decision", None, f"the answer {result.answer!r} was given before "
                                             "any action on the page"))
    elif result.status == "gave_up":
        out.append(Finding("decision", None, "the agent ended without an answer (gave up)"))
    out.append(Finding("decision", None, NO_EVIDENCE, strong=False))
    return out
