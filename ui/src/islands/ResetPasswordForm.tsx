// The reset screen: new + confirm password, POST /api/reset-password with the
// verification step's token as a bearer header; without that step's state: 'Illegal entry'.
import { useEffect, useId, useRef, useState } from 'react';
import { BackButton, BusyButton, ErrorBox, FormCard, StatusBox, TextField, preventing, useT } from '../forms/FormParts';
import { useBusy } from '../forms/useBusy';
import { postJson, serverText } from '../forms/api';
import { validateReset } from '../forms/validation';
import { useIsland } from '../components/IslandRoot';
import { isLang, localizedPath, type Lang } from '../lib/languages';
import { navigate, takeNavigationState } from '../lib/navigation';
import { RESET_ROUTE, isResetState as validState, type ResetNavigationState } from '../forms/resetState';

/** The wait between the success message and /login. */
export const RESET_REDIRECT_MS = 2000;

export default function ResetPasswordForm({ lang: langProp }: { lang?: string }) {
  const t = useT();
  const island = useIsland();
  const lang: Lang = isLang(langProp) ? langProp : island.lang;
  const errorId = useId();
  // "unknown" on the server and during hydration: the prerendered page shows the form.
  const [state, setState] = useState<ResetNavigationState | 'unknown' | null>('unknown');
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [busy, run] = useBusy();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    // The state is read once and removed; keep what a first read found if effects run twice.
    const taken = takeNavigationState<unknown>(RESET_ROUTE);
    setState((prev) => (validState(taken) ? taken : prev === 'unknown' ? null : prev));
    return () => {
      if (timer.current) clearTimeout(timer.current);
    };
  }, []);

  const submit = () =>
    run(async () => {
      if (!validState(state)) return;
      const invalid = validateReset({ newPassword, confirmPassword });
      if (invalid) {
        setError(invalid === 'reset.errors.mismatch' ? t(invalid) : t(invalid));
        return;
      }
      setError(null);
      const answer = await postJson('/api/reset-password', { username: state.username, newPassword }, { token: state.token });
      const message = serverText(answer.data, 'message');
      if (answer.ok) {
        setStatus(`${message ?? ''} ${t('reset.redirecting')}`.trim());
        timer.current = setTimeout(() => navigate('/login', lang), RESET_REDIRECT_MS);
        return true;
      }
      setError(message ?? t('reset.errors.failed'));
    });

  if (state === null) {
    return (
      <FormCard title={t('reset.illegalTitle')} back={<BackButton lang={lang} label={t('reset.back')} />}>
        <p className="error-box form-error-block" role="alert">
          {t('reset.illegalBody')}
        </p>
        <nav className="form-links" aria-label={t('reset.title')}>
          <a href={localizedPath('/verifycode', lang)}>{t('reset.toVerify')}</a>
        </nav>
      </FormCard>
    );
  }

  return (
    <FormCard title={t('reset.title')} back={<BackButton lang={lang} label={t('reset.back')} />}>
      <ErrorBox id={errorId} message={error} />
      <StatusBox message={status} />
      <form className="form" noValidate onSubmit={preventing(submit)}>
        <TextField
          label={t('reset.newPassword')}
          name="newPassword"
          type="password"
          value={newPassword}
          onChange={setNewPassword}
          autoComplete="new-password"
          invalid={!!error}
          errorId={errorId}
        />
        <TextField
          label={t('reset.confirmPassword')}
          name="confirmPassword"
          type="password"
          value={confirmPassword}
          onChange={setConfirmPassword}
          autoComplete="new-password"
          invalid={!!error}
          errorId={errorId}
        />
        <BusyButton busy={busy} label={t('reset.submit')} busyLabel={t('reset.submitting')} />
      </form>
    </FormCard>
  );
}
