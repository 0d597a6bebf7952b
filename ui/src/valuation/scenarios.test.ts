// Bear, base and bull cases around Company D (the DCF article's example), and the scenarios and
// margin of safety article's own three cases.
import { describe, expect, it } from 'vitest';
import { formats } from '../calculators/format';
import { dcf, type DcfInput } from './dcf';
import { marginOfSafety } from './reverseDcf';
import { SCENARIO_DEFAULTS, scenariosModel } from './scenarios';

const D: DcfInput = { cashFlows: [100, 110, 120, 130, 140], rate: 0.1, growth: 0.02, netDebt: 300, shares: 50 };
const f = formats('en');

describe('scenarios', () => {
  it('values each case with its own cash flows and growth at the same rate, and weighs them', () => {
    const { result } = scenariosModel(SCENARIO_DEFAULTS, D);
    const bear = dcf({ ...D, cashFlows: [90, 99, 108, 117, 126], growth: 0.01 }).valuePerShare;
    const bull = dcf({ ...D, cashFlows: [110, 121, 132, 143, 154], growth: 0.025 }).valuePerShare;
    expect(result!.values[0]).toBeCloseTo(bear, 9);
    expect(f.money(result!.values[1])).toBe('$25.12');
    expect(result!.values[2]).toBeCloseTo(bull, 9);
    expect(result!.weighted).toBeCloseTo(0.25 * bear + 0.5 * dcf(D).valuePerShare + 0.25 * bull, 9);
  });

  it('reproduces the scenarios article: its three cases weighed 25/50/25 give $24.43, a 1.8% margin at $24', () => {
    const value = (cashFlows: number[], growth: number) => dcf({ ...D, cashFlows, growth }).valuePerShare;
    const cases = [value([95, 98, 101, 104, 107], 0.01), value(D.cashFlows, 0.02), value([104, 118, 132, 146, 160], 0.025)];
    expect(cases.map(f.money)).toEqual(['$16.53', '$25.12', '$30.96']);
    const weighted = 0.25 * cases[0] + 0.5 * cases[1] + 0.25 * cases[2];
    expect(f.money(weighted)).toBe('$24.43');
    expect(f.percent(marginOfSafety(weighted, 24)!, 1)).toBe('1.8%');
  });

  it('refuses probabilities that do not add up to 100%, and takes 33.3 + 33.3 + 33.4', () => {
    const texts = { ...SCENARIO_DEFAULTS, pbase: '40' };
    expect(scenariosModel(texts, D)).toMatchObject({ result: null, checked: { problems: { pbull: 'probabilities' } } });
    const thirds = scenariosModel({ ...SCENARIO_DEFAULTS, pbear: '33.3', pbase: '33.3', pbull: '33.4' }, D);
    expect(thirds.checked.problems).toEqual({});
    expect(scenariosModel({ ...SCENARIO_DEFAULTS, pbear: '-5', pbase: '80' }, D).checked.problems).toEqual({ pbear: 'probability' });
  });

  it("refuses a case whose growth reaches the discount rate, on that case's field", () => {
    const { checked, result } = scenariosModel({ ...SCENARIO_DEFAULTS, gbull: '8' }, D);
    expect(result).toBeNull();
    expect(checked.problems).toEqual({ gbull: 'caseGrowth' });
    expect(scenariosModel({ ...SCENARIO_DEFAULTS, gbear: '-200' }, D).checked.problems).toEqual({ gbear: 'caseGrowth' });
  });

  it('still names problems in its own fields while the DCF has none to give', () => {
    expect(scenariosModel({ ...SCENARIO_DEFAULTS, fbear: 'x' }, null)).toEqual({
      checked: expect.objectContaining({ problems: { fbear: 'notNumber' } }),
      result: null,
    });
  });
});
