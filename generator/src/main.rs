use clap::{Parser, Subcommand};
use generator::BuildOptions;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(about = "Builds the site: content/ + locales/ + templates -> dist/")]
struct Cli {
    /// The site's folder (site-config.yaml, content/, locales/, static/).
    #[arg(long, global = true, default_value = ".")]
    root: PathBuf,
    /// Where pages go [default: <root>/dist].
    #[arg(long, global = true)]
    out: Option<PathBuf>,
    /// The Tera templates [default: <root>/generator/templates].
    #[arg(long, global = true)]
    templates: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Build every page in every language into dist/.
    Build {
        /// Add the live-reload script that `make dev` uses.
        #[arg(long)]
        dev: bool,
        /// Include the pages with `draft: true` (`--dev` always does).
        #[arg(long)]
        drafts: bool,
        /// Include the pages whose `date:` is after today (`--dev` always does).
        #[arg(long)]
        future: bool,
    },
    /// Check everything a build checks (front matter, Markdown, math, links, templates, islands)
    /// without writing anything.
    Check {
        /// Also print where each page's translation into each language stands: current, stale
        /// (the English page changed since), missing (no `translated_from:`) or fallback (no
        /// file); then the files left out as drafts or scheduled.
        #[arg(long)]
        translations: bool,
    },
    /// Create a page in every language (content/<PAGE>.<lang>.md), front matter filled in.
    New {
        /// The page's route, such as notes/my-topic.
        page: String,
    },
    /// Record that a page's translation matches its English page as it is now (its
    /// `translated_from:`), after bringing the translation up to date.
    Translated {
        /// The page's route, such as notes/my-topic (`/` for the home page).
        page: String,
        /// The translation's language [default: every translation the page has].
        #[arg(long)]
        lang: Option<String>,
    },
    /// Upload dist/ to an S3-compatible bucket: only the files the bucket does not hold, each
    /// with its content type and cache rule; files gone from dist/ are deleted there. Settings
    /// from the environment: PUBLISH_BUCKET, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, and
    /// optionally PUBLISH_ENDPOINT, PUBLISH_REGION, PUBLISH_PREFIX, AWS_SESSION_TOKEN.
    Publish {
        /// Upload every file, also those the bucket holds (after the cache rules changed).
        #[arg(long)]
        all: bool,
    },
    /// Build, then rebuild on every change.
    Watch {
        #[arg(long)]
        dev: bool,
    },
}

/// `.` becomes the empty path, so messages name `content/x.en.md` rather than `./content/x.en.md`.
fn root(cli: &Cli) -> PathBuf {
    if cli.root == std::path::Path::new(".") {
        PathBuf::new()
    } else {
        cli.root.clone()
    }
}

fn options(cli: &Cli, dev: bool) -> BuildOptions {
    let mut options = BuildOptions::for_root(&root(cli));
    if let Some(out) = &cli.out {
        options.out = out.clone();
    }
    if let Some(templates) = &cli.templates {
        options.templates = templates.clone();
    }
    options.dev = dev;
    options
}

fn run(cli: &Cli) -> anyhow::Result<()> {
    match &cli.command {
        Command::Build { dev, drafts, future } => {
            let mut options = options(cli, *dev);
            (options.drafts, options.future) = (*drafts, *future);
            let report = generator::build(&options)?;
            for warning in &report.warnings {
                eprintln!("warning: {warning}");
            }
            println!("{}", report.summary());
        }
        Command::Check { translations } => {
            let report = generator::check(&options(cli, false))?;
            for warning in &report.warnings {
                eprintln!("warning: {warning}");
            }
            if *translations {
                print!("{}", report.translations_table());
            }
            println!("{}", report.summary());
        }
        Command::Translated { page, lang } => {
            for (file, hash) in generator::translations::record(&root(cli), page, lang.as_deref())? {
                println!("{}: translated_from: {hash}", file.display());
            }
        }
        Command::Publish { all } => {
            let options = options(cli, false);
            let settings = generator::publish::PublishSettings::from_env()?;
            let report = generator::publish::publish(&options.out, &settings, *all)?;
            for path in &report.uploaded {
                println!("uploaded {path}");
            }
            for path in &report.deleted {
                println!("deleted {path}");
            }
            println!("{}", report.summary());
        }
        Command::Watch { dev } => generator::watch(options(cli, *dev))?,
        Command::New { page } => {
            for file in generator::new_page(&root(cli), page, &generator::today())? {
                println!("{}", file.display());
            }
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("Error: {}", generator::describe_error(&e));
            ExitCode::FAILURE
        }
    }
}
