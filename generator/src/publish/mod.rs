//! `site publish`: `dist/` into an S3-compatible bucket (AWS S3, Cloudflare R2, Backblaze B2,
//! ...), each file with its content type, language and cache rule, sending only the files whose
//! bytes the bucket does not hold and deleting what `dist/` no longer has (docs/deploy.md,
//! "Pages from object storage or a CDN").

mod local;
pub mod settings;

use anyhow::{Context, Result};
use futures_util::{StreamExt, TryStreamExt};
use local::{local_files, LocalFile};
use object_store::aws::{AmazonS3, AmazonS3Builder};
use object_store::path::Path as Key;
use object_store::{Attribute, Attributes, BackoffConfig, ClientOptions, ObjectStore, PutOptions, RetryConfig};
pub use settings::PublishSettings;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::Duration;

/// Requests in flight at once.
const CONCURRENCY: usize = 8;

/// What a publish did, by path below `dist/`.
#[derive(Debug, Default)]
pub struct PublishReport {
    pub destination: String,
    pub uploaded: Vec<String>,
    pub deleted: Vec<String>,
    pub unchanged: usize,
}

impl PublishReport {
    pub fn summary(&self) -> String {
        format!(
            "Published dist/ to {}: {} uploaded, {} deleted, {} unchanged",
            self.destination,
            self.uploaded.len(),
            self.deleted.len(),
            self.unchanged
        )
    }
}

/// Publishes `dist`; with `all`, uploads every file (after a change of the headers' rules, which
/// the bytes' hash does not show).
pub fn publish(dist: &Path, settings: &PublishSettings, all: bool) -> Result<PublishReport> {
    let files = local_files(dist)?;
    let store = store(settings)?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(publish_files(&store, settings, files, all))
}

async fn publish_files(
    store: &AmazonS3,
    settings: &PublishSettings,
    files: Vec<LocalFile>,
    all: bool,
) -> Result<PublishReport> {
    let destination = settings.destination();
    let held = held_objects(store, settings).await?;
    let (changed, unchanged): (Vec<LocalFile>, Vec<LocalFile>) =
        (files.into_iter()).partition(|f| all || held.get(&f.path) != Some(&f.md5));
    let local: BTreeSet<String> = (changed.iter().chain(&unchanged)).map(|f| f.path.clone()).collect();
    // Assets before pages, deletions last: a page never names a file the bucket lacks yet, and
    // a page still cached somewhere finds the files it names until its replacement is out.
    let (pages, others): (Vec<LocalFile>, Vec<LocalFile>) = changed.into_iter().partition(LocalFile::is_page);
    let mut uploaded = upload(store, settings, others).await?;
    uploaded.extend(upload(store, settings, pages).await?);
    let gone: Vec<String> = held.into_keys().filter(|path| !local.contains(path)).collect();
    let deleted = delete(store, settings, gone).await?;
    Ok(PublishReport {
        destination,
        uploaded,
        deleted,
        unchanged: unchanged.len(),
    })
}

fn store(settings: &PublishSettings) -> Result<AmazonS3> {
    let retry = RetryConfig {
        backoff: BackoffConfig {
            init_backoff: Duration::from_millis(200),
            max_backoff: Duration::from_secs(5),
            base: 2.0,
        },
        max_retries: 3,
        retry_timeout: Duration::from_secs(30),
    };
    let client = ClientOptions::new()
        .with_connect_timeout(Duration::from_secs(5))
        .with_timeout(Duration::from_secs(60));
    let mut builder = AmazonS3Builder::new()
        .with_bucket_name(&settings.bucket)
        .with_region(&settings.region)
        .with_access_key_id(&settings.access_key_id)
        .with_secret_access_key(&settings.secret_access_key)
        // Object tags are not used, and some S3-compatible stores refuse them.
        .with_disable_tagging(true)
        .with_retry(retry)
        .with_client_options(client);
    if let Some(token) = &settings.session_token {
        builder = builder.with_token(token);
    }
    if let Some(endpoint) = &settings.endpoint {
        builder = builder
            .with_endpoint(endpoint)
            .with_allow_http(endpoint.starts_with("http://"));
    }
    builder
        .build()
        .with_context(|| format!("setting up {}", settings.destination()))
}

fn key(settings: &PublishSettings, path: &str) -> Key {
    match settings.prefix.as_str() {
        "" => Key::from(path),
        prefix => Key::from(format!("{prefix}/{path}")),
    }
}

/// The objects under the prefix: path below it to the MD5 its ETag names (an ETag that is no
/// MD5, from a multipart upload or KMS encryption, matches no file, which is then sent again).
async fn held_objects(store: &AmazonS3, settings: &PublishSettings) -> Result<BTreeMap<String, String>> {
    let prefix = (!settings.prefix.is_empty()).then(|| Key::from(settings.prefix.as_str()));
    let listing: Vec<_> = (store.list(prefix.as_ref()).try_collect().await).with_context(|| {
        let at = settings.endpoint.as_deref().unwrap_or("AWS S3");
        format!("listing {} at {at}", settings.destination())
    })?;
    let strip = if settings.prefix.is_empty() {
        String::new()
    } else {
        format!("{}/", settings.prefix)
    };
    Ok((listing.into_iter())
        .filter_map(|meta| {
            let path = meta.location.as_ref().strip_prefix(&strip)?.to_string();
            let etag = meta.e_tag.unwrap_or_default().trim_matches('"').to_ascii_lowercase();
            Some((path, etag))
        })
        .collect())
}

async fn upload(store: &AmazonS3, settings: &PublishSettings, files: Vec<LocalFile>) -> Result<Vec<String>> {
    futures_util::stream::iter(files)
        .map(|file| async move {
            let key = key(settings, &file.path);
            let mut attributes = Attributes::new();
            attributes.insert(Attribute::ContentType, file.content_type.into());
            attributes.insert(Attribute::CacheControl, file.cache_control.into());
            if let Some(language) = file.content_language {
                attributes.insert(Attribute::ContentLanguage, language.into());
            }
            let options = PutOptions {
                attributes,
                ..PutOptions::default()
            };
            (store.put_opts(&key, file.bytes.into(), options).await)
                .with_context(|| format!("uploading {key} to {}", settings.destination()))?;
            Ok(file.path)
        })
        .buffered(CONCURRENCY)
        .try_collect()
        .await
}

async fn delete(store: &AmazonS3, settings: &PublishSettings, paths: Vec<String>) -> Result<Vec<String>> {
    futures_util::stream::iter(paths)
        .map(|path| async move {
            let key = key(settings, &path);
            (store.delete(&key).await).with_context(|| format!("deleting {key} from {}", settings.destination()))?;
            Ok(path)
        })
        .buffered(CONCURRENCY)
        .try_collect()
        .await
}
