"""Model dialects: how a model is asked and how its reply becomes actions (docs/dialects.md).

``DIALECTS`` maps a ``--dialect`` name to its factory; each factory takes the run's model
client and the agent configuration and returns a fresh :class:`~.base.Dialect` for one task.
Native dialects load their provider SDK only when chosen.
"""

from __future__ import annotations

from importlib import import_module

from ..core.config import AgentConfig
from ..core.errors import ConfigError
from ..models.base import Model
from .base import Dialect, DialectFactory

# name -> "module:factory", imported on use (the SDKs cost seconds to import).
DIALECTS: dict[str, str] = {
    "text": "webfovea.dialects.text.dialect:TextDialect",
    "tools": "webfovea.dialects.tools:ToolsDialect",
    "anthropic-computer": "webfovea.dialects.anthropic_computer:AnthropicComputerDialect",
    "openai-computer": "webfovea.dialects.openai_computer:openai_computer",
    "gemini-computer": "webfovea.dialects.gemini_computer:gemini_computer",
}


def dialect_names() -> tuple[str, ...]:
    return tuple(DIALECTS)


def register(name: str, target: str) -> None:
    """Add a dialect (``"package.module:factory"``); for dialects living outside this package."""
    DIALECTS[name] = target


def factory(name: str) -> DialectFactory:
    target = DIALECTS.get(name)
    if target is None:
        raise ConfigError(f"unknown dialect {name!r}: use one of {', '.join(DIALECTS)}")
    module, _, attr = target.partition(":")
    made: DialectFactory = getattr(import_module(module), attr)
    return made


def make_dialect(model: Model, config: AgentConfig) -> Dialect:
    """The dialect ``config.dialect`` names, speaking to ``model``, for one task."""
    return factory(config.dialect)(model, config)
