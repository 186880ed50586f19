"""Building the model request: task, action space, constraints, history, images, note."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .actions import action_space_text
from .config import AgentConfig
from .geometry import ModelSpace
from .models.base import ModelRequest, SentImage, Turn

CONSTRAINTS = (
    "Use only the actions listed; there is no way to open a URL directly.",
    "Stay on the website you were given; links to other sites are blocked.",
    "Answer only from what this website shows you in this session, never from memory.",
    "Reply with exactly one Thought and one Action, then stop.",
    "Coordinates refer to the most recent screenshot.",
    "A dropdown (<select>) list does not show in screenshots: use select().",
    "End text with \\n in type() or fill() to press Enter.",
    "Browser shortcuts that close, open or switch tabs, focus the address bar, print, save or "
    "open developer tools are refused.",
    "Values that appear only on hover need hover(); text below the fold can be reached "
    "with find_text() or scroll().",
    "When you have the answer, reply finished(content='the answer'), on the page that shows it.",
)


@dataclass(frozen=True)
class HistoryItem:
    step: int
    thought: str
    action: str
    note: str


def system_text() -> str:
    rules = "\n".join(f"{i}. {c}" for i, c in enumerate(CONSTRAINTS, 1))
    return (
        "You are a web agent operating a real browser through screenshots. Each turn you see "
        "screenshots of the page and reply in this format:\n"
        "Thought: <your reasoning>\nAction: <one action>\n\n"
        f"Actions:\n{action_space_text()}\n\nRules:\n{rules}"
    )


def coordinate_text(space: ModelSpace, sent_w: int, sent_h: int, coords: str) -> str:
    if coords == "norm1000":
        return (f"The screenshot is {sent_w}x{sent_h} pixels; give points normalised to 0-1000 "
                "on each axis.")
    if coords == "smart_resize":
        return (f"The screenshot is {space.width:g}x{space.height:g} pixels in your input grid; "
                "give points in those pixels.")
    return (f"The screenshot is {sent_w}x{sent_h} pixels; give points in that image's pixels, "
            "(0,0) at the top left.")


def build_request(*, task: str, config: AgentConfig, history: Sequence[HistoryItem],
                  images: Sequence[SentImage], space: ModelSpace, note: str) -> ModelRequest:
    """``images``: the most recent screenshots as sent, oldest first (the loop keeps
    ``config.history_images`` of them); the last one is the page now."""
    lines = [f"Task: {task}", ""]
    if history:
        lines.append("Previous steps:")
        for h in history:
            lines.append(f"Step {h.step}: Thought: {h.thought}\n  Action: {h.action}\n  Result: {h.note}")
        lines.append("")
    last = images[-1]
    lines.append(coordinate_text(space, last.width, last.height, config.coords))
    if note:
        lines.append(f"Feedback on your last action: {note}")
    lines.append(f"The last {len(images)} screenshot(s) follow, oldest first; the last one is now.")
    return ModelRequest(
        system=system_text(),
        turns=(Turn("user", "\n".join(lines), tuple(images)),),
        max_tokens=config.max_tokens,
        task=task,
    )
