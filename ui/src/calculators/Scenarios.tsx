// The DCF calculator's bear, base and bull cases (valuation/scenarios.ts): their changes and
// probabilities beside the three values and the probability-weighted value.
import type { Checked, Texts } from '../valuation/fields';
import { SCENARIO_FIELDS, type ScenariosResult } from '../valuation/scenarios';
import { Fields, Results, useCalculator } from './parts';

export function Scenarios({
  texts,
  checked,
  result,
  rate,
  onChange,
}: {
  texts: Texts;
  checked: Checked;
  result: ScenariosResult | null;
  rate: string;
  onChange: (key: string, value: string) => void;
}) {
  const { t, f } = useCalculator();
  const label = (key: string) => t(`calculator.scenarios.${key}`);
  return (
    <>
      <h3>{label('title')}</h3>
      <p className="calc-note">{label('note')}</p>
      <div className="calc-body">
        <div className="calc-inputs">
          <Fields specs={SCENARIO_FIELDS} texts={texts} checked={checked} labelOf={label} onChange={onChange} rate={rate} />
        </div>
        <Results
          headline={result && t('calculator.scenarios.headline', { value: f.money(result.weighted) })}
          checked={checked}
          rows={['bear', 'base', 'bull'].map((c, i) => [label(`value_${c}`), f.money(result?.values[i] ?? NaN)])}
        />
      </div>
    </>
  );
}
