"""What a run's models and observation were (issue 33), for ``compare`` and the bench: the
observation mode, the grounder, the skills used (how many tasks each) and the tokens per role,
read from each task's ``result.json``."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..rundir.store import load_run


@dataclass(frozen=True)
class RunRoles:
    observation: str = "screenshot"
    grounder: str | None = None
    skills: dict[str, int] = field(default_factory=dict)  # path -> tasks that used it
    tokens: dict[str, tuple[int, int]] = field(default_factory=dict)  # role -> (in, out)
    steps: int = 0

    @property
    def plain(self) -> bool:
        """The paper's method: one model, screenshots, no skills (nothing to say)."""
        return self.observation == "screenshot" and not self.grounder and not self.skills

    def line(self, label: str) -> str:
        skills = ", ".join(f"{p} ({n})" for p, n in self.skills.items()) or "none"
        per_step = "; ".join(f"{role} {i / max(1, self.steps):.0f} in / {o / max(1, self.steps):.0f} "
                             f"out" for role, (i, o) in self.tokens.items())
        return (f"{label}: observation {self.observation}; grounder {self.grounder or 'none'}; "
                f"skills {skills}; tokens per step: {per_step or 'none recorded'}")


def run_roles(run_dir: Path) -> RunRoles:
    if not (run_dir / "tasks").is_dir():
        return RunRoles()
    tasks = load_run(run_dir).tasks
    if not tasks:
        return RunRoles()
    config = tasks[0].result.config
    grounder = config.get("grounder")
    skills = Counter(s.path for t in tasks for s in t.result.skills)
    tokens: dict[str, tuple[int, int]] = {}
    for t in tasks:
        for role, usage in t.result.usage.by_role.items():
            i, o = tokens.get(role, (0, 0))
            tokens[role] = (i + usage.prompt_tokens, o + usage.output_tokens)
    return RunRoles(str(config.get("observation", "screenshot")),
                    grounder.get("model") if isinstance(grounder, dict) else None,
                    dict(sorted(skills.items())), tokens, sum(t.result.steps for t in tasks))


def compare_lines(run_a: Path, run_b: Path) -> list[str]:
    """One line per run when either used a grounder, another observation or skills."""
    a, b = run_roles(run_a), run_roles(run_b)
    if a.plain and b.plain:
        return []
    return [a.line("roles A"), b.line("roles B")]
