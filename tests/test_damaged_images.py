"""Damaged images in a run directory: every reader goes on, says so where the image would be,
and names the file once on stderr.

The run comes from a real ``webfovea bench`` (scripted model, Chromium on a local sign-in page:
two tasks of three steps, one scored correct, one wrong), made once; each case copies it and
damages screenshots as bit rot, a bad copy or a hand edit would: a broken chunk (the case
Pillow reports as ``SyntaxError``), bytes flipped inside the image data, a truncated file, an
empty one, one that is no PNG, and a missing one. ``EACH`` damages some of the images, one of
each kind, next to intact ones; ``EVERY`` damages every screenshot and both evidence images.
Each reader runs through the real command line.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import struct
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

from viewer_helpers import opened
from webfovea.browser.local_server import LocalServer
from webfovea.browser.session import BrowserSession

REPLIES = [
    "Thought: The user name first.\nAction: fill(start_box='(337,165)', content='ada')",
    "Thought: Now the password.\nAction: fill(start_box='(337,240)', content='pw\\n')",
    "Thought: Signed in as ada.\nAction: finished(content='ada')",
]
JUDGE = "Evidence: supported\nReason: the page shows the user name."
# The module's one bench run: on a loaded machine it can outlast the default limit.
pytestmark = pytest.mark.timeout(600)


def _chunks(png: bytes) -> list[tuple[bytes, int, int]]:
    """(type, offset, data length) of each PNG chunk."""
    found, at = [], 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at:at + 4])
        found.append((png[at + 4:at + 8], at, length))
        at += 12 + length
    return found


def broken_chunk(png: bytes) -> bytes:
    """The second IDAT chunk's type overwritten: the reader meets a chunk it cannot name."""
    _, at, _ = [c for c in _chunks(png) if c[0] == b"IDAT"][1]
    return png[:at + 4] + b"\0\0\0\0" + png[at + 8:]


def bit_rot(png: bytes) -> bytes:
    """Eight bytes flipped inside the first IDAT chunk's data: its checksum no longer holds."""
    _, at, _ = next(c for c in _chunks(png) if c[0] == b"IDAT")
    start = at + 8 + 100
    return png[:start] + bytes(b ^ 0xFF for b in png[start:start + 8]) + png[start + 8:]


Damage = Callable[[bytes], bytes | None]  # None: the file is deleted
KINDS: dict[str, Damage] = {
    "broken chunk": broken_chunk,
    "bit rot": bit_rot,
    "truncated": lambda png: png[:len(png) // 2],
    "empty": lambda png: b"",
    "not a PNG": lambda png: b"<html><body>404 Not Found</body></html>",
    "missing": lambda png: None,
}
# What the warning and the page say of each kind.
SAID = {"broken chunk": "image unreadable (broken PNG file (chunk",
        "bit rot": "image unreadable (broken PNG file (bad header checksum",
        "truncated": "image unreadable (truncated)", "empty": "image unreadable (empty file)",
        "not a PNG": "image unreadable (not an image)", "missing": "image missing"}

Layout = dict[str, str]  # file under tasks/ -> damage kind
# One of each kind, each next to an intact screenshot (right/002 and wrong/001 are intact).
EACH: Layout = {"right/screens/001.png": "broken chunk", "right/screens/003.png": "missing",
                "right/evidence.png": "bit rot", "wrong/screens/002.png": "truncated",
                "wrong/screens/003.png": "empty", "wrong/evidence.png": "not a PNG"}
# Every image damaged, every kind again.
EVERY: Layout = {"right/screens/001.png": "truncated", "right/screens/002.png": "empty",
                 "right/screens/003.png": "not a PNG", "right/evidence.png": "missing",
                 "wrong/screens/001.png": "bit rot", "wrong/screens/002.png": "missing",
                 "wrong/screens/003.png": "broken chunk", "wrong/evidence.png": "broken chunk"}
LAYOUTS = {"each": EACH, "every": EVERY}


def webfovea(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "webfovea", *map(str, args)],
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "OPENAI_API_KEY": "test-key"})


