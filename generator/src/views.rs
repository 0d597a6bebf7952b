//! What a template sees of a page: its text, its place in the site (URL, alternates, breadcrumb,
//! visible parts) and the props of its islands.

use crate::config::SiteConfig;
use crate::content::{Content, PageKind, SourcePage};
use crate::layout::{self, Crumb, VisibleParts, LEGAL_ROUTES, MEMBER_ROUTES};
use crate::locales::Locales;
use crate::markdown::Rendered;
use serde::Serialize;
use serde_json::{json, Value};
use std::collections::HashMap;

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

/// The link from an entry or a not-found page back to its collection's list.
#[derive(Debug, Serialize)]
pub struct BackLink {
    pub label: String,
    pub url: String,
}

#[derive(Debug, Serialize)]
pub struct EntryView {
    pub title: String,
    pub description: String,
    pub date: Option<String>,
    pub tech: Vec<String>,
    /// None for entries without a page of their own (app projects).
    pub url: Option<String>,
    pub content: String,
}

#[derive(Debug, Serialize)]
pub struct IslandUse {
    pub name: String,
    pub props: Value,
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
    pub kind: String,
    pub is_home: bool,
    /// The page's own HTML from Markdown.
    pub content: String,
    /// The page shows highlighted code and needs the syntax stylesheets.
    pub has_code: bool,
    /// This language has no file yet; `content` is the English text.
    pub fallback: bool,
    pub noindex: bool,
    pub parts: VisibleParts,
    pub body_class: String,
    pub breadcrumb: Vec<Crumb>,
    pub island: Option<IslandUse>,
    pub topbar: Value,
    pub sidebar: Value,
    pub children: Vec<LinkView>,
    pub entries: Vec<EntryView>,
    pub date: Option<String>,
    pub tech: Vec<String>,
    pub back: Option<BackLink>,
    /// The home page's profile image island props.
    pub profile: Value,
}

/// Shared facts every page view is built from.
pub struct ViewContext<'a> {
    pub config: &'a SiteConfig,
    pub locales: &'a Locales,
    pub content: &'a Content,
    /// Each (route, lang) rendered from Markdown.
    pub rendered: &'a HashMap<(String, String), Rendered>,
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

fn body_class(route: &str, kind: &str) -> String {
    let mut classes = vec![format!("page-{kind}")];
    if LEGAL_ROUTES.contains(&route) {
        classes.push("legal".into());
    }
    if MEMBER_ROUTES.contains(&route) {
        classes.push("member".into());
    }
    classes.join(" ")
}

