//! Device cookies (OWASP's "device cookies" against account lockout): a browser that signed in
//! as an account gets a cookie naming that account, signed with the server's key. A login
//! presenting a valid one is counted against that browser's own allowance rather than the
//! account's ceiling, so a crowd of guessers who exhaust the ceiling does not lock the member's
//! own browsers out; guessers without such a cookie still meet it. Nothing is stored: the
//! signature is the proof, and a new one is issued at every sign-in.

use crate::invites::InviteKey;
use crate::secrets::random_token;
use crate::state::AppState;
use poem::Request;

pub const COOKIE_NAME: &str = "device";
/// Over https: only this host may set it (see `sessions::SECURE_COOKIE_NAME`).
pub const SECURE_COOKIE_NAME: &str = "__Host-device";
/// How long a browser is remembered after its last sign-in.
pub const DEVICE_SECONDS: i64 = 180 * 24 * 3600;
const CONTEXT: &str = "device";

fn cookie_name(secure: bool) -> &'static str {
    if secure {
        SECURE_COOKIE_NAME
    } else {
        COOKIE_NAME
    }
}

/// The device cookie's nonce when the request carries a valid one for `account` (a lower-cased
/// username, `rate_limit::account_key`).
pub fn recognised(state: &AppState, req: &Request, account: &str) -> Option<String> {
    let value = req.cookie().get(cookie_name(state.secure_cookies()))?;
    let value = value.value_str();
    let (nonce, signature) = value.split_once('.')?;
    state
        .invite_key
        .verify(CONTEXT, &message(account, nonce), signature)
        .then(|| nonce.to_string())
}

/// A new device cookie for `account` (`Set-Cookie` value).
pub fn issue(state: &AppState, account: &str) -> String {
    let nonce = random_token(state.settings.entropy.as_ref());
    let signature = sign(&state.invite_key, account, &nonce);
    let secure = state.secure_cookies();
    format!(
        "{}={nonce}.{signature}; Path=/; Max-Age={DEVICE_SECONDS}; HttpOnly; SameSite=Strict{}",
        cookie_name(secure),
        if secure { "; Secure" } else { "" }
    )
}

fn sign(key: &InviteKey, account: &str, nonce: &str) -> String {
    key.sign(CONTEXT, &message(account, nonce))
}

fn message(account: &str, nonce: &str) -> String {
    format!("{account}\n{nonce}")
}
