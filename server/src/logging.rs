//! The process's log: human-readable lines, or one JSON object per line for a log collector.

use crate::cli::LogFormat;
use tracing_subscriber::EnvFilter;

/// Logs to stderr at RUST_LOG's level (info by default).
pub fn init(format: LogFormat) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into());
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    match format {
        LogFormat::Text => builder.init(),
        // Fields flattened beside `message`, so a collector can index them without unpacking.
        LogFormat::Json => builder.json().flatten_event(true).with_current_span(false).init(),
    }
}
