"""The action registry: the one table every stage reads.

The prompt's action space, the parser's accepted names and arguments, the
executor's dispatch table and the guard's budget classes all derive from
``REGISTRY``, so an action can never be promised to the model and missing in
the executor (a test checks both directions).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

ArgKind = Literal["point", "text", "direction", "key", "choice"]
BudgetClass = Literal["pointer", "keyboard", "hotkey", "go_back", "reload", "navigate", "observe",
                      "wait", "finish"]
Direction = Literal["up", "down", "left", "right"]
DIRECTIONS: tuple[Direction, ...] = ("up", "down", "left", "right")
SELECT_MODES = ("replace", "add")


@dataclass(frozen=True)
class ArgSpec:
    """One argument. An argument with a ``default`` is optional: the parser fills the default
    in when the model leaves it out, and the canonical source omits it when it equals it."""

    name: str
    kind: ArgKind
    placeholder: str
    default: str | None = None
    choices: tuple[str, ...] = ()  # kind "choice": the values the parser accepts
    # Other names the reply grammar reads it under: UI-TARS's own parser (the ``ui-tars``
    # package) writes ``point=`` / ``start_point=`` / ``end_point=`` for the boxes.
    aliases: tuple[str, ...] = ()
    # The reply grammar may leave it out, and the action is then built without it (UI-TARS's
    # ``finished()``: no answer). Native tool schemas still require it.
    omissible: bool = False


@dataclass(frozen=True)
class ActionSpec:
    name: str
    args: tuple[ArgSpec, ...]
    summary: str
    budget: BudgetClass
    # What the loop, feedback and diagnose need to know of an action, said here once
    # instead of tested by name where it is used:
    ends_task: bool = False  # no page action, the task ends; its content (if any) is the answer
    asks_person: bool = False  # ends the task without an answer: the model asked for a person
    observes: bool = False  # reads the page; its note is its own sentence, not a comparison
    holds_pointer: bool = False  # the mouse stays: its effect may be only a tooltip
    scrolls: bool = False  # moves a view; repeated without effect it is one circuit
    types: bool = False  # types its content; a trailing \n presses Enter
    navigates: bool = False  # its ``url`` is a top-level navigation, judged before it is sent
    # Offered by the text prompt (and read by its parser, and the tools dialect's default
    # set); False for what only a native protocol asks for (Anthropic's zoom).
    in_text_prompt: bool = True
    # The summary a prompt asking for targets shows, for the actions whose summary speaks
    # of points ('': the summary says no point).
    target_summary: str = ""

    @property
    def signature(self) -> str:
        """The call as the prompt shows it, e.g. ``click(start_box='(x,y)')``."""
        return self.signature_for(targets=False)

    def signature_for(self, *, targets: bool) -> str:
        """The call as a prompt shows it; ``targets``: with each point as its target form,
        e.g. ``click(target='the element')`` (a run with a grounder asks for targets only)."""
        inner = ", ".join(f"{a.name}='{a.placeholder}'" for a in self.shown_args(targets=targets))
        return f"{self.name}({inner})"

    def summary_for(self, *, targets: bool) -> str:
        return self.target_summary if targets and self.target_summary else self.summary

    def shown_args(self, *, targets: bool) -> tuple[ArgSpec, ...]:
        """The arguments as a prompt shows them; ``targets``: each point argument as its
        target form (``start_box`` as ``target``, ``end_box`` as ``end_target``)."""
        if not targets:
            return self.args
        return tuple(_target_arg(a) if a.kind == "point" else a for a in self.args)

    @property
    def arg_names(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.args)

    def arg(self, name: str) -> ArgSpec | None:
        return next((a for a in self.args if a.name == name), None)

    def canonical(self, name: str) -> str:
        """The argument name ``name`` stands for (itself, or the argument it is an alias of)."""
        return next((a.name for a in self.args if name in a.aliases), name)


_POINT = ArgSpec("start_box", "point", "(x,y)", aliases=("point", "start_point"))
_END = ArgSpec("end_box", "point", "(x2,y2)", aliases=("end_point",))
_CONTENT = ArgSpec("content", "text", "text")

_SPECS: tuple[ActionSpec, ...] = (
    ActionSpec("click", (_POINT,), "left click", "pointer"),
    ActionSpec("left_double", (_POINT,), "double click", "pointer"),
    ActionSpec("right_single", (_POINT,), "right click", "pointer"),
    ActionSpec("hover", (_POINT,), "move the mouse there and keep it (reveals tooltips)", "pointer",
               holds_pointer=True),
    ActionSpec(
        "drag",
        (ArgSpec("start_box", "point", "(x1,y1)", aliases=_POINT.aliases), _END),
        "press at the first point, move to the second, release",
        "pointer",
        target_summary="press on the target, move to the end target, release",
    ),
    ActionSpec(
        "scroll",
        # UI-TARS's parser reads a scroll without a point (pyautogui scrolls where the mouse
        # is): the loop scrolls at the screenshot's centre (loop.points).
        (ArgSpec("start_box", "point", "(x,y)", aliases=_POINT.aliases, omissible=True),
         ArgSpec("direction", "direction", "down")),
        "scroll the element under the point; direction is up, down, left or right",
        "pointer",
        scrolls=True,
        target_summary="scroll the target element; direction is up, down, left or right",
    ),
    ActionSpec(
        "type",
        (_CONTENT,),
        "type into the focused element; end the content with \\n to press Enter",
        "keyboard",
        types=True,
    ),
    ActionSpec(
        "fill",
        (_POINT, _CONTENT),
        "focus the field at the point, clear it, type the text and read the value back",
        "keyboard",
        types=True,
        target_summary="focus the target field, clear it, type the text and read the value back",
    ),
    ActionSpec(
        "select",
        (_POINT, ArgSpec("option", "text", "text"),
         ArgSpec("mode", "choice", "replace", default="replace", choices=SELECT_MODES)),
        "choose an option in the dropdown at the point: a <select>, or a custom one (combobox, "
        "Select2, Tom Select ...), which it opens, scrolls to the option and clicks; says what it "
        "now shows; in a multi-select mode='add' keeps the options already selected, "
        "mode='replace' (the default) drops them",
        "pointer",
        target_summary="choose an option in the target dropdown: a <select>, or a custom one "
        "(combobox, Select2, Tom Select ...), which it opens, scrolls to the option and clicks; "
        "says what it now shows; in a multi-select mode='add' keeps the options already "
        "selected, mode='replace' (the default) drops them",
    ),
    ActionSpec("hotkey", (ArgSpec("key", "key", "ctrl a", aliases=("hotkey", "press")),),
               "press a key combination", "hotkey"),
    ActionSpec(
        "find_text",
        (ArgSpec("text", "text", "..."),),
        "scroll the next match of the text into view (frames too); says match i of n",
        "observe",
        observes=True,
    ),
    ActionSpec(
        "read_text",
        (ArgSpec("label", "text", "..."),),
        "return up to 600 characters of page text around the best match for the label",
        "observe",
        observes=True,
    ),
    ActionSpec(
        "zoom",
        (ArgSpec("start_box", "point", "(x1,y1)"), ArgSpec("end_box", "point", "(x2,y2)")),
        "return the region between the two corners as an image at the page's full resolution",
        "observe",
        observes=True,
        in_text_prompt=False,
    ),
    ActionSpec("go_back", (), "go back to the previous page", "go_back"),
    # Only for protocols with an address bar (MCP's open, Gemini's navigate): the text
    # prompt has no open-URL action (the reply grammar, docs/contracts.md), so its parser
    # refuses this as unknown.
    ActionSpec(
        "navigate",
        (ArgSpec("url", "text", "https://..."),),
        "open an http(s) URL in the tab, on the task's site only (the domain lock judges it)",
        "navigate",
        navigates=True,
        in_text_prompt=False,
    ),
    ActionSpec("reload", (), "reload the page (small budget)", "reload"),
    ActionSpec("wait", (), "wait for the page to settle", "wait"),
    ActionSpec("finished", (ArgSpec("content", "text", "text", omissible=True),),
               "end the task with the answer as content; finished() without content ends a "
               "task that asks for no answer (navigation only)", "finish", ends_task=True),
    ActionSpec("call_user", (), "give up and ask for a person, only when the task cannot be done "
               "here at all; the task ends without an answer", "finish", ends_task=True,
               asks_person=True),
)

REGISTRY: Mapping[str, ActionSpec] = {s.name: s for s in _SPECS}
# Point forms (docs/grounding.md): where an action takes a point, a reply may instead name the
# element (``target``, placed by the grounder) or a numbered mark of the observation
# (``mark``), each under its own argument name. They are accepted only when the run enables
# them (AgentConfig.point_forms) and become a point before the action runs (loop.points).
POINT_FORMS: Mapping[str, Mapping[str, str]] = {
    "start_box": {"target": "target", "mark": "mark"},
    "end_box": {"target": "end_target", "mark": "end_mark"},
}
FORM_FLAGS: Mapping[str, str] = {"target": "--grounder", "mark": "--observation marks"}
# How a prompt asking for targets shows each target argument.
_TARGET_PLACEHOLDERS: Mapping[str, str] = {"target": "the element",
                                           "end_target": "the element it ends on"}


def _target_arg(point: ArgSpec) -> ArgSpec:
    name = POINT_FORMS[point.name]["target"]
    return ArgSpec(name, "text", _TARGET_PLACEHOLDERS[name])


def form_args(spec: ActionSpec) -> dict[str, tuple[str, str]]:
    """The point-form argument names of ``spec``: name -> (its point argument, its form)."""
    return {name: (arg.name, form) for arg in spec.args if arg.kind == "point"
            for form, name in POINT_FORMS.get(arg.name, {}).items()}
# The action set the text prompt offers and its parser reads (the closed set a model is told of).
TEXT_ACTIONS: Mapping[str, ActionSpec] = {s.name: s for s in _SPECS if s.in_text_prompt}
# Names UI-TARS's parser and its pyautogui translation (the ``ui-tars`` package) give these
# actions: the reply grammar reads them as the action they stand for.
ACTION_ALIASES: Mapping[str, str] = {"left_single": "click", "move_to": "hover", "press": "hotkey"}


@dataclass(frozen=True)
class Point:
    """A point in the model's coordinate space, exactly as the model wrote it."""

    x: float
    y: float


