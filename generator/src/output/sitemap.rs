//! `sitemap.xml` with each page's language alternates, and `robots.txt`.

use crate::model::config::SiteConfig;

fn escape(s: &str) -> String {
    html_escape::encode_text(s).replace('"', "&quot;")
}

pub fn sitemap(config: &SiteConfig, routes: &[&str]) -> String {
    let base = config.base_url.trim_end_matches('/');
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n",
    );
    for route in routes {
        for lang in &config.languages {
            xml.push_str(&format!(
                "  <url>\n    <loc>{}</loc>\n",
                escape(&format!("{base}{}", config.localized_path(route, &lang.code)))
            ));
            for alt in &config.languages {
                xml.push_str(&format!(
                    "    <xhtml:link rel=\"alternate\" hreflang=\"{}\" href=\"{}\"/>\n",
                    alt.tag,
                    escape(&format!("{base}{}", config.localized_path(route, &alt.code)))
                ));
            }
            xml.push_str("  </url>\n");
        }
    }
    xml.push_str("</urlset>\n");
    xml
}

pub fn robots(config: &SiteConfig) -> String {
    format!(
        "User-agent: *\nAllow: /\nDisallow: /api/\n\nSitemap: {}/sitemap.xml\n",
        config.base_url.trim_end_matches('/')
    )
}
