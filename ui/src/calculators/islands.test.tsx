// @vitest-environment jsdom
// The calculator islands as the site runs them: rendered to a string as the build does, hydrated
// over that HTML as the browser does (no mismatch, even with a shared link's query), then typed
// into. The CAPM/WACC calculator has no article yet, so this is where it is driven.
import { afterEach, describe, expect, it } from 'vitest';
import { act, type ComponentType } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { IslandRoot } from '../components/IslandRoot';
import { createI18n } from '../lib/i18n';
import DcfCalculator from '../islands/DcfCalculator';
import DdmCalculator from '../islands/DdmCalculator';
import MultiplesCalculator from '../islands/MultiplesCalculator';
import WaccCalculator from '../islands/WaccCalculator';
import { dcf } from '../valuation/dcf';
import { formats } from './format';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const localesDir = path.resolve(__dirname, '../../../locales');
const bundle = (lng: string) => ({
  translation: JSON.parse(readFileSync(path.join(localesDir, lng, 'translation.json'), 'utf8')),
  sidebar: JSON.parse(readFileSync(path.join(localesDir, lng, 'sidebar.json'), 'utf8')),
});

function tree(Island: ComponentType<any>, props: Record<string, unknown>, lng = 'en') {
  return <IslandRoot name="Test" id="calc" lng={lng} i18n={createI18n(lng, bundle(lng))} Island={Island} props={props} />;
}

const headline = (root: ParentNode) => root.querySelector('[aria-live="polite"]')?.textContent;

afterEach(() => {
  cleanup();
  // What a failed test hydrated by hand must not leave its fields for the next one.
  document.body.innerHTML = '';
  window.history.replaceState(null, '', '/');
});

const DCF = { company: { cash_flows: [100, 110, 120, 130, 140], discount_rate: 0.1, terminal_growth: 0.02, net_debt: 300, shares: 50 } };
const DCF_INPUT = { cashFlows: [100, 110, 120, 130, 140], rate: 0.1, growth: 0.02, netDebt: 300, shares: 50 };

describe('server render and hydration agree, and a link applies after hydration', () => {
  const cases: [string, ComponentType<any>, Record<string, unknown>, string, string, string, string][] = [
    [
      'DcfCalculator',
      DcfCalculator,
      { example: DCF },
      'en',
      'Value per share: $25.12',
      '?cf1=100&r=10&g=2&debt=0&shares=10',
      'Value per share: $125.00',
    ],
    [
      'DdmCalculator',
      DdmCalculator,
      { example: { gordon: { last_dividend: 2, growth: 0.04, required_return: 0.09 } } },
      'zh',
      '每股價值：$41.60',
      '?model=h&d0=2&gs=12&h=5&g=4&r=9',
      '每股價值：$57.60',
    ],
    [
      'MultiplesCalculator',
      MultiplesCalculator,
      { route: '/valuation-models/pe', example: { price: 60, net_income: 400, shares: 100, peer_pe: 18 } },
      'ja',
      'PER：15.0。同業の倍率なら株価は $72.00 です。',
      '?price=80',
      'PER：20.0。同業の倍率なら株価は $72.00 です。',
    ],
    ['WaccCalculator', WaccCalculator, {}, 'en', 'WACC: 7.80%', '?beta=1.6&tax=0', 'WACC: 9.60%'],
  ];
  for (const [name, Island, props, lng, prerendered, query, linked] of cases) {
    it(name, async () => {
      const html = renderToString(tree(Island, props, lng), { identifierPrefix: 'calc' });
      const el = document.createElement('div');
      el.innerHTML = html;
      document.body.append(el);
      expect(headline(el)).toBe(prerendered);
      expect(el.textContent).not.toMatch(/NaN|Infinity|undefined/);
      window.history.replaceState(null, '', `/page${query}`);
      const errors: unknown[] = [];
      await act(async () => {
        hydrateRoot(el, tree(Island, props, lng), { identifierPrefix: 'calc', onRecoverableError: (e) => errors.push(e) });
      });
      expect(errors).toEqual([]);
      expect(headline(el)).toBe(linked);
      el.remove();
    });
  }
});

