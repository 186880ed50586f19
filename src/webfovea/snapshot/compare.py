"""Whether two bench runs saw identical pages: both replayed the same site snapshots (or
snapshots imported from the same web archive: the archive file's sha256)."""

from __future__ import annotations

import json
from pathlib import Path


def _sites(run: Path) -> dict[str, tuple[str, str | None, str | None]]:
    """Task directory (relative to the run) → (site mode, snapshot id, web archive sha256)."""
    found = {}
    for path in sorted((run / "tasks").rglob("result.json")):
        try:
            site = json.loads(path.read_text(encoding="utf-8")).get("site") or {}
        except (OSError, ValueError):
            continue
        found[str(path.parent.relative_to(run))] = (site.get("mode", "live"),
                                                   site.get("snapshot_id"),
                                                   site.get("archive_sha256"))
    return found


def snapshot_note(run_a: Path, run_b: Path) -> str | None:
    """A sentence on the pages the two runs saw, or None when neither replayed a snapshot."""
    a, b = _sites(run_a), _sites(run_b)
    common = sorted(a.keys() & b.keys())
    if not any(a[t][0] == "replay" or b[t][0] == "replay" for t in common):
        return None
    # A recording run saw exactly the pages its snapshot holds, so it pairs with its replays.
    same = [t for t in common if (a[t][1] is not None and a[t][1] == b[t][1])
            or (a[t][2] is not None and a[t][2] == b[t][2])]
    if len(same) == len(common) and all(a[t][2] is not None and a[t][2] == b[t][2]
                                        for t in common):
        # Imported from the same web archives (by content, wherever each run imported them).
        archives = sorted({str(a[t][2]) for t in common})
        which = (f"the same web archive (sha256 {archives[0]})" if len(archives) == 1
                 else f"the same {len(archives)} web archives (by sha256)")
        return f"both runs replayed {which} on all {len(common)} common tasks: the pages " \
               "were identical"
    if len(same) == len(common):
        how = ("both runs replayed" if all(a[t][0] == b[t][0] == "replay" for t in common)
               else "one run recorded and the other replayed")
        return (f"{how} the same site snapshots on all {len(common)} common tasks: the pages "
                "were identical")
    differ = [t for t in common if t not in same]
    shown = ", ".join(Path(t).name for t in differ[:5]) + (" …" if len(differ) > 5 else "")
    return (f"the runs saw the same site snapshots on {len(same)} of {len(common)} common tasks;"
            f" the pages may differ on {len(differ)} ({shown}): live, or another snapshot")
