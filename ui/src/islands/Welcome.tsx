import { useTranslation } from 'react-i18next';
import { Modal } from '../components/Modal';
import { useHasSeenWelcome } from '../lib/preferences';

/** The first-visit overlay. Prerendered closed; opens after hydration for a visitor who has not dismissed it. */
export default function Welcome() {
  const { t } = useTranslation();
  const [seen, markSeen] = useHasSeenWelcome();
  return (
    <Modal
      open={!seen}
      className="welcome"
      title={t('welcome.title', 'Welcome')}
      onClose={markSeen}
      closeLabel={t('welcome.dismiss', 'Start reading')}
    >
      <p>{t('welcome.content', 'Notes on investing and company valuation, and the projects I build.')}</p>
    </Modal>
  );
}