it('takes over what was typed into several prerendered fields before hydration', async () => {
  const el = document.createElement('div');
  el.innerHTML = renderToString(tree(WaccCalculator, {}), { identifierPrefix: 'calc' });
  document.body.append(el);
  el.querySelector<HTMLInputElement>('input[name="beta"]')!.value = '1.6';
  el.querySelector<HTMLInputElement>('input[name="tax"]')!.value = '0';
  await act(async () => {
    hydrateRoot(el, tree(WaccCalculator, {}), { identifierPrefix: 'calc' });
  });
  expect(headline(el)).toBe('WACC: 9.60%');
  el.remove();
});

describe('WaccCalculator', () => {
  it('follows typing, explains bad input next to its field, and keeps the inputs in the address', async () => {
    render(tree(WaccCalculator, { lang: 'en' }));
    const beta = screen.getByLabelText('Beta, β');
    fireEvent.change(beta, { target: { value: '1.5' } });
    // r_E = 4% + 1.5 × 5% = 11.5%; WACC = 0.6 × 11.5% + 0.4 × 4.5% = 8.7%.
    expect(headline(document)).toBe('WACC: 8.70%');
    expect(screen.getByText('Cost of equity (CAPM)').nextElementSibling?.textContent).toBe('11.50%');
    await waitFor(() => expect(new URLSearchParams(window.location.search).get('beta')).toBe('1.5'));
    expect(window.location.search).toBe('?rf=4&beta=1.5&erp=5&rd=6&tax=25&equity=600&debt=400');

    const tax = screen.getByLabelText('Tax rate (%)');
    fireEvent.change(tax, { target: { value: '120' } });
    expect(tax.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(tax.getAttribute('aria-describedby')!)?.textContent).toBe('Enter a rate from 0% to 100%.');
    expect(headline(document)).toBe('Correct the highlighted fields to see the result.');
    expect(document.body.textContent).not.toMatch(/NaN|Infinity/);

    fireEvent.change(tax, { target: { value: '25' } });
    fireEvent.change(screen.getByLabelText('Market value of equity (millions)'), { target: { value: '0' } });
    const debt = screen.getByLabelText('Market value of debt (millions)');
    fireEvent.change(debt, { target: { value: '' } });
    expect(document.getElementById(debt.getAttribute('aria-describedby')!)?.textContent).toBe('Enter a number.');
    fireEvent.change(debt, { target: { value: '0' } });
    expect(document.getElementById(debt.getAttribute('aria-describedby')!)?.textContent).toBe('Equity and debt cannot both be zero.');
    fireEvent.change(debt, { target: { value: '100' } });
    // All debt: 6% × (1 − 25%) = 4.5%.
    expect(headline(document)).toBe('WACC: 4.50%');
    expect(tax.hasAttribute('aria-invalid')).toBe(false);
  });

  it('starts at an article example nested under capm and wacc', () => {
    const example = {
      capm: { risk_free: 0.03, beta: 0.9, equity_risk_premium: 0.06 },
      wacc: { pre_tax_cost_of_debt: 0.05, tax_rate: 0.2, market_cap: 800, debt: 200 },
    };
    render(tree(WaccCalculator, { example }, 'ja'));
    // r_E = 3% + 0.9 × 6% = 8.4%; WACC = 0.8 × 8.4% + 0.2 × 5% × 0.8 = 7.52%.
    expect(headline(document)).toBe('WACC：7.52%');
  });
});

