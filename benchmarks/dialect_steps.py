"""Per-step cost of each dialect, from recorded runs (docs/dialects-openai-gemini.md).

    python benchmarks/dialect_steps.py RUN_DIR [RUN_DIR ...]

For each bench run directory (``webfovea suite run --out RUN_DIR --dialect D``) it prints the
dialect, the score, the median harness and model seconds per step, and the prompt tokens per
step with the share read from the prompt cache, all read from the run's own files
(``result.json``, ``steps.jsonl``). With the oracle the tokens are the fake provider's
accounting (words, and width*height/750 per image), which the text dialect's direct oracle
does not have.
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

from webfovea.rundir import read_result, read_steps


def summary(run: Path) -> str:
    tasks = sorted(p.parent for p in run.rglob("result.json") if (p.parent / "steps.jsonl").exists())
    harness: list[float] = []
    model: list[float] = []
    prompt = cached = steps = 0
    correct = 0
    dialect = "?"
    for task in tasks:
        result = read_result(task)
        dialect = str(result.config.get("dialect", "text"))
        score = task / "score.json"
        correct += bool(score.exists() and json.loads(score.read_text()).get("correct"))
        for step in read_steps(task):
            harness.append(step.harness_seconds)
            model.append(step.model_seconds)
        usage = result.usage
        prompt += usage.input_tokens + usage.cache_read_tokens + usage.cache_write_tokens
        cached += usage.cache_read_tokens
        steps += result.steps
    share = f"{cached / prompt:.0%}" if prompt else "n/a"
    per_step = f"{prompt / steps:,.0f}" if steps and prompt else "n/a"
    return (f"{dialect:20} {correct}/{len(tasks)} correct, {steps} steps; harness "
            f"{statistics.median(harness):.2f} s/step, model {statistics.median(model):.2f} s/step "
            f"(medians); prompt tokens/step {per_step}, cache share {share}")


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    for run in argv:
        print(summary(Path(run)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
