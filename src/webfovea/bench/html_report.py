"""``RUN/report.html``: the report as one static page linking each task's evidence."""

from __future__ import annotations

from html import escape
from pathlib import Path

from .report import BUCKET_HELP, Report

STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
td, th { border: 1px solid #ccc; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f4f4f4; }
.correct { background: #e8f6e8; } .wrong_answer, .no_answer { background: #fdecea; }
.pending { color: #888; }
"""


def write_html(report: Report, run_dir: Path, dirs: dict[str, str]) -> Path:
    path = run_dir / "report.html"
    parts = [f"<!doctype html><meta charset=utf-8><title>webfovea bench {escape(report.model)}"
             f"</title><style>{STYLE}</style>",
             f"<h1>Bench run: {escape(report.model)}</h1>",
             f"<p><b>success {escape(report.success.shown())}</b> (± binomial standard error; "
             "at 0 % or 100 %, a 95 % Wilson interval); "
             f"on reachable sites {escape(report.success_reachable.shown())}; "
             f"{report.done}/{report.tasks} tasks done"
             + (f"; judge {escape(report.judge)}" if report.judge else "") + "</p>",
             _buckets(report), _tasks(report, run_dir, dirs), _versions(report)]
    path.write_text("\n".join(parts), encoding="utf-8")
    return path


def _buckets(report: Report) -> str:
    rows = "".join(f"<tr><td>{b}</td><td>{n}</td><td>{escape(BUCKET_HELP[b])}</td></tr>"
                   for b, n in report.buckets.items())
    return f"<h2>Outcomes</h2><table><tr><th>outcome<th>tasks<th>meaning</tr>{rows}</table>"


def _tasks(report: Report, run_dir: Path, dirs: dict[str, str]) -> str:
    head = "<tr><th>id<th>outcome<th>matcher<th>answer<th>reference<th>steps<th>time<th>tokens" \
           "<th>verdict<th>evidence</tr>"
    rows = []
    for ln in report.lines:
        folder = f"tasks/{dirs.get(ln.id, ln.id)}"
        evidence = (f"<a href='{escape(folder)}/evidence.png'>evidence</a>"
                    if (run_dir / folder / "evidence.png").is_file() else "–")
        rows.append(
            f"<tr class={ln.bucket}><td><a href='{escape(folder)}/result.json'>{escape(ln.id)}"
            f"</a><td>{ln.bucket}<td>{escape(ln.matcher)}<td>{escape(ln.answer or '')}"
            f"<td>{escape(ln.reference or '')}<td>{ln.steps}<td>{ln.elapsed:.1f}s"
            f"<td>{ln.input_tokens}/{ln.output_tokens}<td>{escape(ln.verdict or ln.error or '')}"
            f"<td>{evidence}</tr>")
    return f"<h2>Tasks</h2><table>{head}{''.join(rows)}</table>"


def _versions(report: Report) -> str:
    items = "".join(f"<li>{escape(k)}: {escape(str(v))}</li>" for k, v in report.versions.items())
    return f"<h2>Versions</h2><ul>{items}</ul>"
