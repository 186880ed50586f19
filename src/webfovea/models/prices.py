"""Prices per million tokens: the built-in table (``data/prices.toml``), user overrides
from the config file, and the cost of a call. An unknown model has no price: its cost
is ``None`` and shows as "unknown", never as zero."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from importlib import resources
from typing import Any

from webfovea.core.config import Price as Price  # re-exported: the table's entries
from webfovea.core.errors import ConfigError

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

FIELDS = ("input", "output", "cache_read", "cache_write")


def price_from(name: str, entry: Mapping[str, Any]) -> Price:
    """A table entry; cache prices default to the input price (no caching discount)."""
    unknown = set(entry) - set(FIELDS)
    if unknown:
        raise ConfigError(f"price for {name!r}: unknown field(s) {', '.join(sorted(unknown))}; "
                          f"use {', '.join(FIELDS)}")
    try:
        values = {k: float(entry[k]) for k in entry}
    except (TypeError, ValueError):
        raise ConfigError(f"price for {name!r}: every field must be a number") from None
    if "input" not in values or "output" not in values:
        raise ConfigError(f"price for {name!r} needs at least input and output (USD per million)")
    if min(values.values()) < 0:
        raise ConfigError(f"price for {name!r} must not be negative")
    return Price(values["input"], values["output"], values.get("cache_read", values["input"]),
                 values.get("cache_write", values["input"]))


def builtin_table() -> dict[str, Price]:
    text = resources.files("webfovea.models").joinpath("data/prices.toml").read_text("utf-8")
    return {name: price_from(name, entry) for name, entry in tomllib.loads(text).items()}


def find_price(spec: str, overrides: Mapping[str, Price] | None = None) -> Price | None:
    """The price of a model spec (``anthropic:claude-sonnet-4-5-20250929``): an exact entry,
    else the longest entry the spec starts with; overrides first. None when unknown."""
    table = {**builtin_table(), **(overrides or {})}
    if spec in table:
        return table[spec]
    matches = [name for name in table if spec.startswith(name + "-")]
    return table[max(matches, key=len)] if matches else None


def cost_text(cost: float | None) -> str:
    return "unknown" if cost is None else f"${cost:.4f}"
