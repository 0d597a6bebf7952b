use clap::{Parser, Subcommand};
use poem::listener::TcpListener;
use poem::Server;
use std::path::PathBuf;

#[derive(Parser)]
#[command(about = "The site's server and membership API")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve dist/ and /api on 127.0.0.1:PORT.
    Serve {
        #[arg(long, env = "PORT", default_value_t = 8080)]
        port: u16,
        #[arg(long, env = "DIST_DIR", default_value = "dist")]
        dist_dir: PathBuf,
        /// Live reload for `make dev`.
        #[arg(long)]
        dev: bool,
    },
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt().with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into())).init();
    match Cli::parse().command {
        Command::Serve { port, dist_dir, dev } => {
            let app = api::startup::build_app(api::startup::Settings { dist_dir, dev }).await?;
            tracing::info!("serving on http://127.0.0.1:{port}");
            Server::new(TcpListener::bind(("127.0.0.1", port))).run(app).await?;
        }
    }
    Ok(())
}
