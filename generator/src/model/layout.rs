//! Which parts of the page frame each page shows, and the breadcrumb trail. Which frame a route
//! gets is site-config.yaml's `frames`; every page but home has a breadcrumb.

use serde::Serialize;

/// The frame around a page's content (`frames:` in site-config.yaml).
pub use site_contract::config::Frame;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct VisibleParts {
    pub top_bar: bool,
    pub sidebar: bool,
    pub page_header: bool,
    pub footer: bool,
    pub breadcrumb: bool,
}

pub fn visible_parts(route: &str, frame: Frame) -> VisibleParts {
    let bare = frame == Frame::Bare;
    let full = frame == Frame::Full;
    VisibleParts {
        top_bar: !bare,
        sidebar: full,
        page_header: full,
        footer: !bare,
        breadcrumb: route != "/",
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Crumb {
    pub label: String,
    /// None for the last crumb, the current page.
    pub href: Option<String>,
}

/// `my-web-project` -> `My Web Project`.
pub fn title_case(segment: &str) -> String {
    segment
        .split('-')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut chars = w.chars();
            chars
                .next()
                .map(|c| c.to_uppercase().chain(chars).collect::<String>())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Home, then each segment of `route` (its translation if `label_of` has one, else title-cased);
/// every crumb but the last links to its own route, through `href_of`.
pub fn breadcrumb(
    route: &str,
    home_label: &str,
    label_of: impl Fn(&str) -> Option<String>,
    href_of: impl Fn(&str) -> String,
) -> Vec<Crumb> {
    if route == "/" {
        return Vec::new();
    }
    let segments: Vec<&str> = route.trim_start_matches('/').split('/').collect();
    let mut crumbs = vec![Crumb {
        label: home_label.to_string(),
        href: Some(href_of("/")),
    }];
    for (i, segment) in segments.iter().enumerate() {
        let path = format!("/{}", segments[..=i].join("/"));
        let last = i + 1 == segments.len();
        crumbs.push(Crumb {
            label: label_of(segment).unwrap_or_else(|| title_case(segment)),
            href: (!last).then(|| href_of(&path)),
        });
    }
    crumbs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_pages_hide_everything_but_content() {
        let p = visible_parts("/climbers-deal-terms", Frame::Bare);
        assert!(!p.top_bar && !p.sidebar && !p.page_header && !p.footer && p.breadcrumb);
    }

    #[test]
    fn form_pages_keep_top_bar_and_footer() {
        let p = visible_parts("/login", Frame::Form);
        assert!(p.top_bar && p.footer && !p.sidebar && !p.page_header);
    }

    #[test]
    fn full_pages_show_everything_and_home_has_no_breadcrumb() {
        let p = visible_parts("/valuation-models/dcf", Frame::Full);
        assert!(p.top_bar && p.sidebar && p.page_header && p.footer && p.breadcrumb);
        assert!(!visible_parts("/", Frame::Full).breadcrumb);
    }

    #[test]
    fn breadcrumb_title_cases_or_translates_segments() {
        let crumbs = breadcrumb(
            "/my-web-project/my-first-web-app",
            "Home",
            |s| (s == "my-web-project").then(|| "我的網頁專案".to_string()),
            |p| format!("/zh{p}"),
        );
        assert_eq!(
            crumbs,
            vec![
                Crumb {
                    label: "Home".into(),
                    href: Some("/zh/".into())
                },
                Crumb {
                    label: "我的網頁專案".into(),
                    href: Some("/zh/my-web-project".into())
                },
                Crumb {
                    label: "My First Web App".into(),
                    href: None
                },
            ]
        );
    }
}
