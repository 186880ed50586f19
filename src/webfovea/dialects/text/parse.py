"""PARSE stage: a model's reply text → one :class:`Action`, or a :class:`ParseError` for the model.

Only the first Thought/Action pair counts (the reply grammar, docs/contracts.md). Chat-template tokens the
model generated itself are removed everywhere before anything else is read, so they can never be
typed into a page (the paper's 4.9 % of polluted episodes); everything discarded is returned in
``ParsedReply.stripped`` so the trajectory can show it. The reply is untrusted text of any size:
every pattern here is linear, and the call itself is read by a small one-pass tokenizer.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass

from webfovea.actions.keys import key_names
from webfovea.actions.registry import (
    ACTION_ALIASES,
    DIRECTIONS,
    FORM_FLAGS,
    TEXT_ACTIONS,
    Action,
    ActionSpec,
    ArgSpec,
    ArgValue,
    Point,
    form_args,
)
from webfovea.core.ablations import OBSERVE_ACTIONS
from webfovea.core.errors import ParseError


@dataclass(frozen=True)
class ParsedReply:
    thought: str
    action: Action
    stripped: tuple[str, ...]
    """Every piece of text the parser discarded, in the order it discarded them."""


_BOX_START, _BOX_END = "<|box_start|>", "<|box_end|>"
_BAR = "[|\uff5c]"  # DeepSeek's tokens use the full-width bar: <｜end▁of▁sentence｜>
# Only the template shape `<|name|>` (a name without spaces or quotes) is a token, so
# legitimate text such as `<|>`, `a <| b |> c` or `x || y` is left alone. The box markers are
# kept here: inside a point they are a wrapper the point reader understands.
_TOKEN_RE = re.compile(
    r"<\|start_header_id\|>[^<>|\n]{0,32}<\|end_header_id\|>"
    r"|<\|im_start\|>(?:(?:system|user|assistant|tool)\b)?"
    r"|<start_of_turn>(?:(?:user|model)\b)?|<end_of_turn>|</s>"
    rf"|<{_BAR}(?!box_(?:start|end){_BAR}>)[\w\u2581.:-]{{1,64}}{_BAR}>"
)
# In free text (thought, text arguments) the box markers are template tokens like any other.
# The one pattern of a chat-template token: diagnose looks for the same ones the parser strips.
TOKEN_PATTERN = re.compile(rf"{_TOKEN_RE.pattern}|<\|box_(?:start|end)\|>")
_MAX_PASSES = 4  # removing `<|eot<|eot_id|>_id|>` leaves a token; nesting deeper is an attack


def _marker(word: str) -> re.Pattern[str]:
    # At a line start any case and markdown decoration (`**Action:**`, `# Action`, backticks);
    # mid-line only the exact word, so "my next action: ..." inside a thought is no marker.
    tail = r"[*_ \t]*:[*_ \t]*"
    return re.compile(rf"^[ \t>#*_`-]*(?i:{word}){tail}|(?<!\w){word.capitalize()}{tail}", re.M)


_ACTION_RE = _marker("action")
_THOUGHT_RE = _marker("thought")
_THINK_END = "</think>"  # reasoning models may draft actions inside <think>…</think>
_LEAD_RE = re.compile(r"\s*(?:```[ \t]*(?:[A-Za-z]\w*[ \t]*\n)?\s*|`+\s*)?")
_NAME_RE = re.compile(r"[A-Za-z_]\w*")
_CALL_RE = re.compile(r"[A-Za-z_]\w*[ \t]*\(")
_WS_RE = re.compile(r"\s*")
_INLINE_WS_RE = re.compile(r"[ \t]*")
# A quote closes its value only where the call can go on: `)`, `, name=`, `, )` or the end.
# Any other quote is part of the text, which tolerates `content='Rock 'n' roll'`.
_CLOSE_RE = re.compile(r"\s*(?:\)|,\s*(?:\)|[A-Za-z_]\w*\s*[=:])|\Z)")
_PLAIN_RE = {"'": re.compile(r"[^'\\]*"), '"': re.compile(r'[^"\\]*')}
_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", "'": "'", '"': '"'}
_BARE_RE = re.compile(
    r"(?:<\|box_start\|>)?\s*[(\[][^()\[\]]*[)\]]\s*(?:<\|box_end\|>)?|[^\s,()\[\]'\"]+"
)
_NUM_RE = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")
# UI-TARS-1.5's point and box tags, numbers apart by spaces: <point>x y</point>, <bbox>x1 y1 x2 y2</bbox>.
_TAGGED_RE = re.compile(r"<(point|bbox)>\s*([^<>]{0,200}?)\s*</\1>")
_EXAMPLE = "Reply with `Thought: ...` then one `Action: click(start_box='(x,y)')`."
_TARGET_EXAMPLE = ("Reply with `Thought: ...` then one "
                   "`Action: click(target='the blue Search button')`.")


@dataclass(frozen=True)
class _Naive:
    """What the naive parser did, for the fixes a run ablates (webfovea.core.ablations)."""

    keep_tokens: bool = False  # "token-strip": template tokens stay in the reply
    last_action: bool = False  # "first-action": the last Action: wins
    offered: frozenset[str] = frozenset(TEXT_ACTIONS)  # "observe": fewer actions

    @classmethod
    def of(cls, ablate: frozenset[str]) -> _Naive:
        offered = frozenset(TEXT_ACTIONS) - (OBSERVE_ACTIONS if "observe" in ablate else set())
        return cls("token-strip" in ablate, "first-action" in ablate, offered)


# Set for the one parse_reply call it belongs to, read by the helpers deep in the reader.
_NAIVE: ContextVar[_Naive] = ContextVar("naive_parse")
# Whether the run asks for targets (a grounder): an error's example then shows targets too.
_TARGETS: ContextVar[bool] = ContextVar("targets_asked", default=False)
_FULL = _Naive()


def parse_reply(text: str, forms: frozenset[str] = frozenset(), *,
                ablate: frozenset[str] = frozenset()) -> ParsedReply:
    """The first Thought/Action pair of ``text``; raises only :class:`ParseError`.
    ``forms``: the point forms the run accepts instead of a point (``target``, ``mark``);
    ``ablate``: the run's ablated fixes, of which the parser has three."""
    if not isinstance(text, str):
        raise _fail("the reply is not text")
    token, asked = _NAIVE.set(_Naive.of(ablate)), _TARGETS.set("target" in forms)
    try:
        return _parse(text, forms)
    finally:
        _NAIVE.reset(token)
        _TARGETS.reset(asked)


