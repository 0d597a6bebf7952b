use api::cli::{Cli, Command};
use clap::Parser;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()))
        .with_writer(std::io::stderr)
        .init();
    match Cli::parse().command {
        Command::Serve(args) => {
            let settings = args.settings()?;
            let state = api::startup::build_state(settings).await?;
            api::startup::sweep_hourly(state.clone());
            let app = api::startup::build_app_with_state(state)?;
            let listener = tokio::net::TcpListener::bind(("127.0.0.1", args.port)).await?;
            tracing::info!("serving on http://127.0.0.1:{}", args.port);
            api::server::serve(listener, app).await?;
        }
        Command::Invite { command, storage } => api::cli::invite(&command, &storage, &mut std::io::stdout()).await?,
        Command::Members { command, storage } => api::cli::members(&command, &storage, &mut std::io::stdout()).await?,
    }
    Ok(())
}
