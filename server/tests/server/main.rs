//! The `api` binary and `serve`'s composition: the command line, backup and restore, the static
//! site beside the API, the listener's limits and log. The API's harness (`helpers`) is the one
//! of `api/tests/api/`; `process` runs the binary; `site_fixture` is the generator's fixture site
//! (`generator/tests/common/`), which a test builds and serves. `/metrics` is tested in a binary
//! of its own (`tests/metrics.rs`): its counts belong to the process.

#[macro_use]
#[path = "../../../api/tests/api/helpers/mod.rs"]
mod helpers;
mod process;
#[path = "../../../generator/tests/common/mod.rs"]
mod site_fixture;

mod app;
mod backup;
mod cli;
mod load;
mod security_log;
mod serve;
