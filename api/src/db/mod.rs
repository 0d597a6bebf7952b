//! Storage: sea-orm entities, migrations, and the connection.

pub mod entities;
pub mod migration;

use sea_orm::{ConnectOptions, ConnectionTrait, Database, DatabaseConnection, DbBackend};
use sea_orm_migration::MigratorTrait;
use std::time::Duration;

/// Connects, switches SQLite to WAL, and brings the schema up to date.
pub async fn connect(url: &str) -> anyhow::Result<DatabaseConnection> {
    if let Some(path) = sqlite_path(url) {
        if let Some(dir) = std::path::Path::new(&path).parent() {
            if !dir.as_os_str().is_empty() {
                std::fs::create_dir_all(dir)?;
            }
        }
    }
    let mut options = ConnectOptions::new(url.to_string());
    options
        .max_connections(if url.starts_with("sqlite:") { 8 } else { 16 })
        .acquire_timeout(Duration::from_secs(10))
        .sqlx_logging(false);
    let db = Database::connect(options)
        .await
        .map_err(|e| anyhow::anyhow!("cannot open database {}: {e}", redact(url)))?;
    if db.get_database_backend() == DbBackend::Sqlite {
        // WAL lets readers run while a writer commits; the setting is stored in the file.
        db.execute_unprepared("PRAGMA journal_mode=WAL").await?;
    }
    migration::Migrator::up(&db, None).await?;
    Ok(db)
}

fn sqlite_path(url: &str) -> Option<String> {
    let rest = url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:"))?;
    let path = rest.split('?').next().unwrap_or("");
    (!path.is_empty() && path != ":memory:").then(|| path.to_string())
}

/// The URL without its password, for logs.
pub fn redact(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut parsed) if parsed.password().is_some() => {
            let _ = parsed.set_password(Some("***"));
            parsed.to_string()
        }
        _ => url.to_string(),
    }
}

/// Deletes what can no longer be used: expired sessions, codes, tokens and sign-in states, and
/// rate-limit events older than the longest window.
pub async fn sweep_expired(db: &DatabaseConnection, now: i64) -> Result<(), sea_orm::DbErr> {
    use entities::*;
    use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
    crate::sessions::sweep(db, now).await?;
    email_code::Entity::delete_many()
        .filter(email_code::Column::ExpiresAt.lte(now))
        .exec(db)
        .await?;
    reset_token::Entity::delete_many()
        .filter(reset_token::Column::ExpiresAt.lte(now))
        .exec(db)
        .await?;
    google_pending::Entity::delete_many()
        .filter(google_pending::Column::ExpiresAt.lte(now))
        .exec(db)
        .await?;
    oauth_state::Entity::delete_many()
        .filter(oauth_state::Column::ExpiresAt.lte(now))
        .exec(db)
        .await?;
    crate::rate_limit::sweep(db, now).await
}
