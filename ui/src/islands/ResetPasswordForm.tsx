// The reset screen: new + confirm password, POST /api/reset-password with the
// verification step's token as a bearer header; without that step's state: 'Illegal entry'.
import { useEffect, useRef, useState } from 'react';
import { BackButton, BusyButton, ErrorBox, FormCard, StatusBox, TextField, preventing, useT } from '../forms/FormParts';
import { useForm, useFormLang } from '../forms/useForm';
import { postJson, serverText } from '../forms/api';
import { validateReset } from '../forms/validation';
import { localizedPath, type Lang } from '../lib/languages';
import { navigate, takeNavigationState } from '../lib/navigation';
import { RESET_ROUTE, isResetState as validState, type ResetNavigationState } from '../forms/resetState';

/** The wait between the success message and /login. */
export const RESET_REDIRECT_MS = 2000;

/** The verification step's state: "unknown" on the server and during hydration, so the prerendered page shows the form. */
function useResetState() {
  const [state, setState] = useState<ResetNavigationState | 'unknown' | null>('unknown');
  useEffect(() => {
    // The state is read once and removed; keep what a first read found if effects run twice.
    const taken = takeNavigationState<unknown>(RESET_ROUTE);
    setState((prev) => (validState(taken) ? taken : prev === 'unknown' ? null : prev));
  }, []);
  return state;
}

/** The form's state and its submit. */
function useReset(lang: Lang) {
  const state = useResetState();
  const form = useForm({ newPassword: '', confirmPassword: '' });
  const { t, setError } = form;
  const [status, setStatus] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const send = form.submitWith(validateReset, async ({ newPassword }) => {
    if (!validState(state)) return;
    const answer = await postJson('/api/reset-password', { username: state.username, newPassword }, { token: state.token });
    const message = serverText(answer.data, 'message');
    if (answer.ok) {
      setStatus(`${message ?? ''} ${t('reset.redirecting')}`.trim());
      timer.current = setTimeout(() => navigate('/login', lang), RESET_REDIRECT_MS);
      return true;
    }
    setError(message ?? t('reset.errors.failed'));
  });
  // Without the verification step's state there is nothing to send.
  const submit = () => (validState(state) ? send() : undefined);

  return { ...form, state, status, submit };
}

/** What a visitor who did not come from the verification step sees. */
function IllegalEntry({ lang }: { lang: Lang }) {
  const t = useT();
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

export default function ResetPasswordForm({ lang: langProp }: { lang?: string }) {
  const lang = useFormLang(langProp);
  const { t, state, error, errorId, status, busy, bind, submit } = useReset(lang);
  if (state === null) return <IllegalEntry lang={lang} />;

  return (
    <FormCard title={t('reset.title')} back={<BackButton lang={lang} label={t('reset.back')} />}>
      <ErrorBox id={errorId} message={error} />
      <StatusBox message={status} />
      <form className="form" noValidate onSubmit={preventing(submit)}>
        <TextField label={t('reset.newPassword')} {...bind('newPassword', !!error)} type="password" autoComplete="new-password" />
        <TextField label={t('reset.confirmPassword')} {...bind('confirmPassword', !!error)} type="password" autoComplete="new-password" />
        <BusyButton busy={busy} label={t('reset.submit')} busyLabel={t('reset.submitting')} />
      </form>
    </FormCard>
  );
}
