//! The schema, as migrations run at start (see `db::connect`, which serialises instances).
//!
//! Versioned and forward-only: a change to the schema is a new migration appended to
//! `Migrator::migrations` with a later name; an applied migration is never edited, and there is
//! no way down (an upgrade is undone by restoring a backup, docs/deploy.md). A binary older than
//! the database refuses to start, since it does not know a migration that was applied.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![Box::new(CreateTables)]
    }
}

struct CreateTables;

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
        m.create_table(
            Table::create()
                .table(t("rate_events"))
                .col(pk_auto(t("id")))
                .col(string(t("key")))
                .col(big_integer(t("at")))
                .to_owned(),
        )
        .await?;
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
