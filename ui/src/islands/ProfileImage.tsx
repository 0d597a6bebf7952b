import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../components/Icon';

/** The owner's photo, blurred until the visitor asks to see it. */
export default function ProfileImage({ src, alt }: { src: string; alt: string }) {
  const { t } = useTranslation();
  const [revealed, setRevealed] = useState(false);
  const figure = useRef<HTMLElement>(null);
  const reveal = () => {
    setRevealed(true);
    // The button goes away; keep the keyboard user's place on the photo itself.
    requestAnimationFrame(() => figure.current?.focus());
  };
  return (
    <figure ref={figure} className={`profile-image${revealed ? ' is-revealed' : ''}`} tabIndex={-1}>
      <img src={src} alt={alt} width={224} height={224} decoding="async" />
      {!revealed && (
        <button type="button" className="profile-reveal button" onClick={reveal}>
          <Icon name="eye" />
          <span>{t('home.showPhoto', 'Show photo')}</span>
        </button>
      )}
    </figure>
  );
}
