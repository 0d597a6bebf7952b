// The invitation screen: a Google account that is not yet a member arrives
// with ?token=...; one code field, POST /api/auth/verify-invite, success to /MemberPage.
import { useEffect, useState } from 'react';
import { BackButton, BusyButton, ErrorBox, FormCard, TextField, preventing, queryParam } from '../forms/FormParts';
import { useForm, useFormLang } from '../forms/useForm';
import { postJson, serverText } from '../forms/api';
import { validateInvite } from '../forms/validation';
import { navigate } from '../lib/navigation';
import { markLoggedIn } from '../lib/session';

/** Who is joining: the Google account's address, so a visitor lured into someone else's sign-in sees that it is not theirs before using an invitation. */
function useGoogleEmail(): string | null {
  const [googleEmail, setGoogleEmail] = useState<string | null>(null);
  useEffect(() => {
    const token = queryParam('token');
    if (!token) return;
    fetch(`/api/auth/google/pending?token=${encodeURIComponent(token)}`, { headers: { Accept: 'application/json' } })
      .then((res) => (res.ok ? res.json() : null))
      .then((body: unknown) => {
        const email = (body as { email?: unknown } | null)?.email;
        if (typeof email === 'string') setGoogleEmail(email);
      })
      .catch((err: unknown) => console.warn('reading the Google account failed', err));
  }, []);
  return googleEmail;
}

export default function InviteForm({ lang: langProp }: { lang?: string }) {
  const lang = useFormLang(langProp);
  const { t, error, setError, errorId, busy, bind, submitWith } = useForm({ inviteCode: '' });
  const googleEmail = useGoogleEmail();

  const submit = submitWith(validateInvite, async ({ inviteCode }) => {
    const answer = await postJson('/api/auth/verify-invite', { token: queryParam('token') ?? '', inviteCode: inviteCode.trim() });
    if (answer.ok) {
      markLoggedIn();
      navigate('/MemberPage', lang);
      return true;
    }
    setError(serverText(answer.data, 'error') ?? t('invite.errors.failed'));
  });

  return (
    <FormCard
      title={t('invite.title')}
      subtitle={googleEmail ? t('invite.subtitleGoogle', { email: googleEmail }) : t('invite.subtitle')}
      back={<BackButton lang={lang} label={t('invite.back')} />}
    >
      <ErrorBox id={errorId} message={error} />
      <form className="form" noValidate onSubmit={preventing(submit)}>
        <TextField label={t('invite.code')} {...bind('inviteCode', !!error)} autoComplete="off" />
        <BusyButton busy={busy} label={t('invite.submit')} busyLabel={t('invite.submitting')} />
      </form>
    </FormCard>
  );
}
