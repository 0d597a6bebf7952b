//! Login sessions: a random id in an HttpOnly cookie, its hash in the database.

use crate::clock::{Clock, Entropy};
use crate::db::entities::{member, session};
use crate::secrets::{digest, random_token};
use poem::Request;
use sea_orm::sea_query::{Condition, Expr};
use sea_orm::{ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, Set};

pub const COOKIE_NAME: &str = "session";
/// The name over https: browsers accept a `__Host-` cookie only from this host, Secure, with
/// Path=/, so a neighbouring subdomain cannot plant a session of its choosing.
pub const SECURE_COOKIE_NAME: &str = "__Host-session";
/// A session ends 30 days after login at the latest...
pub const SESSION_SECONDS: i64 = 30 * 24 * 3600;
/// ...and after 7 days without use.
pub const IDLE_SECONDS: i64 = 7 * 24 * 3600;
/// Sessions one member may have at once; signing in beyond this ends the oldest, so a script
/// logging in without end cannot fill the table.
pub const MAX_SESSIONS_PER_MEMBER: u64 = 20;
/// Use is written down at most this often, so reading the login status stays a read.
pub const TOUCH_SECONDS: i64 = 3600;
/// How much of a login's `User-Agent` is kept: enough to tell the browser and system apart.
pub const USER_AGENT_CHARS: usize = 255;

pub fn cookie_name(secure: bool) -> &'static str {
    if secure {
        SECURE_COOKIE_NAME
    } else {
        COOKIE_NAME
    }
}

/// Signs `member_id` in: ends the session the request came with and starts a new one, so an id
/// planted before sign-in is worth nothing after it. Returns the `Set-Cookie` value.
pub async fn start(state: &crate::state::AppState, req: &Request, member_id: i32) -> Result<String, DbErr> {
    let secure = state.secure_cookies();
    if let Some(old) = request_session_hash(req, secure) {
        delete(&state.db, &old).await?;
    }
    let user_agent = req
        .headers()
        .get(poem::http::header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.chars().take(USER_AGENT_CHARS).collect());
    let token = create(
        &state.db,
        state.settings.clock.as_ref(),
        state.settings.entropy.as_ref(),
        member_id,
        user_agent,
    )
    .await?;
    Ok(set_cookie(&token, secure))
}

/// Starts a session, remembering the browser's `User-Agent`, and returns the cookie value.
pub async fn create(
    db: &impl ConnectionTrait,
    clock: &dyn Clock,
    entropy: &dyn Entropy,
    member_id: i32,
    user_agent: Option<String>,
) -> Result<String, DbErr> {
    let token = random_token(entropy);
    let now = clock.now();
    session::Entity::insert(session::ActiveModel {
        token_hash: Set(digest(&token)),
        member_id: Set(member_id),
        created_at: Set(now),
        expires_at: Set(now + SESSION_SECONDS),
        last_seen_at: Set(Some(now)),
        user_agent: Set(user_agent),
    })
    .exec(db)
    .await?;
    end_sessions_beyond_the_cap(db, member_id, &digest(&token)).await?;
    Ok(token)
}

/// Ends the member's oldest sessions beyond `MAX_SESSIONS_PER_MEMBER`, never the new one.
async fn end_sessions_beyond_the_cap(db: &impl ConnectionTrait, member_id: i32, new: &str) -> Result<(), DbErr> {
    use sea_orm::{QueryOrder, QuerySelect};
    let beyond: Vec<String> = session::Entity::find()
        .filter(session::Column::MemberId.eq(member_id))
        .filter(session::Column::TokenHash.ne(new))
        .order_by_desc(session::Column::CreatedAt)
        .order_by_desc(session::Column::TokenHash)
        .offset(MAX_SESSIONS_PER_MEMBER - 1)
        // SQLite takes OFFSET only after a LIMIT.
        .limit(1_000_000)
        .all(db)
        .await?
        .into_iter()
        .map(|s| s.token_hash)
        .collect();
    if !beyond.is_empty() {
        session::Entity::delete_many()
            .filter(session::Column::TokenHash.is_in(beyond))
            .exec(db)
            .await?;
    }
    Ok(())
}

/// The hash of the session id the request carries, if any.
pub fn request_session_hash(req: &Request, secure: bool) -> Option<String> {
    req.cookie()
        .get(cookie_name(secure))
        .map(|c| c.value_str().to_string())
        .filter(|v| !v.is_empty())
        .map(|v| digest(&v))
}