describe('DcfCalculator against a market price, with bear, base and bull cases', () => {
  const priceLines = (root: ParentNode) => [...root.querySelectorAll('.calc-price p')].map((p) => p.textContent);

  it('reads the price backwards, states the margin of safety, and explains what it cannot use', async () => {
    render(tree(DcfCalculator, { example: DCF }));
    expect(priceLines(document)).toEqual([
      'Enter the market price per share to see the terminal growth and the return it implies, and your margin of safety.',
    ]);
    const price = screen.getByLabelText('Market price per share ($)');
    expect(price.hasAttribute('aria-invalid')).toBe(false);
    fireEvent.change(price, { target: { value: '24' } });
    // Defaults: bear −10% cash flows and −1 point of growth, bull +10% and +0.5, weighed 25/50/25.
    const at = (scale: number, growth: number) =>
      dcf({ ...DCF_INPUT, cashFlows: DCF_INPUT.cashFlows.map((cf) => cf * scale), growth }).valuePerShare;
    const weighted = 0.25 * at(0.9, 0.01) + 0.5 * at(1, 0.02) + 0.25 * at(1.1, 0.025);
    const f = formats('en');
    expect(screen.getByText(/^Probability-weighted value: /).textContent).toBe(`Probability-weighted value: ${f.money(weighted)}`);
    const weightedMargin = f.percent((weighted - 24) / weighted, 1);
    expect(priceLines(document)).toEqual([
      'At your discount rate of 10%, the price implies terminal growth of 1.61% a year (yours: 2%).',
      'At your terminal growth of 2%, the price implies a return of 10.29% a year (your discount rate: 10%).',
      'The price is 4.5% below the value of $25.12: a margin of safety of 4.5%.',
      `The price is ${weightedMargin} below the probability-weighted value of ${f.money(weighted)}: a margin of safety of ${weightedMargin}.`,
    ]);
    await waitFor(() => expect(new URLSearchParams(window.location.search).get('price')).toBe('24'));
    expect(new URLSearchParams(window.location.search).has('pbear')).toBe(false);

    fireEvent.change(price, { target: { value: '30' } });
    expect(priceLines(document)[2]).toBe('The price is 19.4% above the value of $25.12: no margin of safety.');
    fireEvent.change(price, { target: { value: '2' } });
    expect(priceLines(document)[0]).toMatch(/^No terminal growth below the discount rate gives this price/);
    fireEvent.change(price, { target: { value: '-1' } });
    expect(document.getElementById(price.getAttribute('aria-describedby')!)?.textContent).toBe('Enter a number greater than zero.');
    expect(priceLines(document)).toEqual([]);

    fireEvent.change(price, { target: { value: '24' } });
    const base = screen.getByLabelText('Base case (your forecast): probability (%)');
    fireEvent.change(base, { target: { value: '40' } });
    const bull = screen.getByLabelText('Bull case: probability (%)');
    expect(document.getElementById(bull.getAttribute('aria-describedby')!)?.textContent).toBe(
      'The three probabilities must add up to 100%.',
    );
    expect(screen.getByText('Bear case value per share').nextElementSibling?.textContent).toBe('—');
    expect(priceLines(document)).toHaveLength(3);
    await waitFor(() => expect(new URLSearchParams(window.location.search).get('pbase')).toBe('40'));

    fireEvent.change(base, { target: { value: '50' } });
    fireEvent.change(screen.getByLabelText('Bull case: terminal growth against yours (points)'), { target: { value: '8' } });
    expect(screen.getByText(/must be below the discount rate \(10%\) and above −100%/)).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/NaN|Infinity|undefined/);
  });

  it('opens at the price an example states, in Japanese, and a link applies after hydration', async () => {
    const example = { company: { ...DCF.company, price: 24 } };
    const html = renderToString(tree(DcfCalculator, { example }, 'ja'), { identifierPrefix: 'calc' });
    const el = document.createElement('div');
    el.innerHTML = html;
    document.body.append(el);
    expect(priceLines(el).slice(0, 3)).toEqual([
      'あなたの割引率 10% では、この株価は年 1.61% の永久成長率を織り込んでいます（あなたの予測：2%）。',
      'あなたの永久成長率 2% では、この株価は年 10.29% のリターンを織り込んでいます（あなたの割引率：10%）。',
      '株価は価値 $25.12 を 4.5% 下回っています。安全域は 4.5% です。',
    ]);
    window.history.replaceState(null, '', '/page?price=30&pbear=0&pbase=100&pbull=0');
    const errors: unknown[] = [];
    await act(async () => {
      hydrateRoot(el, tree(DcfCalculator, { example }, 'ja'), { identifierPrefix: 'calc', onRecoverableError: (e) => errors.push(e) });
    });
    expect(errors).toEqual([]);
    // All the weight on the base case: the weighted value is the base value.
    expect(el.textContent).toContain('確率加重価値：$25.12');
    expect(priceLines(el).slice(2)).toEqual([
      '株価は価値 $25.12 を 19.4% 上回っています。安全域はありません。',
      '株価は確率加重価値 $25.12 を 19.4% 上回っています。安全域はありません。',
    ]);
    el.remove();
  });
});
