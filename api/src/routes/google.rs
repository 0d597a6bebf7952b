//! Google sign-in: authorization code with PKCE and state; new accounts need an invitation.

use super::errors::{ApiError, Failure, FormError};
use super::login::LoginStatus;
use crate::db::entities::{google_pending, member, oauth_state};
use crate::domain::{EmailAddress, InviteCode};
use crate::google_link::GoogleProfile;
use crate::i18n::Lang;
use crate::rate_limit::{CodeAttempt, Counter};
use crate::secrets::{digest, random_token};
use crate::settings::GoogleSettings;
use crate::state::{client_key, AppState};
use crate::texts::Problem;
use crate::{google_link, invites, members, oauth_cookies, sessions};
use anyhow::Context;
use oauth2::basic::BasicClient;
use oauth2::{
    AuthUrl, AuthorizationCode, ClientId, ClientSecret, CsrfToken, PkceCodeChallenge, PkceCodeVerifier, RedirectUrl,
    Scope, TokenResponse, TokenUrl,
};
use poem::Request;
use poem_openapi::param::Query;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi};
use sea_orm::{DatabaseTransaction, DbErr, EntityTrait, Set, TransactionTrait};
use std::sync::Arc;

/// How long a sign-in may take at Google.
const STATE_SECONDS: i64 = 10 * 60;
/// Sign-in states kept at once, from everyone: beyond this, new sign-ins wait for old ones to
/// expire (each client may also start only 20 per 15 minutes).
pub const MAX_LIVE_STATES: u64 = 10_000;

/// Binds a sign-in to the browser that started it: a callback URL carried to another browser
/// (a victim lured to an attacker's half-finished sign-in) arrives without it.
const NONCE_COOKIE: &str = "google_nonce";
/// The secret half of the invitation step: the `token` of `/invite?token=` is the other half,
/// so the URL (in access logs, history, a Referer) is worth nothing without this browser.
const PENDING_COOKIE: &str = "google_pending";

pub struct GoogleApi(pub Arc<AppState>);

#[derive(ApiResponse)]
pub enum Redirect {
    /// To Google, to a page of the site, or back to /login with an `error` query parameter.
    #[oai(status = 302)]
    Found(
        #[oai(header = "Location")] String,
        #[oai(header = "Set-Cookie")] Option<String>,
    ),
}

#[derive(Object, Debug)]
#[oai(rename_all = "camelCase")]
pub struct VerifyInviteRequest {
    /// The `token` query parameter of /invite; the step also needs the `google_pending` cookie
    /// of the browser that signed in with Google.
    pub token: String,
    pub invite_code: String,
}

#[derive(ApiResponse)]
pub enum VerifyInviteResponse {
    /// The member is made and logged in.
    #[oai(status = 200)]
    Ok(Json<LoginStatus>, #[oai(header = "Set-Cookie")] String),
}

#[derive(Object, Debug)]
pub struct PendingGoogleAccount {
    /// The Google account's address, when it has a verified one; absent for an unknown or
    /// expired token.
    #[oai(skip_serializing_if_is_none)]
    pub email: Option<String>,
}

#[derive(ApiResponse)]
pub enum PendingResponse {
    #[oai(status = 200)]
    Ok(Json<PendingGoogleAccount>),
}

/// The key a pending invitation step is stored under: both halves, the URL's and the cookie's.
fn invitation_step_key(token: &str, secret: &str) -> String {
    format!("{token}.{secret}")
}

#[OpenApi]
impl GoogleApi {
    /// Start Google sign-in (a redirect to Google, or to /login?error=google_unavailable).
    #[oai(path = "/auth/google", method = "get")]
    async fn start(&self, req: &Request) -> Redirect {
        let lang = self.0.languages.of_request(req);
        let Some(google) = self.0.settings.google.clone() else {
            return Redirect::Found(lang.page("/login?error=google_unavailable"), None);
        };
        match self.may_start(req).await {
            Ok(true) => {}
            Ok(false) => return Redirect::Found(lang.page("/login?error=google_failed"), None),
            Err(err) => {
                tracing::error!("starting Google sign-in failed: {err:#}");
                return Redirect::Found(lang.page("/login?error=google_failed"), None);
            }
        }
        match self.start_inner(&google, lang).await {
            Ok((url, cookie)) => Redirect::Found(url, Some(cookie)),
            Err(err) => {
                tracing::error!("starting Google sign-in failed: {err:#}");
                Redirect::Found(lang.page("/login?error=google_failed"), None)
            }
        }
    }

