"""A native model's last word: a turn that ends with text and no tool call is its answer.

The vendors' own computer-use loops stop when the model answers without a tool call (Claude's
``end_turn`` with a text block, an OpenAI Responses ``message`` with ``output_text``, Gemini
text parts without a ``functionCall``) and take that text as the final answer. The native
dialects do the same: the text becomes ``finished`` with that text, so grounding and the
verifier judge it as any answer, and a model that calls the ``finished`` tool still can.
Text that says nothing (empty, whitespace) stays a parse error, answered to the model.

The call is recorded with ``native`` ``{"final_text": text}`` (there is no vendor call to
keep), which ``replay`` reads back as the same ``finished`` (:mod:`.recorded`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .base import Call
from .schema import action_from_call

FINAL_TEXT = "final_text"  # the key of a recorded text ending's ``native``


def final_text_call(text: str) -> Call | None:
    """The text of a turn without a tool call as ``finished``; None when it says nothing."""
    content = text.strip()
    if not content:
        return None
    return Call(None, {FINAL_TEXT: content}, action_from_call("finished", {"content": content}))


def recorded_text(native: Mapping[str, Any]) -> str | None:
    """The text of a recorded text ending, None for a recorded vendor call."""
    value = native.get(FINAL_TEXT)
    return value if isinstance(value, str) else None
