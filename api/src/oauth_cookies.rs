//! The cookies of Google sign-in (`google_nonce`, `google_pending`, `google_link`): HttpOnly,
//! SameSite=Lax, `Path=/`, no Domain, and over https Secure with the `__Host-` prefix.

use poem::Request;

/// An OAuth cookie's name: over https `__Host-` prefixed, which browsers accept only from this
/// very host, Secure and for Path=/, so a sibling subdomain cannot plant one for the parent
/// domain (login CSRF). Plain http (local runs) cannot have `__Host-` cookies: the bare name.
fn name(name: &str, secure: bool) -> String {
    if secure {
        format!("__Host-{name}")
    } else {
        name.to_string()
    }
}

/// `Set-Cookie` for an OAuth cookie: `Path=/` and no Domain, as `__Host-` requires.
pub fn set_cookie(cookie: &str, value: &str, seconds: i64, secure: bool) -> String {
    format!(
        "{}={value}; Path=/; Max-Age={seconds}; HttpOnly; SameSite=Lax{}",
        name(cookie, secure),
        if secure { "; Secure" } else { "" }
    )
}

/// The value of an OAuth cookie under the name this server sets it (empty counts as absent).
pub fn value(req: &Request, cookie: &str, secure: bool) -> Option<String> {
    req.cookie()
        .get(&name(cookie, secure))
        .map(|c| c.value_str().to_string())
        .filter(|v| !v.is_empty())
}
