import { useTranslation } from 'react-i18next';
import { Modal } from '../components/Modal';
import { useHasSeenWelcome } from '../lib/preferences';
import { welcomeDone } from '../lib/hydration';

/**
 * The first-visit overlay. Prerendered closed; opens after hydration for a visitor who has not
 * dismissed it. On a first visit the stylesheet has drawn it since the first paint (the head
 * script's `welcome-due`); once it closes, that drawing goes too.
 */
export default function Welcome() {
  const { t } = useTranslation();
  const [seen, markSeen] = useHasSeenWelcome();
  return (
    <Modal
      open={!seen}
      className="welcome"
      title={t('welcome.title')}
      onClose={() => {
        welcomeDone();
        markSeen();
      }}
      closeLabel={t('welcome.dismiss')}
    >
      <p>{t('welcome.content')}</p>
    </Modal>
  );
}
