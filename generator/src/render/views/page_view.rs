//! The values a template reads of a page, as `ViewContext::page` makes them.

use crate::model::config::PreviewImage;
use crate::model::content::Hydrate;
use crate::model::date::PageDate;
use crate::model::layout::{Crumb, VisibleParts};
use crate::model::pages::ViewKind;
use crate::render::reading::ContentsEntry;
use serde::Serialize;
use serde_json::Value;

#[derive(Debug, Serialize)]
pub struct Alternate {
    pub tag: String,
    pub href: String,
}

#[derive(Debug, Serialize)]
pub struct LinkView {
    pub title: String,
    pub description: String,
    pub url: String,
}

/// A tag as a link to its page; on the tag index, with how many pages of the language carry it.
#[derive(Debug, Serialize)]
pub struct TagLink {
    pub name: String,
    pub url: String,
    pub count: Option<usize>,
}

/// The link from an entry or a not-found page back to its collection's list.
#[derive(Debug, Serialize)]
pub struct BackLink {
    pub label: String,
    pub url: String,
}

/// A date as `<time>` carries it: as written (`datetime`) and in the language's one format.
#[derive(Debug, Serialize)]
pub struct DateView {
    pub datetime: PageDate,
    pub text: String,
}

#[derive(Debug, Serialize)]
pub struct EntryView {
    pub title: String,
    pub description: String,
    pub date: Option<DateView>,
    pub tech: Vec<String>,
    /// None for entries without a page of their own (app projects).
    pub url: Option<String>,
    pub content: String,
}

/// The page's island as its template places it: `island(name=..., props=..., hydrate=...)`.
#[derive(Debug, Serialize)]
pub struct IslandUse {
    pub name: String,
    pub props: Value,
    pub hydrate: Hydrate,
}

#[derive(Debug, Serialize)]
pub struct PageView {
    pub route: String,
    pub url: String,
    pub lang: String,
    pub lang_tag: String,
    pub og_locale: String,
    pub og_locale_alternates: Vec<String>,
    pub title: String,
    pub description: String,
    pub canonical: String,
    pub alternates: Vec<Alternate>,
    pub x_default: String,
    pub kind: ViewKind,
    pub is_home: bool,
    /// The page's own HTML from Markdown.
    pub content: String,
    /// The front matter's cover photo (`<picture>`), shown above the text.
    pub cover: Option<String>,
    /// The page shows highlighted code and needs the syntax stylesheets.
    pub has_code: bool,
    /// This language has no file yet; `content` is the English text.
    pub fallback: bool,
    /// The English page changed after this translation was made (`translated_from:`).
    pub translation_stale: bool,
    /// `draft` or `scheduled` for a page not published yet, which a build shows only when asked
    /// (`model::publishing`): the page then says so.
    pub unpublished: Option<&'static str>,
    /// The page's own tags, in the order of its front matter.
    pub tags: Vec<TagLink>,
    /// Every tag of the site, the most used first (the tag index).
    pub all_tags: Vec<TagLink>,
    pub noindex: bool,
    /// The page ends with the "education, not investment advice" notice (`not_advice` in
    /// site-config.yaml).
    pub not_advice: bool,
    pub parts: VisibleParts,
    pub body_class: String,
    pub breadcrumb: Vec<Crumb>,
    pub island: Option<IslandUse>,
    pub topbar: Value,
    pub sidebar: Value,
    pub children: Vec<LinkView>,
    pub entries: Vec<EntryView>,
    pub date: Option<DateView>,
    /// When an article's text last changed, if its `updated:` is later than its `date:`, as
    /// `reading.updated` says it ("Updated 15 November 2025").
    pub updated: Option<DateView>,
    /// The key takeaways its front matter lists, shown above its text.
    pub takeaways: Vec<String>,
    /// An article's estimated reading time, as the reader's language says it.
    pub reading_time: Option<String>,
    /// An article's "On this page" list (empty for a short page).
    pub toc: Vec<ContentsEntry>,
    /// The articles before and after this one in its section's order.
    pub previous: Option<LinkView>,
    pub next: Option<LinkView>,
    pub tech: Vec<String>,
    pub back: Option<BackLink>,
    /// The link preview's image, absolute, with its size when known.
    pub og_image: PreviewImage,
    /// What the preview image shows, in words, when the build drew it (the page's card).
    pub og_image_alt: Option<String>,
    /// `summary_large_image` for a wide preview image, else `summary`.
    pub twitter_card: &'static str,
    /// The page's JSON-LD (`structured_data::json_ld`), empty for none.
    pub structured_data: String,
    /// The absolute URL of the Atom feed of the page's language, for autodiscovery.
    pub feed: String,
    /// The home page's profile image island props.
    pub profile: Value,
}
