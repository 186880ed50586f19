"""Presets: a benchmark's rules as one switch (``bench --preset NAME``), shipped as TOML in
``bench/data/``.

A preset's values are ceilings: a run may tighten them (``--max-steps 60``, ``--workers 4``)
and is refused, before anything starts, when it asks for more. What it sets is printed when
the run starts and recorded with the run (its settings, each invocation, each task's
``result.json`` config).
"""

from __future__ import annotations

import sys
from dataclasses import asdict, dataclass
from importlib import resources
from typing import Any

from ..core.errors import ConfigError

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

PRESETS = ("webretriever-2026",)


@dataclass(frozen=True)
class Preset:
    name: str
    description: str
    max_steps: int
    model_timeout: float  # seconds for one model request
    model_retries: int
    max_workers: int
    block_domains: tuple[str, ...]
    block_reason: str
    answer_field: str  # where the benchmark's export puts the answer (said, not enforced here)

    def check_steps(self, max_steps: int) -> None:
        if max_steps > self.max_steps:
            raise ConfigError(f"--max-steps {max_steps}: the {self.name} preset ({self.description}) "
                              f"allows at most {self.max_steps} steps per task")

    def check_workers(self, workers: int) -> None:
        if workers > self.max_workers:
            raise ConfigError(f"--workers {workers}: the {self.name} preset ({self.description}) "
                              f"runs at most {self.max_workers} tasks at once; give --workers "
                              f"{self.max_workers} or fewer")

    def agent_settings(self) -> dict[str, Any]:
        """The AgentConfig fields the preset decides (besides the steps, a recorded flag)."""
        return {"model_timeout": self.model_timeout, "model_retries": self.model_retries,
                "block_domains": self.block_domains, "block_reason": self.block_reason}

    def record(self) -> dict[str, Any]:
        return {**asdict(self), "block_domains": list(self.block_domains)}

    def announcement(self, *, max_steps: int, workers: int) -> str:
        """What the run says on stderr as it starts: every rule, as this run applies it."""
        retries = ("none (a failed call fails the task)" if self.model_retries == 0
                   else str(self.model_retries))
        return "\n".join([
            f"preset {self.name} ({self.description}):",
            f"  steps per task: at most {max_steps}",
            f"  one model request: at most {self.model_timeout:g} s",
            f"  model retries: {retries}",
            f"  tasks at once: {workers} (at most {self.max_workers})",
            f"  refused by the domain lock (search engines): {', '.join(self.block_domains)}",
            f"  the answer: exported as {self.answer_field} (webfovea export --format "
            "webretriever)"])


def load_preset(name: str) -> Preset:
    """The shipped preset ``name``; ConfigError naming the known ones otherwise."""
    if name not in PRESETS:
        raise ConfigError(f"--preset {name!r} is not a preset: use one of {', '.join(PRESETS)}")
    text = resources.files("webfovea.bench").joinpath(f"data/{name}.toml").read_text("utf-8")
    data = tomllib.loads(text)
    return Preset(name=name, description=str(data["description"]),
                  max_steps=int(data["max_steps"]), model_timeout=float(data["model_timeout"]),
                  model_retries=int(data["model_retries"]), max_workers=int(data["max_workers"]),
                  block_domains=tuple(str(d) for d in data["block_domains"]),
                  block_reason=str(data["block_reason"]),
                  answer_field=str(data["answer_field"]))
