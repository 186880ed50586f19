"""Real-component gallery (tests/gallery, issue 20): harness time per step and settle time
per component, at 1920x1080 and at 1280x720 with device scale factor 2.

Each run is one real ``run_task`` on real Chromium with a local model endpoint
(``FakeProvider``) that answers at once with the component's real actions, alternating
between two (choose A, choose B; drag down, drag up ...), then ``finished``. Medians over
all steps. Needs tests/gallery built (scripts/build_gallery.sh) and the ``gallery`` extra
(Dash, Gradio). Numbers measured on a loaded machine are only comparable within one run.
Notes are counted as no change / changed / unknown.

    python benchmarks/gallery_inputs.py [--steps 6] [--components react_select,dash] [--out F]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from webfovea.browser.local_server import LocalServer
from webfovea.browser.session import BrowserSession
from webfovea.core.config import AgentConfig, BrowserConfig, Size
from webfovea.core.task import Task
from webfovea.dialects.loopback.fake_provider import FakeProvider, ScriptedPolicy
from webfovea.loop.agent import run_task
from webfovea.models.loader import load_model
from webfovea.rundir.store import read_steps

GALLERY = Path(__file__).resolve().parent.parent / "tests" / "gallery"
sys.path.insert(0, str(GALLERY / "apps"))
from dash_dropdown import serve  # noqa: E402  (the gallery's Dash app, not a package)

sys.path.insert(0, str(GALLERY.parent))
from gradio_support import gradio_app  # noqa: E402  (tests/: Gradio behind the latency proxy)

VIEWS = {"1920x1080": (Size(1920, 1080), 1.0), "1280x720@2": (Size(1280, 720), 2.0)}
IMAGE_WIDTH = 1440  # the sent image at the default cap, for both sizes (16:9)

Step = tuple[str, tuple[tuple[int, int], ...], dict[str, str]]  # name, page points, args


def _pick(point: tuple[int, int], a: str, b: str) -> list[Step]:
    return [("select", (point,), {"option": a}), ("select", (point,), {"option": b})]


# Two real actions per component, in page CSS pixels (the pages lay out the same at both sizes).
COMPONENTS: dict[str, list[Step]] = {
    "react_select": _pick((150, 99), "Ireland", "Spain"),
    "mui_select": _pick((150, 98), "Ireland", "Spain"),
    "select2": _pick((150, 94), "Quince", "Kiwi"),
    "tom_select": _pick((150, 95), "Slovakia", "Iceland"),
    "dash": _pick((150, 98), "Ireland", "Spain"),
    "sortable_list": [("drag", ((150, 242), (150, 92)), {})] * 2,
    "nouislider": [("drag", ((160, 139), (460, 139)), {}), ("drag", ((460, 139), (160, 139)), {})],
    "ag_grid": [("click", ((540, 95),), {})] * 2,
    "quill_editor": [("fill", ((300, 200),), {"content": "Hello"}),
                     ("fill", ((300, 200),), {"content": "World"})],
    "flatpickr_date": [("fill", ((150, 90),), {"content": "2024-03-15"}),
                       ("fill", ((150, 90),), {"content": "2024-04-16"})],
    "bootstrap_modal": [("click", ((278, 89),), {})] * 2,  # the Export menu, open and shut
    # Issue 31: web components (open shadow roots), an autoplaying carousel (a click beside
    # it, then its own arrow), an iframe editor (same origin, and inside a cross-origin
    # frame: click into the text, type), Gradio behind 100 ms of latency.
    "shoelace_select": _pick((150, 100), "Ireland", "Spain"),
    "material_select": _pick((150, 108), "Ireland", "Portugal"),
    "swiper_carousel": [("click", ((670, 150),), {}), ("click", ((614, 190),), {})],
    "tinymce_editor": [("click", ((400, 142),), {}), ("type", (), {"content": " at noon"})],
    "tinymce_framed": [("click", ((400, 142),), {}), ("type", (), {"content": " at noon"})],
    "gradio": _pick((300, 75), "Oslo", "Zurich"),
    # Issue 31 item 2: a virtualised list (antd; Zimbabwe is its last row) and a
    # pointer-driven portalled one (Radix, item-aligned), over 228 countries.
    "antd_select": _pick((150, 100), "Zimbabwe", "Portugal"),
    "radix_select": _pick((150, 100), "Zimbabwe", "Portugal"),
}
APPS = {"dash", "gradio"}  # served by their Python frameworks, not from tests/gallery/pages


def _reply(step: Step, scale: float) -> str:
    name, points, args = step
    parts = [f"{key}='({round(x * scale)},{round(y * scale)})'"
             for key, (x, y) in zip(("start_box", "end_box"), points, strict=False)]
    parts += [f"{k}='{v}'" for k, v in args.items()]
    return f"Thought: act.\nAction: {name}({', '.join(parts)})"


async def one_run(session: BrowserSession, url: str, steps: list[Step], width: int
                  ) -> list[dict[str, Any]]:
    replies = [_reply(s, IMAGE_WIDTH / width) for s in steps]
    replies.append("Thought: done.\nAction: finished(content='ok')")
    with FakeProvider(ScriptedPolicy(replies)) as fp, tempfile.TemporaryDirectory() as out:
        model = load_model("openai:fake", base_url=fp.base_url)
        await run_task(Task("bench", url), model=model, session=session,
                       config=AgentConfig(max_steps=len(steps) + 1), out=Path(out))
        await model.aclose()
        return [{"harness": s.harness_seconds, "outcome": s.outcome,
                 "settle_ms": (s.details.get("settle") or {}).get("ms")}
                for s in read_steps(Path(out))[:len(steps)]]


async def bench(names: list[str], steps: int) -> dict[str, dict[str, Any]]:
    results: dict[str, dict[str, Any]] = {}
    with ExitStack() as stack:
        gallery = stack.enter_context(LocalServer(GALLERY))
        apps = {"dash": stack.enter_context(serve()) if "dash" in names else "",
                "gradio": stack.enter_context(gradio_app()) if "gradio" in names else ""}
        for view, (viewport, scale) in VIEWS.items():
            config = BrowserConfig(viewport=viewport, device_scale_factor=scale)
            async with BrowserSession(config) as session:
                for name in names:
                    url = apps[name] if name in APPS else gallery.url(f"/pages/{name}.html")
                    plan = (COMPONENTS[name] * steps)[:steps]
                    records = await one_run(session, url, plan, viewport.width)
                    settles = [r["settle_ms"] for r in records if r["settle_ms"] is not None]
                    key = f"{name}@{view}"
                    results[key] = {
                        "harness_step_s": statistics.median(r["harness"] for r in records),
                        "settle_ms": statistics.median(settles) if settles else None,
                        "changed": sum(r["outcome"] == "changed" for r in records),
                        "no_change": sum(r["outcome"] == "no_change" for r in records),
                        "unknown": sum(r["outcome"] == "unknown" for r in records),
                        "steps": len(records),
                    }
                    print(_row(key, results[key]), flush=True)
    return results


def _row(key: str, r: dict[str, Any]) -> str:
    settle = f"{r['settle_ms']:8.0f}" if r["settle_ms"] is not None else "       -"
    notes = f"{r['no_change']}/{r['changed']}/{r['unknown']}"
    return f"{key:<30} {r['harness_step_s']:12.3f} {settle} {notes:>8} of {r['steps']}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=6)
    parser.add_argument("--components", default=",".join(COMPONENTS))
    parser.add_argument("--out", type=Path, default=Path("gallery_inputs.json"))
    ns = parser.parse_args()
    names = [n for n in ns.components.split(",") if n]
    unknown = [n for n in names if n not in COMPONENTS]
    if unknown:
        parser.error(f"unknown components: {', '.join(unknown)}")
    print(f"{'component@size':<30} {'harness/step':>12} {'settle':>8} {'notes':>8}")
    print(f"{'':<30} {'(s, median)':>12} {'(ms)':>8} {'n/c/u':>8}")
    results = asyncio.run(bench(names, ns.steps))
    ns.out.write_text(json.dumps(results, indent=2), encoding="utf-8")
    print(f"written to {ns.out}")


if __name__ == "__main__":
    main()
