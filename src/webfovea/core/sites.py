"""What a run says about its site: live, recording or replaying which snapshot, and how the
replay went. Light on purpose: the run configuration and ``result.json`` import it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

SiteMode = Literal["live", "record", "replay"]
LimitKind = Literal["websocket", "webrtc", "service_worker", "body_lost", "random_body"]
UNMATCHED_FILE = "snapshot_unmatched.jsonl"


class Limit(BaseModel):
    """Something the page did that a snapshot cannot replay."""

    kind: LimitKind
    url: str = ""
    detail: str = ""


@dataclass(frozen=True)
class SiteOptions:
    """``--record-site/--replay-site DIR`` (one snapshot) or ``--record-sites/--replay-sites
    DIR`` (a bench: one snapshot per task, ``DIR/<task id>``)."""

    mode: SiteMode = "live"
    root: str | None = None
    per_task: bool = False

    def snapshot_dir(self, task_id: str) -> Path:
        if self.root is None:
            raise ValueError("a live run has no snapshot")
        root = Path(self.root)
        return root / re.sub(r"[^\w.-]", "_", task_id or "task") if self.per_task else root


class Unmatched(BaseModel):
    method: str
    url: str
    resource_type: str = ""
    reason: str = ""
    run: str = ""  # the run directory that asked for it


class SiteRecord(BaseModel):
    mode: SiteMode = "live"
    snapshot: str | None = None  # the snapshot directory
    snapshot_id: str | None = None  # content id of its manifest: equal ids, identical pages
    recorded_at: float | None = None  # when the snapshot's recording started (epoch s)
    archive_sha256: str | None = None  # the web archive the snapshot was imported from
    responses: int = 0  # responses recorded (record) or in the snapshot (replay)
    matched_exact: int = 0
    matched_rules: int = 0  # matched only once the ignore rules were applied
    unmatched: int = 0  # answered with an error response; all listed in UNMATCHED_FILE
    passthrough: int = 0  # the harness's own channel, let through (see snapshot/rules.py)
    unmatched_shown: list[Unmatched] = Field(default_factory=list)  # the first few
    limits: list[Limit] = Field(default_factory=list)  # what this site does that cannot replay

    def count(self, how: str) -> None:
        if how == "exact":
            self.matched_exact += 1
        else:
            self.matched_rules += 1
