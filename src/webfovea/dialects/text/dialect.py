"""``text``: the UI-TARS reply grammar (``Thought: … Action: click(start_box='(x,y)')``), the
default dialect. The request is built by :mod:`webfovea.dialects.text.prompt` and the reply read by
:mod:`webfovea.dialects.text.parse` exactly as before the dialect layer: the bytes on the wire are unchanged.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ...core.config import AgentConfig
from ...core.errors import ParseError
from ...core.stages import stage
from ...models.base import Model
from ...models.sent import sent_summary
from ..base import Call, Decision, Observation
from .parse import parse_reply
from .prompt import HistoryItem, Shown, asks_targets, build_request, coordinate_text, first_shown


@dataclass
class _Asked:
    """The last decision, which joins the history once its note is known."""

    step: int
    thought: str
    source: str


class TextDialect:
    name = "text"

    def __init__(self, model: Model, config: AgentConfig) -> None:
        self.model, self.config = model, config
        self.history: list[HistoryItem] = []
        self.shown: list[Shown] = []
        self._asked: _Asked | None = None

    async def decide(self, obs: Observation, *, timeout: float) -> Decision:
        if self._asked is not None:
            last = self._asked
            self.history.append(HistoryItem(last.step, last.thought, last.source or "(none)",
                                            obs.note))
        with stage("prompt"):
            coords = coordinate_text(obs.space, obs.image.width, obs.image.height,
                                     self.config.coords,
                                     points=not asks_targets(self.config.point_forms))
            if obs.elements:  # it describes this screenshot: it leaves the window with it
                coords = f"{coords}\n{obs.elements}"
            oldest = first_shown(obs.step, self.config)
            self.shown = [s for s in [*self.shown, Shown(obs.step, obs.image, coords)]
                          if s.step >= oldest]
            request = build_request(task=obs.task, config=self.config, history=self.history,
                                    shown=self.shown, note=obs.note, skills=obs.skills)
        started = time.monotonic()
        reply = await self.model.complete(request, timeout=timeout)
        summary = sent_summary(request)
        # What the viewer shows as sent: this step's own prompt text, and which steps'
        # screenshots rode along (by step number: the images are in screens/, not copied).
        summary.update(image_steps=[s.step for s in self.shown],
                       turn_text=request.turns[-1].text if request.turns else "")
        decision = Decision(raw=reply.text, thought="", calls=[], usage=reply.usage,
                            request_summary=summary,
                            model_seconds=time.monotonic() - started)
        try:
            with stage("parse"):
                parsed = parse_reply(reply.text, self.config.point_forms, ablate=self.config.ablate)
        except ParseError as e:
            decision.parse_error = str(e)
            self._asked = _Asked(obs.step, "", "")
            return decision
        decision.thought, decision.stripped = parsed.thought, parsed.stripped
        decision.calls = [Call(None, {}, parsed.action)]
        self._asked = _Asked(obs.step, parsed.thought, parsed.action.source())
        return decision

    async def aclose(self) -> None:
        """Nothing to release: the model client belongs to the caller (one per run)."""