def _parse(text: str, forms: frozenset[str]) -> ParsedReply:
    stripped: list[str] = []
    clean = _drop_reasoning(_scrub(text, _TOKEN_RE, stripped), stripped)
    marker = _find_action(clean)
    thought = _thought(clean, marker.start(), stripped)
    spec, raw, end = _Reader(clean, marker.end()).call()
    action = _build(spec, raw, stripped, forms)
    _discard(clean[end:], stripped)
    return ParsedReply(thought=thought, action=action, stripped=tuple(stripped))


def _fail(problem: str, spec: ActionSpec | None = None) -> ParseError:
    targets = _TARGETS.get()
    if spec is None:
        hint = _TARGET_EXAMPLE if targets else _EXAMPLE
    else:
        hint = f"Write it as `Action: {spec.signature_for(targets=targets)}`."
    return ParseError(f"Could not parse your reply: {problem}. {hint}")


def _show(text: str, limit: int = 40) -> str:
    """Model text quoted back in an error: one line, short."""
    flat = " ".join(text[: limit * 4].split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def _scrub(text: str, pattern: re.Pattern[str], stripped: list[str]) -> str:
    if _NAIVE.get(_FULL).keep_tokens:  # the "token-strip" fix ablated: polluted search boxes
        return text

    def record(match: re.Match[str]) -> str:
        stripped.append(match.group())
        return ""

    for _ in range(_MAX_PASSES):
        text, removed = pattern.subn(record, text)
        if not removed:
            return text
    if pattern.search(text) is None:
        return text
    raise _fail("the reply is full of nested chat-template tokens such as `<|eot_id|>`")


def _discard(text: str, stripped: list[str]) -> None:
    # A code fence or a trailing `;` around the action is a formatting slip, not junk.
    if text.strip(" \t\r\n;`"):
        stripped.append(text.strip())


def _drop_reasoning(text: str, stripped: list[str]) -> str:
    head, sep, tail = text.rpartition(_THINK_END)
    if not sep or _ACTION_RE.search(tail) is None:
        return text
    stripped.append((head + sep).strip())
    return tail


def _find_action(text: str) -> re.Match[str]:
    """The first `Action:` followed by a call; else the first `Action:` (for its error)."""
    first: re.Match[str] | None = None
    last: re.Match[str] | None = None
    for marker in _ACTION_RE.finditer(text):
        first = first or marker
        if _CALL_RE.match(text, _end(_LEAD_RE, text, marker.end())):
            if not _NAIVE.get(_FULL).last_action:
                return marker
            last = marker
    if last is not None:
        return last
    if first is None:
        raise _fail("no `Action:` line found")
    return first


def _thought(text: str, action_start: int, stripped: list[str]) -> str:
    marker = _THOUGHT_RE.search(text, 0, action_start)
    if marker is None:
        body = text[:action_start]
    else:
        _discard(text[: marker.start()], stripped)
        body = text[marker.end() : action_start]
    return _scrub(body, TOKEN_PATTERN, stripped).strip()


def _end(pattern: re.Pattern[str], text: str, pos: int) -> int:
    match = pattern.match(text, pos)
    return pos if match is None else match.end()


class _Reader:
    """Reads ``name(arg=value, ...)`` in one pass from ``pos``; never backtracks."""

    def __init__(self, text: str, pos: int) -> None:
        self.text = text
        self.pos = pos

    def peek(self) -> str:
        return self.text[self.pos : self.pos + 1]

    def skip(self, pattern: re.Pattern[str] = _WS_RE) -> None:
        self.pos = _end(pattern, self.text, self.pos)

    def call(self) -> tuple[ActionSpec, list[tuple[str, str]], int]:
        self.skip(_LEAD_RE)
        name = _NAME_RE.match(self.text, self.pos)
        if name is None:
            raise _fail("`Action:` is not followed by an action name")
        spec = _lookup(name.group())
        self.pos = name.end()
        self.skip(_INLINE_WS_RE)
        if self.peek() != "(":
            if spec.args:
                raise _fail(f"`{spec.name}` needs its arguments in parentheses", spec)
            return spec, [], self.pos  # `Action: wait` — nothing to misread
        self.pos += 1
        return spec, self.args(spec), self.pos

    def args(self, spec: ActionSpec) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        while True:
            self.skip()
            if self.peek() == ")":
                self.pos += 1
                return out
            if not self.peek():
                # The reply ends where only `)` is missing: UI-TARS's parser closes the call
                # (a cut inside a value is still an error: its quote is missing).
                return out
            out.append(self.arg(spec))
            self.skip()
            if self.peek() == ",":
                self.pos += 1
            elif self.peek() not in (")", ""):
                raise _fail(f"expected `,` or `)` after `{out[-1][0]}=...` in `{spec.name}`", spec)

    def arg(self, spec: ActionSpec) -> tuple[str, str]:
        name = _NAME_RE.match(self.text, self.pos)
        if name is None:
            raise _fail(f"each argument of `{spec.name}` needs a name: `name='value'`", spec)
        self.pos = name.end()
        self.skip()
        if self.peek() not in ("=", ":"):
            raise _fail(f"expected `=` after the argument name `{_show(name.group())}`", spec)
        self.pos += 1
        self.skip()
        return name.group(), self.value(name.group(), spec)

    def value(self, arg: str, spec: ActionSpec) -> str:
        quote = self.peek()
        if quote in ("'", '"'):
            return self.quoted(quote, arg, spec)
        bare = _BARE_RE.match(self.text, self.pos)
        if bare is None:
            raise _fail(f"argument `{_show(arg)}` has no value", spec)
        self.pos = bare.end()
        return bare.group()

    def quoted(self, quote: str, arg: str, spec: ActionSpec) -> str:
        self.pos += 1
        parts: list[str] = []
        while True:
            plain_end = _end(_PLAIN_RE[quote], self.text, self.pos)
            parts.append(self.text[self.pos : plain_end])
            self.pos = plain_end
            char = self.peek()
            if char == "\\" and self.pos + 1 < len(self.text):
                escaped = self.text[self.pos + 1]
                # An unknown escape is text: `C:\Users` stays as written.
                parts.append(_ESCAPES.get(escaped, "\\" + escaped))
                self.pos += 2
            elif char == quote:
                self.pos += 1
                if _CLOSE_RE.match(self.text, self.pos):
                    return "".join(parts)
                parts.append(quote)
            else:  # the end of the reply
                raise _fail(f"the value of `{_show(arg)}` has no closing quote", spec)


def _lookup(name: str) -> ActionSpec:
    offered = _NAIVE.get(_FULL).offered
    name = ACTION_ALIASES.get(name.lower(), name)  # UI-TARS's left_single, move_to, press
    spec = TEXT_ACTIONS.get(name) or TEXT_ACTIONS.get(name.lower())
    if spec is None or spec.name not in offered:
        valid = ", ".join(n for n in TEXT_ACTIONS if n in offered)
        raise _fail(f"unknown action `{_show(name)}`; the valid actions are {valid}")
    return spec


def _build(spec: ActionSpec, raw: Sequence[tuple[str, str]], stripped: list[str],
           forms: frozenset[str] = frozenset()) -> Action:
    raw = [(spec.canonical(name), value) for name, value in raw]  # point= is start_box=
    counts = Counter(name for name, _ in raw)
    offered = {n: f for n, f in form_args(spec).items() if f[1] in forms}
    for name in counts:
        if name in form_args(spec) and name not in offered:
            form = form_args(spec)[name][1]
            raise _fail(f"`{name}=` is accepted only in runs with {FORM_FLAGS[form]}; give the "
                        "point", spec)
    unknown = [n for n in counts if spec.arg(n) is None and n not in offered]
    repeated = [n for n, c in counts.items() if c > 1]
    formed = {point for n, (point, _) in offered.items() if n in counts}
    missing = [s.name for a, s in zip(spec.args, spec.shown_args(targets="target" in forms),
                                      strict=True)
               if a.name not in counts and a.default is None and not a.omissible
               and a.name not in formed]
    labelled = (("unknown", unknown), ("repeated", repeated), ("missing", missing))
    said = "; ".join(f"{label} argument {_names(names)}" for label, names in labelled if names)
    if said:
        raise _fail(f"`{spec.name}` got {said}", spec)
    values = dict(raw)
    args: dict[str, ArgValue] = {}
    for a in spec.args:
        if a.name in values:
            args[a.name] = _convert(a, values[a.name], spec, stripped)
        elif a.default is not None:  # an optional argument the model left out
            args[a.name] = a.default
    for name, (point, form) in offered.items():
        if name in values and point not in args:  # a point given as well is obeyed
            args[name] = _form(name, form, values[name], spec, stripped)
    return Action(spec.name, args)


def _form(name: str, form: str, value: str, spec: ActionSpec, stripped: list[str]) -> str:
    """A point form's value: a description (target) or a mark's number (mark)."""
    text = " ".join(_scrub(value, TOKEN_PATTERN, stripped).split())
    if form == "mark":
        if not text.isdigit() or int(text) < 1:
            raise _fail(f"`{name}` must be a mark's number such as 3, not `{_show(value)}`", spec)
        return str(int(text))
    if not text:
        raise _fail(f"`{name}` must describe the element, e.g. 'the blue Search button'", spec)
    return text


def _names(names: Sequence[str]) -> str:
    shown = ", ".join(f"`{_show(n)}`" for n in names[:5])
    return shown if len(names) <= 5 else f"{shown} and {len(names) - 5} more"


def _convert(arg: ArgSpec, value: str, spec: ActionSpec, stripped: list[str]) -> ArgValue:
    if arg.kind == "point":
        return _point(value, arg, spec)
    if arg.kind == "direction":
        return _direction(value, spec)
    if arg.kind == "choice":
        return _choice(value, arg, spec)
    text = _scrub(value, TOKEN_PATTERN, stripped)
    return _key(text, spec) if arg.kind == "key" else text


def _point(value: str, arg: ArgSpec, spec: ActionSpec) -> Point:
    """'(x,y)', '[x, y]', '<|box_start|>(x,y)<|box_end|>', UI-TARS-1.5's '<point>x y</point>'
    and '<bbox>x1 y1 x2 y2</bbox>'; a box (four numbers) is its centre."""
    body = value.strip()
    tagged = _TAGGED_RE.fullmatch(body)
    if tagged is not None:
        parts = tagged.group(2).replace(",", " ").split(None, 4)
    else:
        body = body.removeprefix(_BOX_START).removesuffix(_BOX_END).strip()
        body = body[1:] if body.startswith(("(", "[")) else body
        body = body[:-1] if body.endswith((")", "]")) else body
        parts = [p.strip() for p in body.split(",", 4)]
    if len(parts) not in (2, 4) or not all(_NUM_RE.fullmatch(p) for p in parts):
        raise _fail(f"`{arg.name}` must be a point like '(x,y)', not `{_show(value)}`", spec)
    nums = [float(p) for p in parts]
    if any(n < 0 for n in nums):
        raise _fail(f"`{arg.name}` has a negative coordinate in `{_show(value)}`; "
                    "points are pixels from the top-left corner, 0 or more", spec)
    x, y = (nums[0], nums[1]) if len(nums) == 2 else _centre(nums)
    if not (math.isfinite(x) and math.isfinite(y)):
        raise _fail(f"`{arg.name}` has a coordinate too large to be a pixel", spec)
    return Point(x + 0.0, y + 0.0)  # + 0.0 turns a written -0 into 0.0


def _centre(box: Sequence[float]) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _direction(value: str, spec: ActionSpec) -> str:
    direction = value.strip().lower()
    if direction not in DIRECTIONS:
        allowed = ", ".join(DIRECTIONS)
        raise _fail(f"direction must be one of {allowed}, not `{_show(value)}`", spec)
    return direction


def _choice(value: str, arg: ArgSpec, spec: ActionSpec) -> str:
    chosen = value.strip().lower()
    if chosen not in arg.choices:
        allowed = " or ".join(f"'{c}'" for c in arg.choices)
        raise _fail(f"`{arg.name}` must be {allowed}, not `{_show(value)}`", spec)
    return chosen


def _key(value: str, spec: ActionSpec) -> str:
    """'Ctrl+A' / 'ctrl  a' → 'ctrl a'; 'ctrl++' is ctrl and the plus key (keys.key_names)."""
    names = key_names(value)
    if not names:
        raise _fail("the key is empty", spec)
    return " ".join(names)
