// The invitation screen: a Google account that is not yet a member arrives
// with ?token=...; one code field, POST /api/auth/verify-invite, success to /MemberPage.
import { useEffect, useId, useState } from 'react';
import { BackButton, BusyButton, ErrorBox, FormCard, TextField, preventing, queryParam, useT } from '../forms/FormParts';
import { useBusy } from '../forms/useBusy';
import { postJson, serverText } from '../forms/api';
import { validateInvite } from '../forms/validation';
import { useIsland } from '../components/IslandRoot';
import { isLang, type Lang } from '../lib/languages';
import { navigate } from '../lib/navigation';
import { markLoggedIn } from '../lib/session';

export default function InviteForm({ lang: langProp }: { lang?: string }) {
  const t = useT();
  const island = useIsland();
  const lang: Lang = isLang(langProp) ? langProp : island.lang;
  const errorId = useId();
  const [inviteCode, setInviteCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, run] = useBusy();
  const [googleEmail, setGoogleEmail] = useState<string | null>(null);

  // Who is joining: the Google account's address, so a visitor lured into someone else's
  // sign-in sees that it is not theirs before using an invitation.
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

  const submit = () =>
    run(async () => {
      const invalid = validateInvite({ inviteCode });
      if (invalid) {
        setError(t(invalid));
        return;
      }
      setError(null);
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
        <TextField
          label={t('invite.code')}
          name="inviteCode"
          value={inviteCode}
          onChange={setInviteCode}
          autoComplete="off"
          invalid={!!error}
          errorId={errorId}
        />
        <BusyButton busy={busy} label={t('invite.submit')} busyLabel={t('invite.submitting')} />
      </form>
    </FormCard>
  );
}
