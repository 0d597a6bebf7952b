//! Migrations at start: two instances starting together on an empty database both come up,
//! and the schema is applied once.

mod common;
use common::Backend;
use sea_orm::{ConnectionTrait, Statement};
use sea_orm_migration::MigratorTrait;

on_both_databases! {
    async fn instances_starting_together_apply_the_schema_once(backend: Backend) {
        for _ in 0..3 {
            let dir = tempfile::tempdir().unwrap();
            let url = common::fresh_database(backend, dir.path()).await;
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
