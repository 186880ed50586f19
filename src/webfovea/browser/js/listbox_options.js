// The options a custom dropdown's open list holds now: their words, whether selected or
// disabled, and whether the list takes several at once.
(list) => {
  const squash = (s) => (s || "").replace(/\s+/g, " ").trim();
  const options = [...list.querySelectorAll("[role=option]")].map((o) => ({
    text: squash(o.innerText === undefined ? o.textContent : o.innerText),
    selected: o.getAttribute("aria-selected") === "true",
    disabled: o.getAttribute("aria-disabled") === "true",
  }));
  return { options, multiple: list.getAttribute("aria-multiselectable") === "true" };
}
