//! `/api/denglu`: login status, login and logout.

use super::errors::{ApiError, Failure};
use crate::db::entities::member;
use crate::rate_limit::{self, Counter};
use crate::state::{client_key, AppState};
use crate::texts::Problem;
use crate::{devices, members, passwords, sessions};
use anyhow::Context;
use poem::Request;
use poem_openapi::param::Query;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi};
use std::sync::Arc;

pub struct LoginApi(pub Arc<AppState>);

#[derive(Object, Debug, Clone, PartialEq)]
#[oai(rename_all = "camelCase")]
pub struct LoginStatus {
    pub logged_in: bool,
    #[oai(skip_serializing_if_is_none)]
    pub username: Option<String>,
}

#[derive(Object, Debug)]
pub struct LoginRequest {
    pub username: String,
    pub password: String,
}

#[derive(ApiResponse)]
pub enum StatusResponse {
    /// The login status; after `logout=true` the session is gone and its cookie cleared.
    #[oai(status = 200)]
    Ok(Json<LoginStatus>, #[oai(header = "Set-Cookie")] Option<String>),
}

#[derive(ApiResponse)]
pub enum LoginResponse {
    /// Logged in: a new session cookie (HttpOnly, SameSite=Lax), and a second `Set-Cookie` with
    /// a new device cookie (`device`, or `__Host-device` over https) that spares this browser the
    /// account's failure ceiling at its next login.
    #[oai(status = 200)]
    Ok(Json<LoginStatus>, #[oai(header = "Set-Cookie")] String),
}

#[derive(ApiResponse)]
pub enum LogoutAllResponse {
    /// Every session of the member has ended, this one included, and its cookie is cleared.
    #[oai(status = 200)]
    Ok(Json<LoginStatus>, #[oai(header = "Set-Cookie")] String),
}

#[OpenApi]
impl LoginApi {
    /// Login status, or logout with `?logout=true` (honoured for the site's own `fetch`: a
    /// request with `Sec-Fetch-Site` other than `same-origin`, or `Sec-Fetch-Dest` other than
    /// `empty`, gets the status and stays logged in).
    #[oai(path = "/denglu", method = "get")]
    async fn status(&self, req: &Request, logout: Query<Option<bool>>) -> Result<StatusResponse, ApiError> {
        let lang = self.0.languages.of_request(req);
        self.status_inner(req, logout.0.unwrap_or(false) && logout_requested_by_the_site(req))
            .await
            .map_err(|f| (f, lang).into())
    }

    /// Sign out everywhere: end every session of the signed-in member (401 without one).
    #[oai(path = "/denglu/logout-all", method = "post")]
    async fn logout_all(&self, req: &Request) -> Result<LogoutAllResponse, ApiError> {
        let lang = self.0.languages.of_request(req);
        self.logout_all_inner(req).await.map_err(|f| (f, lang).into())
    }

    /// Log in with username and password.
    #[oai(path = "/denglu", method = "post")]
    async fn login(&self, req: &Request, body: Json<LoginRequest>) -> Result<LoginResponse, ApiError> {
        let lang = self.0.languages.of_request(req);
        self.login_inner(req, body.0).await.map_err(|f| (f, lang).into())
    }
}

/// Adds a second cookie to the answer (the typed answer carries one `Set-Cookie`): through the
/// cookie jar, which appends its cookies to the response's headers.
fn add_cookie(req: &Request, set_cookie: &str) {
    match poem::web::cookie::Cookie::parse(set_cookie) {
        Ok(cookie) => req.cookie().add(cookie),
        Err(err) => tracing::error!("a cookie of our own did not parse: {err}"),
    }
}

/// Logging out by GET is honoured only when the site's own script asked (`fetch` from our
/// origin): a link on another site, or an image (a feed thumbnail) pointing here, logs nobody
/// out. Browsers send these Fetch Metadata headers themselves; clients without them (curl, old
/// browsers) are not told apart.
fn logout_requested_by_the_site(req: &Request) -> bool {
    let header = |name: &str| req.headers().get(name).and_then(|v| v.to_str().ok());
    header("sec-fetch-site").is_none_or(|site| site == "same-origin")
        && header("sec-fetch-dest").is_none_or(|dest| dest == "empty")
}

impl LoginApi {
    async fn status_inner(&self, req: &Request, logout: bool) -> Result<StatusResponse, Failure> {
        let state = &self.0;
        let current = sessions::current(&state.db, state.settings.clock.as_ref(), req, state.secure_cookies())
            .await
            .context("reading the session")?;
        if logout {
            if let Some(hash) = sessions::request_session_hash(req, state.secure_cookies()) {
                sessions::delete(&state.db, &hash).await.context("ending the session")?;
            }
            tracing::info!(
                event = "logout",
                member_id = current.as_ref().map(|(_, m)| m.id),
                "session ended"
            );
            return Ok(StatusResponse::Ok(
                Json(LoginStatus {
                    logged_in: false,
                    username: None,
                }),
                Some(sessions::clear_cookie(state.secure_cookies())),
            ));
        }
        Ok(StatusResponse::Ok(
            Json(LoginStatus {
                logged_in: current.is_some(),
                username: current.map(|(_, m)| m.username),
            }),
            None,
        ))
    }

