"""The fixes a run can turn off one at a time (``--ablate FIX[,FIX…]``), for ablation studies.

Each name is one fix of the harness; the text says what the naive harness did instead,
which is what a run with that fix ablated does. The fix itself consults
``AgentConfig.ablate`` where it lives (``if "ratio" in config.ablate: ...``); nothing is
patched from outside. The prompt never says what is ablated: an ablated fix's own words
(a rule, an action, a hint) are left out, as the naive harness had none of them.
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import ConfigError

ABLATIONS: dict[str, str] = {
    "ratio": "model points read as if in the full-size capture, not the capped image sent "
             "(the 3/4 bug)",
    "first-action": "the last Action: of a reply wins when it has several",
    "token-strip": "chat-template tokens the model wrote are kept (and typed into pages)",
    "select": "select() clicks the <select>, whose list never shows in a screenshot",
    "fill-readback": "fill() does not read the field back: the note never says what it holds",
    "enter": "a trailing newline is typed as text, not pressed as Enter",
    "frame-fallback": "no DOM fallback for clicks inside frames; only the main frame is "
                      "fingerprinted",
    "feedback": "every executed action's note is just 'Done.'",
    "observe": "no hover, find_text or read_text in the action set",
    "retries": "a failed model call is not retried",
    "settle": "no wait for the page to settle after an action",
    "grounding": "answers are not checked against the page text (answer grounding off)",
}

# The actions the ``observe`` fix added; the naive harness offered none of them.
OBSERVE_ACTIONS = frozenset({"hover", "find_text", "read_text"})


def parse_ablate(values: Iterable[str] | str | None) -> frozenset[str]:
    """``--ablate`` values (each comma-separated; ``all`` for every fix) as a set of names;
    ConfigError names the flag and the known fixes for anything else."""
    if values is None:
        return frozenset()
    items = [values] if isinstance(values, str) else list(values)
    names = {n.strip() for item in items for n in item.split(",") if n.strip()}
    if "all" in names:
        names = (names - {"all"}) | set(ABLATIONS)
    return check(names)


def check(names: Iterable[str]) -> frozenset[str]:
    chosen = frozenset(names)
    unknown = sorted(chosen - set(ABLATIONS))
    if unknown:
        raise ConfigError(f"--ablate: unknown fix {', '.join(unknown)}; known: "
                          f"{', '.join(ABLATIONS)}")
    return chosen


def run_label(settings: object) -> str:
    """The label of a bench run from its recorded settings (``full`` when none ablated)."""
    ablate = settings.get("ablate") if isinstance(settings, dict) else None
    if isinstance(ablate, str):
        ablate = ablate.split(",")
    return label(a for a in ablate or () if isinstance(a, str))


def label(ablate: Iterable[str]) -> str:
    """How a run is named in tables: ``full`` or ``-ratio,-enter``."""
    chosen = set(ablate)
    names = [n for n in ABLATIONS if n in chosen]
    return ",".join(f"-{n}" for n in names) if names else "full"