    /// Where Google sends the visitor back.
    #[oai(path = "/auth/google/callback", method = "get")]
    async fn callback(
        &self,
        req: &Request,
        code: Query<Option<String>>,
        state: Query<Option<String>>,
        error: Query<Option<String>>,
    ) -> Redirect {
        let lang = self.0.languages.of_request(req);
        let Some(google) = self.0.settings.google.clone() else {
            return Redirect::Found(lang.page("/login?error=google_unavailable"), None);
        };
        let (Some(code), Some(state), None) = (code.0, state.0, error.0) else {
            return Redirect::Found(lang.page("/login?error=google_failed"), None);
        };
        match self.callback_inner(req, &google, &code, &state).await {
            Ok(redirect) => redirect,
            Err(err) => {
                tracing::warn!("Google sign-in failed: {err:#}");
                Redirect::Found(lang.page("/login?error=google_failed"), None)
            }
        }
    }

    /// The Google account waiting at the invitation step (`token` from /invite, with the
    /// `google_pending` cookie of the browser that signed in), so the page can show who is joining.
    #[oai(path = "/auth/google/pending", method = "get")]
    async fn pending(&self, req: &Request, token: Query<String>) -> Result<PendingResponse, ApiError> {
        let pending = live_invitation_step(&self.0, req, &token.0)
            .await
            .map_err(|e| ApiError::from((Failure::from(e), self.0.languages.of_request(req))))?;
        Ok(PendingResponse::Ok(Json(PendingGoogleAccount {
            email: pending.and_then(|p| p.email),
        })))
    }

    /// Become a member with an invitation code after signing in with a new Google account.
    #[oai(path = "/auth/verify-invite", method = "post")]
    async fn verify_invite(
        &self,
        req: &Request,
        body: Json<VerifyInviteRequest>,
    ) -> Result<VerifyInviteResponse, FormError> {
        let lang = self.0.languages.of_request(req);
        self.verify_invite_inner(req, body.0)
            .await
            .map_err(|f| (f, lang).into())
    }
}

impl GoogleApi {
    fn redirect_url(&self) -> String {
        let base = self.0.settings.public_url.as_str().trim_end_matches('/');
        format!("{base}/api/auth/google/callback")
    }

    /// Whether another sign-in state may be stored: the client's starts are counted, and the
    /// states of everyone together are capped.
    async fn may_start(&self, req: &Request) -> anyhow::Result<bool> {
        use sea_orm::{ColumnTrait, PaginatorTrait, QueryFilter};
        let state = &self.0;
        let client = client_key(state, req);
        let live = oauth_state::Entity::find()
            .filter(oauth_state::Column::ExpiresAt.gt(state.now()))
            .count(&state.db)
            .await
            .context("counting the sign-in states")?;
        if live >= MAX_LIVE_STATES {
            tracing::warn!(
                event = "google_start_refused",
                client = client.as_str(),
                reason = "states_full",
                "Google sign-in refused: too many sign-ins under way"
            );
            return Ok(false);
        }
        let counted = state
            .limiter
            .hit(Counter::GoogleStartsFromClient { client: client.clone() })
            .await
            .context("counting the sign-in against its limits")?;
        if let Err(wait) = counted {
            tracing::warn!(
                event = "google_start_refused",
                client = client.as_str(),
                reason = "client_limit",
                retry_after = wait.0,
                "Google sign-in refused by a limit"
            );
            return Ok(false);
        }
        Ok(true)
    }

    /// The URL at Google and the nonce cookie.
    async fn start_inner(&self, google: &GoogleSettings, lang: Lang) -> anyhow::Result<(String, String)> {
        let state = &self.0;
        let client = BasicClient::new(ClientId::new(google.client_id.clone()))
            .set_auth_uri(AuthUrl::new(google.auth_url.clone())?)
            .set_redirect_uri(RedirectUrl::new(self.redirect_url())?);
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let csrf = random_token(state.settings.entropy.as_ref());
        let (url, csrf) = client
            .authorize_url(move || CsrfToken::new(csrf))
            .add_scope(Scope::new("openid".into()))
            .add_scope(Scope::new("email".into()))
            .add_scope(Scope::new("profile".into()))
            .set_pkce_challenge(challenge)
            .url();
        let nonce = random_token(state.settings.entropy.as_ref());
        oauth_state::Entity::insert(oauth_state::ActiveModel {
            state_hash: Set(digest(csrf.secret())),
            pkce_verifier: Set(verifier.secret().clone()),
            lang: Set(lang.code().to_string()),
            expires_at: Set(state.now() + STATE_SECONDS),
            nonce_hash: Set(Some(digest(&nonce))),
        })
        .exec(&state.db)
        .await
        .context("storing the sign-in state")?;
        let cookie = oauth_cookies::set_cookie(NONCE_COOKIE, &nonce, STATE_SECONDS, state.secure_cookies());
        Ok((url.to_string(), cookie))
    }

