"""The cost of a recorded task, read from its ``result.json`` (tokens by kind, and the
cost the run computed at its price), or recomputed at a price given afterwards."""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from .models.prices import Price
from .trajectory import read_result


def task_cost(task_dir: Path, price: Price | None = None) -> float | None:
    """USD for the task: its recorded cost, or its tokens at ``price``; None when unknown."""
    try:
        usage = read_result(task_dir).usage
    except (OSError, ValueError, ValidationError):
        return None
    if price is None:
        return usage.cost
    return price.cost(input_tokens=usage.input_tokens, output_tokens=usage.output_tokens,
                      cache_read_tokens=usage.cache_read_tokens,
                      cache_write_tokens=usage.cache_write_tokens)
