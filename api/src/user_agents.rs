//! A coarse description of the device behind a `User-Agent`: the browser and system families,
//! enough for a member to tell their sessions apart, never a fingerprint.

/// Browser families, by the token that names each. The order matters: Edge, Opera and Samsung
/// Internet also say `Chrome/`, Chrome also says `Safari/`.
const BROWSERS: &[(&str, &str)] = &[
    ("Edg/", "Edge"),
    ("EdgA/", "Edge"),
    ("EdgiOS/", "Edge"),
    ("OPR/", "Opera"),
    ("SamsungBrowser/", "Samsung Internet"),
    ("Firefox/", "Firefox"),
    ("FxiOS/", "Firefox"),
    ("CriOS/", "Chrome"),
    ("Chrome/", "Chrome"),
    ("Chromium/", "Chromium"),
    ("Safari/", "Safari"),
];

/// System families, in the same spirit: an iPhone says `like Mac OS X`, Android says `Linux`.
const SYSTEMS: &[(&str, &str)] = &[
    ("Windows", "Windows"),
    ("iPhone", "iOS"),
    ("iPad", "iPadOS"),
    ("iPod", "iOS"),
    ("Android", "Android"),
    ("CrOS", "ChromeOS"),
    ("Macintosh", "macOS"),
    ("Mac OS X", "macOS"),
    ("Linux", "Linux"),
];

/// The browser and system families a `User-Agent` names, each None when it names none we know.
pub fn describe(user_agent: &str) -> (Option<&'static str>, Option<&'static str>) {
    let first = |table: &[(&str, &'static str)]| {
        table
            .iter()
            .find(|(token, _)| user_agent.contains(token))
            .map(|(_, family)| *family)
    };
    (first(BROWSERS), first(SYSTEMS))
}

#[cfg(test)]
mod tests {
    use super::describe;

    #[test]
    fn common_browsers_are_told_apart() {
        let cases = [
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0",
                (Some("Edge"), Some("Windows")),
            ),
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1",
                (Some("Safari"), Some("iOS")),
            ),
            (
                "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36",
                (Some("Chrome"), Some("Android")),
            ),
            (
                "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.1; rv:120.0) Gecko/20100101 Firefox/120.0",
                (Some("Firefox"), Some("macOS")),
            ),
            (
                "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36",
                (Some("Chrome"), Some("Linux")),
            ),
            ("curl/8.5.0", (None, None)),
        ];
        for (ua, expected) in cases {
            assert_eq!(describe(ua), expected, "{ua}");
        }
    }
}
