// A table wider than the column scrolls sideways; a keyboard user can only scroll what can take
// focus, so those (and only those) join the tab order.
export function makeScrollersFocusable(root: ParentNode = document): void {
  for (const el of Array.from(root.querySelectorAll<HTMLElement>('.article table, .article pre.code'))) {
    const scrolls = el.scrollWidth > el.clientWidth + 1;
    if (scrolls && !el.hasAttribute('tabindex')) el.setAttribute('tabindex', '0');
    else if (!scrolls && el.getAttribute('tabindex') === '0') el.removeAttribute('tabindex');
  }
}

export function watchScrollers(): void {
  makeScrollersFocusable();
  let frame = 0;
  window.addEventListener('resize', () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => makeScrollersFocusable());
  });
}
