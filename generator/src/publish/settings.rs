//! Where `site publish` sends `dist/`: the bucket and its credentials, from the environment
//! (docs/deploy.md, "Pages from object storage or a CDN").

use anyhow::{anyhow, Result};

/// The settings, by the names an operator sets.
pub const BUCKET: &str = "PUBLISH_BUCKET";
pub const ENDPOINT: &str = "PUBLISH_ENDPOINT";
pub const REGION: &str = "PUBLISH_REGION";
pub const PREFIX: &str = "PUBLISH_PREFIX";
pub const ACCESS_KEY_ID: &str = "AWS_ACCESS_KEY_ID";
pub const SECRET_ACCESS_KEY: &str = "AWS_SECRET_ACCESS_KEY";
pub const SESSION_TOKEN: &str = "AWS_SESSION_TOKEN";

/// An S3-compatible bucket to publish into.
#[derive(Debug, Clone)]
pub struct PublishSettings {
    pub bucket: String,
    /// The storage's URL (`https://ACCOUNT.r2.cloudflarestorage.com`); AWS S3 when absent.
    pub endpoint: Option<String>,
    pub region: String,
    /// A folder of the bucket the site goes into (`site/`), or the whole bucket when empty.
    pub prefix: String,
    pub access_key_id: String,
    pub secret_access_key: String,
    pub session_token: Option<String>,
}

impl PublishSettings {
    /// The settings from the environment; an error names the first one missing.
    pub fn from_env() -> Result<Self> {
        Self::from_lookup(|name| std::env::var(name).ok())
    }

    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self> {
        let var = |name: &str| lookup(name).map(|v| v.trim().to_string()).filter(|v| !v.is_empty());
        let required = |name: &str, what: &str| {
            var(name).ok_or_else(|| {
                anyhow!("{name} is not set: {what} (docs/deploy.md, \"Pages from object storage or a CDN\")")
            })
        };
        let bucket = required(BUCKET, "the bucket to publish dist/ into")?;
        let access_key_id = required(ACCESS_KEY_ID, "the key id of a key that may write the bucket")?;
        let secret_access_key = required(SECRET_ACCESS_KEY, "the secret of that key")?;
        let endpoint = var(ENDPOINT);
        if let Some(endpoint) = &endpoint {
            if !endpoint.starts_with("https://") && !endpoint.starts_with("http://") {
                return Err(anyhow!("{ENDPOINT} {endpoint:?} is not an http:// or https:// URL"));
            }
        }
        Ok(Self {
            bucket,
            endpoint,
            region: var(REGION).unwrap_or_else(|| "us-east-1".into()),
            prefix: var(PREFIX).unwrap_or_default().trim_matches('/').to_string(),
            access_key_id,
            secret_access_key,
            session_token: var(SESSION_TOKEN),
        })
    }

    /// `s3://bucket/prefix`, as messages name the destination.
    pub fn destination(&self) -> String {
        match self.prefix.as_str() {
            "" => format!("s3://{}", self.bucket),
            prefix => format!("s3://{}/{prefix}", self.bucket),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(vars: &[(&str, &str)]) -> Result<PublishSettings> {
        PublishSettings::from_lookup(|name| vars.iter().find(|(n, _)| *n == name).map(|(_, v)| v.to_string()))
    }

    #[test]
    fn a_missing_setting_is_named() {
        let err = settings(&[(ACCESS_KEY_ID, "k"), (SECRET_ACCESS_KEY, "s")]).unwrap_err();
        assert!(err.to_string().starts_with("PUBLISH_BUCKET is not set"), "{err}");
        let err = settings(&[(BUCKET, "b"), (ACCESS_KEY_ID, "k"), (SECRET_ACCESS_KEY, " ")]).unwrap_err();
        assert!(err.to_string().starts_with("AWS_SECRET_ACCESS_KEY is not set"), "{err}");
        let err = settings(&[
            (BUCKET, "b"),
            (ACCESS_KEY_ID, "k"),
            (SECRET_ACCESS_KEY, "s"),
            (ENDPOINT, "localhost:9000"),
        ])
        .unwrap_err();
        assert!(err.to_string().contains("PUBLISH_ENDPOINT"), "{err}");
    }

    #[test]
    fn the_prefix_is_a_folder_without_slashes() {
        let s = settings(&[
            (BUCKET, "b"),
            (ACCESS_KEY_ID, "k"),
            (SECRET_ACCESS_KEY, "s"),
            (PREFIX, "/site/"),
        ])
        .unwrap();
        assert_eq!((s.prefix.as_str(), s.region.as_str()), ("site", "us-east-1"));
        assert_eq!(s.destination(), "s3://b/site");
    }
}
