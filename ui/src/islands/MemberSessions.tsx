// The member page's "Your sessions": every browser signed in as this member (this one marked),
// a button to log out each other one, and "log out everywhere" behind a confirmation. Below the
// page's own text; a visitor who is not signed in sees nothing of it.
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { ErrorBox, StatusBox, useT } from '../forms/FormParts';
import { callApi, postJson, serverText } from '../forms/api';
import { useBusy } from '../forms/useBusy';
import { Modal } from '../components/Modal';
import { useIsland } from '../components/IslandRoot';
import { markLoggedOut } from '../lib/session';
import { navigate } from '../lib/navigation';
import type { Lang } from '../lib/languages';
import { deviceName, fetchSessions, formatTime, type MemberSession } from '../member/sessions';

/** Nothing before the first check (the server's render, and a visitor), then what it found. */
type View = { kind: 'idle' | 'loading' | 'failed' } | { kind: 'ready'; sessions: MemberSession[] };

/** This browser's session has ended: the login page, as after logging out. */
function toLogin(lang: Lang) {
  markLoggedOut();
  navigate('/login', lang);
}

export default function MemberSessions() {
  const t = useT();
  const { lang } = useIsland();
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [view, setView] = useState<View>({ kind: 'idle' });

  /** `quietly` keeps the list on screen while it is fetched again (after ending a session). */
  const load = useCallback(async (quietly = false) => {
    if (!quietly) setView({ kind: 'loading' });
    const answer = await fetchSessions();
    if (answer.kind === 'sessions') setView({ kind: 'ready', sessions: answer.sessions });
    else setView({ kind: answer.kind === 'signedOut' ? 'idle' : 'failed' });
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  if (view.kind === 'idle') return null;
  return (
    <section className="member-sessions" aria-labelledby={headingId}>
      <h2 id={headingId} ref={heading} tabIndex={-1}>
        {t('member.sessions.title')}
      </h2>
      {view.kind === 'loading' ? <p role="status">{t('member.sessions.loading')}</p> : null}
      {view.kind === 'failed' ? (
        <>
          <p className="error-box" role="alert">
            {t('member.sessions.loadFailed')}
          </p>
          <button type="button" className="button" onClick={() => void load()}>
            {t('common.retry')}
          </button>
        </>
      ) : null}
      {view.kind === 'ready' ? (
        <SessionList sessions={view.sessions} lang={lang} reload={() => load(true)} focusHeading={() => heading.current?.focus()} />
      ) : null}
    </section>
  );
}

function SessionList({
  sessions,
  lang,
  reload,
  focusHeading,
}: {
  sessions: MemberSession[];
  lang: Lang;
  reload: () => Promise<void>;
  focusHeading: () => void;
}) {
  const t = useT();
  const errorId = useId();
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [ending, setEnding] = useState<string | null>(null);
  const [, run] = useBusy();
  const others = sessions.filter((s) => !s.current);

  const end = (session: MemberSession) =>
    run(async () => {
      setError(null);
      setStatus(null);
      setEnding(session.id);
      const answer = await callApi('DELETE', `/api/denglu/sessions/${encodeURIComponent(session.id)}`);
      setEnding(null);
      if (answer.status === 401) {
        toLogin(lang);
        return true;
      }
      if (answer.ok) setStatus(t('member.sessions.ended'));
      else setError(serverText(answer.data, 'message') ?? t('member.sessions.endFailed'));
      await reload();
      // Its button is gone: focus stays in the section rather than falling to the page's start.
      focusHeading();
    });

  return (
    <>
      <p className="member-sessions-intro">{t('member.sessions.intro')}</p>
      <ErrorBox id={errorId} message={error} />
      <StatusBox message={status} />
      <ul className="session-list">
        {sessions.map((s) => (
          <SessionItem key={s.id} session={s} lang={lang} busy={ending === s.id} onEnd={() => void end(s)} />
        ))}
      </ul>
      {others.length === 0 ? <p className="session-empty">{t('member.sessions.empty')}</p> : null}
      <LogoutEverywhere lang={lang} onFailed={setError} />
    </>
  );
}

function SessionItem({ session, lang, busy, onEnd }: { session: MemberSession; lang: Lang; busy: boolean; onEnd: () => void }) {
  const t = useT();
  const device = deviceName(session, t);
  const started = formatTime(session.startedAt, lang);
  return (
    <li className={`session-item${session.current ? ' session-current' : ''}`}>
      <div className="session-facts">
        <strong className="session-device">{device}</strong>
        {session.current ? <span className="session-badge">{t('member.sessions.thisDevice')}</span> : null}
        <span className="session-time">{t('member.sessions.started', { time: started })}</span>
        <span className="session-time">{t('member.sessions.lastUsed', { time: formatTime(session.lastUsedAt, lang) })}</span>
      </div>
      {session.current ? null : (
        <button
          type="button"
          className="button button-quiet session-end"
          aria-label={t('member.sessions.endLabel', { device, time: started })}
          aria-disabled={busy || undefined}
          aria-busy={busy || undefined}
          onClick={onEnd}
        >
          {busy ? t('member.sessions.ending') : t('member.sessions.end')}
        </button>
      )}
    </li>
  );
}

function LogoutEverywhere({ lang, onFailed }: { lang: Lang; onFailed: (message: string) => void }) {
  const t = useT();
  const [confirming, setConfirming] = useState(false);
  const [busy, run] = useBusy();

  const confirm = () =>
    run(async () => {
      const answer = await postJson('/api/denglu/logout-all', {});
      // 401: this browser's session had ended already, which is what was asked for.
      if (answer.ok || answer.status === 401) {
        toLogin(lang);
        return true;
      }
      setConfirming(false);
      onFailed(serverText(answer.data, 'message') ?? t('member.sessions.everywhereFailed'));
    });

  return (
    <>
      <button type="button" className="button session-everywhere" onClick={() => setConfirming(true)}>
        {t('member.sessions.everywhere')}
      </button>
      <Modal
        open={confirming}
        title={t('member.sessions.everywhereTitle')}
        onClose={() => setConfirming(false)}
        closeLabel={t('member.sessions.cancel')}
        focusClose
        actions={
          <button
            type="button"
            className="button button-danger"
            aria-disabled={busy || undefined}
            aria-busy={busy || undefined}
            onClick={() => void confirm()}
          >
            {busy ? t('member.sessions.everywhereBusy') : t('member.sessions.everywhereConfirm')}
          </button>
        }
      >
        <p>{t('member.sessions.everywhereBody')}</p>
      </Modal>
    </>
  );
}
