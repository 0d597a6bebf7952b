// The forgot-password screen at /verifycode: username, email with a send-code
// button (POST /api/send-verify-code), the code, then POST /api/verify-code; a token answer goes
// on to /reset-password with username and token as navigation state.
import { useState } from 'react';
import { BackButton, BusyButton, ErrorBox, FormCard, SendCodeButton, StatusBox, TextField, preventing } from '../forms/FormParts';
import { useForm, useFormLang } from '../forms/useForm';
import { useBusy } from '../forms/useBusy';
import { postJson, serverText } from '../forms/api';
import { validateForgot, validateForgotSend } from '../forms/validation';
import { localizedPath, type Lang } from '../lib/languages';
import { navigate } from '../lib/navigation';
import { readSelectedLanguage } from '../lib/preferences';
import { RESET_ROUTE, type ResetNavigationState } from '../forms/resetState';

/** The form's state and its two actions: send the code, verify it. */
function useForgot(lang: Lang) {
  const form = useForm({ username: '', email: '', code: '' });
  const { t, fields, setError } = form;
  const [status, setStatus] = useState<string | null>(null);
  const [sending, runSend] = useBusy();

  const sendCode = () =>
    runSend(async () => {
      const invalid = validateForgotSend(fields);
      if (invalid) {
        setStatus(null);
        setError(t(invalid));
        return;
      }
      setError(null);
      const answer = await postJson('/api/send-verify-code', {
        username: fields.username.trim(),
        email: fields.email.trim(),
        preferredLanguage: readSelectedLanguage() ?? 'zh',
      });
      const message = serverText(answer.data, 'message');
      setStatus(answer.ok ? (message ?? t('register.modal.sent')) : null);
      if (!answer.ok) setError(message ?? t('forgot.errors.sendFailed'));
    });

  const verify = form.submitWith(validateForgot, async ({ username, email, code }) => {
    const answer = await postJson('/api/verify-code', { username: username.trim(), email: email.trim(), code: code.trim() });
    const token = answer.data.token;
    if (answer.status === 200 && typeof token === 'string' && token) {
      navigate(RESET_ROUTE, lang, { username: username.trim(), token } satisfies ResetNavigationState);
      return true;
    }
    setStatus(null);
    setError(serverText(answer.data, 'message') ?? t('forgot.errors.verifyFailed'));
  });

  return { ...form, status, sending, sendCode, verify };
}

export default function ForgotPasswordForm({ lang: langProp }: { lang?: string }) {
  const lang = useFormLang(langProp);
  const { t, error, errorId, status, busy, sending, bind, sendCode, verify } = useForgot(lang);
  const send = <SendCodeButton busy={sending} label={t('forgot.sendCode')} busyLabel={t('forgot.sending')} onClick={sendCode} />;

  return (
    <FormCard title={t('forgot.title')} subtitle={t('forgot.subtitle')} back={<BackButton lang={lang} label={t('forgot.back')} />}>
      <ErrorBox id={errorId} message={error} />
      <StatusBox message={status} />
      <form className="form" noValidate onSubmit={preventing(verify)}>
        <TextField label={t('forgot.username')} {...bind('username')} autoComplete="username" />
        <TextField label={t('forgot.email')} {...bind('email')} type="email" autoComplete="email" inputMode="email" addon={send} />
        <TextField label={t('forgot.code')} {...bind('code')} autoComplete="one-time-code" inputMode="numeric" />
        <BusyButton busy={busy} label={t('forgot.confirm')} busyLabel={t('forgot.confirming')} />
      </form>
      <nav className="form-links" aria-label={t('forgot.title')}>
        <a href={localizedPath('/login', lang)}>{t('forgot.backToLogin')}</a>
      </nav>
    </FormCard>
  );
}
