//! The schema, as migrations run at start (see `db::connect`, which serialises instances).
//!
//! Versioned and forward-only: a change to the schema is a new migration appended to
//! `Migrator::migrations` with a later name; an applied migration is never edited, and there is
//! no way down. A migration only adds (tables, nullable or defaulted columns) and what a release
//! stops using is removed a release later, so the previous release runs on the new schema: during
//! an upgrade, one instance at a time, and after a rollback (docs/deploy.md, "Upgrades and
//! rollbacks"; `db::migrated_by_newer_release`).

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![
            Box::new(CreateTables),
            Box::new(SecurityTables),
            Box::new(SessionDevices),
        ]
    }
}

struct CreateTables;

/// The rate-limit event log of the first schema (replaced by `rate_limits`).
fn rate_events() -> TableCreateStatement {
    Table::create()
        .table(t("rate_events"))
        .col(pk_auto(t("id")))
        .col(string(t("key")))
        .col(big_integer(t("at")))
        .to_owned()
}

impl MigrationName for CreateTables {
    fn name(&self) -> &str {
        "m20261123_000001_create_tables"
    }
}

fn t(name: &str) -> Alias {
    Alias::new(name)
}

#[async_trait::async_trait]
impl MigrationTrait for CreateTables {
    // The whole first schema, one table after another: split up, it would read no better.
    #[allow(clippy::too_many_lines)]
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table(t("members"))
                .col(pk_auto(t("id")))
                .col(string(t("username")))
                .col(string_uniq(t("username_key")))
                .col(string_null(t("email")))
                .col(string_null(t("email_key")).unique_key())
                .col(text_null(t("password_hash")))
                .col(string_null(t("google_sub")).unique_key())
                .col(big_integer(t("created_at")))
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table(t("sessions"))
                .col(string(t("token_hash")).primary_key())
                .col(integer(t("member_id")))
                .col(big_integer(t("created_at")))
                .col(big_integer(t("expires_at")))
                .to_owned(),
        )
        .await?;
        m.create_index(
            Index::create()
                .name("sessions_member")
                .table(t("sessions"))
                .col(t("member_id"))
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table(t("email_codes"))
                .col(pk_auto(t("id")))
                .col(string(t("purpose")))
                .col(string(t("email_key")))
                .col(integer_null(t("member_id")))
                .col(string(t("code_hash")))
                .col(integer(t("tries")))
                .col(big_integer(t("created_at")))
                .col(big_integer(t("expires_at")))
                .to_owned(),
        )
        .await?;
        // One live code per purpose and address: a new code replaces the old one.
        m.create_index(
            Index::create()
                .name("email_codes_purpose_email")
                .table(t("email_codes"))
                .col(t("purpose"))
                .col(t("email_key"))
                .unique()
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table(t("reset_tokens"))
                .col(string(t("token_hash")).primary_key())
                .col(integer(t("member_id")))
                .col(big_integer(t("expires_at")))
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table(t("invites"))
                .col(pk_auto(t("id")))
                .col(string_uniq(t("code_hash")))
                .col(string(t("code_hint")))
                .col(integer(t("max_uses")))
                .col(integer(t("uses")))
                .col(big_integer_null(t("expires_at")))
                .col(boolean(t("revoked")))
                .col(big_integer(t("created_at")))
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table(t("google_pending"))
                .col(string(t("token_hash")).primary_key())
                .col(string(t("google_sub")))
                .col(string_null(t("email")))
                .col(string_null(t("name")))
                .col(big_integer(t("expires_at")))
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table(t("oauth_states"))
                .col(string(t("state_hash")).primary_key())
                .col(text(t("pkce_verifier")))
                .col(string(t("lang")))
                .col(big_integer(t("expires_at")))
                .to_owned(),
        )
        .await?;
        m.create_table(rate_events()).await?;
        m.create_index(
            Index::create()
                .name("rate_events_key_at")
                .table(t("rate_events"))
                .col(t("key"))
                .col(t("at"))
                .to_owned(),
        )
        .await?;
        Ok(())
    }
}

/// Rate limits become one counter per key and window, counted by conditional updates
/// (src/rate_limit.rs); the event log they replace is dropped. Google sign-in is bound to the
/// browser that started it, and may wait for a password login to link an account. Sessions
/// remember when they were last used.
struct SecurityTables;

impl MigrationName for SecurityTables {
    fn name(&self) -> &str {
        "m20261201_000001_security"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for SecurityTables {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_table(Table::drop().table(t("rate_events")).to_owned()).await?;
        m.create_table(
            Table::create()
                .table(t("rate_limits"))
                .col(string(t("key")))
                .col(big_integer(t("window_seconds")))
                .col(big_integer(t("started_at")))
                .col(integer(t("hits")))
                .primary_key(Index::create().col(t("key")).col(t("window_seconds")))
                .to_owned(),
        )
        .await?;
        for (table, mut column) in [
            ("oauth_states", string_null(t("nonce_hash"))),
            ("google_pending", integer_null(t("link_member_id"))),
            ("sessions", big_integer_null(t("last_seen_at"))),
        ] {
            m.alter_table(Table::alter().table(t(table)).add_column(&mut column).to_owned())
                .await?;
        }
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        for (table, column) in [
            ("sessions", "last_seen_at"),
            ("google_pending", "link_member_id"),
            ("oauth_states", "nonce_hash"),
        ] {
            m.alter_table(Table::alter().table(t(table)).drop_column(t(column)).to_owned())
                .await?;
        }
        m.drop_table(Table::drop().table(t("rate_limits")).to_owned()).await?;
        m.create_table(rate_events()).await?;
        Ok(())
    }
}

/// Sessions remember the browser that started them (its `User-Agent`, cut to
/// `sessions::USER_AGENT_CHARS`), so the member page can tell a member's sessions apart.
/// Nullable: sessions started before, or by a client that sends none, have no device.
struct SessionDevices;

impl MigrationName for SessionDevices {
    fn name(&self) -> &str {
        "m20261205_000001_session_devices"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for SessionDevices {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table(t("sessions"))
                .add_column(string_null(t("user_agent")))
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table(t("sessions"))
                .drop_column(t("user_agent"))
                .to_owned(),
        )
        .await
    }
}
