"""The cost of a recorded task, read from its ``result.json`` (tokens by kind, and the
cost the run computed at its price), or recomputed at a price given afterwards."""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from ..models.prices import Price
from ..rundir.store import read_result


def task_cost(task_dir: Path, price: Price | None = None) -> float | None:
    """USD for the task: its recorded cost, or its tokens at ``price``, plus its verifier's
    calls; None when unknown."""
    try:
        result = read_result(task_dir)
    except (OSError, ValueError, ValidationError):
        return None
    usage = result.usage
    agent = usage.cost if price is None else price.cost(
        input_tokens=usage.input_tokens, output_tokens=usage.output_tokens,
        cache_read_tokens=usage.cache_read_tokens, cache_write_tokens=usage.cache_write_tokens)
    if result.verifier is None:
        return agent
    # The verifier's calls at its own price (recorded with them): part of what the task cost.
    verifier = result.verifier.usage.cost
    return None if agent is None or verifier is None else agent + verifier