    async fn callback_inner(
        &self,
        req: &Request,
        google: &GoogleSettings,
        code: &str,
        csrf: &str,
    ) -> anyhow::Result<Redirect> {
        let state = &self.0;
        let saved = self.take_state(req, csrf).await?;
        let lang = (state.languages.from_tag(&saved.lang)).unwrap_or_else(|| state.languages.default_language());
        let info = self.profile(google, code, saved.pkce_verifier).await?;

        let mut member = members::by_google_sub(&state.db, &info.sub)
            .await
            .context("looking up the Google account's member")?;
        if member.is_none() {
            if let Some(email) = info.verified_email().and_then(|e| EmailAddress::parse(e).ok()) {
                if let Some(found) = members::by_email(&state.db, &email)
                    .await
                    .context("looking up the address's member")?
                {
                    if !info.vouches_for(&email) {
                        // Anyone can open a Google account on this address: the member proves
                        // it is them with their password once, then the link is made.
                        return self.await_password(&info, found.id, lang).await;
                    }
                    member = Some(
                        google_link::link(state, found, &info.sub, lang)
                            .await
                            .context("linking the Google account")?,
                    );
                }
            }
        }
        if let Some(member) = member {
            let cookie = sessions::start(state, req, member.id)
                .await
                .context("starting the session")?;
            return Ok(Redirect::Found(lang.page("/MemberPage"), Some(cookie)));
        }
        let (token, secret) = (
            random_token(state.settings.entropy.as_ref()),
            random_token(state.settings.entropy.as_ref()),
        );
        google_link::store_pending(state, &info, None, &invitation_step_key(&token, &secret))
            .await
            .context("storing the pending Google account")?;
        let cookie = oauth_cookies::set_cookie(
            PENDING_COOKIE,
            &secret,
            google_link::PENDING_SECONDS,
            state.secure_cookies(),
        );
        Ok(Redirect::Found(
            lang.page(&format!("/invite?token={token}")),
            Some(cookie),
        ))
    }

    /// The saved sign-in state `csrf` names, once (it is deleted as it is read), while it lasts
    /// and only in the browser that started the sign-in.
    async fn take_state(&self, req: &Request, csrf: &str) -> anyhow::Result<oauth_state::Model> {
        let state = &self.0;
        let Some(saved) = oauth_state::Entity::find_by_id(digest(csrf))
            .one(&state.db)
            .await
            .context("reading the sign-in state")?
        else {
            anyhow::bail!("unknown state");
        };
        // Another browser's callback leaves the state alone: only its own browser may use it up.
        let nonce = oauth_cookies::value(req, NONCE_COOKIE, state.secure_cookies()).map(|n| digest(&n));
        anyhow::ensure!(
            saved.nonce_hash.is_some() && saved.nonce_hash == nonce,
            "the sign-in came back to another browser than the one that started it"
        );
        let taken = oauth_state::Entity::delete_by_id(saved.state_hash.clone())
            .exec(&state.db)
            .await
            .context("using the sign-in state")?;
        anyhow::ensure!(taken.rows_affected == 1, "state already used");
        anyhow::ensure!(saved.expires_at > state.now(), "expired state");
        Ok(saved)
    }

    /// Trades the authorization code for a token and reads the account's profile with it.
    async fn profile(&self, google: &GoogleSettings, code: &str, verifier: String) -> anyhow::Result<GoogleProfile> {
        let state = &self.0;
        let client = BasicClient::new(ClientId::new(google.client_id.clone()))
            .set_client_secret(ClientSecret::new(google.client_secret.clone()))
            .set_auth_uri(AuthUrl::new(google.auth_url.clone())?)
            .set_token_uri(TokenUrl::new(google.token_url.clone())?)
            .set_redirect_uri(RedirectUrl::new(self.redirect_url())?);
        let token = client
            .exchange_code(AuthorizationCode::new(code.to_string()))
            .set_pkce_verifier(PkceCodeVerifier::new(verifier))
            .request_async(&state.http)
            .await
            .map_err(|e| anyhow::anyhow!("token exchange: {e}"))?;
        Ok(state
            .http
            .get(&google.userinfo_url)
            .bearer_auth(token.access_token().secret())
            .send()
            .await?
            .error_for_status()?
            .json()
            .await?)
    }

