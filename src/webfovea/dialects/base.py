"""The dialect interface: how a model is asked, and how its reply becomes actions.

The agent loop builds an :class:`Observation` per step, asks ``dialect.decide(obs)`` and gets a
:class:`Decision` holding zero or more :class:`Call` s, each already translated into the closed
action set (or carrying why it could not be). The loop guards and executes the calls in order
and hands one :class:`ActionResult` per call back in the next observation, so a native dialect
can answer each tool call in its own protocol's form. See docs/dialects.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from ..actions.geometry import ModelSpace
from ..actions.registry import Action
from ..core.config import AgentConfig, Size
from ..models.base import Model, SentImage, Usage
from ..rundir.trajectory import Outcome

NOT_EXECUTED = "not executed: an earlier action in this batch was {why}"


@dataclass(frozen=True)
class ActionResult:
    """What one call of the previous decision came to, for the dialect to answer it."""

    call_id: str | None  # the protocol's tool-call id (None for text)
    action: Action | None
    note: str  # the one-sentence feedback note
    outcome: Outcome
    error: bool  # refused, failed, untranslatable or skipped: answer in error form
    executed: bool  # False: skipped because an earlier call in the batch failed
    guardrail: str | None = None
    image: SentImage | None = None  # an observation's own image (zoom), else None


@dataclass(frozen=True)
class Observation:
    step: int
    task: str
    image: SentImage  # the screenshot exactly as sent (bytes + measured size)
    space: ModelSpace  # the model's coordinate space for that image (--coords)
    page_size: Size  # viewport in CSS pixels, measured
    url: str
    note: str  # the note on the last step (the text dialect's one note)
    results: tuple[ActionResult, ...] = ()  # one per Call of the previous Decision, in order
    skills: str = ""  # the task's skills section (dialects.skills): the end of the system text
    elements: str = ""  # --observation elements: the list that goes with this screenshot


@dataclass(frozen=True)
class Call:
    """One action the model asked for. ``error`` without ``guardrail``: it could not be
    translated (a parse-stage finding, the sentence answered to the model); with
    ``guardrail``: the dialect itself refuses it (a Gemini ``navigate`` off the site, a
    middle click) and ``error`` is the refusal's sentence."""

    call_id: str | None
    native: dict[str, Any]  # the vendor call as received (name + arguments), recorded
    action: Action | None  # translated into the closed set; None when untranslatable
    error: str | None = None
    guardrail: str | None = None


@dataclass(frozen=True)
class SafetyCheck:
    code: str
    message: str
    id: str | None = None


@dataclass
class Decision:
    raw: str  # what steps.jsonl records as raw_reply (text, or JSON of the reply)
    thought: str
    calls: list[Call]
    usage: Usage
    parse_error: str | None = None  # a reply that yields no call at all
    safety_checks: list[SafetyCheck] = field(default_factory=list)
    request_summary: dict[str, Any] = field(default_factory=dict)  # viewer / cost
    stripped: tuple[str, ...] = ()  # text the parser discarded (text dialect)
    model_seconds: float = 0.0  # of decide(), the time spent waiting on the model


@runtime_checkable
class Dialect(Protocol):
    name: str  # "text", "tools", "anthropic-computer", ...

    async def decide(self, obs: Observation, *, timeout: float) -> Decision:
        """The model's next decision; raises ModelError (the task ends model_error)."""
        ...

    async def aclose(self) -> None:
        ...


# Makes one task's dialect from the run's model client and the agent configuration.
DialectFactory = Callable[[Model, AgentConfig], Dialect]
