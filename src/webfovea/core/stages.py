"""Where a step's harness time goes: exclusive wall time per named stage.

The loop opens a :class:`Stages` per step; code anywhere below it marks its work with
``with stage("settle"):``. Nested stages are exclusive: the time of an inner stage is
not counted again in the stage around it. Outside a step, ``stage`` costs nothing.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

_current: ContextVar[Stages | None] = ContextVar("webfovea_stages", default=None)


@dataclass
class _Open:
    name: str
    start: float
    inner: float = 0.0  # time spent in stages nested inside this one


@dataclass
class Stages:
    seconds: dict[str, float] = field(default_factory=dict)
    _stack: list[_Open] = field(default_factory=list)

    @contextmanager
    def active(self) -> Iterator[Stages]:
        token = _current.set(self)
        try:
            yield self
        finally:
            _current.reset(token)

    def rounded(self) -> dict[str, float]:
        return {name: round(s, 6) for name, s in self.seconds.items()}


@contextmanager
def stage(name: str) -> Iterator[None]:
    stages = _current.get()
    if stages is None:
        yield
        return
    opened = _Open(name, time.perf_counter())
    stages._stack.append(opened)
    try:
        yield
    finally:
        stages._stack.pop()
        total = time.perf_counter() - opened.start
        stages.seconds[name] = stages.seconds.get(name, 0.0) + total - opened.inner
        if stages._stack:
            stages._stack[-1].inner += total
