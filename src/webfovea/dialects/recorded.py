"""Recorded native calls translated again with the current translation tables, for
``webfovea replay`` (what would a translation change alter in a dialect run?)."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any

from ..actions.geometry import ModelSpace
from ..core.config import Size
from ..models.base import SentImage
from ..rundir.trajectory import StepRecord
from .base import Call, Observation
from .final_text import final_text_call, recorded_text

Retranslate = Callable[[dict[str, Any], StepRecord], Call]
# Dialects living outside this package: name -> "module:factory(version) -> Retranslate",
# imported on use (as webfovea.dialects.DIALECTS).
OUTSIDE: dict[str, str] = {"mcp": "webfovea.mcp.recorded:retranslator"}


def observation(record: StepRecord) -> Observation:
    """What the dialect knew of the step's screen when it translated the calls."""
    sent = SentImage(b"", *record.sent_size)
    return Observation(record.step, "", sent, ModelSpace(*record.model_size),
                       Size(*record.page_size), record.url, "")


def retranslator(dialect: str, version: str | None) -> Retranslate | None:
    """The current translation of one recorded call (``calls[i]`` of a step record), or None
    for a dialect whose translation cannot be replayed here."""
    if dialect == "tools":
        from .tools import translate

        return lambda entry, record: translate(entry.get("call_id"), entry["native"],
                                               observation(record))
    if dialect == "anthropic-computer":
        from .anthropic_actions import Translator
        from .anthropic_computer import DEFAULT_VERSION

        translator = Translator(version or DEFAULT_VERSION)  # one per task: it keeps the pointer

        def again(entry: dict[str, Any], record: StepRecord) -> Call:
            native = entry["native"]
            use = {"id": entry.get("call_id"), "name": native.get("name"),
                   "input": native.get("input"), "toolset_name": native.get("toolset_name")}
            return translator.call(use, observation(record))

        return _with_text_endings(again)
    if dialect == "openai-computer":
        from .openai_computer import translate as openai

        return _with_text_endings(lambda entry, record: openai(entry["native"], observation(record)))
    if dialect == "gemini-computer":
        from .gemini_computer import translate_recorded

        return _with_text_endings(lambda entry, record: translate_recorded(
            entry["native"], observation(record), version))
    if dialect in OUTSIDE:
        module, _, attr = OUTSIDE[dialect].partition(":")
        made: Retranslate = getattr(import_module(module), attr)(version)
        return made
    return None


def _with_text_endings(again: Retranslate) -> Retranslate:
    """A native dialect's translation that reads its recorded text endings too (a turn of
    text and no tool call, recorded as ``{"final_text": text}``: webfovea.dialects.final_text)."""

    def translated(entry: dict[str, Any], record: StepRecord) -> Call:
        text = recorded_text(entry.get("native") or {})
        call = final_text_call(text) if text is not None else None
        return call if call is not None else again(entry, record)

    return translated