    async fn logout_all_inner(&self, req: &Request) -> Result<LogoutAllResponse, Failure> {
        let state = &self.0;
        let secure = state.secure_cookies();
        let Some((_, member)) = sessions::current(&state.db, state.settings.clock.as_ref(), req, secure)
            .await
            .context("reading the session")?
        else {
            return Err(Failure::Unauthorized(Problem::Unauthorized));
        };
        sessions::delete_others(&state.db, member.id, None)
            .await
            .context("ending the member's sessions")?;
        tracing::info!(
            event = "logout_everywhere",
            member_id = member.id,
            "every session ended"
        );
        Ok(LogoutAllResponse::Ok(
            Json(LoginStatus {
                logged_in: false,
                username: None,
            }),
            sessions::clear_cookie(secure),
        ))
    }

    async fn login_inner(&self, req: &Request, body: LoginRequest) -> Result<LoginResponse, Failure> {
        let state = &self.0;
        // The attempt is counted before the password is checked, so simultaneous guesses cannot
        // all slip in under the limit; a success gives it back.
        let client = client_key(state, req);
        // Logged as typed, at most 64 characters; never the password.
        let typed: String = body.username.chars().take(64).collect();
        // The client's place in the hashing queue before anything else (`passwords::QueueShare`):
        // a flood from one client or /48 waits in memory for its few places, costing no database
        // connection and no write, while everyone else's logins go ahead.
        let network = crate::client_ip::network_of(&client);
        let Ok(_share) = passwords::QueueShare::take(&client, network.as_deref(), state.settings.hash_wait).await
        else {
            tracing::warn!(
                event = "login_queue_share_busy",
                client = client.as_str(),
                "login refused: the client's share of the hashing queue stayed taken"
            );
            return Err(Failure::Busy);
        };
        let account = rate_limit::account_key(&body.username);
        // A browser that signed in as this account before counts its failures on its own, not
        // against the ceiling a crowd of guessers can exhaust.
        let device = devices::recognised(state, req, &account);
        let checks = match &device {
            Some(nonce) => rate_limit::device_login_counters(nonce, &client),
            None => rate_limit::login_counters(&body.username, &client),
        };
        if let Err(wait) = state
            .limiter
            .hit_all(&checks)
            .await
            .context("counting the login against its limits")?
        {
            tracing::warn!(
                event = "login_limited",
                username = typed.as_str(),
                client = client.as_str(),
                known_device = device.is_some(),
                retry_after = wait.0,
                "login refused by a limit"
            );
            return Err(wait.into());
        }
        let Some(member) = self.check_password(body, &checks).await? else {
            tracing::info!(
                event = "login_failed",
                username = typed.as_str(),
                client = client.as_str(),
                known_device = device.is_some(),
                "login failed"
            );
            return Err(Failure::Unauthorized(Problem::LoginFailed));
        };
        tracing::info!(
            event = "login_succeeded",
            member_id = member.id,
            username = member.username.as_str(),
            client = client.as_str(),
            known_device = device.is_some(),
            "logged in"
        );
        let cookie = self.sign_in(req, &member, &checks).await?;
        add_cookie(req, &devices::issue(state, &account));
        Ok(LoginResponse::Ok(
            Json(LoginStatus {
                logged_in: true,
                username: Some(member.username),
            }),
            cookie,
        ))
    }

    /// The member whose password this is, or None.
    async fn check_password(&self, body: LoginRequest, checks: &[Counter]) -> Result<Option<member::Model>, Failure> {
        let state = &self.0;
        let member = if body.username.len() <= 64 {
            members::by_username(&state.db, body.username.trim())
                .await
                .context("looking up the member")?
        } else {
            None
        };
        // Over-long passwords are never valid; do not let them cost argon2 time.
        let password = if body.password.chars().count() <= 128 {
            body.password
        } else {
            String::new()
        };
        let stored = member.as_ref().and_then(|m| m.password_hash.clone());
        match passwords::verify(password, stored, state.settings.hash_wait).await {
            Ok(valid) => Ok(member.filter(|_| valid)),
            Err(busy) => {
                // No password was checked, so nothing was tried.
                state
                    .limiter
                    .refund(checks)
                    .await
                    .context("giving back the login's count")?;
                Err(busy.into())
            }
        }
    }

    /// After the right password: the client's failures are forgotten and the shared counts given
    /// back, a waiting Google link is made, and a new session starts (its `Set-Cookie`).
    async fn sign_in(&self, req: &Request, member: &member::Model, checks: &[Counter]) -> Result<String, Failure> {
        let state = &self.0;
        let Some((own, shared)) = checks.split_first() else {
            return Err(anyhow::anyhow!("a login is always counted").into());
        };
        state
            .limiter
            .reset(own)
            .await
            .context("clearing the client's failed logins")?;
        state
            .limiter
            .refund(shared)
            .await
            .context("giving back the login's shared counts")?;
        crate::google_link::complete_pending_link(state, req, member)
            .await
            .context("completing a pending Google link")?;
        let cookie = sessions::start(state, req, member.id)
            .await
            .context("starting the session")?;
        Ok(cookie)
    }
}
