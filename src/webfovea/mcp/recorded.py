"""An MCP run's recorded tool calls translated again, for ``webfovea replay``."""

from __future__ import annotations

from typing import Any

from ..dialects.base import Call
from ..dialects.recorded import Retranslate, observation
from ..rundir.trajectory import StepRecord
from .tools import to_call


def retranslator(version: str | None) -> Retranslate:
    def again(entry: dict[str, Any], record: StepRecord) -> Call:
        native = entry["native"]
        obs = observation(record)
        return to_call(entry.get("call_id") or "", str(native.get("name")),
                       dict(native.get("arguments") or {}), image=obs.image, space=obs.space)

    return again
