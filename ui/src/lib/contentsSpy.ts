// "On this page" marks the section being read (README, "Reading aids and dates"): the last heading
// the reader has scrolled past the upper third of the window. An enhancement over the plain
// lists the generator writes; the observer only says when to look again, so a jump, a resize
// or a fast scroll all end on the right entry. The mark is aria-current and a colour and a bar
// drawn outside the flow, so marking never moves the text.
const CURRENT = 'aria-current';

export function watchContents(root: Document = document): void {
  if (typeof IntersectionObserver === 'undefined') return;
  const links = Array.from(root.querySelectorAll<HTMLAnchorElement>('.contents a[href^="#"]'));
  const sections = new Map<Element, HTMLAnchorElement[]>();
  for (const link of links) {
    const heading = root.getElementById(decodeURIComponent(link.hash.slice(1)));
    if (heading) sections.set(heading, [...(sections.get(heading) ?? []), link]);
  }
  if (sections.size === 0) return;
  const headings = Array.from(sections.keys());
  let marked: HTMLAnchorElement[] = [];
  const mark = () => {
    const line = window.innerHeight / 3;
    let current: Element | undefined;
    for (const heading of headings) if (heading.getBoundingClientRect().top <= line) current = heading;
    const next = current ? sections.get(current)! : [];
    if (next === marked) return;
    for (const link of marked) link.removeAttribute(CURRENT);
    for (const link of next) link.setAttribute(CURRENT, 'location');
    marked = next;
  };
  const observer = new IntersectionObserver(mark, { rootMargin: '0px 0px -66% 0px' });
  for (const heading of headings) observer.observe(heading);
  mark();
}
