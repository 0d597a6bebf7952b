//! What a template sees of a page: its text, its place in the site (URL, alternates, breadcrumb,
//! visible parts) and the props of its islands.

use crate::model::cards::Cards;
use crate::model::config::{PreviewImage, SiteConfig};
use crate::model::content::{IslandData, IslandPlacement, PageKind};
use crate::model::date::PageDate;
use crate::model::layout::{self, Crumb, Frame};
use crate::model::locales::Locales;
use crate::model::pages::{Page, Pages, ViewKind};
use crate::model::photos::{self, Photo};
use crate::render::reading;
use serde_json::{json, Value};

mod page_view;
pub use page_view::*;

/// Shared facts every page view is built from.
pub struct ViewContext<'a> {
    pub config: &'a SiteConfig,
    pub locales: &'a Locales,
    pub pages: &'a Pages,
    /// The owner's image when it is a photo the build processed.
    pub portrait: Option<&'a Photo>,
    /// The pages' link-preview cards, when the site has them.
    pub cards: Option<&'a Cards>,
    pub search_index_url: &'a str,
}

pub fn tech_tags(tech: &Option<String>) -> Vec<String> {
    tech.as_deref()
        .map(|t| {
            t.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

/// Where a menu item linking to the English route `link` stands to the page at `route`: "page"
/// for the page itself, "section" for a page below it (home is no section of every page).
fn menu_current(link: &str, route: &str) -> Option<&'static str> {
    if link == route {
        Some("page")
    } else if link != "/" && route.strip_prefix(link).is_some_and(|rest| rest.starts_with('/')) {
        Some("section")
    } else {
        None
    }
}

fn body_class(kind: ViewKind, frame: Frame) -> String {
    let page = format!("page-{}", kind.name());
    match frame {
        Frame::Full => page,
        Frame::Form => format!("{page} member"),
        Frame::Bare => format!("{page} legal"),
    }
}

impl ViewContext<'_> {
    fn t(&self, lang: &str, key: &str) -> String {
        self.locales.get(lang, "translation", key).unwrap_or(key).to_string()
    }

    fn url(&self, route: &str, lang: &str) -> String {
        self.config.localized_path(route, lang)
    }

    fn absolute(&self, path: &str) -> String {
        format!("{}{path}", self.config.base_url.trim_end_matches('/'))
    }

    fn crumbs(&self, route: &str, lang: &str, last_title: &str) -> Vec<Crumb> {
        let last_segment = route.rsplit('/').next().unwrap_or_default();
        layout::breadcrumb(
            route,
            &self.t(lang, "breadcrumb.home"),
            |segment| {
                self.locales
                    .get(lang, "translation", &format!("breadcrumb.segments.{segment}"))
                    .map(String::from)
                    // An entry's own segment (a slug) has no key: its title is its translation.
                    .or_else(|| (segment == last_segment).then(|| last_title.to_string()))
            },
            |path| self.url(path, lang),
        )
    }

    fn topbar_props(&self, route: &str, lang: &str) -> Value {
        let languages: Vec<Value> = self
            .config
            .languages
            .iter()
            .map(|l| json!({"code": l.code, "href": self.url(route, &l.code)}))
            .collect();
        let sections: Vec<Value> = (self.config.top_bar.iter())
            .map(|section| json!({"key": section.key, "route": section.link}))
            .collect();
        json!({"route": route, "lang": lang, "languages": languages, "sections": sections})
    }

    /// The menu, localised, with each item's place relative to the page (`current`): the page
    /// itself, or a section the page is in. Pages outside the menu share one Sidebar render.
    fn sidebar_props(&self, route: &str, lang: &str) -> Value {
        fn localize(items: &[crate::model::config::MenuItem], route: &str, ctx: &ViewContext, lang: &str) -> Value {
            Value::Array(
                items
                    .iter()
                    .map(|item| {
                        let mut v =
                            json!({"titleKey": item.title_key, "link": ctx.url(&item.link, lang), "icon": item.icon});
                        if let Some(current) = menu_current(&item.link, route) {
                            v["current"] = current.into();
                        }
                        if !item.sub_menu.is_empty() {
                            v["subMenu"] = localize(&item.sub_menu, route, ctx, lang);
                        }
                        v
                    })
                    .collect(),
            )
        }
        json!({"lang": lang, "menu": localize(&self.config.sidebar, route, self, lang)})
    }

    /// The page island's props: its language, the props its placement declares, and the build's
    /// data it asks for.
    fn island_props(&self, island: &IslandPlacement, lang: &str, page: &Page) -> Value {
        let mut props = Value::Object(island.props.clone());
        props["lang"] = lang.into();
        for data in &island.data {
            match data {
                IslandData::SearchIndex => props["indexUrl"] = self.search_index_url.into(),
            }
        }
        // A calculator starts at its article's worked example, so it first shows the article's
        // own result; the route tells a calculator shared by several articles which one it is on.
        // An example YAML cannot express as JSON (a non-text key) leaves the island its defaults.
        if let Some(example) = &page.source.front.example {
            props["route"] = page.route().into();
            props["example"] = serde_json::to_value(example).unwrap_or(Value::Null);
        }
        props
    }

    fn frame(&self, route: &str, lang: &str, title: &str, description: &str, kind: ViewKind) -> PageView {
        let language = self.config.language(lang);
        PageView {
            route: route.to_string(),
            url: self.url(route, lang),
            lang: lang.to_string(),
            lang_tag: language.tag.clone(),
            og_locale: language.og_locale.clone(),
            og_locale_alternates: self
                .config
                .languages
                .iter()
                .filter(|l| l.code != lang)
                .map(|l| l.og_locale.clone())
                .collect(),
            title: title.to_string(),
            description: description.to_string(),
            canonical: self.absolute(&self.url(route, lang)),
            alternates: self
                .config
                .languages
                .iter()
                .map(|l| Alternate {
                    tag: l.tag.clone(),
                    href: self.absolute(&self.url(route, &l.code)),
                })
                .collect(),
            x_default: self.absolute(&self.url(route, &self.config.default_language)),
            kind,
            is_home: route == "/",
            content: String::new(),
            cover: None,
            has_code: false,
            fallback: false,
            translation_stale: false,
            unpublished: None,
            tags: Vec::new(),
            all_tags: Vec::new(),
            noindex: false,
            not_advice: false,
            parts: layout::visible_parts(route, self.config.frame(route)),
            body_class: body_class(kind, self.config.frame(route)),
            breadcrumb: self.crumbs(route, lang, title),
            island: None,
            topbar: self.topbar_props(route, lang),
            sidebar: self.sidebar_props(route, lang),
            children: Vec::new(),
            entries: Vec::new(),
            date: None,
            updated: None,
            takeaways: Vec::new(),
            reading_time: None,
            toc: Vec::new(),
            previous: None,
            next: None,
            tech: Vec::new(),
            back: None,
            og_image: PreviewImage {
                src: String::new(),
                width: 0,
                height: 0,
            },
            og_image_alt: None,
            twitter_card: "summary",
            structured_data: String::new(),
            feed: self.absolute(&crate::output::feed::feed_path(self.config, lang)),
            profile: self.profile(),
        }
    }

    /// The profile image island's props: the owner's image, with its widths when it is a photo
    /// (shown 224 CSS pixels wide: `.profile-image`).
    fn profile(&self) -> Value {
        let (alt, Some(photo)) = (&self.config.owner.name, self.portrait) else {
            return json!({"src": self.config.owner.image, "alt": self.config.owner.name});
        };
        json!({
            "src": photos::fallback_src(photo),
            "alt": alt,
            "photo": {
                "webp": photos::srcset(photo, |v| &v.webp),
                "fallback": photos::srcset(photo, |v| &v.fallback),
                "sizes": "224px",
            },
        })
    }

    fn link(&self, page: &Page) -> LinkView {
        LinkView {
            title: page.source.front.title.clone(),
            description: page.source.front.description.clone(),
            url: self.url(page.route(), &page.lang),
        }
    }

    fn date(&self, date: Option<PageDate>, lang: &str) -> Option<DateView> {
        date.map(|datetime| DateView {
            datetime,
            text: datetime.format(self.locales, lang),
        })
    }

    /// An entry as its collection's list shows it: a link to its page, or its whole text when it
    /// has no page of its own.
    fn entry(&self, page: &Page) -> EntryView {
        let front = &page.source.front;
        EntryView {
            title: front.title.clone(),
            description: front.description.clone(),
            date: self.date(front.date, &page.lang),
            tech: tech_tags(&front.tech),
            url: page.gets_page.then(|| self.url(page.route(), &page.lang)),
            content: if page.gets_page {
                String::new()
            } else {
                page.rendered.html.clone()
            },
        }
    }

    pub fn page(&self, page: &Page) -> PageView {
        let (route, lang, front) = (page.route(), page.lang.as_str(), &page.source.front);
        let mut view = self.frame(route, lang, &front.title, &front.description, page.kind);
        view.content = page.rendered.html.clone();
        view.cover = page.cover.clone();
        view.has_code = page.rendered.has_code;
        view.fallback = page.fallback;
        view.translation_stale = crate::model::translations::status(self.pages, page, &self.config.default_language)
            == Some(crate::model::translations::Status::Stale);
        let today = crate::model::publishing::today();
        view.unpublished = crate::model::publishing::Unpublished::of(front, today).map(|u| u.name());
        view.tags = self.tag_links(&front.tags, lang);
        view.not_advice = self
            .config
            .not_advice
            .iter()
            .any(|prefix| route.starts_with(prefix.as_str()));
        view.date = self.date(front.date, lang);
        let is_article = self.pages.is_article(page);
        if is_article {
            self.add_article_parts(&mut view, page);
        }
        view.tech = tech_tags(&front.tech);
        view.island = front.island.as_ref().map(|island| IslandUse {
            name: island.name.clone(),
            props: self.island_props(island, lang, page),
            hydrate: island.hydrate,
        });
        self.add_listing(&mut view, page);
        let card = (self.cards)
            .and_then(|cards| cards.of(self.config, self.locales, page))
            .map(|file| Cards::preview(&file));
        self.set_preview_image(&mut view, front.image.as_ref().or(card.as_ref()));
        // The card shows the title, and says nothing else.
        view.og_image_alt = card.map(|_| view.title.clone());
        view.structured_data = crate::render::structured_data::json_ld(
            page,
            is_article,
            view.parts.breadcrumb.then_some(view.breadcrumb.as_slice()),
            self.config,
            &view.canonical,
        );
        view
    }

    /// What an article adds: its updated date, takeaways, reading time, contents and neighbours.
    fn add_article_parts(&self, view: &mut PageView, page: &Page) {
        let (lang, front) = (page.lang.as_str(), &page.source.front);
        view.updated = front
            .updated
            .filter(|updated| front.date.is_none_or(|date| *updated > date))
            .map(|datetime| DateView {
                datetime,
                text: self.locales.format(
                    lang,
                    "reading.updated",
                    &[("date", &datetime.format(self.locales, lang))],
                ),
            });
        view.takeaways = front.takeaways.clone();
        let minutes = reading::reading_minutes(&page.rendered.text, self.config.language(lang).reading).to_string();
        view.reading_time = Some(self.locales.format(lang, "reading.minutes", &[("count", &minutes)]));
        view.toc = reading::contents(&page.rendered.headings);
        let (previous, next) = self.pages.neighbours(page);
        view.previous = previous.map(|p| self.link(p));
        view.next = next.map(|p| self.link(p));
    }

    /// What a listing adds: a collection's entries, a section's children, a tag's pages, or an
    /// entry's way back.
    fn add_listing(&self, view: &mut PageView, page: &Page) {
        let (route, lang) = (page.route(), page.lang.as_str());
        match &page.source.kind {
            PageKind::Collection { name } => {
                view.entries = self
                    .pages
                    .entries(name, lang)
                    .into_iter()
                    .map(|p| self.entry(p))
                    .collect()
            }
            PageKind::Section => {
                view.children = self
                    .pages
                    .children(route, lang)
                    .into_iter()
                    .map(|p| self.link(p))
                    .collect()
            }
            PageKind::Entry { collection } => view.back = Some(self.back_link(collection, lang)),
            PageKind::TagIndex => view.all_tags = self.all_tags(lang),
            PageKind::Tag { tag } => {
                view.children = self.pages.tagged(tag, lang).into_iter().map(|p| self.link(p)).collect();
                view.back = Some(BackLink {
                    label: self.t(lang, "tags.all"),
                    url: self.url(crate::model::tags::INDEX_ROUTE, lang),
                });
            }
            PageKind::Home | PageKind::Single => {}
        }
    }

    /// The page shown for an unknown entry of `collection`: its message and a way back.
    pub fn not_found(&self, collection: &str, message_key: &str, lang: &str) -> PageView {
        let list = format!("/{collection}");
        let title = self.t(lang, message_key);
        let mut view = self.frame(&list, lang, &title, &title, ViewKind::NotFound);
        view.breadcrumb = self.crumbs(&format!("{list}/404"), lang, &title);
        view.noindex = true;
        self.set_preview_image(&mut view, None);
        view.back = Some(self.back_link(collection, lang));
        view
    }

    /// `tags` as links to their pages, named in `lang`. Only the tag index counts their pages:
    /// counting on every tagged page would read the whole site once per tag of each page.
    /// Every tag with its page count, the most used first, as a reader scanning the topics would
    /// look for them.
    fn all_tags(&self, lang: &str) -> Vec<TagLink> {
        let tags: Vec<String> = self
            .pages
            .routes()
            .filter_map(|r| r.strip_prefix(&format!("{}/", crate::model::tags::INDEX_ROUTE)))
            .map(String::from)
            .collect();
        let mut links = self.tag_links(&tags, lang);
        for (link, tag) in links.iter_mut().zip(&tags) {
            link.count = Some(self.pages.tagged(tag, lang).len());
        }
        links.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.name.cmp(&b.name)));
        links
    }

    fn tag_links(&self, tags: &[String], lang: &str) -> Vec<TagLink> {
        tags.iter()
            .map(|tag| TagLink {
                name: crate::model::tags::name(self.locales, lang, tag),
                url: self.url(&crate::model::tags::route(tag), lang),
                count: None,
            })
            .collect()
    }

    /// The page's own image, else the site's `og_image`, else the owner's image (size unknown).
    fn set_preview_image(&self, view: &mut PageView, own: Option<&PreviewImage>) {
        let image = own.or(self.config.og_image.as_ref()).cloned().unwrap_or(PreviewImage {
            src: self.config.owner.image.clone(),
            width: 0,
            height: 0,
        });
        view.twitter_card = if image.is_wide() && image.height > 0 {
            "summary_large_image"
        } else {
            "summary"
        };
        view.og_image = PreviewImage {
            src: self.absolute(&image.src),
            ..image
        };
    }

    fn back_link(&self, collection: &str, lang: &str) -> BackLink {
        BackLink {
            label: self.t(lang, "list.back"),
            url: self.url(&format!("/{collection}"), lang),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::menu_current;

    #[test]
    fn menu_items_know_the_page_and_the_sections_it_is_in() {
        assert_eq!(menu_current("/notes", "/notes"), Some("page"));
        assert_eq!(menu_current("/notes", "/notes/liquidity-risk"), Some("section"));
        assert_eq!(menu_current("/notes", "/notes-archive"), None);
        assert_eq!(menu_current("/", "/"), Some("page"));
        assert_eq!(menu_current("/", "/notes"), None);
    }
}
