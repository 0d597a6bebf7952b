// The forgot-password screen at /verifycode: username, email with a send-code
// button (POST /api/send-verify-code), the code, then POST /api/verify-code; a token answer goes
// on to /reset-password with username and token as navigation state.
import { useId, useState } from 'react';
import { BackButton, BusyButton, ErrorBox, FormCard, StatusBox, TextField, preventing, useT } from '../forms/FormParts';
import { useBusy } from '../forms/useBusy';
import { postJson, serverText } from '../forms/api';
import { validateForgot, validateForgotSend } from '../forms/validation';
import { useIsland } from '../components/IslandRoot';
import { isLang, localizedPath, type Lang } from '../lib/languages';
import { navigate } from '../lib/navigation';
import { readSelectedLanguage } from '../lib/preferences';
import { RESET_ROUTE, type ResetNavigationState } from '../forms/resetState';

export default function ForgotPasswordForm({ lang: langProp }: { lang?: string }) {
  const t = useT();
  const island = useIsland();
  const lang: Lang = isLang(langProp) ? langProp : island.lang;
  const errorId = useId();
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [sending, runSend] = useBusy();
  const [busy, run] = useBusy();

  const sendCode = () =>
    runSend(async () => {
      const invalid = validateForgotSend({ username, email });
      if (invalid) {
        setStatus(null);
        setError(t(invalid));
        return;
      }
      setError(null);
      const answer = await postJson('/api/send-verify-code', {
        username: username.trim(),
        email: email.trim(),
        preferredLanguage: readSelectedLanguage() ?? 'zh',
      });
      const message = serverText(answer.data, 'message');
      if (answer.ok) {
        setStatus(message ?? t('register.modal.sent'));
      } else {
        setStatus(null);
        setError(message ?? t('forgot.errors.sendFailed'));
      }
    });

  const verify = () =>
    run(async () => {
      const invalid = validateForgot({ username, email, code });
      if (invalid) {
        setError(t(invalid));
        return;
      }
      setError(null);
      const answer = await postJson('/api/verify-code', { username: username.trim(), email: email.trim(), code: code.trim() });
      const token = answer.data.token;
      if (answer.status === 200 && typeof token === 'string' && token) {
        navigate(RESET_ROUTE, lang, { username: username.trim(), token } satisfies ResetNavigationState);
        return true;
      }
      setStatus(null);
      setError(serverText(answer.data, 'message') ?? t('forgot.errors.verifyFailed'));
    });

  const missing = (v: string) => !!error && !v.trim();

  return (
    <FormCard title={t('forgot.title')} subtitle={t('forgot.subtitle')} back={<BackButton lang={lang} label={t('forgot.back')} />}>
      <ErrorBox id={errorId} message={error} />
      <StatusBox message={status} />
      <form className="form" noValidate onSubmit={preventing(verify)}>
        <TextField
          label={t('forgot.username')}
          name="username"
          value={username}
          onChange={setUsername}
          autoComplete="username"
          invalid={missing(username)}
          errorId={errorId}
        />
        <TextField
          label={t('forgot.email')}
          name="email"
          type="email"
          value={email}
          onChange={setEmail}
          autoComplete="email"
          inputMode="email"
          invalid={missing(email)}
          errorId={errorId}
          addon={
            <BusyButton
              type="button"
              className="button form-addon-button"
              busy={sending}
              label={t('forgot.sendCode')}
              busyLabel={t('forgot.sending')}
              onClick={sendCode}
            />
          }
        />
        <TextField
          label={t('forgot.code')}
          name="code"
          value={code}
          onChange={setCode}
          autoComplete="one-time-code"
          inputMode="numeric"
          invalid={missing(code)}
          errorId={errorId}
        />
        <BusyButton busy={busy} label={t('forgot.confirm')} busyLabel={t('forgot.confirming')} />
      </form>
      <nav className="form-links" aria-label={t('forgot.title')}>
        <a href={localizedPath('/login', lang)}>{t('forgot.backToLogin')}</a>
      </nav>
    </FormCard>
  );
}
