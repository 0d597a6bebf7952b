// The search page: a text box and a button over the generator's index.
// States: loading translations → searching → results. Results follow every keystroke; the query
// is kept in ?q= so a reload or the back button shows the same results.
import { useDeferredValue, useEffect, useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useIsland } from '../components/IslandRoot';
import { isLang, languageTag, type Lang } from '../lib/languages';
import { RESULT_LIMIT, safeChunkedSearch, type ChunkedIndex, type ChunkedOutcome } from '../search/chunked';
import { loadIndex, loadRouteLabels } from '../search/loadSearchData';
import type { RouteLabels, SearchResult } from '../search/types';

type Phase = 'idle' | 'loadingTranslations' | 'searching' | 'ready';

/** Typing settles for this long before the address bar follows (browsers throttle replaceState). */
const URL_SYNC_MS = 300;

function writeQueryToUrl(q: string) {
  const url = new URL(window.location.href);
  if (q) url.searchParams.set('q', q);
  else url.searchParams.delete('q');
  if (url.href !== window.location.href) window.history.replaceState(window.history.state, '', url);
}

function ResultList({ results, pageLang, label }: { results: SearchResult[]; pageLang: string; label: string }) {
  return (
    <ol className="search-results" aria-label={label}>
      {results.map((r) => (
        <li
          key={`${r.lang}:${r.navTarget}`}
          className={`search-result search-result-${r.kind}`}
          lang={r.lang !== pageLang ? languageTag(r.lang) : undefined}
        >
          <a className="search-result-link" href={r.navTarget}>
            <span className="search-result-title">{r.title}</span>
            <span className="search-result-path">{r.path}</span>
            {r.textSnippet ? (
              // Built by buildSnippet from escaped text: its only markup is our <mark>.
              <span className="search-result-snippet" dangerouslySetInnerHTML={{ __html: r.textSnippet }} />
            ) : null}
          </a>
        </li>
      ))}
    </ol>
  );
}

/** The translations (for the labels) and then the index, loaded once; the phase says what is awaited. */
function useSearchData(indexUrl: string, lang: Lang, onStart: () => void) {
  const { i18n } = useTranslation();
  const [phase, setPhase] = useState<Phase>('idle');
  const [index, setIndex] = useState<ChunkedIndex | null>(null);
  const [labels, setLabels] = useState<RouteLabels | undefined>(undefined);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    onStart();
    setPhase('loadingTranslations');
    // The index download runs alongside the translations; the phases report what is awaited.
    const indexLoad = loadIndex(indexUrl).catch((err: unknown) => {
      console.warn('search index could not be loaded', err);
      return null;
    });
    loadRouteLabels({ [lang]: i18n.getResourceBundle(lang, 'translation') })
      .then(({ labels: l, failed }) => {
        if (failed.length) console.warn(`search: the page's own or built-in labels for ${failed.join(', ')}`);
        setLabels(l);
        setPhase('searching');
        return indexLoad;
      })
      .then((idx) => {
        setIndex(idx);
        setPhase('ready');
      });
  }, [indexUrl]);
  return { phase, index, labels };
}

/**
 * Each query fetches the index chunks it needs; an answer that arrives after a newer query
 * started is dropped. "Show more" raises the limit for the same query.
 */
function useAnswer(phase: Phase, index: ChunkedIndex | null, query: string, lang: Lang, labels: RouteLabels | undefined) {
  const [limit, setLimit] = useState(RESULT_LIMIT);
  const [answer, setAnswer] = useState<{ query: string; limit: number; outcome: ChunkedOutcome | null } | null>(null);
  useEffect(() => setLimit(RESULT_LIMIT), [query]);
  useEffect(() => {
    if (phase !== 'ready') return;
    let current = true;
    safeChunkedSearch(index, query, { lang, labels }, limit).then((outcome) => {
      if (current) setAnswer({ query, limit, outcome });
    });
    return () => {
      current = false;
    };
  }, [phase, index, query, lang, labels, limit]);
  return {
    // Until the new query's answer comes, the last results stay (a blank query keeps them too).
    outcome: answer?.outcome ?? null,
    // What the shown outcome answers: "No results for …" names it, not a newer query still loading.
    answered: answer?.query ?? query,
    pending: phase === 'ready' && !!query && answer?.query !== query,
    setLimit,
  };
}

