"""One task's site mode: recording its snapshot, replaying one, or neither (live).

The loop calls :meth:`SiteSession.attach` on the task's fresh context before the
domain lock is installed and the entry URL loads, passes what it returns to the lock
(the replayer, which answers what the lock lets through), and calls
:meth:`SiteSession.close` before the context closes.
"""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path
from typing import Any

from playwright.async_api import BrowserContext, CDPSession

from ..browser.domain_lock import Downstream
from ..browser.scripts import js
from ..browser.session import Tabs
from ..core.errors import ConfigError
from ..core.sites import UNMATCHED_FILE, Limit, SiteOptions, SiteRecord
from .manifest import Manifest, Snapshot
from .record import Recorder
from .relay import Relay
from .replay import Replayer
from .rules import load_rules

BINDING = "__webfoveaSnapshotLimit"
CLOCK_BINDING = "__webfoveaSnapshotClock"  # recording: each document's clock at its start


class SiteSession:
    def __init__(self, options: SiteOptions, task_id: str, entry_url: str, out: Path, *,
                 host_rules: tuple[str, ...] = ()) -> None:
        self.options, self.out = options, out
        self.record = SiteRecord(mode=options.mode)
        self._recorder: Recorder | None = None
        self._replayer: Replayer | None = None
        if options.mode == "live":
            return
        root = options.snapshot_dir(task_id)
        self.snapshot = Snapshot(root)
        self.record.snapshot = str(root)
        rules = load_rules(root)
        if options.mode == "record":
            started = time.time()
            manifest = Manifest(started_at=started, entry_url=entry_url,
                                random_seed=int(started * 1000) % 2**32)
            self._recorder = Recorder(self.snapshot, manifest, rules)
            self.record.recorded_at = started
        else:
            manifest = self.snapshot.read()  # a missing or broken snapshot fails here, clearly
            self._replayer = Replayer(self.snapshot, manifest, rules, self.record,
                                      Relay(host_rules))
            self.record.recorded_at = manifest.started_at
            self.record.responses = len(manifest.entries)
            self.record.snapshot_id = self.snapshot.identity()
            self.record.archive_sha256 = manifest.archive.sha256 if manifest.archive else None
        self.manifest = manifest

    async def attach(self, tabs: Tabs) -> Downstream | None:
        """Set the context up; returns where the domain lock must hand requests it lets
        through (the replayer), or None to let them reach the network."""
        if self.options.mode == "live":
            return None
        context = tabs.context
        await context.expose_binding(BINDING, self._limit)
        replay = self._replayer is not None
        # A replayed document starts at the time its recording saw (its entry's clock_ms);
        # one without (an about:blank frame, an older snapshot) runs on from the recorded start.
        shift = round((self.manifest.started_at - time.time()) * 1000) if replay else 0
        options = {"seed": self.manifest.random_seed, "replay": replay, "binding": BINDING,
                   "shiftMs": shift, "clockBinding": None if replay else CLOCK_BINDING}
        if self._recorder is not None:
            await context.expose_binding(CLOCK_BINDING, self._recorder.clock)
        await context.add_init_script(f"({js('snapshot_page')})({json.dumps(options)});")
        if self._recorder is not None:
            self._recorder.attach(context)
        if self._replayer is not None:
            self._replayer.attach(await _context_id(context, tabs), tabs.events)
            return self._replayer.handle
        return None

    def _limit(self, source: Any, kind: str, url: str, page: str) -> None:
        limit = Limit(kind=kind, url=url, detail=f"on {page}")  # type: ignore[arg-type]
        if all((lim.kind, lim.url) != (kind, url) for lim in self.record.limits):
            self.record.limits.append(limit)
            if self._recorder is not None:
                self.manifest.limits.append(limit)

    async def close(self) -> None:
        """Write the snapshot (recording) or the list of unmatched requests (replaying)."""
        if self._recorder is not None:
            await self._recorder.close()
            self.record.responses = len(self.manifest.entries)
            self.record.snapshot_id = self.snapshot.identity()
        if self._replayer is not None:
            await self._replayer.relay.aclose()
        if self._replayer is not None and self._replayer.unmatched:
            lines = "".join(u.model_copy(update={"run": str(self.out)}).model_dump_json() + "\n"
                            for u in self._replayer.unmatched)
            (self.out / UNMATCHED_FILE).write_text(lines, encoding="utf-8")
            with contextlib.suppress(OSError):  # a read-only snapshot keeps no list
                _append(self.snapshot.root / UNMATCHED_FILE, lines)


def _append(path: Path, text: str) -> None:
    with path.open("a", encoding="utf-8") as fh:
        fh.write(text)


async def _context_id(context: BrowserContext, tabs: Tabs) -> str:
    cdp: CDPSession = await context.new_cdp_session(tabs.page)
    try:
        info = await cdp.send("Target.getTargetInfo")
    finally:
        await cdp.detach()
    return str(info["targetInfo"]["browserContextId"])


def check_snapshot(options: SiteOptions) -> None:
    """Fail before a run starts on a snapshot directory that cannot work."""
    if options.mode == "replay" and options.root and not Path(options.root).is_dir():
        raise ConfigError(f"--replay-site{'s' if options.per_task else ''}: "
                          f"{options.root} is not a directory")
    if options.mode == "replay" and not options.per_task and options.root:
        Snapshot(Path(options.root)).read()
    if options.mode == "record" and not options.per_task and options.root and \
            (Path(options.root) / "manifest.json").exists():
        raise ConfigError(f"--record-site: {options.root} already holds a snapshot; "
                          "record into a new directory")
