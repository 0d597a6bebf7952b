//! Invitation-only sign-up: `/api/send-email` sends a code, `/api/register` makes the member.

use super::errors::{ApiError, Failure, FormError, MessageBody};
use crate::codes;
use crate::db::entities::email_code::{self, Purpose};
use crate::domain::{EmailAddress, EmailCode, InviteCode, Password, Username};
use crate::i18n::Lang;
use crate::mail::Mail;
use crate::rate_limit::{self, CodeAttempt};
use crate::state::{client_key, AppState};
use crate::texts::{Notice, Problem};
use crate::{invites, members, passwords};
use anyhow::Context;
use poem::Request;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi};
use sea_orm::{SqlErr, TransactionTrait};
use std::sync::Arc;

pub struct RegisterApi(pub Arc<AppState>);

#[derive(Object, Debug)]
#[oai(rename_all = "camelCase")]
pub struct SendEmailRequest {
    pub email: String,
    pub username: String,
    /// en, zh or ja: the language of the email (else the request's language).
    pub preferred_language: Option<String>,
}

#[derive(Object, Debug)]
#[oai(rename_all = "camelCase")]
pub struct RegisterRequest {
    pub username: String,
    pub password: String,
    pub email: String,
    pub invitation_code: String,
    pub email_verification_code: String,
}

#[derive(ApiResponse)]
pub enum SentResponse {
    /// The message was sent (the same answer whether or not the address is already a member's).
    #[oai(status = 200)]
    Ok(Json<MessageBody>),
}

#[derive(ApiResponse)]
pub enum RegisterResponse {
    /// The member exists; they can log in now.
    #[oai(status = 200)]
    Ok(Json<MessageBody>),
}

#[OpenApi]
impl RegisterApi {
    /// Send a 6-digit sign-up code to an email address.
    #[oai(path = "/send-email", method = "post")]
    async fn send_email(&self, req: &Request, body: Json<SendEmailRequest>) -> Result<SentResponse, ApiError> {
        let lang = self.0.languages.preferred(body.0.preferred_language.as_deref(), req);
        self.send_email_inner(req, body.0, lang)
            .await
            .map_err(|f| (f, lang).into())
    }

    /// Create a member from an invitation code and the emailed code.
    #[oai(path = "/register", method = "post")]
    async fn register(&self, req: &Request, body: Json<RegisterRequest>) -> Result<RegisterResponse, FormError> {
        let lang = self.0.languages.of_request(req);
        self.register_inner(req, body.0, lang)
            .await
            .map_err(|f| (f, lang).into())
    }
}

impl RegisterApi {
    async fn send_email_inner(
        &self,
        req: &Request,
        body: SendEmailRequest,
        lang: Lang,
    ) -> Result<SentResponse, Failure> {
        let state = &self.0;
        let email = EmailAddress::parse(&body.email).map_err(Failure::BadRequest)?;
        let username = Username::parse(body.username.trim()).map_err(Failure::BadRequest)?;
        state
            .limiter
            .hit_all(&rate_limit::mail_counters(&email.key(), &client_key(state, req)))
            .await
            .context("counting the mail against its limits")??;
        // An address that is already a member's gets a notice instead of a code: the answer to
        // the caller stays the same, and only the address's owner learns of the attempt.
        let mail_result = match members::by_email(&state.db, &email)
            .await
            .context("looking up the address's member")?
        {
            Some(member) => {
                state
                    .mailer
                    .send(email.as_str(), lang, &member.username, Mail::AlreadyMember)
                    .await
            }
            None => {
                let code = codes::issue(
                    &state.db,
                    state.settings.clock.as_ref(),
                    state.settings.entropy.as_ref(),
                    Purpose::Register,
                    &email.key(),
                    None,
                )
                .await
                .context("making the sign-up code")?;
                state
                    .mailer
                    .send(
                        email.as_str(),
                        lang,
                        username.as_str(),
                        Mail::RegisterCode { code: &code },
                    )
                    .await
            }
        };
        if let Err(err) = mail_result {
            tracing::error!("sending a sign-up mail failed: {err:#}");
            return Err(Failure::Unavailable(Problem::MailFailed));
        }
        Ok(SentResponse::Ok(Json(MessageBody {
            message: Notice::CodeSent.text(lang),
        })))
    }

