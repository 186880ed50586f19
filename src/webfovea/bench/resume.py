"""What ``--resume`` checks before it continues a run: the same task file as before, and
the same effective settings (each recorded with every invocation)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from ..core.ablations import ABLATIONS
from ..core.config import AgentConfig
from ..core.errors import ConfigError
from .execute import Job
from .store import Store
from .tasks import TaskFile

# Where things run, not what is measured: free to change between resumes (as the
# FREE_SETTINGS flags they come from).
_WHERE = frozenset({"browser.headless", "browser.executable", "browser.cdp_url",
                    "browser.host_rules",
                    # Where the grounder's key is read from changes no result.
                    "grounder.api_key_env"})


_ADDED_LATER = ("keytra", "model_timeout", "model_retries", "block_domains", "block_reason")


def check_same_tasks(store: Store, task_file: TaskFile, *, force: bool) -> None:
    """Refuse a task file other than the one the run was started with (its SHA-256 is
    recorded with every invocation), unless ``force``; the error says what differs."""
    runs = store.runs()
    if not runs:
        return
    before = runs[-1]["invocation"]
    recorded = before.get("tasks_sha256")
    if recorded in (None, task_file.sha256) or force:
        return
    known = {row.task_id for row in store.rows()}
    now = {task.id for task in task_file.tasks}
    differences = [f"SHA-256 {recorded[:12]}… then, {task_file.sha256[:12]}… now"]
    if before.get("tasks_file") != str(task_file.path):
        differences.append(f"file {before.get('tasks_file')} then, {task_file.path} now")
    if added := sorted(now - known):
        differences.append(f"{len(added)} new task(s): {_ids(added)}")
    if missing := sorted(known - now):
        differences.append(f"{len(missing)} task(s) no longer in it: {_ids(missing)}")
    raise ConfigError("the task file differs from the one this run was started with ("
                      + "; ".join(differences) + "); add --force to resume with it anyway")


def _ids(ids: list[str]) -> str:
    return ", ".join(ids[:5]) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")


def effective_settings(job: Job) -> dict[str, Any]:
    """What the run measures with, as finally resolved (flags, environment, config file,
    profile, defaults), flat and readable: ``{"model": "openai:m", "max_steps": 30,
    "sampling.temperature": 0.2, "browser.viewport.width": 1280, ...}``. The recorded flags
    alone cannot tell: a profile or config file read again may resolve them differently."""
    tree = {"model": job.model, **dataclasses.asdict(job.agent),
            "browser": dataclasses.asdict(job.browser)}
    # Ablated fixes in the registry's order; none: no key, as runs recorded before there were.
    tree.pop("ablate")
    if job.agent.ablate:
        tree["ablate"] = ",".join(n for n in ABLATIONS if n in job.agent.ablate)
    # Settings added later leave no key at their defaults, so an older run still resumes.
    defaults = dataclasses.asdict(AgentConfig())
    for key in _ADDED_LATER:
        if tree[key] == defaults[key]:
            tree.pop(key)
    if job.step_budget is not None:
        tree["step_budget"] = dataclasses.asdict(job.step_budget)
    flat = _flatten(json.loads(json.dumps(tree)))
    return {k: v for k, v in sorted(flat.items()) if k not in _WHERE}


def _flatten(tree: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in tree.items():
        if isinstance(value, dict):  # an empty one (no sampling settings) leaves no key
            out.update(_flatten(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def check_same_settings(store: Store, effective: dict[str, Any], *, force: bool) -> None:
    """Refuse to resume with effective settings other than the last invocation's, unless
    ``force``: one run must not mix two configurations. Runs recorded before the settings
    were (no ``effective`` in their invocation) are not checked."""
    runs = store.runs()
    recorded = runs[-1]["invocation"].get("effective") if runs else None
    if recorded is None or recorded == effective or force:
        return
    differences = [f"{key}: {_show(recorded, key)} → {_show(effective, key)}"
                   for key in sorted({*recorded, *effective})
                   if recorded.get(key, _UNSET) != effective.get(key, _UNSET)]
    raise ConfigError("the effective settings differ from the ones this run was started with ("
                      + "; ".join(differences) + "): the config file, the profile or the "
                      "environment changed; add --force to resume with them anyway")


_UNSET = object()


def _show(settings: dict[str, Any], key: str) -> str:
    if key not in settings:
        return "(unset)"
    value = settings[key]
    return value if isinstance(value, str) else json.dumps(value)
