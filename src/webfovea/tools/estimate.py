"""Pricing a recorded run again under both history layouts (``webfovea cost``).

The requests are rebuilt from the step records (thoughts, actions, notes, the size
of each screenshot sent) with the prompt builder itself, flattened into blocks the
way the Messages API receives them, and charged against a simulated prompt cache
(:mod:`webfovea.models.prefix_cache`). Token estimates: text about 4 characters a
token, an image width*height/750 (Anthropic's published rule).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from webfovea.core.config import AgentConfig, HistoryLayout
from webfovea.dialects.text.prompt import HistoryItem, Shown, build_request, first_shown
from webfovea.models.base import ModelRequest, SentImage
from webfovea.models.prefix_cache import Block, Charge, PrefixCache
from webfovea.models.prices import Price
from webfovea.models.sent import breakpoint_turns

CHARS_PER_TOKEN = 4


@dataclass(frozen=True)
class StepSent:
    """What one recorded step contributes to later requests."""

    step: int
    image: tuple[int, int]
    thought: str
    action: str
    note: str


@dataclass(frozen=True)
class LayoutCost:
    layout: HistoryLayout
    steps: int
    charges: tuple[Charge, ...]
    input_cost: float  # USD for all steps' input

    @property
    def per_step(self) -> float:
        return self.input_cost / self.steps if self.steps else 0.0

    def tokens(self) -> tuple[int, int, int]:
        """Input, cache-read and cache-write tokens summed over the steps."""
        return (sum(c.input_tokens for c in self.charges),
                sum(c.cache_read_tokens for c in self.charges),
                sum(c.cache_write_tokens for c in self.charges))


def text_tokens(text: str) -> int:
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def image_tokens(width: int, height: int) -> int:
    return math.ceil(width * height / 750)


def request_blocks(request: ModelRequest) -> list[Block]:
    """The request as the Messages API receives it: system, then per turn its text,
    image labels and images; breakpoints where the Anthropic client puts them."""
    blocks = [_text_block("system", request.system, request.cache_system)]
    marked = breakpoint_turns(request)
    for index, turn in enumerate(request.turns):
        parts = [_text_block(turn.role, turn.text)] if turn.text else []
        for image in turn.images:
            if image.label:
                parts.append(_text_block(turn.role, image.label))
            parts.append(Block(_key(turn.role, "image", image.png.decode()),
                               image_tokens(image.width, image.height)))
        if index in marked and parts:
            parts[-1] = replace(parts[-1], breakpoint=True)
        blocks.extend(parts)
    return blocks


def layout_cost(task: str, steps: Sequence[StepSent], config: AgentConfig, layout: HistoryLayout,
                price: Price, *, min_tokens: int = 1024) -> LayoutCost:
    """Rebuild every step's request under ``layout`` and price its input."""
    config = replace(config, history=layout)
    cache = PrefixCache("explicit", min_tokens=min_tokens)
    charges: list[Charge] = []
    for n, current in enumerate(steps):
        oldest = first_shown(current.step, config)
        shown = [Shown(s.step, _placeholder(s), f"The screenshot is {s.image[0]}x{s.image[1]} "
                       "pixels; give points in that image's pixels, (0,0) at the top left.")
                 for s in steps[: n + 1] if s.step >= oldest]
        history = [HistoryItem(s.step, s.thought, s.action, s.note) for s in steps[:n]]
        request = build_request(task=task, config=config, history=history, shown=shown,
                                note=steps[n - 1].note if n else "")
        charges.append(cache.charge(request_blocks(request)))
    cost = sum(price.cost(input_tokens=c.input_tokens, output_tokens=0,
                          cache_read_tokens=c.cache_read_tokens,
                          cache_write_tokens=c.cache_write_tokens) for c in charges)
    return LayoutCost(layout, len(steps), tuple(charges), cost)


def _placeholder(s: StepSent) -> SentImage:
    """Stands for the screenshot: its identity is the step, its size as recorded."""
    return SentImage(f"step-{s.step}".encode(), s.image[0], s.image[1])


def _text_block(role: str, text: str, breakpoint: bool = False) -> Block:
    return Block(_key(role, "text", text), text_tokens(text), breakpoint)


def _key(role: str, kind: str, content: str) -> str:
    return hashlib.sha256(f"{role}\0{kind}\0{content}".encode()).hexdigest()
