"""Charts of a run and of a comparison, as plain SVG (or PNG, drawn from that SVG by Chromium),
for papers and READMEs: ``webfovea score RUN --chart FILE`` and ``compare A B --chart FILE``.

The same pictures as the viewer's index: success by site and by tag with their Wilson 95 %
intervals, outcome buckets, time per task; for a comparison, each run's success with its
interval and the paired tasks fixed, broken and unchanged. No plotting library: a chart is a
few bars, its columns as wide as their longest text (estimated from the glyph widths of a wide
sans-serif, so nothing is cut at the chart's edge).
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

from ..core.errors import ConfigError
from ..rundir.outcomes import Rate
from .compare import Comparison
from .report import Report
from .store import TaskRow

WIDTH = 640  # at least; wider when the text needs it
MAX_LABEL_W = 220  # longer labels are cut, with an ellipsis
MIN_PLOT_W = 240
PAD = 8
ROW_H = 22
FONT_SIZE = 12
FONT = f"font-family='system-ui, sans-serif' font-size='{FONT_SIZE}'"
# Advance widths in em of DejaVu Sans, the widest common fallback for system-ui; characters not
# listed take DEFAULT_EM. Over-estimating costs a little white space, under-estimating a cut.
NARROW_EM = dict.fromkeys("il.,:;|!'`()[]{} ·/", 0.4)
WIDE_EM = dict.fromkeys("mwMW%@…—", 1.0)
DEFAULT_EM = 0.7


@dataclass(frozen=True)
class Bar:
    label: str
    value: float  # in 0..scale of its panel
    caption: str
    interval: tuple[float, float] | None = None  # drawn as a whisker


@dataclass(frozen=True)
class Panel:
    title: str
    bars: tuple[Bar, ...]
    scale: float = 1.0


def rate_bar(label: str, correct: float, n: int) -> Bar:
    """A success rate with its Wilson 95 % interval (``correct`` may be a sum of rates), which
    unlike p ± standard error stays honest at 0/n and n/n; the panel's title names it."""
    p = correct / n if n else 0.0
    low, high = Rate(round(correct), n).interval or (0.0, 0.0)
    caption = f"{100 * p:.0f}% ({100 * low:.0f}–{100 * high:.0f}%) {correct:g}/{n}"
    return Bar(label, p, caption, (low, high))


def text_width(text: str, size: float = FONT_SIZE) -> float:
    """Pixels ``text`` takes at ``size`` in a wide sans-serif (an upper estimate)."""
    return size * sum(NARROW_EM.get(c, WIDE_EM.get(c, DEFAULT_EM)) for c in text)


@dataclass(frozen=True)
class Columns:
    """The x layout shared by every panel of one chart: labels, bars, captions."""

    label: float
    plot: float
    caption: float

    @property
    def width(self) -> int:
        return math.ceil(self.label + self.plot + self.caption)

    @classmethod
    def fitting(cls, title: str, panels: Sequence[Panel]) -> Columns:
        bars = [bar for panel in panels for bar in panel.bars]
        label = min(MAX_LABEL_W, max((text_width(b.label) for b in bars), default=0)) + 2 * PAD
        caption = max((text_width(b.caption) for b in bars), default=0) + 2 * PAD
        titles = max([text_width(title, 15), *(text_width(p.title) for p in panels)]) + 2 * PAD
        plot = max(MIN_PLOT_W, WIDTH - label - caption, titles - label - caption)
        return cls(label, plot, caption)


def _panel_svg(panel: Panel, top: float, cols: Columns) -> tuple[list[str], float]:
    left, plot = cols.label, cols.plot
    parts = [f"<text x='{PAD}' y='{top + 14}' font-weight='600' {FONT}>{escape(panel.title)}"
             "</text>"]
    y = top + 24
    for bar in panel.bars:
        w = plot * bar.value / panel.scale if panel.scale else 0.0
        parts += [
            f"<text x='{left - PAD}' y='{y + 14}' text-anchor='end' {FONT}>"
            f"{escape(_short(bar.label, left - 2 * PAD))}</text>",
            f"<rect x='{left}' y='{y + 3}' width='{max(0.0, w):.1f}' height='{ROW_H - 8}' "
            "fill='#6f8fd8'/>",
            f"<text x='{left + plot + PAD}' y='{y + 14}' fill='#5b6475' {FONT}>"
            f"{escape(bar.caption)}</text>"]
        if bar.interval is not None and panel.scale:
            lo, hi = (left + plot * min(panel.scale, max(0.0, v)) / panel.scale
                      for v in bar.interval)
            cy = y + 3 + (ROW_H - 8) / 2
            parts += [f"<path d='M{lo:.1f} {cy - 5}v10M{lo:.1f} {cy}H{hi:.1f}M{hi:.1f} {cy - 5}"
                      "v10' stroke='#1d2433' stroke-width='1.5' fill='none'/>"]
        y += ROW_H
    parts.append(f"<line x1='{left}' x2='{left + plot}' y1='{y + 2}' y2='{y + 2}' "
                 "stroke='#d9dde5'/>")
    return parts, y + 14