@pytest.fixture(scope="module")
def run(pages: LocalServer, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("damaged")
    replies = root / "replies.txt"
    replies.write_text("\n---\n".join(REPLIES))
    url = pages.url("research/login.html")
    tasks = root / "tasks.jsonl"
    tasks.write_text("".join(json.dumps({"id": i, "instruction": "Sign in; who are you?",
                                         "url": url, "answer": a}) + "\n"
                             for i, a in (("right", "ada"), ("wrong", "bob"))))
    done = webfovea("bench", tasks, "--out", root / "run", "--model", f"scripted:{replies}",
                    "--max-steps", "4")
    assert done.returncode == 0, done.stderr[-2000:]
    for task in ("right", "wrong"):
        shots = sorted(p.name for p in (root / "run" / "tasks" / task / "screens").iterdir())
        assert shots == ["001.png", "002.png", "003.png"], shots
    return root / "run"


def damaged(run: Path, to: Path, layout: Layout) -> Path:
    """A copy of the run with the files in ``layout`` damaged."""
    copy = shutil.copytree(run, to)
    for rel, kind in layout.items():
        path = copy / "tasks" / rel
        bad = KINDS[kind](path.read_bytes())
        if bad is None:
            path.unlink()
        else:
            path.write_bytes(bad)
    return copy


def files(copy: Path, layout: Layout, keep: Callable[[str], bool] = lambda rel: True
          ) -> dict[Path, str]:
    """The damaged files of ``copy`` (those of ``layout`` that ``keep``), and their kind."""
    return {copy / "tasks" / rel: kind for rel, kind in layout.items() if keep(rel)}


def survived(done: subprocess.CompletedProcess[str], named: dict[Path, str]) -> None:
    """The command ended well (exit 0), without a traceback, and named each damaged file it
    read in exactly one line of stderr, saying what is wrong with it; no other file."""
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.splitlines()
    for path, kind in named.items():
        mine = [line for line in lines if line.startswith(f"webfovea: {path}: ")]
        assert len(mine) == 1, (path, lines)
        assert mine[0].startswith(f"webfovea: {path}: {SAID[kind]}"), mine
    assert len([line for line in lines if ": image " in line]) == len(named), lines


def evidence(rel: str) -> bool:
    return rel.endswith("evidence.png")


def screens(rel: str) -> bool:
    return "/screens/" in rel


def test_the_damage_is_what_readers_meet(run: Path) -> None:
    """The kinds are the real failures: the broken chunk is the SyntaxError of the issue, the
    bit rot still decompresses but fails its checksum, the rest fail to open or load."""
    png = (run / "tasks" / "right" / "screens" / "001.png").read_bytes()

    def load(data: bytes) -> None:
        with Image.open(io.BytesIO(data)) as image:
            image.load()

    with pytest.raises(SyntaxError, match="broken PNG file"):
        load(broken_chunk(png))
    with Image.open(io.BytesIO(bit_rot(png))) as image, pytest.raises(SyntaxError,
                                                                        match="checksum"):
        image.verify()
    for kind in ("truncated", "empty", "not a PNG"):
        bad = KINDS[kind](png)
        assert bad is not None
        with pytest.raises(OSError):
            load(bad)


@pytest.mark.parametrize("scope", LAYOUTS)
async def test_view_says_where_an_image_is_unreadable_and_shows_the_rest(
        browser: BrowserSession, run: Path, tmp_path: Path, scope: str) -> None:
    layout = LAYOUTS[scope]
    copy = damaged(run, tmp_path / scope, layout)
    done = webfovea("view", copy)
    survived(done, files(copy, layout))
    assert Path(done.stdout.strip()) == copy / "report.html"
    for task in ("right", "wrong"):
        async with opened(browser, copy / "tasks" / task / "view.html") as (page, problems):
            assert await page.locator("article.step").count() == 3
            for step in (1, 2, 3):
                kind = layout.get(f"{task}/screens/{step:03d}.png")
                card = page.locator(f"#step-{step}")
                if kind is None:
                    assert await card.locator(".shot img").evaluate("i => i.decode().then("
                                                                   "() => i.naturalWidth)") > 0
                    continue
                said = await card.locator(".image-problem").inner_text()
                assert SAID[kind] in said and f"screens/{step:03d}.png" in said, said
                assert await card.locator("img").count() == 0
                assert "Thought" in await card.inner_text()  # the rest of the step is there
            kind = layout.get(f"{task}/evidence.png")
            answer = page.locator("#answer")
            if kind is None:
                assert await answer.locator("img").count() == 1
            else:
                assert SAID[kind] in await answer.locator(".image-problem").inner_text()
            assert problems == []  # no image that fails to load, no script error
    async with opened(browser, copy / "report.html") as (page, problems):
        assert await page.locator("table.index tbody tr").count() == 2
        row = await page.locator("#disagreements tr[data-id='wrong']").inner_text()
        assert SAID[layout["wrong/evidence.png"]] in row, row
        assert problems == []


def test_view_embed_and_two_runs_side_by_side(run: Path, tmp_path: Path) -> None:
    each = damaged(run, tmp_path / "each", EACH)
    every = damaged(run, tmp_path / "every", EVERY)
    task = each / "tasks" / "right"
    embedded = webfovea("view", "--embed", task)
    survived(embedded, files(each, EACH, lambda rel: rel.startswith("right/")))
    data = (task / "view.html").read_text()
    assert data.count("data:image/png;base64,") == 1  # step 2, the one intact image
    pair = webfovea("view", every, each)
    survived(pair, files(each, EACH) | files(every, EVERY))  # once each, though read twice
    html = (each / "pair.html").read_text()
    assert SAID["bit rot"] in html and SAID["broken chunk"] in html  # right's, wrong's evidence


@pytest.mark.parametrize("scope", LAYOUTS)
def test_export_leaves_out_the_steps_whose_request_carried_a_damaged_image(
        run: Path, tmp_path: Path, scope: str) -> None:
    layout = LAYOUTS[scope]
    copy = damaged(run, tmp_path / scope, layout)
    out = tmp_path / "out"
    done = webfovea("export", copy, "--out", out, "--format", "openai-jsonl")
    survived(done, files(copy, layout, screens))
    # A request carries every screenshot so far: one damaged one leaves out its step and the
    # later ones. In EACH only wrong's first step was sent with intact screenshots.
    kept = ["wrong.s001"] if scope == "each" else []
    dropped = [f"{t}.s00{n}" for t in ("right", "wrong") for n in (1, 2, 3)
               if f"{t}.s00{n}" not in kept]
    assert f"exported {len(kept)} examples" in done.stdout
    assert f"left out {len(dropped)} steps" in done.stdout and ", ".join(dropped) in done.stdout
    meta = (out / "metadata.jsonl").read_text().splitlines()
    assert [json.loads(line)["id"] for line in meta] == kept


@pytest.mark.parametrize("scope", LAYOUTS)
def test_references_keep_the_tasks_and_leave_out_damaged_evidence(
        run: Path, tmp_path: Path, scope: str) -> None:
    layout = LAYOUTS[scope]
    copy = damaged(run, tmp_path / scope, layout)
    out = tmp_path / "refs.jsonl"
    done = webfovea("references", copy, "--out", out)
    survived(done, files(copy, layout, evidence))
    lines = {x["id"]: x for x in map(json.loads, out.read_text().splitlines())}
    assert set(lines) == {"right", "wrong"}
    assert "reference_evidence" not in lines["right"]  # correct, but its evidence is damaged
    # the wrong answer is still listed against its reference, without a screenshot
    assert "wrong: reference 'bob' | answer 'ada' | evidence –" in done.stdout
    assert "right:" not in done.stdout  # a correct answer is no disagreement


@pytest.mark.parametrize("scope", LAYOUTS)
def test_the_evidence_judge_is_asked_without_the_damaged_images(
        run: Path, tmp_path: Path, scope: str) -> None:
    layout = LAYOUTS[scope]
    copy = damaged(run, tmp_path / scope, layout)
    judge = tmp_path / "judge.txt"
    judge.write_text(f"{JUDGE}\n---\n{JUDGE}")  # one reply a task
    done = webfovea("score", copy, "--judge-evidence", f"scripted:{judge}")
    survived(done, files(copy, layout))  # the judge's request, the report: each named once
    for task in ("right", "wrong"):
        score = json.loads((copy / "tasks" / task / "score.json").read_text())
        assert score["evidence"]["verdict"] == "supported"


# Readers that open no image: a damaged one changes nothing they print.
NO_IMAGES = {
    "diagnose": (["diagnose", "{run}"], "wrong  [finished]  decision"),
    "compare": (["compare", "{clean}", "{run}"], "unchanged: 1 still correct, 1 still wrong"),
    "replay": (["replay", "{run}"], "replayed 6 steps of 2 task(s)"),
    "cost": (["cost", "{run}", "--price-input", "3", "--price-output", "15"],
             "blocks vs rolling"),
}


@pytest.mark.parametrize("reader", NO_IMAGES)
def test_readers_that_open_no_image_are_unaffected(run: Path, tmp_path: Path,
                                                   reader: str) -> None:
    copy = damaged(run, tmp_path / "every", EVERY)
    args, said = NO_IMAGES[reader]
    done = webfovea(*(a.format(run=copy, clean=run) for a in args))
    survived(done, {})
    assert said in done.stdout, done.stdout
