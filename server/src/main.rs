//! The `api` binary: the command line of `cli`, `serve` composed by `startup`.

use clap::Parser;
use server::cli::{Cli, Command};
use std::time::Duration;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    server::logging::init(cli.log_format);
    match cli.command {
        Command::Serve(args) => serve(&args).await?,
        Command::Invite { command, storage } => server::cli::invite(&command, &storage, &mut std::io::stdout()).await?,
        Command::Backup { path, storage } => server::backup::backup(&path, &storage, &mut std::io::stdout()).await?,
        Command::Restore { path, storage } => server::backup::restore(&path, &storage, &mut std::io::stdout()).await?,
        Command::Members { command, storage } => {
            server::cli::members(&command, &storage, &mut std::io::stdout()).await?
        }
    }
    Ok(())
}

async fn serve(args: &server::cli::ServeArgs) -> anyhow::Result<()> {
    let site = args.site_options();
    let state = api::app::build_state(args.settings()?, server::startup::site_languages(&site)?).await?;
    api::app::sweep_hourly(state.clone());
    let app = server::startup::build_app_with_state(state, site)?;
    let listener = site_server::server::bind(args.listen_addr()).await?;
    tracing::info!("serving on http://{}", listener.local_addr()?);
    // `make dev`'s live-reload streams never end: no point waiting for them.
    let grace = if args.dev {
        Duration::ZERO
    } else {
        site_server::server::SHUTDOWN_GRACE
    };
    let limits = args.limits();
    site_server::server::serve(listener, app, site_server::server::shutdown_signal(), grace, limits).await?;
    tracing::info!("stopped");
    Ok(())
}
