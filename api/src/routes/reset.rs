//! Password reset: a code by email, then a single-use bearer token, then the new password.

use super::errors::{ApiError, Failure, MessageBody};
use crate::codes;
use crate::db::entities::email_code::{self, Purpose};
use crate::db::entities::{google_pending, member, reset_token};
use crate::domain::{EmailAddress, EmailCode, Password, Username};
use crate::i18n::Lang;
use crate::mail::Mail;
use crate::rate_limit::{self, CodeAttempt, Counter};
use crate::secrets::{digest, random_token};
use crate::state::{client_key, AppState};
use crate::texts::{Notice, Problem};
use crate::{members, passwords, sessions};
use anyhow::Context;
use poem::Request;
use poem_openapi::auth::Bearer;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi, SecurityScheme};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, DatabaseTransaction, DbErr, EntityTrait, IntoActiveModel, QueryFilter, Set,
    TransactionTrait,
};
use std::sync::Arc;

pub const RESET_TOKEN_SECONDS: i64 = 15 * 60;

pub struct ResetApi(pub Arc<AppState>);

#[derive(Object, Debug)]
#[oai(rename_all = "camelCase")]
pub struct SendVerifyCodeRequest {
    pub username: String,
    pub email: String,
    /// en, zh or ja: the language of the email (else the request's language).
    pub preferred_language: Option<String>,
}

#[derive(Object, Debug)]
pub struct VerifyCodeRequest {
    pub username: String,
    pub email: String,
    pub code: String,
}

#[derive(Object, Debug)]
pub struct VerifiedBody {
    pub message: String,
    /// Send as `Authorization: Bearer <token>` to /api/reset-password within 15 minutes.
    pub token: String,
}

#[derive(Object, Debug)]
#[oai(rename_all = "camelCase")]
pub struct ResetPasswordRequest {
    pub username: String,
    pub new_password: String,
}

/// The token from /api/verify-code.
#[derive(SecurityScheme)]
#[oai(ty = "bearer")]
pub struct ResetToken(Bearer);

#[derive(ApiResponse)]
pub enum SendCodeResponse {
    /// The same answer whether or not the username and email belong to a member.
    #[oai(status = 200)]
    Ok(Json<MessageBody>),
}

#[derive(ApiResponse)]
pub enum VerifyResponse {
    #[oai(status = 200)]
    Ok(Json<VerifiedBody>),
}

#[derive(ApiResponse)]
pub enum ResetResponse {
    /// The password is changed and the member's other sessions are ended.
    #[oai(status = 200)]
    Ok(Json<MessageBody>),
}

#[OpenApi]
impl ResetApi {
    /// Email a 6-digit reset code when the username and email belong to one member.
    #[oai(path = "/send-verify-code", method = "post")]
    async fn send_verify_code(
        &self,
        req: &Request,
        body: Json<SendVerifyCodeRequest>,
    ) -> Result<SendCodeResponse, ApiError> {
        let lang = self.0.languages.preferred(body.0.preferred_language.as_deref(), req);
        self.send_inner(req, body.0, lang).await.map_err(|f| (f, lang).into())
    }

    /// Trade a reset code for a reset token.
    #[oai(path = "/verify-code", method = "post")]
    async fn verify_code(&self, req: &Request, body: Json<VerifyCodeRequest>) -> Result<VerifyResponse, ApiError> {
        let lang = self.0.languages.of_request(req);
        self.verify_inner(req, body.0, lang).await.map_err(|f| (f, lang).into())
    }

    /// Set a new password with the reset token.
    #[oai(path = "/reset-password", method = "post")]
    async fn reset_password(
        &self,
        req: &Request,
        auth: ResetToken,
        body: Json<ResetPasswordRequest>,
    ) -> Result<ResetResponse, ApiError> {
        let lang = self.0.languages.of_request(req);
        self.reset_inner(req, &auth.0.token, body.0, lang)
            .await
            .map_err(|f| (f, lang).into())
    }
}