ArgValue = str | Point


@dataclass(frozen=True)
class Action:
    """One parsed action: a registry name and its typed arguments."""

    name: str
    args: Mapping[str, ArgValue] = field(default_factory=dict)

    @property
    def spec(self) -> ActionSpec:
        return REGISTRY[self.name]

    def point(self, name: str = "start_box") -> Point:
        value = self.args[name]
        if not isinstance(value, Point):
            raise TypeError(f"{self.name}.{name} is not a point")
        return value

    def text(self, name: str) -> str:
        """A text argument; an optional one the action was built without reads as its default."""
        spec = self.spec.arg(name)
        value = self.args.get(name, spec.default if spec else None)
        if value is None:
            raise KeyError(f"{self.name} has no argument {name}")
        if not isinstance(value, str):
            raise TypeError(f"{self.name}.{name} is not text")
        return value

    def source(self) -> str:
        """Canonical text of the action, as the prompt's history shows it."""
        parts = []
        forms = form_args(self.spec)
        for spec in self.spec.args:
            if spec.name not in self.args and spec.omissible:
                continue  # left out, as finished() is
            if spec.name not in self.args and spec.kind == "point":  # given as a point form
                parts += [f"{n}={_form_value(self.args[n])}" for n, (point, _) in forms.items()
                          if point == spec.name and n in self.args]
                continue
            value = self.args.get(spec.name, spec.default)
            if spec.default is not None and value == spec.default:
                continue  # optional and left as it is: the call reads as models usually write it
            assert value is not None
            if isinstance(value, Point):
                shown = f"({_num(value.x)},{_num(value.y)})"
            else:
                shown = value.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n")
            parts.append(f"{spec.name}='{shown}'")
        return f"{self.name}({', '.join(parts)})"

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"name": self.name}
        for key, value in self.args.items():
            out[key] = [value.x, value.y] if isinstance(value, Point) else value
        return out


def _form_value(value: ArgValue) -> str:
    if isinstance(value, str) and value.isdigit():
        return value  # a mark: mark=3
    shown = str(value).replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n")
    return f"'{shown}'"


def _num(v: float) -> str:
    """A coordinate without exponent notation, which the parser does not read."""
    return str(int(v)) if float(v).is_integer() else f"{v:.6f}".rstrip("0").rstrip(".")


def action_space_text(hidden: frozenset[str] = frozenset(), *, targets: bool = False) -> str:
    """The action space as the prompt shows it, one line per action (but ``hidden``);
    ``targets``: pointing actions take targets, not points (a run with a grounder)."""
    return "\n".join(f"{s.signature_for(targets=targets)}  # {s.summary_for(targets=targets)}"
                     for s in TEXT_ACTIONS.values() if s.name not in hidden)
