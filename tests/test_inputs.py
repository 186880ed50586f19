"""Input checks: each bad input is one line naming it, exit 2, before any browser starts."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from webfovea.bench.tasks import read_tasks
from webfovea.cli.main import main
from webfovea.core.errors import ConfigError

Call = Callable[[list[str]], tuple[int, str]]
GOOD = {"--url": "http://127.0.0.1:9/", "--task": "find it", "--model": "openai:m",
        "--base-url": "http://127.0.0.1:9/v1"}
# (flag, bad value, words the one-line message must hold)
BAD_RUN = [
    ("--url", "ftp://example.com/x", "ftp: URLs are not allowed"),
    ("--url", "javascript:alert(1)", "javascript: URLs are not allowed"),
    ("--url", "data:text/html,<p>hi", "data: URLs are not allowed"),
    ("--url", "chrome://settings", "chrome: URLs are not allowed"),
    ("--url", "file:///etc/passwd", "file: URLs are refused"),
    ("--url", "", "--url is empty"),
    ("--url", "   ", "--url is empty"),
    ("--url", "not a url", "no http:// or https://"),
    ("--url", "http://127.0.0.1:99999/", "invalid port"),
    ("--task", "", "--task is empty"),
    ("--task", "  \n ", "--task is empty"),
    ("--viewport", "20000x20000", "--viewport 20000x20000"),
    ("--viewport", "50x50", "at least 100"),
    ("--viewport", "big", "WIDTHxHEIGHT"),
    ("--time-limit", "nan", "--time-limit must be a number above 0 and finite, got nan"),
    ("--time-limit", "inf", "--time-limit must be a number above 0 and finite, got inf"),
    ("--time-limit", "0", "--time-limit must be a number above 0"),
    ("--device-scale-factor", "nan", "--device-scale-factor must be a number"),
    ("--device-scale-factor", "inf", "--device-scale-factor must be a number"),
    ("--device-scale-factor", "9", "at most 4"),
    ("--max-steps", "0", "--max-steps must be at least 1"),
    ("--base-url", "127.0.0.1:8000/v1", "--base-url must be an http(s) URL"),
    ("--base-url", "ftp://127.0.0.1/v1", "--base-url must be an http(s) URL"),
    ("--base-url", "::::", "--base-url must be an http(s) URL"),
    ("--base-url", "http://127.0.0.1:70000/v1", "--base-url has an invalid port"),
]


def _run_args(flag: str, value: str, out: Path) -> list[str]:
    given = {**GOOD, flag: value}
    return ["run", *[x for k, v in given.items() for x in (k, v)], "--out", str(out)]


@pytest.fixture
def webfovea(capsys: pytest.CaptureFixture[str],
             monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[list[str]], tuple[int, str]]]:
    """The command's entry point in this process: (exit code, stderr). The subprocess tests
    (test_interrupts) cover the process level; here the checks themselves, fast."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    term = signal.getsignal(signal.SIGTERM)

    def call(argv: list[str]) -> tuple[int, str]:
        with pytest.raises(SystemExit) as stop:
            main(argv)
        captured = capsys.readouterr()
        assert captured.out == ""
        return int(stop.value.code or 0), captured.err

    yield call
    signal.signal(signal.SIGTERM, term)


@pytest.mark.parametrize(("flag", "value", "words"), BAD_RUN)
def test_bad_run_inputs_are_one_line_usage_errors(webfovea: Call, tmp_path: Path, flag: str,
                                                  value: str, words: str) -> None:
    out = tmp_path / "out"
    code, stderr = webfovea(_run_args(flag, value, out))
    assert code == 2 and stderr.count("\n") == 1 and stderr.startswith("webfovea: "), stderr
    assert words in stderr, stderr
    assert not out.exists()  # refused before anything ran


def test_out_that_is_a_file_or_unwritable(webfovea: Call, tmp_path: Path) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("x")
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    cases = [(a_file, "is an existing file"), (a_file / "sub", "is a file")]
    if os.geteuid() != 0:  # root writes anywhere
        cases.append((locked / "run", "cannot be created or written (Permission denied)"))
    for out, words in cases:
        code, stderr = webfovea(_run_args("--out", str(out), out))
        assert code == 2 and words in stderr and stderr.count("\n") == 1, stderr


def test_a_bare_host_gets_https() -> None:
    from webfovea.console.inputs import web_url

    assert web_url("example.com") == "https://example.com"
    assert web_url("shop.example.com:8080/a?b=1") == "https://shop.example.com:8080/a?b=1"
    assert web_url("localhost:8000") == "https://localhost:8000"
    assert web_url(" http://127.0.0.1:8000/x ") == "http://127.0.0.1:8000/x"


def _task(i: int, url: str = "http://127.0.0.1:9/") -> str:
    return json.dumps({"id": f"t{i}", "instruction": "find it", "url": url})


def test_a_task_file_with_a_byte_order_mark_keeps_its_first_task(tmp_path: Path) -> None:
    path = tmp_path / "tasks.jsonl"
    path.write_bytes(("\ufeff" + _task(1) + "\n" + _task(2) + "\n").encode("utf-8"))
    tasks = read_tasks(path)
    assert [t.id for t in tasks.tasks] == ["t1", "t2"] and not tasks.problems


def test_a_task_file_that_is_a_json_array_says_use_json_lines(tmp_path: Path) -> None:
    path = tmp_path / "tasks.json"
    path.write_text("[\n" + ",\n".join(_task(i) for i in range(3)) + "\n]\n")
    with pytest.raises(ConfigError, match=r"one JSON array; task files are JSON Lines"):
        read_tasks(path)


def test_file_urls_in_a_task_file_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "tasks.jsonl"
    path.write_text("\n".join([_task(1, "file:///etc/passwd"), _task(2, "example.com"),
                               _task(3, "javascript:alert(1)")]) + "\n")
    tasks = read_tasks(path)
    assert [t.url for t in tasks.tasks] == ["https://example.com"]
    assert [p.line for p in tasks.problems] == [1, 3]
    assert "file: URLs are refused" in str(tasks.problems[0])


def test_trials_that_would_record_over_each_other_are_refused(webfovea: Call,
                                                               tmp_path: Path) -> None:
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text(json.dumps({"id": "t", "instruction": "find it",
                                 "url": "http://127.0.0.1:9/"}) + "\n", encoding="utf-8")
    out, sites = tmp_path / "run", tmp_path / "sites"
    code, stderr = webfovea(["bench", str(tasks), "--out", str(out), "--model", "openai:m",
                             "--base-url", "http://127.0.0.1:9/v1", "--trials", "3",
                             "--record-sites", str(sites)])
    assert code == 2 and stderr.count("\n") == 1, stderr
    assert "--trials 3 with --record-sites" in stderr and "--replay-sites" in stderr
    assert not out.exists() and not sites.exists()
