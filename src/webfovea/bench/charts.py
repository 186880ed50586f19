"""Charts of a run and of a comparison, as plain SVG (or PNG, drawn from that SVG by Chromium),
for papers and READMEs: ``webfovea score RUN --chart FILE`` and ``compare A B --chart FILE``.

The same pictures as the viewer's index: success by site and by tag with binomial standard
errors, outcome buckets, time per task; for a comparison, each run's success with its error and
the paired tasks fixed, broken and unchanged. No plotting library: a chart is a few bars.
"""

from __future__ import annotations

import asyncio
import math
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from urllib.parse import urlsplit

from ..errors import ConfigError
from ..outcomes import Rate
from .compare import Comparison
from .report import Report
from .store import TaskRow

WIDTH = 640
LABEL_W = 180
CAPTION_W = 150
ROW_H = 22
FONT = "font-family='system-ui, sans-serif' font-size='12'"


@dataclass(frozen=True)
class Bar:
    label: str
    value: float  # in 0..scale of its panel
    caption: str
    se: float | None = None  # drawn as a whisker, value ± se


@dataclass(frozen=True)
class Panel:
    title: str
    bars: tuple[Bar, ...]
    scale: float = 1.0


def rate_bar(label: str, correct: float, n: int) -> Bar:
    """A success rate with its binomial standard error (``correct`` may be a sum of rates);
    at 0/n and n/n, where the error is 0, the caption gives the Wilson 95 % interval."""
    p = correct / n if n else 0.0
    se = math.sqrt(p * (1 - p) / n) if n else 0.0
    caption = f"{100 * p:.0f}% ± {100 * se:.0f} ({correct:g}/{n})"
    if n and correct in (0, n):
        low, high = Rate(int(correct), n).interval or (0.0, 1.0)
        caption = f"{100 * p:.0f}% (95% CI {100 * low:.0f}–{100 * high:.0f}) ({correct:g}/{n})"
    return Bar(label, p, caption, se)


def _panel_svg(panel: Panel, top: float) -> tuple[list[str], float]:
    plot = WIDTH - LABEL_W - CAPTION_W
    parts = [f"<text x='8' y='{top + 14}' font-weight='600' {FONT}>{escape(panel.title)}</text>"]
    y = top + 24
    for bar in panel.bars:
        w = plot * bar.value / panel.scale if panel.scale else 0.0
        parts += [
            f"<text x='{LABEL_W - 8}' y='{y + 14}' text-anchor='end' {FONT}>"
            f"{escape(_short(bar.label))}</text>",
            f"<rect x='{LABEL_W}' y='{y + 3}' width='{max(0.0, w):.1f}' height='{ROW_H - 8}' "
            "fill='#6f8fd8'/>",
            f"<text x='{LABEL_W + plot + 8}' y='{y + 14}' fill='#5b6475' {FONT}>"
            f"{escape(bar.caption)}</text>"]
        if bar.se is not None and panel.scale:
            lo = plot * max(0.0, bar.value - bar.se) / panel.scale
            hi = plot * min(panel.scale, bar.value + bar.se) / panel.scale
            cy = y + 3 + (ROW_H - 8) / 2
            parts += [f"<path d='M{LABEL_W + lo:.1f} {cy - 5}v10M{LABEL_W + lo:.1f} {cy}"
                      f"H{LABEL_W + hi:.1f}M{LABEL_W + hi:.1f} {cy - 5}v10' "
                      "stroke='#1d2433' stroke-width='1.5' fill='none'/>"]
        y += ROW_H
    parts.append(f"<line x1='{LABEL_W}' x2='{LABEL_W + plot}' y1='{y + 2}' y2='{y + 2}' "
                 "stroke='#d9dde5'/>")
    return parts, y + 14