/// A new reset code for `member`, by mail.
async fn send_reset_code(
    state: &AppState,
    email: &EmailAddress,
    member: &member::Model,
    lang: Lang,
) -> anyhow::Result<()> {
    let code = codes::issue(
        &state.db,
        state.settings.clock.as_ref(),
        state.settings.entropy.as_ref(),
        Purpose::Reset,
        &email.key(),
        Some(member.id),
    )
    .await
    .context("making the reset code")?;
    let to = member.email.clone().unwrap_or_default();
    state
        .mailer
        .send(&to, lang, &member.username, Mail::ResetCode { code: &code })
        .await
}

impl ResetApi {
    async fn send_inner(
        &self,
        req: &Request,
        body: SendVerifyCodeRequest,
        lang: Lang,
    ) -> Result<SendCodeResponse, Failure> {
        let state = self.0.clone();
        let email = EmailAddress::parse(&body.email).map_err(Failure::BadRequest)?;
        let username = Username::parse(body.username.trim()).map_err(Failure::BadRequest)?;
        // Limits count every request, member or not, so a 429 says nothing about the account.
        // A browser that signed in as this username before is not held by the address's
        // ceiling for all clients together: a crowd spending it does not block the member's own
        // reset (only the cookie's holder learns nothing new from that).
        let mut counters = rate_limit::mail_counters(&email.key(), &client_key(&state, req)).to_vec();
        if crate::devices::recognised(&state, req, &rate_limit::account_key(username.as_str())).is_some() {
            counters.retain(|c| !matches!(c, Counter::MailToAddress { .. }));
        }
        state
            .limiter
            .hit_all(&counters)
            .await
            .context("counting the mail against its limits")??;
        let member = members::by_username(&state.db, username.as_str())
            .await
            .context("looking up the member")?
            .filter(|m| m.email_key.as_deref() == Some(email.key().as_str()));
        if let Some(member) = member {
            // Made and sent after answering: a member's pair costs no write before the answer
            // that a stranger's does not, so the answer's timing says nothing about the account.
            tokio::spawn(async move {
                if let Err(err) = send_reset_code(&state, &email, &member, lang).await {
                    tracing::error!("sending a reset code failed: {err:#}");
                }
            });
        }
        Ok(SendCodeResponse::Ok(Json(MessageBody {
            message: Notice::ResetCodeSent.text(lang),
        })))
    }

    async fn verify_inner(
        &self,
        req: &Request,
        body: VerifyCodeRequest,
        lang: Lang,
    ) -> Result<VerifyResponse, Failure> {
        let state = &self.0;
        let email = EmailAddress::parse(&body.email).map_err(Failure::BadRequest)?;
        let code = EmailCode::parse(&body.code).map_err(Failure::BadRequest)?;
        let attempt = CodeAttempt::Mailed {
            purpose: Purpose::Reset.as_str(),
            email_key: &email.key(),
        };
        state
            .limiter
            .hit_code_attempt(attempt, &client_key(state, req))
            .await
            .context("counting the attempt against its limits")??;
        let now = state.now();
        let member = members::by_username(&state.db, body.username.trim())
            .await
            .context("looking up the member")?;
        let member_id = member.as_ref().map(|m| m.id);
        let live = codes::check(&state.db, now, Purpose::Reset, &email.key(), code.as_str(), |c| {
            member_id.is_some() && c.member_id == member_id
        })
        .await
        .context("checking the reset code")?;
        let Some(live) = live else {
            tracing::info!(
                event = "code_rejected",
                purpose = "reset",
                client = client_key(state, req).as_str(),
                "reset code rejected"
            );
            return Err(Failure::BadRequest(Problem::CodeInvalid));
        };
        if !codes::consume(&state.db, &live).await.context("using the reset code")? {
            return Err(Failure::BadRequest(Problem::CodeInvalid));
        }
        let token = random_token(state.settings.entropy.as_ref());
        reset_token::Entity::insert(reset_token::ActiveModel {
            token_hash: Set(digest(&token)),
            member_id: Set(live.member_id.unwrap_or_default()),
            expires_at: Set(now + RESET_TOKEN_SECONDS),
        })
        .exec(&state.db)
        .await
        .context("storing the reset token")?;
        Ok(VerifyResponse::Ok(Json(VerifiedBody {
            message: Notice::CodeVerified.text(lang),
            token,
        })))
    }

