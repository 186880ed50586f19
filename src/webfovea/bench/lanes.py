"""One offline-suite lane per concurrent browser, checked before a bench starts.

A suite lane keeps the layout its pages last reported (suite/layout.py), one browser's
worth. Two workers whose ``--host-resolver-rules`` send their browsers to the same lane
overwrite each other's reports, so an oracle (planner or grounder, which acts on the layout
of its lane) reads the other worker's page and its tasks end ``gave_up`` without a word.
With an oracle that is certainly broken: the run is refused. Any other model does not read
the layouts, so sharing a lane only costs the reports: a warning says so.
"""

from __future__ import annotations

import sys

from ..core.errors import ConfigError
from ..suite.server import lane_url
from .execute import Job

FIX = ("give each worker its own lane (one --host-resolver-rules per worker, as `webfovea "
       "suite serve --lanes N` prints them), or use `webfovea suite run`, which does, or "
       "--workers 1")


def shared_lanes(job: Job, workers: int) -> dict[str, list[int]]:
    """The suite lanes (their URLs) that two or more of the ``workers`` slots browse."""
    slots: dict[str, list[int]] = {}
    for slot in range(workers):
        lane = lane_url(job.browser_for(slot).host_rules)
        if lane is not None:
            slots.setdefault(lane, []).append(slot)
    return {lane: used for lane, used in slots.items() if len(used) > 1}


def oracle_roles(job: Job) -> list[str]:
    """The roles an oracle plays in ``job`` (it acts on its lane's layout reports)."""
    specs = {"--model": job.model,
             "--grounder": job.agent.grounder.model if job.agent.grounder else ""}
    return [flag for flag, spec in specs.items() if spec.strip().partition(":")[0] == "oracle"]


def check_lanes(job: Job, workers: int) -> None:
    """Refuse (ConfigError, exit 2) an oracle run whose workers share a suite lane; warn
    about any other such run."""
    shared = shared_lanes(job, workers)
    if not shared:
        return
    lane, slots = next(iter(shared.items()))
    why = (f"{len(slots)} of the {workers} workers would browse the same suite lane ({lane}), "
           "whose layout reports their browsers would overwrite")
    roles = oracle_roles(job)
    if roles:
        raise ConfigError(f"{why}: the oracle ({' and '.join(roles)}) acts on those reports, "
                          f"so its tasks would end gave_up; {FIX}")
    print(f"webfovea: warning: {why} (only an oracle reads them); {FIX}", file=sys.stderr)
