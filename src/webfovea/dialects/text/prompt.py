"""Building the model request: task, action space, constraints, history, images, note.

Two layouts (``AgentConfig.history``):

- ``blocks`` (default): one conversation turn per step, so a long prefix stays
  byte-identical from one step to the next and providers' prompt caching applies.
  The system text (action space and rules) comes first; then per step a user turn
  (the note on the previous action, that step's screenshot) and an assistant turn
  (the reply). Screenshots leave the window ``history_block`` steps at a time,
  never leaving fewer than ``history_images``: between two block boundaries the
  only change is the new tail.
- ``rolling``: the earlier layout, one user turn with the whole text history and
  the last ``history_images`` screenshots; its prefix changes every step. Kept
  for comparison (``--history rolling``, ``webfovea cost``).

Whatever a page or a model produces, the text it adds is capped (:func:`clip`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...actions.geometry import ModelSpace
from ...actions.registry import action_space_text
from ...core.ablations import OBSERVE_ACTIONS
from ...core.config import AgentConfig
from ...models.base import ModelRequest, SentImage, Turn

SELECT_RULE = "A dropdown (<select>) list does not show in screenshots: use select()."
OBSERVE_RULE = ("Values that appear only on hover need hover(); text below the fold can be "
                "reached with find_text() or scroll().")
# UI-TARS-1.5's own way of writing points (its publishers' parser, the ui-tars package) is read
# too, so such a model's habits cost it no steps (docs/contracts.md, the reply grammar).
UITARS_RULE = ("Points may also be written point='<point>x y</point>' (start_point=, end_point= "
               "for drag) or as a box '<bbox>x1 y1 x2 y2</bbox>', which means its centre.")
# The rule a fix added, left out of the prompt when that fix is ablated (webfovea.core.ablations).
FIX_RULES = {"select": SELECT_RULE, "observe": OBSERVE_RULE}
COORDINATE_RULE = "Coordinates refer to the most recent screenshot."
CONSTRAINTS = (
    "Use only the actions listed; there is no way to open a URL directly.",
    "Stay on the website you were given; links to other sites are blocked.",
    "Answer only from what this website shows you in this session, never from memory.",
    "Reply with exactly one Thought and one Action, then stop.",
    COORDINATE_RULE,
    SELECT_RULE,
    "End text with \\n in type() or fill() to press Enter.",
    "Browser shortcuts that close, open or switch tabs, focus the address bar, print, save or "
    "open developer tools are refused.",
    OBSERVE_RULE,
    "When you have the answer, reply finished(content='the answer'), on the page that shows it.",
    UITARS_RULE,
)
# Caps on text a page or a model controls, so a request stays bounded whatever they do.
NOTE_CAP = 2000
THOUGHT_CAP = 1500
ACTION_CAP = 1000
TASK_CAP = 4000
OMITTED = "(screenshot no longer shown)"


@dataclass(frozen=True)
class HistoryItem:
    step: int
    thought: str
    action: str
    note: str


@dataclass(frozen=True)
class Shown:
    """One step's screenshot as sent, with the sentence giving its coordinate space."""

    step: int
    image: SentImage
    coords: str


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, saying how much was left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]} … and {len(text) - limit:,} more characters"


# With a grounder the prompt asks for targets only: the action list shows target= where a
# point would be, and no sentence asks for points (a point given anyway is still obeyed).
TARGET_RULE = ("Name elements, never coordinates: write target='a short description of the "
               "element' (end_target= for drag's end), e.g. click(target='the blue Search "
               "button'), fill(target='the search box', content='shoes'). A grounding model "
               "places it on the current screenshot; the feedback says where and on what.")
TARGETS_COORDINATE_RULE = "Targets name elements of the most recent screenshot."
FORM_RULES = {
    "target": TARGET_RULE,
    "mark": ("Numbered labels mark the page's interactive elements on the screenshot: wherever "
             "an action takes a point you may write mark=N (end_mark= for drag's end), e.g. "
             "click(mark=3)."),
}
MARK_FOR_TARGET = ("Numbered labels mark the page's interactive elements on the screenshot: "
                   "wherever an action takes a target you may write mark=N instead (end_mark= "
                   "for drag's end), e.g. click(mark=3).")


def asks_targets(forms: frozenset[str]) -> bool:
    """Whether the prompt asks for targets instead of points (a run with a grounder)."""
    return "target" in forms


def forms_text(forms: frozenset[str]) -> str:
    """The rules for the point forms a run accepts ('' for none: the prompt is unchanged)."""
    rules = dict(FORM_RULES, mark=MARK_FOR_TARGET) if asks_targets(forms) else FORM_RULES
    return "\n".join(rules[f] for f in ("target", "mark") if f in forms)


