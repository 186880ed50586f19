"""What `webfovea suite serve|list|export` do; the CLI only parses flags and calls these."""

from __future__ import annotations

import time
from typing import TextIO

from .catalog import export_tasks, tasks
from .server import SuiteServer
from .web import SuiteError


def serve(*, seed: int, port: int, lanes: int, out: TextIO) -> None:
    """Serve the suite until interrupted, printing what each browser and oracle needs."""
    if lanes < 1:
        raise SuiteError(f"--lanes must be at least 1, got {lanes}")
    with SuiteServer(seed=seed, port=port) as server:
        for _ in range(lanes - 1):
            server.add_lane()
        out.write(f"webfovea suite: seed {seed}, {len(server.app.sites)} hosts\n")
        for lane in server.lanes:
            rules = ", ".join(server.host_rules(lane=lane))
            out.write(f"lane {lane}: --host-resolver-rules=\"{rules}\"\n"
                      f"  layout: {server.layout_url(lane=lane)}\n")
        out.write("sites: " + " ".join(f"http://{host}/" for host in server.app.sites) + "\n")
        out.flush()
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            out.write("webfovea suite: stopped\n")


def list_tasks(*, seed: int, out: TextIO, answers: bool = False) -> int:
    """One line per task: id, site, kind (and the answer for this seed), instruction."""
    found = tasks(seed)
    width = max(len(t.id) for t in found)
    for t in found:
        answer = f"  [{t.answer}]" if answers else ""
        out.write(f"{t.id:<{width}}  {t.site:<8}  {t.kind:<24}{answer}  {t.instruction}\n")
    return len(found)


def export(*, seed: int, out: TextIO) -> int:
    """The task file (JSON Lines) for ``seed``; returns the number of tasks written."""
    return export_tasks(seed, out)
