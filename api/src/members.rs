//! Member records.

use crate::db::entities::member;
use crate::domain::{EmailAddress, Username};
use sea_orm::{ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QueryOrder, Set};

pub async fn by_username(db: &impl ConnectionTrait, username: &str) -> Result<Option<member::Model>, DbErr> {
    member::Entity::find()
        .filter(member::Column::UsernameKey.eq(username.to_ascii_lowercase()))
        .one(db)
        .await
}

pub async fn by_email(db: &impl ConnectionTrait, email: &EmailAddress) -> Result<Option<member::Model>, DbErr> {
    member::Entity::find()
        .filter(member::Column::EmailKey.eq(email.key()))
        .one(db)
        .await
}

pub async fn by_google_sub(db: &impl ConnectionTrait, sub: &str) -> Result<Option<member::Model>, DbErr> {
    member::Entity::find()
        .filter(member::Column::GoogleSub.eq(sub))
        .one(db)
        .await
}

pub async fn insert(
    db: &impl ConnectionTrait,
    now: i64,
    username: &Username,
    email: Option<&EmailAddress>,
    password_hash: Option<String>,
    google_sub: Option<String>,
) -> Result<member::Model, DbErr> {
    let id = member::Entity::insert(member::ActiveModel {
        username: Set(username.as_str().to_string()),
        username_key: Set(username.key()),
        email: Set(email.map(|e| e.as_str().to_string())),
        email_key: Set(email.map(|e| e.key())),
        password_hash: Set(password_hash),
        google_sub: Set(google_sub),
        created_at: Set(now),
        ..Default::default()
    })
    .exec(db)
    .await?
    .last_insert_id;
    member::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or_else(|| DbErr::RecordNotFound("member just inserted".into()))
}

pub async fn list(db: &impl ConnectionTrait) -> Result<Vec<member::Model>, DbErr> {
    member::Entity::find().order_by_asc(member::Column::Id).all(db).await
}

/// A free username made from a Google profile: its name or the address's local part, reduced
/// to the allowed characters, with a number added when taken.
pub async fn derive_username(
    db: &impl ConnectionTrait,
    name: Option<&str>,
    email: Option<&str>,
) -> Result<Username, DbErr> {
    let from = |s: &str| -> String {
        let cleaned: String = s
            .chars()
            .map(|c| if c.is_whitespace() || c == '.' { '_' } else { c })
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
            .take(24)
            .collect();
        cleaned.trim_matches(['_', '-']).to_string()
    };
    let mut base = name.map(from).filter(|s| s.len() >= 3).unwrap_or_default();
    if base.is_empty() {
        base = email
            .and_then(|e| e.split('@').next())
            .map(from)
            .filter(|s| s.len() >= 3)
            .unwrap_or_else(|| "member".into());
    }
    for n in 1..10_000 {
        let candidate = if n == 1 { base.clone() } else { format!("{base}-{n}") };
        let username = Username::parse(&candidate).unwrap_or_else(|_| Username::parse("member").expect("valid"));
        if by_username(db, username.as_str()).await?.is_none() {
            return Ok(username);
        }
    }
    Err(DbErr::Custom("no free username".into()))
}
