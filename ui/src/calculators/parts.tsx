// What every calculator is made of: its frame, number fields with their messages, the result list,
// the formula and the sensitivity grid.
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useIsland } from '../components/IslandRoot';
import { RESULT, type Checked, type Problem, type Spec, type Texts } from '../valuation/fields';
import { DASH, formats, type Formats } from './format';

export function useCalculator(): { t: TFunction; f: Formats } {
  const { t } = useTranslation();
  return { t, f: formats(useIsland().lang) };
}

/** The calculator's frame: `inputs` beside `output` (below it on a phone), then `children`. */
export function Calculator({
  title,
  intro,
  choice,
  inputs,
  output,
  children,
}: {
  title: string;
  intro: string;
  /** Above the inputs: a choice of model, say. */
  choice?: ReactNode;
  inputs: ReactNode;
  output: ReactNode;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <section className="calc" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <p className="calc-intro">{intro}</p>
      <p className="calc-nojs">{t('calculator.noScript')}</p>
      <p className="calc-unloaded">{t('calculator.unloaded')}</p>
      {choice}
      <div className="calc-body">
        <div className="calc-inputs">{inputs}</div>
        {output}
      </div>
      {children}
    </section>
  );
}

/** Negative numbers need a minus key, which phones' decimal keypads lack. */
const KEYPAD: Record<string, 'decimal' | 'text'> = { positive: 'decimal', nonNegative: 'decimal', years: 'decimal', share: 'decimal' };

export function NumberField({
  spec,
  label,
  value,
  error,
  onChange,
}: {
  spec: Spec;
  label: string;
  value: string;
  error?: string;
  onChange: (key: string, value: string) => void;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  // Text typed into the prerendered field before hydration stays on screen but not in state.
  useEffect(() => {
    const typed = input.current?.value;
    if (typed !== undefined && typed !== value) onChange(spec.key, typed);
    // Once, right after hydration.
  }, []);
  return (
    <div className="calc-field">
      <label htmlFor={id}>{label}</label>
      <input
        ref={input}
        id={id}
        name={spec.key}
        type="text"
        inputMode={KEYPAD[spec.rule ?? 'any'] ?? 'text'}
        autoComplete="off"
        spellCheck={false}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(spec.key, e.target.value)}
      />
      {error ? (
        <p id={`${id}-error`} className="calc-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The message for a field's problem; `rate` names the discount rate growth must stay below. */
export function problemText(t: TFunction, problem: Problem | undefined, rate = ''): string | undefined {
  return problem ? t(`calculator.error.${problem}`, { rate }) : undefined;
}

/** The fields of `specs`, labelled from `labelOf`, with their messages. */
export function Fields({
  specs,
  texts,
  checked,
  labelOf,
  onChange,
  rate,
}: {
  specs: Spec[];
  texts: Texts;
  checked: Checked;
  labelOf: (key: string) => string;
  onChange: (key: string, value: string) => void;
  rate?: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      {specs.map((spec) => (
        <NumberField
          key={spec.key}
          spec={spec}
          label={labelOf(spec.key)}
          value={texts[spec.key] ?? ''}
          error={problemText(t, checked.problems[spec.key], rate)}
          onChange={onChange}
        />
      ))}
    </>
  );
}

/**
 * The headline result, announced politely as it changes, and the figures behind it; while a field
 * has a problem the figures are dashes and the headline says what to do.
 */
export function Results({ headline, checked, rows }: { headline: string | null; checked: Checked; rows: [string, string][] }) {
  const { t } = useTranslation();
  const message = headline ?? t(checked.problems[RESULT] ? 'calculator.error.overflow' : 'calculator.fix');
  return (
    <div className="calc-output">
      <p className={headline ? 'calc-headline' : 'calc-headline calc-headline-error'} aria-live="polite">
        {message}
      </p>
      <dl className="calc-results">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{headline ? value : DASH}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** A block that may be wider than a phone: it scrolls, and so must be reachable by keyboard. */
export function Scroller({ title, note, className, children }: { title: string; note?: string; className: string; children: ReactNode }) {
  const id = useId();
  return (
    <>
      <h3 id={id}>{title}</h3>
      {note ? (
        <p id={`${id}-note`} className="calc-note">
          {note}
        </p>
      ) : null}
      <div
        className={`calc-scroll ${className}`}
        role="region"
        aria-labelledby={id}
        aria-describedby={note ? `${id}-note` : undefined}
        tabIndex={0}
      >
        {children}
      </div>
    </>
  );
}

const RATE_STEPS = [-0.02, -0.01, 0, 0.01, 0.02];
const GROWTH_STEPS = [-0.01, -0.005, 0, 0.005, 0.01];

/** The result for discount rates and growth rates around the reader's (`r`, `g`), in the middle. */
export function Sensitivity({ r, g, value, what }: { r: number; g: number; value: (r: number, g: number) => number; what: string }) {
  const { t, f } = useCalculator();
  // 0.1 + 0.01 is 0.11000000000000001: rounded to the basis point so the headers read 11%.
  const around = (x: number, steps: number[]) => steps.map((s) => Math.round((x + s) * 1e6) / 1e6);
  const growths = around(g, GROWTH_STEPS);
  return (
    <Scroller title={t('calculator.sensitivity')} note={t('calculator.gridCaption', { value: what })} className="calc-grid-wrap">
      <table className="calc-grid">
        <caption className="visually-hidden">{what}</caption>
        <thead>
          <tr>
            <td className="calc-corner">{t('calculator.gridCorner')}</td>
            {growths.map((gg, j) => (
              <th key={j} scope="col" className={j === 2 ? 'calc-base' : undefined}>
                {f.percent(gg)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {around(r, RATE_STEPS).map((rr, i) => (
            <tr key={i}>
              <th scope="row" className={i === 2 ? 'calc-base' : undefined}>
                {f.percent(rr)}
              </th>
              {growths.map((gg, j) => (
                <td key={j} className={i === 2 && j === 2 ? 'calc-base' : undefined}>
                  {gg < rr && rr > -1 ? (
                    f.money(value(rr, gg))
                  ) : (
                    <>
                      <span aria-hidden="true">{DASH}</span>
                      <span className="visually-hidden">{t('calculator.gridUndefined')}</span>
                    </>
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </Scroller>
  );
}