    async fn reset_inner(
        &self,
        req: &Request,
        token: &str,
        body: ResetPasswordRequest,
        lang: Lang,
    ) -> Result<ResetResponse, Failure> {
        let state = self.0.clone();
        let now = state.now();
        let found = reset_token::Entity::find_by_id(digest(token))
            .one(&state.db)
            .await
            .context("reading the reset token")?;
        let member = match &found {
            Some(t) if t.expires_at > now => member::Entity::find_by_id(t.member_id)
                .one(&state.db)
                .await
                .context("reading the token's member")?,
            _ => None,
        };
        let Some(member) = member.filter(|m| m.username_key == body.username.trim().to_ascii_lowercase()) else {
            return Err(Failure::Unauthorized(Problem::TokenInvalid));
        };
        let password = Password::parse(&body.new_password).map_err(Failure::BadRequest)?;
        let hash = passwords::hash(password.as_str().to_string(), state.settings.hash_wait).await?;

        let session = sessions::request_session_hash(req, state.secure_cookies());
        replace_password(&state, digest(token), &member, hash, session).await?;
        tracing::info!(
            event = "password_reset",
            member_id = member.id,
            client = client_key(&state, req).as_str(),
            "password reset; other sessions, codes and Google links removed"
        );

        if let Some(to) = member.email.clone() {
            let state = state.clone();
            tokio::spawn(async move {
                if let Err(err) = state
                    .mailer
                    .send(&to, lang, &member.username, Mail::PasswordChanged)
                    .await
                {
                    tracing::error!("sending the password-changed notice failed: {err:#}");
                }
            });
        }
        Ok(ResetResponse::Ok(Json(MessageBody {
            message: Notice::PasswordReset.text(lang),
        })))
    }
}

/// Uses the reset token and sets the new password; in the same transaction the member's Google
/// links, other tokens, codes and sessions (all but `session`, the request's own) go.
async fn replace_password(
    state: &Arc<AppState>,
    token_hash: String,
    member: &member::Model,
    password_hash: String,
    session: Option<String>,
) -> Result<(), Failure> {
    let clock = state.settings.clock.clone();
    let member = member.clone();
    let replaced = state.db.transaction(move |txn| {
        Box::pin(async move {
            // Deleting the token first makes it single-use even when two resets race.
            let deleted = reset_token::Entity::delete_by_id(token_hash).exec(txn).await;
            if deleted.context("using the reset token")?.rows_affected != 1 {
                return Err(Failure::Unauthorized(Problem::TokenInvalid));
            }
            let id = member.id;
            let mut active = member.into_active_model();
            active.password_hash = Set(Some(password_hash));
            // Whoever took over the account may have linked their Google account: a reset unlinks.
            active.google_sub = Set(None);
            active.update(txn).await.context("storing the new password")?;
            forget_member_secrets(txn, id)
                .await
                .context("removing the member's links, tokens and codes")?;
            let keep = match session {
                Some(hash) => sessions::live(txn, clock.as_ref(), hash)
                    .await
                    .context("reading the session")?,
                None => None,
            };
            let keep = keep.filter(|(_, m)| m.id == id).map(|(hash, _)| hash);
            sessions::delete_others(txn, id, keep.as_deref())
                .await
                .context("ending the other sessions")?;
            Ok(())
        })
    });
    Ok(replaced.await?)
}

/// What was asked for before the new password and dies with the old one: pending Google links,
/// reset tokens and email codes.
async fn forget_member_secrets(txn: &DatabaseTransaction, member_id: i32) -> Result<(), DbErr> {
    google_pending::Entity::delete_many()
        .filter(google_pending::Column::LinkMemberId.eq(member_id))
        .exec(txn)
        .await?;
    reset_token::Entity::delete_many()
        .filter(reset_token::Column::MemberId.eq(member_id))
        .exec(txn)
        .await?;
    email_code::Entity::delete_many()
        .filter(email_code::Column::MemberId.eq(member_id))
        .exec(txn)
        .await?;
    Ok(())
}
