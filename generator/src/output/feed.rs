//! The Atom feed of each language (`/atom.xml`, `/zh/atom.xml`, `/ja/atom.xml`): the newest
//! articles (`Pages::is_article`) written in that language, newest first, in full, with absolute links so
//! a feed reader can follow them (README, "Writing content").

use crate::model::config::SiteConfig;
use crate::model::date::PageDate;
use crate::model::pages::{Page, Pages};
use anyhow::Result;
use quick_xml::events::{BytesDecl, BytesText, Event};
use quick_xml::Writer;
use std::io;

/// The feed's `updated` when no page of the site has a date at all.
const NO_DATE: &str = "1970-01-01T00:00:00Z";

/// The URL path of `lang`'s feed: `/atom.xml`, `/zh/atom.xml`.
pub fn feed_path(config: &SiteConfig, lang: &str) -> String {
    config.localized_path("/atom.xml", lang)
}

/// `html` with every root-relative `href="/…"` and `src="/…"` made absolute on `base` (no trailing
/// slash); protocol-relative `//host` links are left as they are.
pub fn absolute_links(html: &str, base: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(at) = ["href=\"/", "src=\"/"]
        .iter()
        .filter_map(|attr| rest.find(attr).map(|i| (i, attr.len())))
        .min()
    {
        let (start, len) = at;
        let after = &rest[start + len..];
        out.push_str(&rest[..start + len - 1]);
        if !after.starts_with('/') {
            out.push_str(base);
        }
        out.push('/');
        rest = after;
    }
    out.push_str(rest);
    out
}

/// How many articles a feed holds. Feed readers keep what they have seen, so a feed needs only
/// the recent ones; every article in full made each feed 11 MB on a 1,000-page site.
const FEED_ENTRIES: usize = 50;

/// The newest articles of `lang` in its own words (no fallbacks), newest first; a page without a
/// date counts as changed on `newest`.
fn entries<'a>(pages: &'a Pages, lang: &str, newest: Option<PageDate>) -> Vec<(&'a Page, Option<PageDate>)> {
    let articles = pages
        .built()
        .filter(|p| p.lang == lang && !p.fallback && pages.is_article(p));
    newest_first(articles.map(|p| (p, p.updated().or(newest))).collect())
}

/// The feed's entries of `articles`: the newest, newest first.
fn newest_first(mut entries: Vec<(&Page, Option<PageDate>)>) -> Vec<(&Page, Option<PageDate>)> {
    entries.sort_by(|(a, a_date), (b, b_date)| b_date.cmp(a_date).then_with(|| a.route().cmp(b.route())));
    entries.truncate(FEED_ENTRIES);
    entries
}

pub type Lineup = (Option<PageDate>, Vec<String>);

/// What each language's feed shows besides its entries' own pages, by language: the date that
/// stands in for a missing one, and the entries' routes. `site watch` writes a feed again only
/// when this changed or the page of one of its entries did. One pass over the pages for all the
/// languages: on a large site a pass is most of the cost.
pub fn lineups(pages: &Pages, languages: &[String]) -> Vec<Lineup> {
    let newest = pages.newest_date();
    let mut articles: Vec<Vec<(&Page, Option<PageDate>)>> = vec![Vec::new(); languages.len()];
    for page in pages.built().filter(|p| !p.fallback && pages.is_article(p)) {
        if let Some(lang) = languages.iter().position(|l| *l == page.lang) {
            articles[lang].push((page, page.updated().or(newest)));
        }
    }
    (articles.into_iter())
        .map(|entries| {
            let routes = newest_first(entries).into_iter().map(|(p, _)| p.route().to_string());
            (newest, routes.collect())
        })
        .collect()
}

fn instant(date: Option<PageDate>) -> String {
    date.map(|d| d.rfc3339()).unwrap_or_else(|| NO_DATE.to_string())
}

/// `lang`'s Atom feed.
pub fn atom(config: &SiteConfig, pages: &Pages, lang: &str) -> Result<String> {
    let base = config.base_url.trim_end_matches('/');
    let newest = pages.newest_date();
    let entries = entries(pages, lang, newest);
    let feed_url = format!("{base}{}", feed_path(config, lang));
    let home_url = format!("{base}{}", config.localized_path("/", lang));
    let updated = instant(entries.iter().filter_map(|(_, d)| *d).max().or(newest));
    let mut writer = Writer::new_with_indent(Vec::new(), b' ', 2);
    writer.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    writer
        .create_element("feed")
        .with_attribute(("xmlns", "http://www.w3.org/2005/Atom"))
        .with_attribute(("xml:lang", config.language(lang).tag.as_str()))
        .write_inner_content(|w| {
            text(w, "id", &feed_url)?;
            text(w, "title", &config.owner.name)?;
            text(w, "updated", &updated)?;
            link(w, "self", &feed_url, Some("application/atom+xml"))?;
            link(w, "alternate", &home_url, Some("text/html"))?;
            w.create_element("author")
                .write_inner_content(|w| text(w, "name", &config.owner.name))?;
            for (page, date) in &entries {
                let url = format!("{base}{}", config.localized_path(page.route(), lang));
                let front = &page.source.front;
                w.create_element("entry").write_inner_content(|w| {
                    text(w, "id", &url)?;
                    text(w, "title", &front.title)?;
                    text(w, "updated", &instant(*date))?;
                    if let Some(published) = front.date {
                        text(w, "published", &published.rfc3339())?;
                    }
                    link(w, "alternate", &url, Some("text/html"))?;
                    text(w, "summary", &front.description)?;
                    w.create_element("content")
                        .with_attribute(("type", "html"))
                        .write_text_content(BytesText::new(&absolute_links(&page.rendered.html, base)))?;
                    Ok(())
                })?;
            }
            Ok(())
        })?;
    let mut xml = String::from_utf8(writer.into_inner()).expect("the writer is given text only");
    xml.push('\n');
    Ok(xml)
}

fn text<W: io::Write>(w: &mut Writer<W>, name: &str, value: &str) -> io::Result<()> {
    w.create_element(name).write_text_content(BytesText::new(value))?;
    Ok(())
}

fn link<W: io::Write>(w: &mut Writer<W>, rel: &str, href: &str, kind: Option<&str>) -> io::Result<()> {
    let mut element = w
        .create_element("link")
        .with_attribute(("rel", rel))
        .with_attribute(("href", href));
    if let Some(kind) = kind {
        element = element.with_attribute(("type", kind));
    }
    element.write_empty()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::absolute_links;

    #[test]
    fn root_relative_links_and_images_become_absolute() {
        let html = r##"<a href="/notes/x">x</a> <img src="/images/a.svg"> <a href="#f">f</a> <a href="//cdn.example/y">y</a> <a href="https://o.example/">o</a>"##;
        assert_eq!(
            absolute_links(html, "https://example.com"),
            r##"<a href="https://example.com/notes/x">x</a> <img src="https://example.com/images/a.svg"> <a href="#f">f</a> <a href="//cdn.example/y">y</a> <a href="https://o.example/">o</a>"##
        );
    }
}
