"""Print the input-checks table: each bad input to `webfovea run` / `bench`, the one-line
message it gets, and the exit code (through the real entry point, in this process).

    .venv/bin/python scripts/input_checks.py        # a Markdown table on stdout
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
from pathlib import Path

from webfovea.cli.main import main

GOOD = {"--url": "http://127.0.0.1:9/", "--task": "find it", "--model": "openai:m",
        "--base-url": "http://127.0.0.1:9/v1"}
RUN_CASES = [("--url", v) for v in ("ftp://example.com/x", "javascript:alert(1)",
                                     "data:text/html,<p>hi", "chrome://settings",
                                     "file:///etc/passwd", "", "not a url",
                                     "http://127.0.0.1:99999/")] + [
    ("--task", ""), ("--task", "   "), ("--viewport", "20000x20000"), ("--viewport", "50x50"),
    ("--time-limit", "nan"), ("--time-limit", "inf"), ("--time-limit", "-1"),
    ("--device-scale-factor", "nan"), ("--device-scale-factor", "inf"),
    ("--device-scale-factor", "9"), ("--max-steps", "0"),
    ("--base-url", "127.0.0.1:8000/v1"), ("--base-url", "::::"),
    ("--base-url", "http://127.0.0.1:70000/v1")]


def call(argv: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            main(argv)
        except SystemExit as stop:
            return int(stop.code or 0), err.getvalue().strip()
    return 0, err.getvalue().strip()


def rows(tmp: Path) -> list[tuple[str, str, int]]:
    found = []
    for flag, value in RUN_CASES:
        argv = ["run", *[x for k, v in {**GOOD, flag: value}.items() for x in (k, v)],
                "--out", str(tmp / "out")]
        code, message = call(argv)
        found.append((f"run {flag} {value!r}", message, code))
    a_file = tmp / "a-file"
    a_file.write_text("x")
    for out in (a_file, a_file / "sub"):
        argv = ["run", *[x for k, v in GOOD.items() for x in (k, v)], "--out", str(out)]
        found.append((f"run --out {out.relative_to(tmp)}", *call(argv)[::-1]))
    task = {"id": "t1", "instruction": "find it", "url": "http://127.0.0.1:9/"}
    files = {"tasks-array.json": json.dumps([task]),
             "tasks-file-url.jsonl": json.dumps({**task, "url": "file:///etc/passwd"}) + "\n"}
    for name, text in files.items():
        (tmp / name).write_text(text)
        argv = ["bench", str(tmp / name), "--out", str(tmp / f"run-{name}"), "--model",
                "openai:m", "--base-url", GOOD["--base-url"]]
        found.append((f"bench {name}", *call(argv)[::-1]))
    return [(what, message.replace(str(tmp) + "/", ""), code) for what, message, code in found]


def main_table() -> None:
    os.environ.setdefault("OPENAI_API_KEY", "sk-table")
    with tempfile.TemporaryDirectory() as tmp:
        table = rows(Path(tmp))
    print("| input | message | exit |\n| --- | --- | --- |")
    for what, message, code in table:
        cell = message.replace("|", "\\|").replace("\n", " / ")
        print(f"| `{what}` | {cell} | {code} |")


if __name__ == "__main__":
    main_table()
