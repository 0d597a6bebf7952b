// The DCF calculator against the market price the reader enters: the terminal growth and the
// return the price implies (valuation/reverseDcf.ts), and the margin of safety it leaves below the
// base value and the probability-weighted value, in words.
import type { TFunction } from 'i18next';
import type { DcfInput } from '../valuation/dcf';
import { check } from '../valuation/fields';
import { impliedGrowth, impliedReturn, marginOfSafety, PRICE } from '../valuation/reverseDcf';
import type { Formats } from './format';
import { NumberField, problemText, useCalculator } from './parts';

/** "The price is 4.5% below the value of $25.12: …", against the value `against` names. */
function margin(t: TFunction, f: Formats, against: string, value: number, price: number): string {
  const m = marginOfSafety(value, price);
  const key = m === null ? 'noValue' : m > 0 ? 'below' : m < 0 ? 'above' : 'equal';
  return t(`calculator.price.${key}`, {
    against: t(`calculator.price.${against}`),
    value: f.money(value),
    margin: f.percent(Math.abs(m ?? 0), 1),
  });
}

/** What the price says about the inputs, one sentence each. */
function readings(t: TFunction, f: Formats, input: DcfInput, value: number, weighted: number | null, price: number): string[] {
  const growth = impliedGrowth(input, price);
  const rate = impliedReturn(input, price);
  const shown = { rate: f.percent(input.rate), growth: f.percent(input.growth) };
  return [
    growth === null ? t('calculator.price.noGrowth') : t('calculator.price.impliedGrowth', { ...shown, implied: f.percent(growth, 2) }),
    rate === null ? t('calculator.price.noReturn') : t('calculator.price.impliedReturn', { ...shown, implied: f.percent(rate, 2) }),
    margin(t, f, 'value', value, price),
    ...(weighted === null ? [] : [margin(t, f, 'weighted', weighted, price)]),
  ];
}

export function MarketPrice({
  text,
  input,
  value,
  weighted,
  onChange,
}: {
  text: string;
  /** The DCF's inputs and value per share, null while its fields have a problem. */
  input: DcfInput | null;
  value: number | null;
  weighted: number | null;
  onChange: (key: string, value: string) => void;
}) {
  const { t, f } = useCalculator();
  const { values, problems } = check([PRICE], { price: text });
  const problem = problems.price;
  const lines =
    problem === 'blank'
      ? [t('calculator.price.empty')]
      : problem
        ? []
        : input && value !== null
          ? readings(t, f, input, value, weighted, values.price)
          : [t('calculator.fix')];
  return (
    <>
      <h3>{t('calculator.price.title')}</h3>
      <div className="calc-body">
        <div className="calc-inputs">
          <NumberField
            spec={PRICE}
            label={t('calculator.price.price')}
            value={text}
            error={problem === 'blank' ? undefined : problemText(t, problem)}
            onChange={onChange}
          />
        </div>
        <div className="calc-output calc-price" aria-live="polite">
          {lines.map((line) => (
            <p key={line}>{line}</p>
          ))}
        </div>
      </div>
    </>
  );
}
