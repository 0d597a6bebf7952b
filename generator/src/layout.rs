//! Which parts of the page frame each route shows, and the breadcrumb trail. The app's legal
//! pages show their text alone, the member forms drop the sidebar and page header, and every
//! page but home has a breadcrumb.

use serde::Serialize;

/// The Climbers Deal app's legal and support pages: a bare frame.
pub const LEGAL_ROUTES: &[&str] = &[
    "/climbers-deal-privacy",
    "/climbers-deal-terms",
    "/climbers-deal-support",
];
/// The member forms: no sidebar and no page header.
pub const MEMBER_ROUTES: &[&str] = &[
    "/login",
    "/register",
    "/MemberPage",
    "/invite",
    "/verifycode",
    "/reset-password",
];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct VisibleParts {
    pub top_bar: bool,
    pub sidebar: bool,
    pub page_header: bool,
    pub footer: bool,
    pub breadcrumb: bool,
}

pub fn visible_parts(route: &str) -> VisibleParts {
    let legal = LEGAL_ROUTES.contains(&route);
    let member = MEMBER_ROUTES.contains(&route);
    VisibleParts {
        top_bar: !legal,
        sidebar: !(legal || member),
        page_header: !(legal || member),
        footer: !legal,
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
    fn legal_pages_hide_everything_but_content() {
        let p = visible_parts("/climbers-deal-terms");
        assert!(!p.top_bar && !p.sidebar && !p.page_header && !p.footer && p.breadcrumb);
    }

    #[test]
    fn member_pages_keep_top_bar_and_footer() {
        for route in MEMBER_ROUTES {
            let p = visible_parts(route);
            assert!(p.top_bar && p.footer && !p.sidebar && !p.page_header, "{route}");
        }
    }

    #[test]
    fn articles_show_everything_and_home_has_no_breadcrumb() {
        let p = visible_parts("/valuation-models/dcf");
        assert!(p.top_bar && p.sidebar && p.page_header && p.footer && p.breadcrumb);
        assert!(!visible_parts("/").breadcrumb);
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