    /// Keeps the Google account waiting for member `member_id`'s password login, and sends the
    /// visitor to the login page with the cookie that login will present.
    async fn await_password(&self, profile: &GoogleProfile, member_id: i32, lang: Lang) -> anyhow::Result<Redirect> {
        let cookie = google_link::await_password(&self.0, profile, member_id)
            .await
            .context("storing the pending link")?;
        Ok(Redirect::Found(
            lang.page("/login?error=google_link_password"),
            Some(cookie),
        ))
    }

    async fn verify_invite_inner(
        &self,
        req: &Request,
        body: VerifyInviteRequest,
    ) -> Result<VerifyInviteResponse, Failure> {
        let state = &self.0;
        state
            .limiter
            .hit_code_attempt(CodeAttempt::Invitation, &client_key(state, req))
            .await
            .context("counting the attempt against its limits")??;
        let invitation = InviteCode::parse(&body.invite_code).map_err(Failure::BadRequest)?;
        let now = state.now();
        let Some(pending) = live_invitation_step(state, req, &body.token)
            .await
            .context("reading the pending Google account")?
        else {
            return Err(Failure::BadRequest(Problem::InviteTokenInvalid));
        };

        let member_id = join_with_invitation(state, pending, invitation, now).await?;
        let member = member::Entity::find_by_id(member_id)
            .one(&state.db)
            .await
            .context("reading the new member")?
            .ok_or_else(|| anyhow::anyhow!("member {member_id} vanished"))?;
        let cookie = sessions::start(state, req, member.id)
            .await
            .context("starting the session")?;
        tracing::info!(
            event = "member_joined_with_google",
            member_id = member.id,
            username = member.username.as_str(),
            client = client_key(state, req).as_str(),
            "member joined with Google and an invitation"
        );
        Ok(VerifyInviteResponse::Ok(
            Json(LoginStatus {
                logged_in: true,
                username: Some(member.username),
            }),
            cookie,
        ))
    }
}

/// Uses the invitation and the pending Google account together, and returns the member: the
/// one made from the Google profile, or the one that account already belongs to.
async fn join_with_invitation(
    state: &AppState,
    pending: google_pending::Model,
    invitation: InviteCode,
    now: i64,
) -> Result<i32, Failure> {
    let key = state.invite_key.clone();
    let joined = state.db.transaction(move |txn| {
        Box::pin(async move {
            let invited = invites::consume(txn, &key, now, &invitation).await;
            if !invited.context("using the invitation")? {
                tracing::info!(event = "invitation_rejected", "invitation code rejected");
                return Err(Failure::BadRequest(Problem::InviteInvalid));
            }
            let taken = google_pending::Entity::delete_by_id(pending.token_hash.clone())
                .exec(txn)
                .await;
            if taken.context("using the pending Google account")?.rows_affected != 1 {
                return Err(Failure::BadRequest(Problem::InviteTokenInvalid));
            }
            let existing = members::by_google_sub(txn, &pending.google_sub).await;
            if let Some(existing) = existing.context("looking for the Google account's member")? {
                return Ok(existing.id);
            }
            new_google_member(txn, &pending, now)
                .await
                .context("making the member from the Google profile")
                .map_err(Failure::from)
        })
    });
    Ok(joined.await?)
}

/// A member made from a Google profile: its address when no member has it yet, and a free
/// username derived from its name or address.
async fn new_google_member(txn: &DatabaseTransaction, pending: &google_pending::Model, now: i64) -> Result<i32, DbErr> {
    let email = pending.email.as_deref().and_then(|e| EmailAddress::parse(e).ok());
    let email = match email {
        Some(e) if members::by_email(txn, &e).await?.is_none() => Some(e),
        _ => None,
    };
    let username = members::derive_username(txn, pending.name.as_deref(), pending.email.as_deref()).await?;
    let member = members::insert(
        txn,
        now,
        &username,
        email.as_ref(),
        None,
        Some(pending.google_sub.clone()),
    )
    .await?;
    Ok(member.id)
}

/// The unexpired invitation step of `token` and the request's `google_pending` cookie (not a
/// pending link, which only a login completes).
async fn live_invitation_step(
    state: &AppState,
    req: &Request,
    token: &str,
) -> Result<Option<google_pending::Model>, DbErr> {
    let Some(secret) = oauth_cookies::value(req, PENDING_COOKIE, state.secure_cookies()) else {
        return Ok(None);
    };
    let now = state.now();
    Ok(
        google_pending::Entity::find_by_id(digest(&invitation_step_key(token, &secret)))
            .one(&state.db)
            .await?
            .filter(|p| p.expires_at > now && p.link_member_id.is_none()),
    )
}
