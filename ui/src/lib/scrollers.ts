// A table or formula wider than the column scrolls sideways in its box (the generator wraps them
// in .table-scroll and .math-scroll; an inline formula is its own box); a keyboard user can only scroll what can take focus, so
// those that do scroll (and only those) join the tab order.
export function makeScrollersFocusable(root: ParentNode = document): void {
  for (const el of Array.from(root.querySelectorAll<HTMLElement>('.table-scroll, .math-scroll, .article math, .article pre.code'))) {
    const scrolls = el.scrollWidth > el.clientWidth + 1;
    if (scrolls && !el.hasAttribute('tabindex')) el.setAttribute('tabindex', '0');
    else if (!scrolls && el.getAttribute('tabindex') === '0') el.removeAttribute('tabindex');
  }
}

export function watchScrollers(): void {
  makeScrollersFocusable();
  // Formulas change width once the math font has loaded (font-display: swap).
  void document.fonts?.ready.then(() => makeScrollersFocusable());
  let frame = 0;
  window.addEventListener('resize', () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => makeScrollersFocusable());
  });
}
