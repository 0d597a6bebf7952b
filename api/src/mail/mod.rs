//! Outgoing mail: localised Tera templates with a plain-text and an HTML part, sent over SMTP
//! or written as `.eml` files to the outbox.

use crate::i18n::{t, Lang};
use lettre::message::{Mailbox, MultiPart};
use lettre::{AsyncFileTransport, AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use std::path::PathBuf;
use tera::{Context, Tera};

pub const CODE_MINUTES: i64 = 10;

/// The kinds of message the API sends.
pub enum Mail<'a> {
    RegisterCode { code: &'a str },
    AlreadyMember,
    ResetCode { code: &'a str },
    PasswordChanged,
    GoogleLinked,
}

impl Mail<'_> {
    fn key(&self) -> &'static str {
        match self {
            Mail::RegisterCode { .. } => "registerCode",
            Mail::AlreadyMember => "alreadyMember",
            Mail::ResetCode { .. } => "resetCode",
            Mail::PasswordChanged => "passwordChanged",
            Mail::GoogleLinked => "googleLinked",
        }
    }

    fn code(&self) -> Option<&str> {
        match self {
            Mail::RegisterCode { code } | Mail::ResetCode { code } => Some(code),
            _ => None,
        }
    }
}

/// A password or a sign-in code sent over a connection that may not be encrypted could be read
/// on the way: credentials, and any relay that is not on this machine, need `smtps://` or
/// `smtp://…?tls=required` (STARTTLS that cannot be skipped). A loopback relay stays allowed.
fn refuse_plain_smtp(url: &str) -> anyhow::Result<()> {
    let parsed = url::Url::parse(url).map_err(|e| anyhow::anyhow!("SMTP_URL is not a URL: {e}"))?;
    let has_credentials = !parsed.username().is_empty() || parsed.password().is_some();
    let tls_required = parsed.scheme() == "smtps" || parsed.query_pairs().any(|(k, v)| k == "tls" && v == "required");
    anyhow::ensure!(
        !has_credentials || tls_required,
        "SMTP_URL has a user name or password but no TLS: use smtps://… or smtp://…?tls=required"
    );
    anyhow::ensure!(
        tls_required || is_loopback(&parsed),
        "SMTP_URL sends mail in clear to a host that is not loopback: use smtps://… or smtp://…?tls=required"
    );
    Ok(())
}

/// `smtp` is not a scheme the URL standard knows, so its IPv4 hosts arrive as names.
fn is_loopback(url: &url::Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(name)) => {
            name.eq_ignore_ascii_case("localhost")
                || name.parse::<std::net::Ipv4Addr>().is_ok_and(|ip| ip.is_loopback())
        }
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

/// lettre writes each message here and it is then renamed into the outbox, so whoever reads the
/// outbox (the owner, the tests) never sees a message half written.
const STAGING: &str = ".incoming";

enum Transport {
    Smtp(AsyncSmtpTransport<Tokio1Executor>),
    Outbox(AsyncFileTransport<Tokio1Executor>, PathBuf),
}

pub struct Mailer {
    transport: Transport,
    from: Mailbox,
    site: String,
    layouts: Tera,
}

impl Mailer {
    pub fn new(smtp_url: Option<&str>, outbox: PathBuf, from: &str, site: &str) -> anyhow::Result<Mailer> {
        if let Some(url) = smtp_url {
            refuse_plain_smtp(url)?;
        }
        let transport = match smtp_url {
            Some(url) => Transport::Smtp(
                AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
                    .map_err(|e| anyhow::anyhow!("SMTP_URL is not usable: {e}"))?
                    .build(),
            ),
            None => {
                std::fs::create_dir_all(outbox.join(STAGING))?;
                Transport::Outbox(AsyncFileTransport::<Tokio1Executor>::new(outbox.join(STAGING)), outbox)
            }
        };
        let mut layouts = Tera::default();
        layouts.add_raw_templates([
            ("mail.txt", include_str!("mail.txt")),
            ("mail.html", include_str!("mail.html")),
        ])?;
        layouts.autoescape_on(vec![".html"]);
        Ok(Mailer {
            transport,
            from: from
                .parse()
                .map_err(|e| anyhow::anyhow!("MAIL_FROM is not an address: {e}"))?,
            site: site.to_string(),
            layouts,
        })
    }

