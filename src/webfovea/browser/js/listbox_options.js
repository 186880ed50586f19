// The options a custom dropdown's open list holds now: their words, whether selected or
// disabled, and whether the list takes several at once. Options inside open shadow roots
// and slotted into the list count (`deep`, deep.js), in the order they are shown. A list
// with no box to see (under 2 px both ways) is an accessibility mirror of a virtualised
// list (`mirror`): its options are not what the user sees (visible_rows.js), unless no
// rows show beside it (a menu that grows in from nothing).
(list) => {
  const options = deep.within(list, "[role=option]").map((o) => ({
    text: deep.text(o),
    selected: o.getAttribute("aria-selected") === "true",
    disabled: o.getAttribute("aria-disabled") === "true",
  }));
  const r = list.getBoundingClientRect();
  return { options, multiple: list.getAttribute("aria-multiselectable") === "true",
           mirror: r.width < 2 && r.height < 2 };
}
