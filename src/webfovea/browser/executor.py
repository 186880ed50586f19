"""The executor: the only code that acts on the page.

``Executor.execute`` maps the model's points to page points by the measured
ratio of the very image that was sent, fingerprints the page, performs the
action, waits for the page to settle and hands the evidence, as the data of
:mod:`webfovea.browser.evidence`, to :mod:`webfovea.browser.feedback`, which words the note. Dispatch
is derived from the action registry: every registered action has a ``_do_<name>``
handler.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlsplit

from playwright.async_api import Error as PlaywrightError

from ..actions.geometry import OutsideImage, model_space, to_page
from ..actions.keys import to_playwright
from ..actions.registry import REGISTRY, Action
from ..core.config import AgentConfig, Size
from ..core.domains import WEB_SCHEMES, DomainPolicy
from ..core.errors import BrowserError
from ..core.stages import stage
from . import custom_select, feedback, fingerprint, gestures, native_inputs, observe
from .capture import Screen
from .errors import translated
from .evidence import Effect
from .frame_fallback import after_click
from .history import pages_behind
from .locate import Hit, hit_test
from .navigated import Left, document_of, left_since, unless_navigated
from .scripts import js
from .session import Tabs
from .settle import settle


@dataclass(frozen=True)
class Mapped:
    """An action whose points are mapped to page coordinates."""

    action: Action
    points: tuple[tuple[int, int], ...]
    page: Size


Handler = Callable[[Mapped, "Hit | None"], Awaitable[Effect]]


class Executor:
    def __init__(self, tabs: Tabs, config: AgentConfig, *,
                 policy: DomainPolicy | None = None) -> None:
        self.tabs = tabs
        self.config = config
        self.policy = policy  # the domain lock's rule, None on a page the caller guards
        self.finder = observe.FindState()
        self._handlers: dict[str, Handler] = {name: getattr(self, f"_do_{name}") for name in REGISTRY}

    @staticmethod
    def handled_actions() -> set[str]:
        return {n[4:] for n in dir(Executor) if n.startswith("_do_")}

    def map_points(self, action: Action, screen: Screen) -> Mapped:
        """Model points → page points; raises OutsideImage for a point off the image."""
        # Ablated ("ratio"): the naive harness read points as if the model had seen the
        # full-size capture, not the capped image it was sent (the paper's 3/4 bug).
        seen = screen.capture if "ratio" in self.config.ablate else screen.sent
        space = model_space(seen, self.config.coords, self.config.smart_resize)
        points = tuple(
            to_page(action.point(spec.name), space=space, page=screen.page)
            for spec in action.spec.args if spec.kind == "point"
        )
        return Mapped(action, points, screen.page)

    async def execute(self, action: Action, screen: Screen) -> feedback.Note:
        try:
            mapped = self.map_points(action, screen)
        except OutsideImage as e:
            return feedback.refused("image_bounds", f"Refused: {e}.")
        if action.spec.navigates:
            refusal = navigation_refusal(action.text("url"), self.policy)
            if refusal is not None:  # nothing was sent: no request left the browser
                return feedback.refused("domain_lock", refusal)
        page_before = self.tabs.page
        point = mapped.points[0] if mapped.points else None
        hit = await hit_test(page_before, *point) if point else None
        main_only = "frame-fallback" in self.config.ablate
        with stage("fingerprints"):
            before = await fingerprint.before(self.tabs, point=point, hit=hit,
                                              baseline=action.spec.budget != "observe",
                                              main_only=main_only)
        effect = await self._handlers[action.name](mapped, hit)
        settled = True
        if effect.settles and "settle" not in self.config.ablate:
            with stage("settle"):
                waited = await settle(self.tabs, cap=self.config.settle_cap)
            settled = waited.quiet
            if action.spec.budget != "observe":  # an observation's details are its answer
                effect.details["settle"] = {"ms": round(waited.ms), "held": waited.held}
        if effect.readback is not None and self.tabs.page is page_before:
            effect.facts.extend(await effect.readback())
        # Not fingerprinted again when the action leaves the page alone or a new tab took over.
        after: fingerprint.Fingerprint | None = None
        if effect.settles and self.tabs.page is page_before:
            with stage("fingerprints"):
                after = await fingerprint.after(self.tabs, point=point, hit=hit,
                                                canvas=before.canvas, main_only=main_only)
        events = self.tabs.drain_events()
        page = fingerprint.compare(before, after,
                                   text=effect.compare_text or bool(hit and hit.graphic))
        target = hit.target() if hit else None
        if target is not None and "select" in self.config.ablate:  # no select() hint then
            target = replace(target, options=None)
        note = feedback.compose(
            action=action, points=mapped.points, target=target,
            effect=effect, page=page, settled=settled, events=events,
        )
        if "feedback" in self.config.ablate:  # the naive harness said "done", whatever happened
            note.text = feedback.NAIVE_NOTE
        return note

    # --- pointer -------------------------------------------------------------------------

    async def _do_click(self, m: Mapped, hit: Hit | None) -> Effect:
        await self.tabs.page.mouse.click(*m.points[0])
        if hit is None or not hit.in_child_frame or "frame-fallback" in self.config.ablate:
            return Effect()
        report = await after_click(self.tabs, hit, cap=self.config.settle_cap)
        return Effect(facts=report.facts, details={"dom_fallback": report.dispatched,
                                                   "captcha": report.captcha})

    async def _do_left_double(self, m: Mapped, hit: Hit | None) -> Effect:
        await self.tabs.page.mouse.dblclick(*m.points[0])
        return Effect()

    async def _do_right_single(self, m: Mapped, hit: Hit | None) -> Effect:
        await self.tabs.page.mouse.click(*m.points[0], button="right")
        return Effect()

    async def _do_hover(self, m: Mapped, hit: Hit | None) -> Effect:
        await self.tabs.page.mouse.move(*m.points[0], steps=4)
        return Effect(compare_text=True, facts=["the pointer stays there"])

    async def _do_drag(self, m: Mapped, hit: Hit | None) -> Effect:
        return await gestures.drag(self.tabs.page.mouse, hit, m.points[0], m.points[1])

    async def _do_scroll(self, m: Mapped, hit: Hit | None) -> Effect:
        return await gestures.scroll(self.tabs.page.mouse, hit, m.points[0],
                                     m.action.text("direction"), viewport=m.page)

    async def _do_select(self, m: Mapped, hit: Hit | None) -> Effect:
        if hit is None:
            return Effect(failed="there is no dropdown at that point, only nothing")
        if "select" in self.config.ablate:  # the naive harness clicked the dropdown
            await self.tabs.page.mouse.click(*m.points[0])
            return Effect()
        option, mode = m.action.text("option"), m.action.text("mode")
        if hit.info and hit.info.get("select"):
            return await native_inputs.select(hit, option, mode)
        return await custom_select.select(self.tabs.page, hit, option, mode)

    # --- keyboard ------------------------------------------------------------------------

    async def _type_text(self, content: str) -> bool:
        """Type content; every newline is a real Enter key press. True if Enter was pressed."""
        keyboard = self.tabs.page.keyboard
        # Typed as text in one insertion, so a single-line field drops the newline (a
        # newline inserted on its own is a line break, which Chromium submits a form on).
        if "enter" in self.config.ablate:
            await keyboard.insert_text(content)
            return False
        lines = content.split("\n")
        for i, line in enumerate(lines):
            if line:
                await keyboard.type(line)
            if i < len(lines) - 1:
                await keyboard.press("Enter")
        return len(lines) > 1

    async def _do_type(self, m: Mapped, hit: Hit | None) -> Effect:
        entered = await self._type_text(m.action.text("content"))
        if entered:  # the page may be on its way to another: nothing to read back
            return Effect(facts=["pressed Enter"], details={"enter_pressed": True})
        # Read back like fill, so the model sees what reached the field (an IME-less script,
        # a maxlength, a field that reformats), not only that something changed.
        held = await unless_navigated(self.tabs.page.main_frame.evaluate(js("active_value")))
        if isinstance(held, Left) or held is None or held["value"] is None:
            return Effect(details={"enter_pressed": False})
        return Effect(facts=[f"the focused field now holds '{held['value']}'"],
                      details={"enter_pressed": False, "readback": held["value"]})

    async def _do_fill(self, m: Mapped, hit: Hit | None) -> Effect:
        if hit is None or not hit.info or not hit.info["editable"]:
            found = hit.describe() if hit else "nothing"
            return Effect(failed=f"there is no text field at that point, only {found}")
        content = m.action.text("content")
        native = await native_inputs.native_input(hit)
        if native is not None:  # a segmented date/time widget: typing depends on the segment
            return await native_inputs.fill_native(hit, native, content.rstrip("\n"))
        text, enter = self._enter_split(content)
        page = self.tabs.page
        document = await document_of(hit.frame)
        await page.mouse.click(*m.points[0])
        await page.keyboard.press("ControlOrMeta+a")
        await page.keyboard.press("Backspace")
        if "enter" in self.config.ablate:  # the newline typed as text: a field drops it
            await page.keyboard.insert_text(text)
        else:
            await page.keyboard.type(text)
        facts: list[str] = []
        value: dict[str, Any] | None = None
        read = "fill-readback" not in self.config.ablate
        navigated = False
        if read:  # the naive fill typed and never looked
            held = await unless_navigated(hit.frame.evaluate(js("active_value")))
            navigated = isinstance(held, Left) or await left_since(hit.frame, document)
            value = None if isinstance(held, Left) or navigated else held
            facts.append(TYPED_AWAY if navigated else _readback_fact(text, value))
        if enter and not navigated:  # Enter would go to the page it loaded
            await page.keyboard.press("Enter")
            facts.append("pressed Enter")
        details = {"typed": text, "readback": value and value["value"], "enter_pressed": enter}
        if navigated:
            details["navigated"] = True
        if hit.info.get("masked"):
            details["masked"] = True
        return Effect(facts=facts, checked=read, details=details)

    def _enter_split(self, content: str) -> tuple[str, bool]:
        """The text to type and whether to press Enter after it (a trailing newline)."""
        if "enter" in self.config.ablate or not content.endswith("\n"):
            return content, False
        return content[:-1], True

    async def _do_hotkey(self, m: Mapped, hit: Hit | None) -> Effect:
        await self.tabs.page.keyboard.press(to_playwright(m.action.text("key")))
        return Effect()

    # --- navigation ----------------------------------------------------------------------

    async def _do_go_back(self, m: Mapped, hit: Hit | None) -> Effect:
        if not await pages_behind(self.tabs.page):
            return Effect(failed="this is the first page of the tab (for the first tab, the "
                                 "task's entry page), so there is nothing to go back to; the "
                                 "page was left as it was")
        response = await self.tabs.page.go_back(wait_until="commit")
        if response is None and self.tabs.page.url == "about:blank":
            return Effect(failed="there is no earlier page to go back to")
        return Effect()

    async def _do_navigate(self, m: Mapped, hit: Hit | None) -> Effect:
        url = m.action.text("url").strip()
        try:
            await self.tabs.page.goto(url, wait_until="commit")
        except PlaywrightError as e:
            # A redirect off the site: the lock aborted it and its event says so in the note.
            if any(event.kind == "blocked" for event in self.tabs.events):
                return Effect(details={"url": url})
            return Effect(failed=f"{url} did not load ({str(e).splitlines()[0]})",
                          details={"url": url})
        return Effect(facts=[f"loaded {self.tabs.page.url}"],
                      details={"url": url, "loaded": self.tabs.page.url})

    async def _do_reload(self, m: Mapped, hit: Hit | None) -> Effect:
        await self.tabs.page.reload(wait_until="commit")
        return Effect(facts=["reloaded the page"])

    async def _do_wait(self, m: Mapped, hit: Hit | None) -> Effect:
        return Effect(facts=["waited for the page to settle"])

    async def _do_finished(self, m: Mapped, hit: Hit | None) -> Effect:
        return Effect(settles=False, facts=["answer recorded"], checked=True)

    async def _do_call_user(self, m: Mapped, hit: Hit | None) -> Effect:
        return Effect(settles=False, facts=["asked for a person"], checked=True)

    # --- observation ---------------------------------------------------------------------

    async def _do_find_text(self, m: Mapped, hit: Hit | None) -> Effect:
        result = await observe.find_text(self.tabs.page, m.action.text("text"), self.finder)
        return Effect(facts=[result.sentence], failed=None, checked=True,
                      details=result.details)

    async def _do_zoom(self, m: Mapped, hit: Hit | None) -> Effect:
        """The region as the page renders it (CSS pixels at the session's scale), not a crop of
        the scaled-down screenshot: what a model zooms for is the detail the cap removed."""
        (x1, y1), (x2, y2) = m.points
        left, top = min(x1, x2), min(y1, y2)
        width, height = max(abs(x2 - x1), 1), max(abs(y2 - y1), 1)
        png = await self.tabs.page.screenshot(type="png", clip={
            "x": left, "y": top, "width": width, "height": height})
        a, b = m.action.point("start_box"), m.action.point("end_box")
        return Effect(facts=[f"zoom shows the region ({a.x:g},{a.y:g})-({b.x:g},{b.y:g}) at the "
                             f"page's full resolution ({width}x{height} pixels)"],
                      settles=False, checked=True, image=png,
                      details={"found": True, "zoom": [left, top, width, height]})

    async def _do_read_text(self, m: Mapped, hit: Hit | None) -> Effect:
        result = await observe.read_text(self.tabs.page, m.action.text("label"))
        return Effect(facts=[result.sentence], settles=False, checked=True,
                      details=result.details)


def navigation_refusal(url: str, policy: DomainPolicy | None) -> str | None:
    """The domain lock's sentence for a navigation by URL it would block, judged before the
    request is sent (http(s) only, and on the task's site when a policy is given)."""
    url = url.strip()
    scheme = urlsplit(url).scheme.lower()
    shown = url[:200]
    if scheme not in WEB_SCHEMES:
        return (f"Refused by the domain lock: a navigation to {shown} was blocked: "
                f"{scheme or 'scheme-less'}: pages are not allowed; give an http(s) URL.")
    why = policy.verdict(url) if policy is not None else None
    if why is None:
        return None
    return (f"Refused by the domain lock: a navigation to {shown} was blocked: {why} "
            "(--allow-domain adds a site).")


TYPED_AWAY = "typed the text; it loaded another page as it was typed, so the field was not read back"


def _readback_fact(typed: str, value: dict[str, Any] | None) -> str:
    if value is None or value["value"] is None:
        return "typed the text, but no focused field could be read back"
    held = value["value"]
    if held == typed:
        return f"the field now holds '{held}'"
    limit = f" (maxlength {value['maxLength']})" if value.get("maxLength") is not None else ""
    if value.get("readOnly"):
        limit = " (the field is read-only: typing cannot change it)"
    return f"typed '{typed}' but the field now holds '{held}'{limit}"


async def safe_execute(executor: Executor, action: Action, screen: Screen) -> feedback.Note:
    """Execute, turning a page failure of this one action into an honest note (a browser
    that is gone ends the task as a BrowserError)."""
    try:
        with translated():
            return await executor.execute(action, screen)
    except BrowserError as e:
        if not executor.tabs.context.browser or not executor.tabs.context.browser.is_connected():
            raise
        return feedback.failed_note(f"The {action.name} could not be performed: {e}.")
