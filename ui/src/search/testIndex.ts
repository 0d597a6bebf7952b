// A small index in three languages, shared by the tests of both search engines.
import type { IndexPage, SearchIndex } from './types';

export function page(route: string, lang: string, title: string, text: string, keywords: string[] = []): IndexPage {
  const url = lang === 'en' ? route : route === '/' ? `/${lang}/` : `/${lang}${route}`;
  return { route, url, lang, title, text, keywords };
}

export const INDEX: SearchIndex = {
  version: 1,
  pages: [
    page('/', 'en', 'Alex Chen', 'Full-stack developer and investment representative.', ['profile']),
    page('/valuation-models', 'en', 'Valuation Models', 'How to value a company: P/E, P/S, P/B, DCF and DDM.'),
    page(
      '/valuation-models/dcf',
      'en',
      'Discounted Cash Flow',
      'The value of a business is the sum of its future cash flows, discounted.',
      ['dcf', 'intrinsic value'],
    ),
    page('/valuation-models/pe', 'en', 'Price to Earnings', 'The P/E ratio compares the share price with earnings per share.'),
    page('/investment-basics', 'en', 'Investment Basics', 'Start here: what investing is, risk and reward.'),
    page('/investment-basics/risk-and-reward', 'en', 'Risk and Reward', 'Higher expected return comes with higher risk of loss.'),
    page('/', 'zh', '陳艾力', '全端工程師與投資代表。'),
    page('/valuation-models', 'zh', '估值模型', '如何評估一家公司的價值：本益比、股價營收比、股價淨值比。'),
    page('/valuation-models/dcf', 'zh', '現金流量折現', '企業的價值是其未來現金流量折現後的總和。', ['現金流量', 'dcf']),
    page('/investment-basics', 'zh', '投資基礎', '從這裡開始：什麼是投資，風險與報酬。'),
    page('/', 'ja', 'アレックス・チェン', 'フルスタック開発者、投資担当者。'),
    page('/valuation-models', 'ja', 'バリュエーションモデル', '企業価値の評価方法：株価収益率など。'),
    page('/valuation-models/dcf', 'ja', '割引キャッシュフロー', '企業の価値は将来のキャッシュフローを割り引いた合計です。', ['dcf']),
    page('/investment-basics', 'ja', '投資の基礎', 'ここから始めましょう：投資とは何か、リスクとリターン。'),
  ],
};