    async fn register_inner(
        &self,
        req: &Request,
        body: RegisterRequest,
        lang: Lang,
    ) -> Result<RegisterResponse, Failure> {
        let state = &self.0;
        let username = Username::parse(body.username.trim()).map_err(Failure::BadRequest)?;
        let password = Password::parse(&body.password).map_err(Failure::BadRequest)?;
        let email = EmailAddress::parse(&body.email).map_err(Failure::BadRequest)?;
        let code = EmailCode::parse(&body.email_verification_code).map_err(Failure::BadRequest)?;
        let invitation = InviteCode::parse(&body.invitation_code).map_err(Failure::BadRequest)?;
        let attempt = CodeAttempt::Mailed {
            purpose: Purpose::Register.as_str(),
            email_key: &email.key(),
        };
        state
            .limiter
            .hit_code_attempt(attempt, &client_key(state, req))
            .await
            .context("counting the attempt against its limits")??;
        let now = state.now();
        let Some(live_code) = codes::check(&state.db, now, Purpose::Register, &email.key(), code.as_str(), |_| true)
            .await
            .context("checking the sign-up code")?
        else {
            tracing::info!(
                event = "code_rejected",
                purpose = "register",
                client = client_key(state, req).as_str(),
                "sign-up code rejected"
            );
            return Err(Failure::BadRequest(Problem::CodeInvalid));
        };
        let password_hash = passwords::hash(password.as_str().to_string(), state.settings.hash_wait).await?;

        let sign_up = SignUp {
            username: username.clone(),
            email,
            password_hash,
            invitation,
            code: live_code,
            now,
        };
        create_member(state, sign_up).await?;
        tracing::info!(
            event = "member_registered",
            username = username.as_str(),
            client = client_key(state, req).as_str(),
            "member registered with an invitation"
        );
        Ok(RegisterResponse::Ok(Json(MessageBody {
            message: Notice::Registered.text(lang),
        })))
    }
}

/// What a sign-up writes once its code and password have passed.
struct SignUp {
    username: Username,
    email: EmailAddress,
    password_hash: String,
    invitation: InviteCode,
    code: email_code::Model,
    now: i64,
}

/// The account, the invitation's use and the code's consumption commit together or not at all.
/// The first statement writes, so SQLite takes its write lock at once instead of failing to
/// upgrade a read snapshot that another writer made stale.
async fn create_member(state: &AppState, sign_up: SignUp) -> Result<(), Failure> {
    let key = state.invite_key.clone();
    let SignUp {
        username,
        email,
        password_hash,
        invitation,
        code,
        now,
    } = sign_up;
    state
        .db
        .transaction(move |txn| {
            Box::pin(async move {
                let invited = invites::consume(txn, &key, now, &invitation).await;
                if !invited.context("using the invitation")? {
                    tracing::info!(event = "invitation_rejected", "invitation code rejected");
                    return Err(Failure::BadRequest(Problem::InviteInvalid));
                }
                let same_name = members::by_username(txn, username.as_str()).await;
                if same_name.context("looking for the username")?.is_some() {
                    return Err(Failure::BadRequest(Problem::UsernameTaken));
                }
                let same_email = members::by_email(txn, &email).await;
                if same_email.context("looking for the email address")?.is_some() {
                    return Err(Failure::BadRequest(Problem::EmailTaken));
                }
                if !codes::consume(txn, &code).await.context("using the email code")? {
                    return Err(Failure::BadRequest(Problem::CodeInvalid));
                }
                let inserted = members::insert(txn, now, &username, Some(&email), Some(password_hash), None).await;
                match inserted {
                    Ok(_) => Ok(()),
                    // Two sign-ups racing for one name: the database's unique index decides.
                    Err(err) if matches!(err.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) => {
                        Err(Failure::BadRequest(Problem::UsernameTaken))
                    }
                    Err(err) => Err(anyhow::Error::from(err).context("inserting the member").into()),
                }
            })
        })
        .await?;
    Ok(())
}
