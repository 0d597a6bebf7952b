//! Migrations at start: two instances starting together on an empty database both come up,
//! and the schema is applied once.

use crate::helpers::Backend;
use sea_orm::{ConnectionTrait, Statement};
use sea_orm_migration::MigratorTrait;

on_both_databases! {
    async fn instances_starting_together_apply_the_schema_once(backend: Backend) {
        for _ in 0..3 {
            let dir = tempfile::tempdir().unwrap();
            let url = crate::helpers::fresh_database(backend, dir.path()).await;
            let (first, second) = tokio::join!(api::db::connect(&url), api::db::connect(&url));
            let (first, second) = (first.expect("first instance"), second.expect("second instance"));
            let applied = first
                .query_all(Statement::from_string(
                    first.get_database_backend(),
                    "SELECT version FROM seaql_migrations",
                ))
                .await
                .unwrap();
            assert_eq!(applied.len(), api::db::migration::Migrator::migrations().len());
            // Both see the same schema.
            for db in [&first, &second] {
                db.execute_unprepared("SELECT count(*) FROM members").await.unwrap();
            }
        }
    }
}

on_both_databases! {
    async fn the_previous_release_runs_on_a_schema_a_newer_one_migrated(backend: Backend) {
        let dir = tempfile::tempdir().unwrap();
        let url = crate::helpers::fresh_database(backend, dir.path()).await;
        let db = api::db::connect(&url).await.unwrap();
        // What the next release's start leaves: one more migration, applied, that only adds.
        db.execute_unprepared("CREATE TABLE next_release_notes (id INTEGER PRIMARY KEY)").await.unwrap();
        db.execute_unprepared(
            "INSERT INTO seaql_migrations (version, applied_at) VALUES ('m20991231_000001_next_release', 0)",
        )
        .await
        .unwrap();
        db.close().await.unwrap();

        // This release (the one rolled back to) starts on it, leaves it as it is, and works.
        let db = api::db::connect(&url).await.expect("the previous release starts");
        let versions = db
            .query_all(Statement::from_string(db.get_database_backend(), "SELECT version FROM seaql_migrations"))
            .await
            .unwrap();
        assert_eq!(versions.len(), api::db::migration::Migrator::migrations().len() + 1);
        db.execute_unprepared("SELECT count(*) FROM members").await.unwrap();
        db.execute_unprepared("SELECT count(*) FROM next_release_notes").await.unwrap();

        // A database that also lacks one of this release's migrations is not one it leads to.
        let first = api::db::migration::Migrator::migrations()[1].name().to_string();
        db.execute_unprepared(&format!("DELETE FROM seaql_migrations WHERE version = '{first}'")).await.unwrap();
        db.close().await.unwrap();
        let refused = api::db::connect(&url).await.expect_err("refused");
        assert!(format!("{refused:#}").contains("lacks some it does"), "{refused:#}");
    }
}