/** The status line: what is being loaded or searched, or how many results there are. */
function statusText(t: TFunction, phase: Phase, busy: boolean, outcome: ChunkedOutcome | null): string {
  if (phase === 'loadingTranslations') return t('search.loadingTranslations');
  if (busy) return t('search.searching');
  if (outcome?.kind !== 'results') return '';
  const count = outcome.results.length;
  return outcome.more ? t('search.countFirst', { count }) : t('search.count', { count });
}

/** No page matched: the hint, then a page the query misspells, the recommended pages or home. */
function NoMatch({ outcome, answered, pageLang }: { outcome: ChunkedOutcome; answered: string; pageLang: string }) {
  const { t } = useTranslation();
  const fallback = outcome.results[0]?.kind === 'fallback';
  return (
    <div className="search-empty">
      <p className="search-no-results">{t('search.noResults', { query: answered })}</p>
      <p className="search-hint">{t('search.hint')}</p>
      <p className="search-suggest">
        {fallback ? t('search.fallback') : outcome.kind === 'fuzzy' ? t('search.didYouMean') : t('search.recommended')}
      </p>
      <ResultList results={outcome.results} pageLang={pageLang} label={t('search.results')} />
    </div>
  );
}

/** The box and its button; typing searches as it goes, the button (or Enter) searches at once. */
function SearchBox({
  inputRef,
  value,
  onInput,
  onSubmit,
}: {
  inputRef: RefObject<HTMLInputElement | null>;
  value: string;
  onInput: (value: string) => void;
  onSubmit: (e: FormEvent) => void;
}) {
  const { t } = useTranslation();
  const inputId = useId();
  return (
    <form className="search-form" role="search" onSubmit={onSubmit}>
      <label className="search-label" htmlFor={inputId}>
        {t('search.label')}
      </label>
      <div className="search-row">
        <input
          ref={inputRef}
          id={inputId}
          className="search-input"
          type="search"
          name="q"
          value={value}
          onChange={(e) => onInput(e.target.value)}
          placeholder={t('search.placeholder')}
          autoComplete="off"
          enterKeyHint="search"
        />
        <button type="submit" className="button button-primary search-button">
          {t('search.button')}
        </button>
      </div>
    </form>
  );
}

export default function Search({ indexUrl, lang: langProp }: { indexUrl: string; lang?: string }) {
  const { t } = useTranslation();
  const island = useIsland();
  const lang: Lang = isLang(langProp) ? langProp : island.lang;
  const [input, setInput] = useState('');
  // The query searched for: the box, trimmed, unless that is blank (an empty query is ignored, so
  // the results and ?q= stay those of the last real query).
  const [searched, setSearched] = useState('');
  const query = useDeferredValue(searched);
  const inputRef = useRef<HTMLInputElement>(null);

  function changeInput(value: string) {
    setInput(value);
    if (value.trim()) setSearched(value.trim());
  }

  // Text typed into the prerendered box before hydration wins over the address's ?q=.
  const { phase, index, labels } = useSearchData(indexUrl, lang, () =>
    changeInput(inputRef.current?.value || (new URLSearchParams(window.location.search).get('q') ?? '').trim()),
  );
  const { outcome, answered, pending, setLimit } = useAnswer(phase, index, query, lang, labels);

  // The address bar follows the query once typing pauses.
  useEffect(() => {
    if (phase !== 'ready') return;
    const timer = setTimeout(() => writeQueryToUrl(searched), URL_SYNC_MS);
    return () => clearTimeout(timer);
  }, [searched, phase]);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const q = input.trim();
    if (!q) return;
    if (q !== input) setInput(q);
    setSearched(q);
    if (phase === 'ready') writeQueryToUrl(q);
  };

  const busy = (phase === 'searching' || (pending && !outcome)) && !!searched;
  const status = statusText(t, phase, busy, outcome);

  return (
    <div className="search">
      <SearchBox inputRef={inputRef} value={input} onInput={changeInput} onSubmit={onSubmit} />
      <p
        className="search-status"
        role="status"
        aria-busy={phase === 'loadingTranslations' || phase === 'searching' || pending || undefined}
      >
        {status}
      </p>
      {outcome?.kind === 'results' ? <ResultList results={outcome.results} pageLang={lang} label={t('search.results')} /> : null}
      {outcome?.kind === 'results' && outcome.more ? (
        <button type="button" className="button search-more" onClick={() => setLimit(outcome.results.length + RESULT_LIMIT)}>
          {t('search.more')}
        </button>
      ) : null}
      {outcome && outcome.kind !== 'results' ? <NoMatch outcome={outcome} answered={answered} pageLang={lang} /> : null}
    </div>
  );
}
