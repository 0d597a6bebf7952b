import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../components/Icon';

/** The widths of a photo the build made (`srcset` lists), and how wide it is shown. */
export interface PhotoSources {
  webp: string;
  fallback: string;
  sizes: string;
}

/** The owner's photo, blurred until the visitor asks to see it. */
export default function ProfileImage({ src, alt, photo }: { src: string; alt: string; photo?: PhotoSources }) {
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
      {photo ? (
        // The home page's largest paint: fetched at once, at the width the screen needs.
        <picture>
          <source type="image/webp" srcSet={photo.webp} sizes={photo.sizes} />
          <img
            src={src}
            srcSet={photo.fallback}
            sizes={photo.sizes}
            alt={alt}
            width={224}
            height={224}
            decoding="async"
            fetchPriority="high"
          />
        </picture>
      ) : (
        <img src={src} alt={alt} width={224} height={224} decoding="async" />
      )}
      {!revealed && (
        <button type="button" className="profile-reveal button" onClick={reveal}>
          <Icon name="eye" />
          <span>{t('home.showPhoto')}</span>
        </button>
      )}
    </figure>
  );
}
