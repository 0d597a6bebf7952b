//! The `api` binary and `serve`'s composition: the command line, backup and restore, the static
//! site beside the API, the listener's limits and log. The API's harness (`helpers`) is the one
//! of `api/tests/api/`; `process` runs the binary. `/metrics` is tested in a binary of its own
//! (`tests/metrics.rs`): its counts belong to the process.

#[macro_use]
#[path = "../../../api/tests/api/helpers/mod.rs"]
mod helpers;
mod process;

mod app;
mod backup;
mod cli;
mod load;
mod security_log;
mod serve;
