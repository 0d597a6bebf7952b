//! The membership API's tests, one binary (each module a flow or a rule): the API alone, mounted
//! under `/api` on a fresh database per test, on SQLite and on PostgreSQL (`helpers`). What
//! needs the whole `api` binary or the static site beside the API is in `server/tests/`.

#[macro_use]
mod helpers;

mod api_rules;
mod clients;
mod fairness;
mod feed;
mod google;
mod health;
mod login;
mod migrations;
mod register;
mod reset;
mod sessions;
mod smtp;
