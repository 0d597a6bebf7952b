use api::cli::{Cli, Command};
use clap::Parser;
use std::time::Duration;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    api::logging::init(cli.log_format);
    match cli.command {
        Command::Serve(args) => {
            let settings = args.settings()?;
            let state = api::startup::build_state(settings).await?;
            api::startup::sweep_hourly(state.clone());
            let app = api::startup::build_app_with_state(state)?;
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
        }
        Command::Invite { command, storage } => api::cli::invite(&command, &storage, &mut std::io::stdout()).await?,
        Command::Backup { path, storage } => api::backup::backup(&path, &storage, &mut std::io::stdout()).await?,
        Command::Restore { path, storage } => api::backup::restore(&path, &storage, &mut std::io::stdout()).await?,
        Command::Members { command, storage } => api::cli::members(&command, &storage, &mut std::io::stdout()).await?,
    }
    Ok(())
}
