"""Skills (``--skills DIR``): operating notes for a site and checklists for a kind of task,
put in the system text of the task's requests.

``DIR/all.md`` applies to every task, ``DIR/sites/<host>.md`` to a task whose entry URL's
host is ``<host>`` or one of its subdomains, ``DIR/tasks/<tag>.md`` to a task carrying
``<tag>`` in the task file. They are read once when the task starts and rendered as one
marked section in a fixed order (all, sites from the widest domain to the narrowest, tags in
the task's order), so the system text, the head of every request, is the same bytes at every
step of the task and the providers' prompt cache keeps it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from ..core.config import SkillsConfig
from ..core.errors import ConfigError
from ..core.task import Task
from ..rundir.trajectory import SkillRecord

SkillKind = Literal["all", "site", "task"]
HEADING = ("Skills: operating notes for this site and checklists for this kind of task, "
           "written by the people running you. Follow them where they apply.")
END = "=== end of skills ==="


@dataclass(frozen=True)
class Skill:
    kind: SkillKind
    path: str  # relative to the skills directory, e.g. sites/example.com.md
    text: str  # as put in the prompt: capped, the cut said
    sha256: str  # of the file's bytes as read
    chars: int  # of the file's text, before the cap
    truncated: bool

    def record(self) -> SkillRecord:
        return SkillRecord(kind=self.kind, path=self.path, sha256=self.sha256,
                           chars=self.chars, truncated=self.truncated)


def check_directory(directory: str) -> None:
    """A usage error before anything runs when ``--skills`` names no directory."""
    if not Path(directory).is_dir():
        raise ConfigError(f"--skills {directory}: not a directory (expected DIR/all.md, "
                          "DIR/sites/<host>.md, DIR/tasks/<tag>.md)")


def skills_for(task: Task, config: SkillsConfig) -> tuple[Skill, ...]:
    """The skills that apply to ``task``, in prompt order."""
    root = Path(config.directory)
    check_directory(config.directory)
    paths: list[tuple[SkillKind, Path]] = [("all", root / "all.md")]
    paths += [("site", p) for p in _site_files(root / "sites", _host(task.url))]
    paths += [("task", root / "tasks" / f"{tag}.md") for tag in dict.fromkeys(task.tags)
              if _safe_name(tag)]
    return tuple(_read(root, kind, path, config.cap) for kind, path in paths if path.is_file())


def section(skills: tuple[Skill, ...]) -> str:
    """The marked section of the system text ('' when no skill applies)."""
    if not skills:
        return ""
    parts = [HEADING, *(f"=== skill: {s.path} ===\n{s.text.strip()}" for s in skills), END]
    return "\n\n".join(parts)


def _host(url: str) -> str:
    return (urlsplit(url).hostname or "").lower().rstrip(".")


def _site_files(folder: Path, host: str) -> list[Path]:
    """``<domain>.md`` files whose domain is the host or a parent domain of it, widest first."""
    if not host or not folder.is_dir():
        return []
    found = [p for p in folder.glob("*.md")
             if host == (d := p.stem.lower()) or host.endswith("." + d)]
    return sorted(found, key=lambda p: (p.stem.count("."), p.stem))


def _safe_name(tag: str) -> bool:
    """A tag names a file in tasks/ only as a plain name (never a path out of the folder)."""
    return bool(tag) and "/" not in tag and "\\" not in tag and tag not in (".", "..")


def _read(root: Path, kind: SkillKind, path: Path, cap: int) -> Skill:
    data = path.read_bytes()
    shown = path.relative_to(root).as_posix()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ConfigError(f"skill {path} is not UTF-8 text ({e.reason} at byte {e.start})") from None
    truncated = len(text) > cap
    body = text
    if truncated:
        body = (f"{text[:cap]}\n[skill truncated: {len(text) - cap:,} more characters not shown "
                f"(--skill-cap {cap})]")
    return Skill(kind, shown, body, hashlib.sha256(data).hexdigest(), len(text), truncated)
