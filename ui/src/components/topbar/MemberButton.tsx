// The top bar's member button: Logout for a member, Member Login otherwise.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../Icon';
import { localizedPath, type Lang } from '../../lib/languages';
import { setActiveTopBarButton } from '../../lib/preferences';
import { logout, useLoggedIn } from '../../lib/session';

export function MemberButton({ lang, onLoggedOut }: { lang: Lang; onLoggedOut: () => void }) {
  const { t } = useTranslation();
  const loggedIn = useLoggedIn();
  const [busy, setBusy] = useState(false);

  const onLogout = async () => {
    setBusy(true);
    await logout();
    setBusy(false);
    onLoggedOut();
  };

  return loggedIn ? (
    <button type="button" className="button button-quiet member-button" onClick={onLogout} disabled={busy}>
      <Icon name="logout" />
      <span>{t('topbar.logout')}</span>
    </button>
  ) : (
    <a className="button button-primary member-button" href={localizedPath('/login', lang)} onClick={() => setActiveTopBarButton('login')}>
      <Icon name="login" />
      {/* A phone shows the short word, which the accessible name (the full one) contains. */}
      <span className="member-label-long">{t('topbar.memberLogin')}</span>
      <span className="member-label-short" aria-hidden="true">
        {t('topbar.memberLoginShort')}
      </span>
    </a>
  );
}
