// MathML built with React: the calculators' formulas with the reader's numbers in them, in the same
// markup the generator renders the articles' formulas to.
import { createElement, type ReactNode } from 'react';

const tag =
  (name: string) =>
  (...children: ReactNode[]) =>
    createElement(name, null, ...children);

export const mrow = tag('mrow');
export const mi = tag('mi');
export const mo = tag('mo');
export const mtext = tag('mtext');
export const frac = tag('mfrac');
export const sup = tag('msup');
export const sub = tag('msub');
export const mn = (text: string) => createElement('mn', null, text);

/** A number; a negative one in parentheses, so `1 + (−0.02)` reads as it should. */
export const num = (x: number, show: (x: number) => string) => (x < 0 ? mrow(mo('('), mn(show(x)), mo(')')) : mn(show(x)));

export const paren = (...children: ReactNode[]) => mrow(mo('('), ...children, mo(')'));

/** `lhs = step = step …` as one displayed formula. */
export function equation(lhs: ReactNode, ...steps: ReactNode[]) {
  return createElement('math', { display: 'block' }, mrow(lhs, ...steps.flatMap((step) => [mo('='), step])));
}