    /// Where mail goes, for the start-up log.
    pub fn describe(&self) -> String {
        match &self.transport {
            Transport::Smtp(_) => "SMTP (SMTP_URL)".to_string(),
            Transport::Outbox(_, dir) => format!(".eml files in {}", dir.display()),
        }
    }

    pub fn render(&self, mail: &Mail, lang: Lang, username: &str) -> anyhow::Result<(String, String, String)> {
        let mut vars = Context::new();
        vars.insert("username", username);
        vars.insert("site", &self.site);
        vars.insert("minutes", &CODE_MINUTES);
        let text = |key: &str| -> anyhow::Result<String> { Ok(Tera::one_off(&t(lang, key), &vars, false)?) };
        let prefix = format!("email.{}", mail.key());
        let subject = text(&format!("{prefix}.subject"))?;
        let mut page = Context::new();
        page.insert("lang", lang.tag());
        page.insert("subject", &subject);
        page.insert("greeting", &text("email.greeting")?);
        page.insert("intro", &text(&format!("{prefix}.intro"))?);
        page.insert("code", &mail.code());
        page.insert("note", &text(&format!("{prefix}.note"))?);
        page.insert("signature", &text("email.signature")?);
        Ok((
            subject,
            self.layouts.render("mail.txt", &page)?,
            self.layouts.render("mail.html", &page)?,
        ))
    }

    /// Sends `mail`; a failure is also counted (`metrics`), for an alert to notice.
    pub async fn send(&self, to: &str, lang: Lang, username: &str, mail: Mail<'_>) -> anyhow::Result<()> {
        let kind = mail.key();
        let sent = self.deliver(to, lang, username, mail).await;
        if sent.is_err() {
            crate::metrics::mail_failed(kind);
        }
        sent
    }

    async fn deliver(&self, to: &str, lang: Lang, username: &str, mail: Mail<'_>) -> anyhow::Result<()> {
        let (subject, text, html) = self.render(&mail, lang, username)?;
        let message = Message::builder()
            .from(self.from.clone())
            .to(to.parse()?)
            .subject(subject)
            .multipart(MultiPart::alternative_plain_html(text, html))?;
        match &self.transport {
            Transport::Smtp(smtp) => {
                smtp.send(message).await?;
                tracing::info!(kind = mail.key(), "mail sent over SMTP");
            }
            Transport::Outbox(files, dir) => {
                let id = files.send(message).await?;
                // Named by when it was written, so names sort in sending order: modification
                // times tie for messages sent within one tick of the file system's clock.
                let path = dir.join(format!("{}-{id}.eml", chrono::Utc::now().format("%Y%m%dT%H%M%S%.9fZ")));
                tokio::fs::rename(dir.join(STAGING).join(format!("{id}.eml")), &path).await?;
                tracing::info!(kind = mail.key(), path = %path.display(), "mail written");
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A kind added but not listed here fails the test below: its texts are used by no kind.
    #[test]
    fn every_email_text_in_api_json_belongs_to_a_kind() {
        let kinds = [
            Mail::RegisterCode { code: "123456" },
            Mail::AlreadyMember,
            Mail::ResetCode { code: "123456" },
            Mail::PasswordChanged,
            Mail::GoogleLinked,
        ];
        let english: serde_json::Value = serde_json::from_str(include_str!("../../../locales/en/api.json")).unwrap();
        for (name, value) in english["email"].as_object().unwrap() {
            let used = if value.is_object() {
                kinds.iter().any(|mail| mail.key() == name)
            } else {
                ["greeting", "signature"].contains(&name.as_str())
            };
            assert!(used, "email.{name} in locales/en/api.json is used by no kind of mail");
        }
    }
}
