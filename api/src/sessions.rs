//! Login sessions: a random id in an HttpOnly cookie, its hash in the database.

use crate::clock::{Clock, Entropy};
use crate::db::entities::{member, session};
use crate::i18n::cookie;
use crate::secrets::{digest, random_token};
use poem::Request;
use sea_orm::{ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, Set};

pub const COOKIE_NAME: &str = "session";
pub const SESSION_SECONDS: i64 = 30 * 24 * 3600;

/// Starts a session and returns the cookie value.
pub async fn create(
    db: &impl ConnectionTrait,
    clock: &dyn Clock,
    entropy: &dyn Entropy,
    member_id: i32,
) -> Result<String, DbErr> {
    let token = random_token(entropy);
    let now = clock.now();
    session::Entity::insert(session::ActiveModel {
        token_hash: Set(digest(&token)),
        member_id: Set(member_id),
        created_at: Set(now),
        expires_at: Set(now + SESSION_SECONDS),
    })
    .exec(db)
    .await?;
    Ok(token)
}

/// The hash of the session id the request carries, if any.
pub fn request_session_hash(req: &Request) -> Option<String> {
    cookie(req, COOKIE_NAME).filter(|v| !v.is_empty()).map(|v| digest(&v))
}

/// The member signed in by the request's cookie, with the session's hash.
pub async fn current(
    db: &impl ConnectionTrait,
    clock: &dyn Clock,
    req: &Request,
) -> Result<Option<(String, member::Model)>, DbErr> {
    let Some(hash) = request_session_hash(req) else {
        return Ok(None);
    };
    let Some(found) = session::Entity::find_by_id(hash.clone()).one(db).await? else {
        return Ok(None);
    };
    if found.expires_at <= clock.now() {
        session::Entity::delete_by_id(hash).exec(db).await?;
        return Ok(None);
    }
    Ok(member::Entity::find_by_id(found.member_id)
        .one(db)
        .await?
        .map(|m| (hash, m)))
}

pub async fn delete(db: &impl ConnectionTrait, hash: &str) -> Result<(), DbErr> {
    session::Entity::delete_by_id(hash.to_string()).exec(db).await?;
    Ok(())
}

/// Ends every session of a member except `keep`.
pub async fn delete_others(db: &impl ConnectionTrait, member_id: i32, keep: Option<&str>) -> Result<(), DbErr> {
    let mut query = session::Entity::delete_many().filter(session::Column::MemberId.eq(member_id));
    if let Some(keep) = keep {
        query = query.filter(session::Column::TokenHash.ne(keep));
    }
    query.exec(db).await?;
    Ok(())
}

pub fn set_cookie(token: &str, secure: bool) -> String {
    format!(
        "{COOKIE_NAME}={token}; Path=/; Max-Age={SESSION_SECONDS}; HttpOnly; SameSite=Lax{}",
        if secure { "; Secure" } else { "" }
    )
}

pub fn clear_cookie(secure: bool) -> String {
    format!(
        "{COOKIE_NAME}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax{}",
        if secure { "; Secure" } else { "" }
    )
}
