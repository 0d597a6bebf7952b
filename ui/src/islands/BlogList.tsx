// The articles page's list of the owner's external blog posts: a
// loading message, then the latest 4 as recent posts and every post as a card, 4 to a page.
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchFeed, formatDate, preloadImages, safeLink, type BlogPost } from '../blog/feed';
import { RECENT_COUNT, pageOf } from '../blog/paging';
import { DEFAULT_THUMBNAIL, shownThumbnail } from '../blog/thumbnail';

function PostTitle({ post, note }: { post: BlogPost; note: string }) {
  const href = safeLink(post.link);
  if (!href) return <>{post.title}</>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {post.title}
      <span className="visually-hidden"> {note}</span>
    </a>
  );
}

function PostCard({ post, date, note, byLine }: { post: BlogPost; date: string; note: string; byLine: string }) {
  // An image that fails after the preload (its host went away) shows the default, not a broken box.
  const [broken, setBroken] = useState(false);
  return (
    <li className="blog-card card">
      <img
        className="blog-card-image"
        src={broken ? DEFAULT_THUMBNAIL : post.image}
        alt=""
        width={320}
        height={180}
        loading="lazy"
        decoding="async"
        onError={() => setBroken(true)}
      />
      <div className="blog-card-body">
        <h3 className="blog-card-title">
          <PostTitle post={post} note={note} />
        </h3>
        <p className="blog-card-meta">
          {post.author ? <span className="blog-card-author">{byLine}</span> : null}
          {post.pubDate ? (
            <time
              className="blog-card-date"
              dateTime={Number.isNaN(Date.parse(post.pubDate)) ? undefined : new Date(post.pubDate).toISOString()}
            >
              {date}
            </time>
          ) : null}
        </p>
      </div>
    </li>
  );
}

export default function BlogList({ feedUrl = '/api/feed' }: { feedUrl?: string }) {
  const { t } = useTranslation();
  // Loading on the server too: the prerendered page says so, and hydration agrees.
  const [loading, setLoading] = useState(true);
  const [posts, setPosts] = useState<BlogPost[]>([]);
  const [page, setPage] = useState(1);
  const headingId = useId();
  const listTop = useRef<HTMLHeadingElement>(null);
  const started = useRef(false);

  useEffect(() => {
    // The feed loads once at start.
    if (started.current) return;
    started.current = true;
    let alive = true;
    fetchFeed(feedUrl)
      .then(async (list) => {
        const failed = await preloadImages(list.map((p) => p.image));
        if (alive) setPosts(list.map((p) => ({ ...p, image: shownThumbnail(p.image, failed) })));
      })
      .catch((err: unknown) => {
        // A feed failure is only logged; the page shows its empty state.
        console.warn('blog feed could not be loaded', err);
      })
      .finally(() => {
        if (alive) setLoading(false);
      });
    return () => {
      alive = false;
      started.current = false;
    };
  }, [feedUrl]);

  const note = t('blog.opensExternally');
  const current = pageOf(posts, page);

  const prevButton = useRef<HTMLButtonElement>(null);
  const nextButton = useRef<HTMLButtonElement>(null);
  const go = (to: number, from: 'previous' | 'next') => {
    const target = pageOf(posts, to);
    setPage(target.page);
    listTop.current?.scrollIntoView({ block: 'nearest' });
    // A button that becomes disabled drops keyboard focus to <body>: hand it to the other one.
    if (from === 'next' && !target.hasNext) prevButton.current?.focus();
    if (from === 'previous' && !target.hasPrevious) nextButton.current?.focus();
  };

  if (loading) {
    return (
      <section className="blog" aria-busy="true">
        <p className="blog-loading" role="status">
          {t('blog.loading')}
        </p>
      </section>
    );
  }

  if (posts.length === 0) {
    return (
      <section className="blog">
        <p className="blog-empty" role="status">
          {t('blog.empty')}
        </p>
      </section>
    );
  }

  return (
    <section className="blog">
      <h2 className="blog-heading">{t('blog.recent')}</h2>
      <ul className="blog-recent">
        {posts.slice(0, RECENT_COUNT).map((post) => (
          <li key={post.guid}>
            <PostTitle post={post} note={note} />
            {post.pubDate ? <span className="blog-recent-date">{formatDate(post.pubDate, t)}</span> : null}
          </li>
        ))}
      </ul>
      <h2 className="blog-heading" id={headingId} ref={listTop} tabIndex={-1}>
        {t('blog.all')}
      </h2>
      <ul className="blog-cards" aria-labelledby={headingId}>
        {current.items.map((post) => (
          <PostCard
            key={post.guid}
            post={post}
            date={formatDate(post.pubDate, t)}
            note={note}
            byLine={t('blog.by', { author: post.author })}
          />
        ))}
      </ul>
      <nav className="blog-pager" aria-label={t('blog.pagination')}>
        <button
          ref={prevButton}
          type="button"
          className="button"
          disabled={!current.hasPrevious}
          onClick={() => go(current.page - 1, 'previous')}
        >
          {t('blog.previous')}
        </button>
        <span className="blog-page" aria-live="polite">
          {t('blog.pageOf', { page: current.page, total: current.pages })}
        </span>
        <button ref={nextButton} type="button" className="button" disabled={!current.hasNext} onClick={() => go(current.page + 1, 'next')}>
          {t('blog.next')}
        </button>
      </nav>
    </section>
  );
}
