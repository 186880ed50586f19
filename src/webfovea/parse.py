"""PARSE stage: a model's reply text → one :class:`Action`, or a :class:`ParseError` for the model.

Only the first Thought/Action pair counts (DESIGN "Reply grammar"). Chat-template tokens the
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
from dataclasses import dataclass

from webfovea.actions import DIRECTIONS, REGISTRY, Action, ActionSpec, ArgSpec, ArgValue, Point
from webfovea.errors import ParseError


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
    r"|<\|im_start\|>(?:system|user|assistant|tool)?\b"
    r"|<start_of_turn>(?:user|model)?\b|<end_of_turn>|</s>"
    rf"|<{_BAR}(?!box_(?:start|end){_BAR}>)[\w\u2581.:-]{{1,64}}{_BAR}>"
)
# In free text (thought, text arguments) the box markers are template tokens like any other.
_ANY_TOKEN_RE = re.compile(rf"{_TOKEN_RE.pattern}|<\|box_(?:start|end)\|>")
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
_KEY_SPLIT_RE = re.compile(r"[\s+]+")
_EXAMPLE = "Reply with `Thought: ...` then one `Action: click(start_box='(x,y)')`."


def parse_reply(text: str) -> ParsedReply:
    """The first Thought/Action pair of ``text``; raises only :class:`ParseError`."""
    if not isinstance(text, str):
        raise _fail("the reply is not text")
    stripped: list[str] = []
    clean = _drop_reasoning(_scrub(text, _TOKEN_RE, stripped), stripped)
    marker = _find_action(clean)
    thought = _thought(clean, marker.start(), stripped)
    spec, raw, end = _Reader(clean, marker.end()).call()
    action = _build(spec, raw, stripped)
    rest = clean[end:]
    if rest.strip(" \t\r\n;`"):  # a trailing `;` or closing fence is a slip, not junk
        stripped.append(rest.strip())
    return ParsedReply(thought=thought, action=action, stripped=tuple(stripped))


def _fail(problem: str, spec: ActionSpec | None = None) -> ParseError:
    hint = _EXAMPLE if spec is None else f"Write it as `Action: {spec.signature}`."
    return ParseError(f"Could not parse your reply: {problem}. {hint}")


def _show(text: str, limit: int = 40) -> str:
    """Model text quoted back in an error: one line, short."""
    flat = " ".join(text[: limit * 4].split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def _scrub(text: str, pattern: re.Pattern[str], stripped: list[str]) -> str:
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


def _drop_reasoning(text: str, stripped: list[str]) -> str:
    head, sep, tail = text.rpartition(_THINK_END)
    if not sep or _ACTION_RE.search(tail) is None:
        return text
    stripped.append((head + sep).strip())
    return tail


def _find_action(text: str) -> re.Match[str]:
    """The first `Action:` followed by a call; else the first `Action:` (for its error)."""
    first: re.Match[str] | None = None
    for marker in _ACTION_RE.finditer(text):
        first = first or marker
        if _CALL_RE.match(text, _end(_LEAD_RE, text, marker.end())):
            return marker
    if first is None:
        raise _fail("no `Action:` line found")
    return first


def _thought(text: str, action_start: int, stripped: list[str]) -> str:
    marker = _THOUGHT_RE.search(text, 0, action_start)
    if marker is None:
        body = text[:action_start]
    else:
        preamble = text[: marker.start()].strip()
        if preamble:
            stripped.append(preamble)
        body = text[marker.end() : action_start]
    return _scrub(body, _ANY_TOKEN_RE, stripped).strip()


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
            out.append(self.arg(spec))
            self.skip()
            if self.peek() == ",":
                self.pos += 1
            elif self.peek() != ")":
                raise _fail(f"expected `,` or `)` after `{out[-1][0]}=...` in `{spec.name}`", spec)

    def arg(self, spec: ActionSpec) -> tuple[str, str]:
        if not self.peek():
            raise _fail(f"`{spec.name}(` is never closed with `)`", spec)
        name = _NAME_RE.match(self.text, self.pos)
        if name is None:
            raise _fail(f"every argument of `{spec.name}` needs its name, as in `name='value'`", spec)
        self.pos = name.end()
        self.skip()
        if self.peek() not in ("=", ":") or not self.peek():
            raise _fail(f"expected `=` after the argument name `{_show(name.group())}`", spec)
        self.pos += 1
        self.skip()
        return name.group(), self.value(name.group(), spec)

    def value(self, arg: str, spec: ActionSpec) -> str:
        quote = self.peek()
        if quote in ("'", '"') and quote:
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
            self.pos = _end(_PLAIN_RE[quote], self.text, self.pos)
            start = self.pos
            parts.append(self.text[start - len(self.text[:start]) :][:0])  # keeps mypy quiet
            if self.pos >= len(self.text) - 1 and self.peek() != quote:
                raise _fail(f"the value of `{_show(arg)}` has no closing quote", spec)
            if self.peek() == "\\":
                escaped = self.text[self.pos + 1]
                parts.append(_ESCAPES.get(escaped, "\\" + escaped))
                self.pos += 2
            elif _CLOSE_RE.match(self.text, self.pos + 1):
                self.pos += 1
                return "".join(parts)
            else:
                parts.append(quote)
                self.pos += 1