/// The member signed in by the request's cookie, with the session's hash.
pub async fn current(
    db: &impl ConnectionTrait,
    clock: &dyn Clock,
    req: &Request,
    secure: bool,
) -> Result<Option<(String, member::Model)>, DbErr> {
    match request_session_hash(req, secure) {
        Some(hash) => live(db, clock, hash).await,
        None => Ok(None),
    }
}

/// The member of the session whose hash is `hash`, with the hash, while the session lasts.
pub async fn live(
    db: &impl ConnectionTrait,
    clock: &dyn Clock,
    hash: String,
) -> Result<Option<(String, member::Model)>, DbErr> {
    let Some(found) = session::Entity::find_by_id(hash.clone()).one(db).await? else {
        return Ok(None);
    };
    let now = clock.now();
    let last_seen = found.last_seen_at.unwrap_or(found.created_at);
    if found.expires_at <= now || last_seen <= now - IDLE_SECONDS {
        session::Entity::delete_by_id(hash).exec(db).await?;
        return Ok(None);
    }
    if last_seen <= now - TOUCH_SECONDS {
        session::Entity::update_many()
            .col_expr(session::Column::LastSeenAt, Expr::value(now))
            .filter(session::Column::TokenHash.eq(hash.clone()))
            .exec(db)
            .await?;
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

/// The id a session is shown under: a digest of its hash, so the member page can name a session
/// without handing out the cookie value or what the database keys it by.
pub fn public_id(hash: &str) -> String {
    digest(&format!("session-id:{hash}"))[..32].to_string()
}

/// The member's sessions still in force, most recently used first.
pub async fn of_member(
    db: &impl ConnectionTrait,
    clock: &dyn Clock,
    member_id: i32,
) -> Result<Vec<session::Model>, DbErr> {
    let now = clock.now();
    let mut found: Vec<session::Model> = session::Entity::find()
        .filter(session::Column::MemberId.eq(member_id))
        .filter(session::Column::ExpiresAt.gt(now))
        .all(db)
        .await?
        .into_iter()
        .filter(|s| s.last_seen_at.unwrap_or(s.created_at) > now - IDLE_SECONDS)
        .collect();
    found.sort_by_key(|s| std::cmp::Reverse((s.last_seen_at.unwrap_or(s.created_at), s.created_at)));
    Ok(found)
}

/// Ends the member's session shown as `public_id`; false when the member has none by that id
/// (another member's session is never touched).
pub async fn end_by_public_id(db: &impl ConnectionTrait, member_id: i32, public: &str) -> Result<bool, DbErr> {
    let hashes: Vec<String> = session::Entity::find()
        .filter(session::Column::MemberId.eq(member_id))
        .all(db)
        .await?
        .into_iter()
        .map(|s| s.token_hash)
        .filter(|hash| public_id(hash) == public)
        .collect();
    let Some(hash) = hashes.first() else {
        return Ok(false);
    };
    let ended = session::Entity::delete_many()
        .filter(session::Column::TokenHash.eq(hash.as_str()))
        .filter(session::Column::MemberId.eq(member_id))
        .exec(db)
        .await?;
    Ok(ended.rows_affected > 0)
}

pub fn set_cookie(token: &str, secure: bool) -> String {
    format!(
        "{}={token}; Path=/; Max-Age={SESSION_SECONDS}; HttpOnly; SameSite=Lax{}",
        cookie_name(secure),
        if secure { "; Secure" } else { "" }
    )
}

pub fn clear_cookie(secure: bool) -> String {
    format!(
        "{}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax{}",
        cookie_name(secure),
        if secure { "; Secure" } else { "" }
    )
}

/// Sessions that ended: past their 30 days, or unused for 7.
pub async fn sweep(db: &impl ConnectionTrait, now: i64) -> Result<(), DbErr> {
    session::Entity::delete_many()
        .filter(
            Condition::any()
                .add(session::Column::ExpiresAt.lte(now))
                .add(session::Column::LastSeenAt.lte(now - IDLE_SECONDS))
                .add(
                    Condition::all()
                        .add(session::Column::LastSeenAt.is_null())
                        .add(session::Column::CreatedAt.lte(now - IDLE_SECONDS)),
                ),
        )
        .exec(db)
        .await?;
    Ok(())
}
