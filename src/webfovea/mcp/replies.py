"""What a tool call answers, before it becomes MCP content: the note, the screenshot after
the action (as sent, with its size stated) and whether it is an error result."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..dialects.base import Observation
from .dialect import Answer


@dataclass(frozen=True)
class Reply:
    text: str
    error: bool = False
    images: tuple[bytes, ...] = ()  # PNGs: an observation's own image (zoom), the screenshot
    data: dict[str, Any] = field(default_factory=dict)  # the MCP result's structured content

    @classmethod
    def failed(cls, text: str, *, guardrail: str | None = None) -> Reply:
        """Refused before the session's run started (nothing to record yet)."""
        return cls(text, error=True, data={"outcome": "refused" if guardrail else "error",
                                           "guardrail": guardrail})

    @classmethod
    def of(cls, answer: Answer, *, out: Path, opened: str | None = None) -> Reply:
        if answer.ended is not None:
            return _ended(answer, out)
        obs = answer.obs
        assert obs is not None
        result = answer.result
        data = {**_screen(obs), "run_dir": str(out)}
        if result is None:  # a screenshot, or the first page of open(url)
            lead = f"Opened {opened}." if opened else "The page as it stands."
            return cls(f"{lead}\n{_said(obs)}", images=(obs.image.png,), data=data)
        data.update(note=result.note, outcome=result.outcome, guardrail=result.guardrail,
                    executed=result.executed)
        said = _said(obs)
        images: tuple[bytes, ...] = (obs.image.png,)
        if result.image is not None:  # zoom: its own image first, then the screenshot
            data["zoom"] = {"width": result.image.width, "height": result.image.height}
            said = (f"The first image is the zoomed region ({result.image.width}x"
                    f"{result.image.height} pixels); the second is the screenshot.\n{said}")
            images = (result.image.png, *images)
        # A guardrail that acted (a navigation the lock blocked) makes it an error result too.
        return cls(f"{result.note} [{result.outcome}]\n{said}",
                   error=result.error or result.guardrail is not None, images=images,
                   data=data)


def _screen(obs: Observation) -> dict[str, Any]:
    return {"step": obs.step, "url": obs.url,
            "image": {"width": obs.image.width, "height": obs.image.height},
            "page": {"width": obs.page_size.width, "height": obs.page_size.height}}


def _said(obs: Observation) -> str:
    return (f"Screenshot: {obs.image.width}x{obs.image.height} pixels of {obs.url} (the page is "
            f"{obs.page_size.width}x{obs.page_size.height} CSS px). Give points as [x, y] in the "
            "pixels of this image.")


def _ended(answer: Answer, out: Path) -> Reply:
    result = answer.ended
    assert result is not None
    data = {"status": result.status, "answer": result.answer, "run_dir": str(out),
            "error": result.error}
    if result.status == "finished" and not answer.late:
        return Reply(f"Answer recorded: {result.answer!r}. The session's run ended (status "
                     f"finished, {result.steps} steps); run directory {out}.", data=data)
    why = f": {result.error}" if result.error else ""
    return Reply(f"The session's run has ended with status {result.status}{why}; run "
                 f"directory {out}. Start a new MCP session for another task.", error=True,
                 data=data)
