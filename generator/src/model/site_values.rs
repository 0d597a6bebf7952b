//! Site settings written into page text: `{{operator.email}}` in a page's Markdown is the
//! `operator.email` of `site-config.yaml`, so a contact detail is set once for every page and
//! language, and `site build` can tell while it is still a placeholder.

use crate::model::config::{Operator, SiteConfig};
use crate::model::markdown::MarkdownError;
use std::borrow::Cow;

const OPEN: &str = "{{";
const CLOSE: &str = "}}";

/// `body` with every `{{operator.FIELD}}` replaced, or the first unknown one at its body line.
pub fn fill<'a>(body: &'a str, config: &SiteConfig) -> Result<Cow<'a, str>, MarkdownError> {
    if !body.contains(OPEN) {
        return Ok(Cow::Borrowed(body));
    }
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    while let Some(start) = rest.find(OPEN) {
        let Some(len) = rest[start..].find(CLOSE) else { break };
        let name = rest[start + OPEN.len()..start + len].trim();
        // Only names under `operator.` are ours: other doubled braces (LaTeX's `{{,}}`) stay text.
        let Some(field) = name.strip_prefix("operator.") else {
            out.push_str(&rest[..start + OPEN.len()]);
            rest = &rest[start + OPEN.len()..];
            continue;
        };
        let line = body[..body.len() - rest.len() + start].matches('\n').count() + 1;
        let value =
            operator_field(config.operator.as_ref(), field).map_err(|message| MarkdownError { line, message })?;
        out.push_str(&rest[..start]);
        out.push_str(value);
        rest = &rest[start + len + CLOSE.len()..];
    }
    out.push_str(rest);
    Ok(Cow::Owned(out))
}

fn operator_field<'c>(operator: Option<&'c Operator>, field: &str) -> Result<&'c str, String> {
    let operator =
        operator.ok_or_else(|| format!("`{{{{operator.{field}}}}}` needs `operator:` in site-config.yaml"))?;
    match field {
        "name" => Ok(&operator.name),
        "email" => Ok(&operator.email),
        "postal_address" => Ok(&operator.postal_address),
        _ => Err(format!(
            "`{{{{operator.{field}}}}}` is not a setting (operator has name, email and postal_address)"
        )),
    }
}

/// Domains reserved for examples and tests (RFC 2606, RFC 6761): mail to them never arrives.
const RESERVED: [&str; 7] = [
    "example",
    "test",
    "invalid",
    "localhost",
    "example.com",
    "example.net",
    "example.org",
];

/// A warning for each operator setting that is still a placeholder: an email address at a
/// reserved domain, or an empty or `[bracketed]` value.
pub fn placeholder_warnings(config: &SiteConfig) -> Vec<String> {
    let Some(operator) = &config.operator else {
        return Vec::new();
    };
    let unset = |value: &str| {
        let value = value.trim();
        value.is_empty() || (value.starts_with('[') && value.ends_with(']'))
    };
    let domain = operator
        .email
        .rsplit_once('@')
        .map_or("", |(_, d)| d)
        .to_ascii_lowercase();
    let reserved = RESERVED
        .iter()
        .any(|r| domain == *r || domain.ends_with(&format!(".{r}")));
    let mut warnings = Vec::new();
    if unset(&operator.email) || reserved || !operator.email.contains('@') {
        warnings.push(format!(
            "site-config.yaml: operator.email `{}` is a placeholder that can never receive mail; the legal pages show it until it is set",
            operator.email
        ));
    }
    for (key, value) in [("name", &operator.name), ("postal_address", &operator.postal_address)] {
        if unset(value) {
            warnings.push(format!(
                "site-config.yaml: operator.{key} `{value}` is a placeholder; the legal pages show it until it is set"
            ));
        }
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(email: &str, postal_address: &str) -> SiteConfig {
        let mut config: SiteConfig = serde_yaml::from_str(include_str!("../../../site-config.yaml")).unwrap();
        config.operator = Some(Operator {
            name: "Ming Lin".into(),
            email: email.into(),
            postal_address: postal_address.into(),
        });
        config
    }

    #[test]
    fn fills_operator_settings_and_leaves_other_braces() {
        let c = config("help@climbersdeal.tw", "No. 1, Section 1, Road, Taipei");
        let text =
            "Write to **{{operator.email}}** or {{ operator.name }}, {{operator.postal_address}}.\n$3{,}060$ and {{x}}";
        assert_eq!(
            fill(text, &c).unwrap(),
            "Write to **help@climbersdeal.tw** or Ming Lin, No. 1, Section 1, Road, Taipei.\n$3{,}060$ and {{x}}"
        );
    }

    #[test]
    fn an_unknown_setting_is_an_error_at_its_line() {
        let c = config("help@climbersdeal.tw", "Taipei");
        let error = fill("one\ntwo {{operator.phone}}", &c).unwrap_err();
        assert_eq!(error.line, 2);
        assert!(error.message.contains("operator.phone"), "{}", error.message);
        let mut none = c.clone();
        none.operator = None;
        assert!(fill("{{operator.email}}", &none)
            .unwrap_err()
            .message
            .contains("needs `operator:`"));
    }

    #[test]
    fn placeholders_are_warned_about_and_real_settings_are_not() {
        assert!(placeholder_warnings(&config("help@climbersdeal.tw", "No. 1, Taipei")).is_empty());
        for email in [
            "support@climbersdeal.example",
            "a@example.com",
            "a@mail.example.org",
            "a@x.test",
            "nobody",
        ] {
            let warnings = placeholder_warnings(&config(email, "No. 1, Taipei"));
            assert_eq!(warnings.len(), 1, "{email}: {warnings:?}");
            assert!(warnings[0].contains("operator.email"));
        }
        // A domain that merely ends in the same letters is real.
        assert!(placeholder_warnings(&config("a@myexample.com", "No. 1, Taipei")).is_empty());
        let warnings = placeholder_warnings(&config("help@climbersdeal.tw", "[postal address]"));
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].contains("operator.postal_address"));
    }
}