impl ViewContext<'_> {
    fn rendered(&self, route: &str, lang: &str) -> &Rendered {
        &self.rendered[&(route.to_string(), lang.to_string())]
    }

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
        json!({"route": route, "lang": lang, "languages": languages})
    }

    /// The menu, localised, with each item's place relative to the page (`current`): the page
    /// itself, or a section the page is in. Pages outside the menu share one Sidebar render.
    fn sidebar_props(&self, route: &str, lang: &str) -> Value {
        fn localize(items: &[crate::config::MenuItem], route: &str, ctx: &ViewContext, lang: &str) -> Value {
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

    fn island_props(&self, name: &str, lang: &str, page: &SourcePage) -> Value {
        let mut props = match name {
            "Search" => json!({"indexUrl": self.search_index_url, "lang": lang}),
            "BlogList" => json!({"feedUrl": "/api/feed", "lang": lang}),
            _ => json!({"lang": lang}),
        };
        // A calculator starts at its article's worked example, so it first shows the article's
        // own result; the route tells a calculator shared by several articles which one it is on.
        // An example YAML cannot express as JSON (a non-text key) leaves the island its defaults.
        if let Some(example) = &page.front.example {
            props["route"] = page.route.clone().into();
            props["example"] = serde_json::to_value(example).unwrap_or(Value::Null);
        }
        props
    }

    fn frame(&self, route: &str, lang: &str, title: &str, description: &str, kind: &str) -> PageView {
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
            kind: kind.to_string(),
            is_home: route == "/",
            content: String::new(),
            has_code: false,
            fallback: false,
            noindex: false,
            parts: layout::visible_parts(route),
            body_class: body_class(route, kind),
            breadcrumb: self.crumbs(route, lang, title),
            island: None,
            topbar: self.topbar_props(route, lang),
            sidebar: self.sidebar_props(route, lang),
            children: Vec::new(),
            entries: Vec::new(),
            date: None,
            tech: Vec::new(),
            back: None,
            profile: json!({"src": self.config.owner.image, "alt": self.config.owner.name}),
        }
    }

    /// The children of a section landing page, ordered by weight then title.
    fn children(&self, route: &str, lang: &str) -> Vec<LinkView> {
        let prefix = format!("{route}/");
        let mut children: Vec<&SourcePage> = self
            .content
            .routes()
            .filter(|r| r.strip_prefix(&prefix).is_some_and(|rest| !rest.contains('/')))
            .filter_map(|r| self.content.page(r, lang))
            .collect();
        children.sort_by(|a, b| {
            (a.front.weight.unwrap_or(i64::MAX), &a.front.title)
                .cmp(&(b.front.weight.unwrap_or(i64::MAX), &b.front.title))
        });
        children
            .into_iter()
            .map(|p| LinkView {
                title: p.front.title.clone(),
                description: p.front.description.clone(),
                url: self.url(&p.route, lang),
            })
            .collect()
    }

    /// A collection's entries, newest first.
    fn entries(&self, collection: &str, lang: &str) -> Vec<EntryView> {
        let entry_pages = self.config.collections.get(collection).is_some_and(|c| c.entry_pages);
        let mut entries: Vec<&SourcePage> = self
            .content
            .routes()
            .filter_map(|r| self.content.page(r, lang))
            .filter(|p| matches!(&p.kind, PageKind::Entry { collection: c } if c == collection))
            .collect();
        entries.sort_by(|a, b| {
            b.front
                .date
                .cmp(&a.front.date)
                .then_with(|| a.front.title.cmp(&b.front.title))
        });
        entries
            .into_iter()
            .map(|p| EntryView {
                title: p.front.title.clone(),
                description: p.front.description.clone(),
                date: p.front.date.clone(),
                tech: tech_tags(&p.front.tech),
                url: entry_pages.then(|| self.url(&p.route, lang)),
                content: if entry_pages {
                    String::new()
                } else {
                    self.rendered(&p.route, lang).html.clone()
                },
            })
            .collect()
    }

    pub fn page(&self, page: &SourcePage, lang: &str, fallback: bool) -> PageView {
        let kind = match &page.kind {
            PageKind::Home => "home",
            PageKind::Section if self.config.collections.contains_key(page.route.trim_start_matches('/')) => {
                "collection"
            }
            PageKind::Section => "section",
            PageKind::Entry { .. } => "entry",
            PageKind::Single => "single",
        };
        let mut view = self.frame(&page.route, lang, &page.front.title, &page.front.description, kind);
        let rendered = self.rendered(&page.route, lang);
        view.content = rendered.html.clone();
        view.has_code = rendered.has_code;
        view.fallback = fallback;
        view.date = page.front.date.clone();
        view.tech = tech_tags(&page.front.tech);
        view.island = page.front.island.as_ref().map(|name| IslandUse {
            name: name.clone(),
            props: self.island_props(name, lang, page),
        });
        match &page.kind {
            PageKind::Section if kind == "collection" => {
                view.entries = self.entries(page.route.trim_start_matches('/'), lang)
            }
            PageKind::Section => view.children = self.children(&page.route, lang),
            PageKind::Entry { collection } => view.back = Some(self.back_link(collection, lang)),
            _ => {}
        }
        view
    }

    /// The page shown for an unknown entry of `collection`: its message and a way back.
    pub fn not_found(&self, collection: &str, message_key: &str, lang: &str) -> PageView {
        let list = format!("/{collection}");
        let title = self.t(lang, message_key);
        let mut view = self.frame(&list, lang, &title, &title, "not-found");
        view.breadcrumb = self.crumbs(&format!("{list}/404"), lang, &title);
        view.noindex = true;
        view.back = Some(self.back_link(collection, lang));
        view
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