def system_text(skills: str = "", forms: frozenset[str] = frozenset(), *,
                ablate: frozenset[str] = frozenset()) -> str:
    """The system text; ``skills`` (the task's skills section, constant for the task) ends it;
    ``forms``: the point forms the run accepts, said after the rules; ``ablate``: the run's
    ablated fixes, whose rules and actions it leaves out without a word, as the naive
    harness's prompt was."""
    dropped = {FIX_RULES[f] for f in ablate if f in FIX_RULES}
    targets = asks_targets(forms)
    constraints = (TARGETS_COORDINATE_RULE if targets and c == COORDINATE_RULE else c
                   for c in CONSTRAINTS if c not in dropped)
    rules = "\n".join(f"{i}. {c}" for i, c in enumerate(constraints, 1))
    if forms:
        rules += f"\n\n{'Targets' if targets else 'Points'}:\n{forms_text(forms)}"
    hidden = OBSERVE_ACTIONS if "observe" in ablate else frozenset()
    text = (
        "You are a web agent operating a real browser through screenshots. Each turn you see "
        "screenshots of the page and reply in this format:\n"
        "Thought: <your reasoning>\nAction: <one action>\n\n"
        f"Actions:\n{action_space_text(hidden, targets=targets)}\n\nRules:\n{rules}"
    )
    return f"{text}\n\n{skills}" if skills else text


def coordinate_text(space: ModelSpace, sent_w: int, sent_h: int, coords: str, *,
                    points: bool = True) -> str:
    """The sentence giving a step's screenshot size; ``points``: and how to give points (a
    prompt asking for targets says the size only)."""
    if not points:
        return f"The screenshot is {sent_w}x{sent_h} pixels."
    if coords == "norm1000":
        return (f"The screenshot is {sent_w}x{sent_h} pixels; give points normalised to 0-1000 "
                "on each axis.")
    if coords == "smart_resize":
        return (f"The screenshot is {space.width:g}x{space.height:g} pixels in your input grid; "
                "give points in those pixels.")
    return (f"The screenshot is {sent_w}x{sent_h} pixels; give points in that image's pixels, "
            "(0,0) at the top left.")


def first_shown(step: int, config: AgentConfig) -> int:
    """The oldest step whose screenshot request ``step`` still carries.

    ``rolling``: the last ``history_images``. ``blocks``: the window start moves by
    ``history_block`` steps at once, as late as still leaves ``history_images``.
    """
    keep = config.history_images
    if step <= keep:
        return 1
    if config.history == "rolling":
        return step - keep + 1
    return (step - keep) // config.history_block * config.history_block + 1


def build_request(*, task: str, config: AgentConfig, history: Sequence[HistoryItem],
                  shown: Sequence[Shown], note: str, skills: str = "") -> ModelRequest:
    """The request for the step after ``history``; ``shown``: the screenshots from
    :func:`first_shown` on, oldest first, the last one the page now."""
    step = shown[-1].step
    window = [s for s in shown if s.step >= first_shown(step, config)]
    turns: tuple[Turn, ...]
    if config.history == "rolling":
        turns = (_rolling_turn(task, history, window, note),)
        cache_system = False
    else:
        turns = _block_turns(task, history, window, config.history_block)
        cache_system = True
    return ModelRequest(system=system_text(skills, config.point_forms, ablate=config.ablate), turns=turns,
                        max_tokens=config.max_tokens,
                        task=task, step=step, note=note, cache_system=cache_system,
                        sampling=dict(config.sampling))


def _reply_text(item: HistoryItem) -> str:
    return f"Thought: {clip(item.thought, THOUGHT_CAP)}\nAction: {clip(item.action, ACTION_CAP)}"


def _block_turns(task: str, history: Sequence[HistoryItem], window: Sequence[Shown],
                 block: int) -> tuple[Turn, ...]:
    start, step = window[0].step, window[-1].step
    by_step = {s.step: s for s in window}
    notes = {h.step + 1: h.note for h in history}
    # Breakpoints (with the system text and the tail at most 4, Anthropic's limit): the last
    # turn without a screenshot, unchanged until the next boundary, and the one a block
    # earlier, the longest prefix still cached when a boundary is crossed.
    stable = {start - 1, start - 1 - block}
    turns: list[Turn] = []
    for h in [*history, None]:
        number = h.step if h is not None else step
        head = f"Task: {clip(task, TASK_CAP)}\n\nStep 1." if number == 1 else f"Step {number}."
        if number in notes:
            head += f" Feedback on your last action: {clip(notes[number], NOTE_CAP)}"
        seen = by_step.get(number)
        text = f"{head}\n{seen.coords}" if seen else f"{head}\n{OMITTED}"
        images = (seen.image,) if seen else ()
        turns.append(Turn("user", text, images, cache=number in stable or h is None))
        if h is not None:
            turns.append(Turn("assistant", _reply_text(h)))
    return tuple(turns)


def _rolling_turn(task: str, history: Sequence[HistoryItem], window: Sequence[Shown],
                  note: str) -> Turn:
    lines = [f"Task: {clip(task, TASK_CAP)}", ""]
    if history:
        lines.append("Previous steps:")
        for h in history:
            lines.append(f"Step {h.step}: Thought: {clip(h.thought, THOUGHT_CAP)}\n"
                         f"  Action: {clip(h.action, ACTION_CAP)}\n  Result: {clip(h.note, NOTE_CAP)}")
        lines.append("")
    lines.append(window[-1].coords)
    if note:
        lines.append(f"Feedback on your last action: {clip(note, NOTE_CAP)}")
    lines.append(f"The last {len(window)} screenshot(s) follow, oldest first; the last one is now.")
    images = tuple(SentImage(s.image.png, s.image.width, s.image.height, f"step {s.step}")
                   for s in window)
    return Turn("user", "\n".join(lines), images)
