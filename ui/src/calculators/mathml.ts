// MathML built with React: the calculators' formulas with the reader's numbers in them, in the same
// markup the generator renders the articles' formulas to.
import { createElement, Fragment, isValidElement, type ReactNode } from 'react';

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

/** The words of an `mtext`, or null for any other part of a formula. */
function wordsOf(node: ReactNode): ReactNode {
  return isValidElement<{ children?: ReactNode }>(node) && node.type === 'mtext' ? node.props.children : null;
}

/**
 * `lhs = step = step …` as one displayed formula (it scrolls sideways when wider than the column),
 * after its answer, `lhs = result`, as a line of text that wraps: on a phone the answer is never
 * the part cut off.
 */
export function equation(lhs: ReactNode, ...steps: ReactNode[]) {
  const words = wordsOf(lhs);
  const result = steps[steps.length - 1];
  return createElement(
    Fragment,
    null,
    createElement('p', { className: 'calc-answer' }, words ?? createElement('math', null, lhs), ' = ', createElement('math', null, result)),
    createElement('math', { display: 'block' }, mrow(lhs, ...steps.flatMap((step) => [mo('='), step]))),
  );
}
