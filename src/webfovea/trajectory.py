"""Step and result records, and the writer of the run directory (DESIGN contract).

``OUT/result.json`` is rewritten and ``OUT/steps.jsonl`` appended after every
step, so a crash loses at most the step in flight.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from .snapshot.records import SiteRecord

Outcome = Literal["changed", "no_change", "unknown", "refused", "error", "parse_error", "answer"]


class UsageRecord(BaseModel):
    input_tokens: int = 0  # billed at the base rate: neither cache reads nor cache writes
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    calls: int = 0
    retries: int = 0
    cost: float | None = None  # USD under the run's price; None when the price is unknown

    @property
    def prompt_tokens(self) -> int:
        """Every input token, cached or not (what "tokens in" means in tables)."""
        return self.input_tokens + self.cache_read_tokens + self.cache_write_tokens


class StepRecord(BaseModel):
    step: int
    started_at: float
    url: str = ""
    title: str = ""  # page title when the screenshot was taken
    screenshot: str = ""  # path relative to the run dir, e.g. screens/001.png
    sent_size: tuple[int, int] = (0, 0)  # image as sent to the model
    page_size: tuple[int, int] = (0, 0)  # viewport in CSS pixels, measured
    model_size: tuple[float, float] = (0, 0)  # the model's coordinate space
    raw_reply: str = ""
    thought: str = ""
    action: dict[str, Any] | None = None  # Action.to_json()
    action_source: str = ""
    stripped: list[str] = Field(default_factory=list)  # tokens/text the parser discarded
    parse_error: str | None = None
    page_points: list[tuple[int, int]] = Field(default_factory=list)
    outcome: Outcome = "unknown"
    note: str = ""
    guardrail: str | None = None
    frame: str | None = None  # frame URL the action landed in, when a child frame
    details: dict[str, Any] = Field(default_factory=dict)
    model_seconds: float = 0.0
    harness_seconds: float = 0.0
    stage_seconds: dict[str, float] = Field(default_factory=dict)  # harness time by stage
    usage: UsageRecord = Field(default_factory=UsageRecord)
    # What the request held (webfovea.models.sent): layout, text lengths, image sizes.
    request: dict[str, Any] = Field(default_factory=dict)


class ResultRecord(BaseModel):
    task: str
    url: str
    task_id: str = ""
    status: str = "running"
    answer: str | None = None
    answer_url: str | None = None
    evidence: str | None = None
    evidence_at: float | None = None
    steps: int = 0
    elapsed: float = 0.0
    usage: UsageRecord = Field(default_factory=UsageRecord)
    error: str | None = None
    model: str = ""
    config: dict[str, Any] = Field(default_factory=dict)
    started_at: float = Field(default_factory=time.time)
    site: SiteRecord = Field(default_factory=SiteRecord)  # live, recording or replaying


class TrajectoryWriter:
    """Writes one task's run directory as the task goes."""

    def __init__(self, out: Path) -> None:
        self.out = out
        (out / "screens").mkdir(parents=True, exist_ok=True)
        self.steps_path = out / "steps.jsonl"
        self.steps_path.write_text("")

    def screen_path(self, step: int) -> str:
        return f"screens/{step:03d}.png"

    def write_screen(self, step: int, png: bytes) -> str:
        rel = self.screen_path(step)
        (self.out / rel).write_bytes(png)
        return rel

    def write_evidence(self, png: bytes) -> str:
        (self.out / "evidence.png").write_bytes(png)
        return "evidence.png"

    def write_evidence_text(self, text: str) -> str:
        (self.out / "evidence.txt").write_text(text, encoding="utf-8")
        return "evidence.txt"

    def append_step(self, record: StepRecord) -> None:
        with self.steps_path.open("a", encoding="utf-8") as fh:
            fh.write(record.model_dump_json() + "\n")

    def write_result(self, result: ResultRecord) -> None:
        _atomic_write(self.out / "result.json", result.model_dump_json(indent=2))


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def read_steps(run_dir: Path) -> list[StepRecord]:
    path = run_dir / "steps.jsonl"
    if not path.exists():
        return []
    return [StepRecord.model_validate(json.loads(line))
            for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def read_result(run_dir: Path) -> ResultRecord:
    return ResultRecord.model_validate_json((run_dir / "result.json").read_text(encoding="utf-8"))
