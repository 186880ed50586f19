// Where an iframe's content starts, in its parent frame's viewport: the
// element's box plus its border (clientLeft/clientTop).
(el) => {
  const r = el.getBoundingClientRect();
  return { left: r.left + el.clientLeft, top: r.top + el.clientTop };
}