def svg(title: str, panels: Sequence[Panel]) -> str:
    """One SVG document: the title, then the panels stacked."""
    cols = Columns.fitting(title, panels)
    body = [f"<text x='{PAD}' y='20' font-weight='700' font-family='system-ui, sans-serif' "
            f"font-size='15'>{escape(title)}</text>"]
    top = 30.0
    for panel in panels:
        parts, top = _panel_svg(panel, top, cols)
        body += parts
    height = math.ceil(top + 6)
    return (f"<svg xmlns='http://www.w3.org/2000/svg' width='{cols.width}' height='{height}' "
            f"viewBox='0 0 {cols.width} {height}'><rect width='100%' height='100%' fill='#fff'/>"
            + "".join(body) + "</svg>\n")


def _short(text: str, room: float) -> str:
    """``text`` cut (with an ellipsis) to fit ``room`` pixels."""
    if text_width(text) <= room:
        return text
    while len(text) > 1 and text_width(text + "…") > room:
        text = text[:-1]
    return text + "…"


def _rates(rows: Iterable[TaskRow], keys: Callable[[TaskRow], list[str]]) -> tuple[Bar, ...]:
    groups: dict[str, list[bool]] = defaultdict(list)
    for row in rows:
        if row.correct is None:
            continue
        for key in keys(row):
            groups[key].append(row.correct)
    return tuple(rate_bar(k, sum(v), len(v)) for k, v in sorted(groups.items()))


def bins(values: Sequence[float], most: int = 8) -> list[tuple[str, int]]:
    """Equal bins of a round width (1, 2 or 5 times a power of ten) starting at a multiple
    of it, about ``most`` of them: (the bin's edges, its count). Edges are shown with the
    decimals that width needs, so no two read the same (never "4–4")."""
    lo, hi = min(values), max(values)
    rough = (hi - lo) / most or abs(lo) / 10 or 1.0
    power = 10.0 ** math.floor(math.log10(rough))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= rough * (1 - 1e-9))
    start = math.floor(lo / step + 1e-9) * step

    def index(v: float) -> int:
        return math.floor((v - start) / step + 1e-9)

    counts = Counter(index(v) for v in values)
    decimals = max(0, -math.floor(math.log10(step) + 1e-9))
    edge = [f"{start + i * step:.{decimals}f}" for i in range(index(hi) + 2)]
    return [(f"{edge[i]}–{edge[i + 1]}", counts[i]) for i in range(index(hi) + 1)]


def _histogram(values: list[float], unit: str) -> tuple[Bar, ...]:
    if not values:
        return ()
    found = bins(values)
    top = max(n for _, n in found)
    return tuple(Bar(f"{edges}{unit}", n / top, str(n)) for edges, n in found)


def score_chart(report: Report, rows: Sequence[TaskRow]) -> str:
    """The run's picture: success overall, by site and by tag (95 % intervals), outcome
    buckets and the time per task."""
    done = [r for r in rows if r.state == "done"]
    total = max(1, report.tasks)
    panels = [
        Panel("Success (95% interval)",
              (rate_bar("all tasks", report.success.correct, report.success.n),)),
        Panel("Success by site (95% interval)",
              _rates(done, lambda r: [urlsplit(r.url).hostname or "?"])),
        Panel("Success by tag (95% interval)", _rates(done, lambda r: list(r.tags))),
        Panel("Outcomes", tuple(Bar(name, n / total, f"{n} ({100 * n / total:.0f}%)")
                                for name, n in report.buckets.items())),
        Panel("Time per task", _histogram([r.elapsed for r in done], " s")),
    ]
    return svg(f"webfovea · {report.model or 'run'} · {report.run_dir}",
               [p for p in panels if p.bars])


def compare_chart(result: Comparison) -> str:
    """Two runs on their paired tasks: each run's success (95 % interval), and how the
    tasks moved between them."""
    n = result.paired
    moved = (("fixed", len(result.fixed)), ("broken", len(result.broken)),
             ("both right", len(result.still_correct)), ("both wrong", len(result.still_wrong)))
    panels = [
        Panel(f"Success on the {n} paired tasks (95% interval)",
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
    from ..core.config import BrowserConfig

    async with BrowserSession(BrowserConfig()) as session:
        page = await session.browser.new_page(device_scale_factor=2)
        await page.set_content(f"<body style='margin:0'>{chart}</body>")
        return await page.locator("svg").screenshot(type="png")
