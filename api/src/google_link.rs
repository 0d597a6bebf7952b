//! Google accounts and the members they belong to, for the Google sign-in routes and the
//! password login alike: the profile Google sends and what its word proves, the pending steps
//! (an invitation to enter, or a password login to wait for), and the link itself.

use crate::db::entities::{google_pending, member};
use crate::domain::EmailAddress;
use crate::i18n::Lang;
use crate::mail::Mail;
use crate::members;
use crate::secrets::{digest, random_token};
use crate::state::AppState;
use poem::Request;
use sea_orm::{ActiveModelTrait, DbErr, EntityTrait, IntoActiveModel, Set};
use std::sync::Arc;

/// How long a new account has to enter its invitation, or a member to log in with a password.
pub const PENDING_SECONDS: i64 = 15 * 60;
/// The pending link a member's next password login completes.
pub const LINK_COOKIE: &str = "google_link";

/// Domains whose addresses only Google can vouch for; elsewhere Google vouches only for domains
/// it hosts (the `hd` claim), since anyone may open a Google account on any other address.
const GOOGLE_MAIL_DOMAINS: [&str; 2] = ["gmail.com", "googlemail.com"];

/// The account's profile, as Google's OpenID Connect userinfo endpoint sends it.
#[derive(serde::Deserialize)]
pub struct GoogleProfile {
    pub sub: String,
    email: Option<String>,
    #[serde(default)]
    email_verified: Option<serde_json::Value>,
    name: Option<String>,
    /// The Google Workspace domain of the account, if any.
    hd: Option<String>,
}

impl GoogleProfile {
    /// Google sends `email_verified` as a boolean (some endpoints as the string "true").
    pub fn verified_email(&self) -> Option<&str> {
        let verified = match &self.email_verified {
            Some(serde_json::Value::Bool(b)) => *b,
            Some(serde_json::Value::String(s)) => s == "true",
            _ => false,
        };
        self.email.as_deref().filter(|_| verified)
    }

    /// Whether Google is the authority for `email`'s domain, so its word proves the address.
    pub fn vouches_for(&self, email: &EmailAddress) -> bool {
        let domain = email.key().rsplit('@').next().unwrap_or_default().to_string();
        GOOGLE_MAIL_DOMAINS.contains(&domain.as_str())
            || self.hd.as_deref().is_some_and(|hd| hd.eq_ignore_ascii_case(&domain))
    }
}

/// Keeps a Google account waiting for its invitation step (`link_member_id` None) or for the
/// password login of member `link_member_id`, under the hash of `key`.
pub async fn store_pending(
    state: &AppState,
    profile: &GoogleProfile,
    link_member_id: Option<i32>,
    key: &str,
) -> Result<(), DbErr> {
    google_pending::Entity::insert(google_pending::ActiveModel {
        token_hash: Set(digest(key)),
        google_sub: Set(profile.sub.clone()),
        email: Set(profile.verified_email().map(str::to_string)),
        name: Set(profile.name.clone()),
        expires_at: Set(state.now() + PENDING_SECONDS),
        link_member_id: Set(link_member_id),
    })
    .exec(&state.db)
    .await?;
    Ok(())
}

/// Keeps the Google account waiting for member `member_id`'s password login; the `Set-Cookie`
/// of the `google_link` cookie that login will present.
pub async fn await_password(state: &AppState, profile: &GoogleProfile, member_id: i32) -> Result<String, DbErr> {
    let token = random_token(state.settings.entropy.as_ref());
    store_pending(state, profile, Some(member_id), &token).await?;
    tracing::info!(
        event = "google_link_pending",
        member_id,
        "Google account waits for the member's password"
    );
    Ok(crate::oauth_cookies::set_cookie(
        LINK_COOKIE,
        &token,
        PENDING_SECONDS,
        state.secure_cookies(),
    ))
}

/// Links a Google account to a member for good, and tells the member by mail.
pub async fn link(state: &Arc<AppState>, found: member::Model, sub: &str, lang: Lang) -> Result<member::Model, DbErr> {
    let mut active = found.into_active_model();
    active.google_sub = Set(Some(sub.to_string()));
    let member = active.update(&state.db).await?;
    tracing::info!(event = "google_linked", member_id = member.id, "Google account linked");
    if let Some(to) = member.email.clone() {
        let (state, username) = (state.clone(), member.username.clone());
        tokio::spawn(async move {
            if let Err(err) = state.mailer.send(&to, lang, &username, Mail::GoogleLinked).await {
                tracing::error!("sending the Google-linked notice failed: {err:#}");
            }
        });
    }
    Ok(member)
}

/// After a password login: links the Google account that waited for this member (the
/// `google_link` cookie of `await_password`), once.
pub async fn complete_pending_link(state: &Arc<AppState>, req: &Request, member: &member::Model) -> Result<(), DbErr> {
    let Some(token) = crate::oauth_cookies::value(req, LINK_COOKIE, state.secure_cookies()) else {
        return Ok(());
    };
    let now = state.now();
    let Some(pending) = google_pending::Entity::find_by_id(digest(&token))
        .one(&state.db)
        .await?
        .filter(|p| p.expires_at > now && p.link_member_id == Some(member.id))
    else {
        return Ok(());
    };
    let taken = google_pending::Entity::delete_by_id(pending.token_hash.clone())
        .exec(&state.db)
        .await?;
    if taken.rows_affected != 1 || members::by_google_sub(&state.db, &pending.google_sub).await?.is_some() {
        return Ok(());
    }
    link(
        state,
        member.clone(),
        &pending.google_sub,
        state.languages.of_request(req),
    )
    .await?;
    Ok(())
}
