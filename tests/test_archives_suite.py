"""The offline suite with the oracle, replayed from WARCs exported from its own recording.

Record with ``--record-sites``, ``snapshot export`` each task's snapshot to a WARC, stop
the suite, ``snapshot import`` each WARC and replay the imports with ``--replay-sites``:
the oracle must answer as it did live, and no page may be asked of a server. The quick
sample runs one task, replayed a second time from the WARC file itself
(``--replay-sites FILE.warc.gz``), and ``compare`` must say both replays saw the same
archive; three sites (a cross-origin canvas iframe, an autocomplete, a ticking news
page) run under ``slow``; benchmarks/archive_suite.py runs all 42.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from webfovea.suite.catalog import tasks
from webfovea.suite.server import CONTROL, SuiteServer


def _bench(server: SuiteServer, task_file: Path, out: Path, *flags: str) -> dict[str, dict]:
    argv = [sys.executable, "-m", "webfovea", "bench", str(task_file), "--out", str(out),
            "--model", "oracle", "--workers", str(len(server.lanes)), *flags]
    for lane in server.lanes:
        argv += ["--host-resolver-rules", ",".join(server.host_rules(lane=lane))]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=900,
                          env=os.environ.copy())
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return {p.parent.name: json.loads(p.read_text()) for p in (out / "tasks").glob("*/result.json")}


def _snapshot(*args: str) -> str:
    proc = subprocess.run([sys.executable, "-m", "webfovea", "snapshot", *args],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def _round_trip(tmp_path: Path, ids: tuple[str, ...]) -> None:
    chosen = [t for t in tasks(0) if t.id in ids]
    task_file = tmp_path / "tasks.jsonl"
    task_file.write_text("".join(json.dumps(t.to_json()) + "\n" for t in chosen), "utf-8")
    snaps, back = tmp_path / "snaps", tmp_path / "imported"
    recording = SuiteServer(seed=0).start()
    try:
        recorded = _bench(recording, task_file, tmp_path / "rec", "--record-sites", str(snaps))
    finally:
        recording.close()
    answers = {t.id: t.answer for t in chosen}
    assert {t: r["answer"] for t, r in recorded.items()} == answers
    for task_id in ids:
        warc = tmp_path / "warcs" / f"{task_id}.warc.gz"
        _snapshot("export", str(snaps / task_id), str(warc))
        assert "could not use: nothing" in _snapshot("import", str(warc), str(back / task_id))

    sources = [back] if len(ids) > 1 else [back, tmp_path / "warcs" / f"{ids[0]}.warc.gz"]
    channel = SuiteServer(seed=0).start()
    try:
        replays = [_bench(channel, task_file, tmp_path / f"rep{n}", "--replay-sites", str(src))
                   for n, src in enumerate(sources)]
        asked = [f"{host}{path}" for host, path in channel.app.served
                 if not path.startswith(CONTROL)]
    finally:
        channel.close()
    assert asked == []  # every page came from the archives
    for replayed in replays:
        assert {t: r["answer"] for t, r in replayed.items()} == answers
        for task_id, result in replayed.items():
            site = result["site"]
            assert site["mode"] == "replay" and site["unmatched"] == 0, (task_id, site)
            assert site["archive_sha256"] is not None
    if len(replays) == 2:  # two copies of one archive: the imports, and the file's own cache
        [site_a], [site_b] = ([r["site"] for r in rep.values()] for rep in replays)
        assert site_a["snapshot"] != site_b["snapshot"]
        assert site_b["snapshot"].endswith(".warc.gz.snapshot")
        proc = subprocess.run([sys.executable, "-m", "webfovea", "compare",
                               str(tmp_path / "rep0"), str(tmp_path / "rep1")],
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        assert f"both runs replayed the same web archive (sha256 {site_a['archive_sha256']})" \
            in proc.stdout


@pytest.mark.timeout(600)
def test_a_suite_task_replays_from_the_warc_of_its_own_recording(tmp_path: Path) -> None:
    _round_trip(tmp_path, ("news-featured-tram",))


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_three_suite_sites_replay_from_the_warcs_of_their_recording(tmp_path: Path) -> None:
    _round_trip(tmp_path, ("energy-value", "forms-cheapest", "news-featured-tram"))