def svg(title: str, panels: Sequence[Panel]) -> str:
    """One SVG document: the title, then the panels stacked."""
    body = [f"<text x='8' y='20' font-weight='700' font-family='system-ui, sans-serif' "
            f"font-size='15'>{escape(title)}</text>"]
    top = 30.0
    for panel in panels:
        parts, top = _panel_svg(panel, top)
        body += parts
    height = math.ceil(top + 6)
    return (f"<svg xmlns='http://www.w3.org/2000/svg' width='{WIDTH}' height='{height}' "
            f"viewBox='0 0 {WIDTH} {height}'><rect width='100%' height='100%' fill='#fff'/>"
            + "".join(body) + "</svg>\n")


def _short(text: str, limit: int = 28) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _rates(rows: Iterable[TaskRow], keys: Callable[[TaskRow], list[str]]) -> tuple[Bar, ...]:
    groups: dict[str, list[bool]] = defaultdict(list)
    for row in rows:
        if row.correct is None:
            continue
        for key in keys(row):
            groups[key].append(row.correct)
    return tuple(rate_bar(k, sum(v), len(v)) for k, v in sorted(groups.items()))


def _histogram(values: list[float], bins: int = 8) -> tuple[Bar, ...]:
    if not values:
        return ()
    lo, hi = min(values), max(values)
    bins = max(1, min(bins, len(set(values))))
    size = (hi - lo) / bins or 1.0
    counts = Counter(min(bins - 1, int((v - lo) / size)) for v in values)
    top = max(counts.values())
    return tuple(Bar(f"{lo + i * size:.0f}–{lo + (i + 1) * size:.0f} s", counts[i] / top,
                     str(counts[i])) for i in range(bins))


def score_chart(report: Report, rows: Sequence[TaskRow]) -> str:
    """The run's picture: success overall, by site and by tag (± standard error), outcome
    buckets and the time per task."""
    done = [r for r in rows if r.state == "done"]
    total = max(1, report.tasks)
    panels = [
        Panel("Success (± binomial standard error)",
              (rate_bar("all tasks", report.success.correct, report.success.n),)),
        Panel("Success by site", _rates(done, lambda r: [urlsplit(r.url).hostname or "?"])),
        Panel("Success by tag", _rates(done, lambda r: list(r.tags))),
        Panel("Outcomes", tuple(Bar(name, n / total, f"{n} ({100 * n / total:.0f}%)")
                                for name, n in report.buckets.items())),
        Panel("Time per task", _histogram([r.elapsed for r in done])),
    ]
    return svg(f"webfovea · {report.model or 'run'} · {report.run_dir}",
               [p for p in panels if p.bars])


def compare_chart(result: Comparison) -> str:
    """Two runs on their paired tasks: each run's success (± standard error), and how the
    tasks moved between them."""
    n = result.paired
    moved = (("fixed", len(result.fixed)), ("broken", len(result.broken)),
             ("both right", len(result.still_correct)), ("both wrong", len(result.still_wrong)))
    panels = [
        Panel(f"Success on the {n} paired tasks (± binomial standard error)",
              (rate_bar(f"A {result.run_a}", result.correct_a, n),
               rate_bar(f"B {result.run_b}", result.correct_b, n))),
        Panel(f"Paired tasks (McNemar exact p = {result.p_value:.3g})",
              tuple(Bar(name, k / max(1, n), str(k)) for name, k in moved)),
    ]
    return svg("webfovea · A vs B", panels)


def write_chart(chart: str, path: Path) -> Path:
    """``path`` ending .svg: the SVG itself; .png: the SVG drawn by headless Chromium."""
    suffix = path.suffix.lower()
    if suffix not in (".svg", ".png"):
        raise ConfigError(f"--chart {path}: give a file name ending in .svg or .png")
    path.parent.mkdir(parents=True, exist_ok=True)
    if suffix == ".svg":
        path.write_text(chart, encoding="utf-8")
    else:
        path.write_bytes(asyncio.run(_png(chart)))
    return path


async def _png(chart: str) -> bytes:
    from ..browser.session import BrowserSession  # late: only PNG charts need a browser
    from ..config import BrowserConfig

    async with BrowserSession(BrowserConfig()) as session:
        page = await session.browser.new_page(device_scale_factor=2)
        await page.set_content(f"<body style='margin:0'>{chart}</body>")
        return await page.locator("svg").screenshot(type="png")
