//! The keys of locales/*/api.json that answers use, as types: a misspelt key does not compile,
//! and a test finds every key in every language.

use crate::i18n::{t, Lang};

/// One enum per group of api.json: each variant names one key of the group.
macro_rules! text_keys {
    ($(#[$meta:meta])* $name:ident in $group:literal { $($(#[$doc:meta])* $variant:ident = $key:literal,)* }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum $name {
            $($(#[$doc])* $variant,)*
        }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            /// The key in api.json ("errors.loginFailed").
            pub fn key(self) -> &'static str {
                match self {
                    $($name::$variant => concat!($group, ".", $key),)*
                }
            }

            pub fn text(self, lang: Lang) -> String {
                t(lang, self.key())
            }
        }

        /// The key, for logs and command-line errors.
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.key())
            }
        }
    };
}

text_keys! {
    /// What was wrong with a request, as the client is told it.
    Problem in "errors" {
        LoginFailed = "loginFailed",
        BadRequest = "badRequest",
        UnsupportedMediaType = "unsupportedMediaType",
        PayloadTooLarge = "payloadTooLarge",
        RequestTimeout = "requestTimeout",
        NotFound = "notFound",
        MethodNotAllowed = "methodNotAllowed",
        Unauthorized = "unauthorized",
        ForbiddenOrigin = "forbiddenOrigin",
        /// Holds `{seconds}`.
        TooManyRequests = "tooManyRequests",
        Internal = "internal",
        DatabaseUnavailable = "databaseUnavailable",
        MailFailed = "mailFailed",
        Busy = "busy",
        UsernameRule = "usernameRule",
        PasswordRule = "passwordRule",
        EmailShape = "emailShape",
        CodeInvalid = "codeInvalid",
        InviteInvalid = "inviteInvalid",
        UsernameTaken = "usernameTaken",
        EmailTaken = "emailTaken",
        TokenInvalid = "tokenInvalid",
        InviteTokenInvalid = "inviteTokenInvalid",
        SessionNotFound = "sessionNotFound",
    }
}

text_keys! {
    /// What a successful request tells the client.
    Notice in "messages" {
        CodeSent = "codeSent",
        ResetCodeSent = "resetCodeSent",
        Registered = "registered",
        CodeVerified = "codeVerified",
        PasswordReset = "passwordReset",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;
    use std::collections::BTreeSet;
    use std::path::PathBuf;

    /// Every locales/<lang>/api.json, read from disk so a language added there is checked too.
    fn catalogs() -> Vec<(String, Value)> {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../locales");
        let mut found: Vec<(String, Value)> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|entry| entry.unwrap().path().join("api.json"))
            .filter(|path| path.exists())
            .map(|path| {
                let lang = path
                    .parent()
                    .unwrap()
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .to_string();
                let text = std::fs::read_to_string(&path).unwrap();
                (lang, serde_json::from_str(&text).unwrap())
            })
            .collect();
        found.sort_by(|a, b| a.0.cmp(&b.0));
        found
    }

    fn lookup<'a>(root: &'a Value, key: &str) -> Option<&'a str> {
        key.split('.').try_fold(root, |node, part| node.get(part))?.as_str()
    }

    fn used_keys() -> Vec<&'static str> {
        let problems = Problem::ALL.iter().map(|p| p.key());
        problems.chain(Notice::ALL.iter().map(|n| n.key())).collect()
    }

    #[test]
    fn every_key_is_in_every_language() {
        let catalogs = catalogs();
        let langs: Vec<&str> = catalogs.iter().map(|(lang, _)| lang.as_str()).collect();
        assert!(langs.contains(&"en") && langs.len() >= 3, "{langs:?}");
        for key in used_keys() {
            for (lang, root) in &catalogs {
                let text = lookup(root, key);
                assert!(
                    text.is_some_and(|s| !s.trim().is_empty()),
                    "{key} is missing from locales/{lang}/api.json"
                );
            }
        }
    }

    #[test]
    fn every_error_and_message_in_the_files_has_a_variant() {
        let used: BTreeSet<&str> = used_keys().into_iter().collect();
        for (lang, root) in catalogs() {
            for group in ["errors", "messages"] {
                let keys = root[group].as_object().unwrap().keys();
                let unused: Vec<String> = keys
                    .map(|k| format!("{group}.{k}"))
                    .filter(|k| !used.contains(k.as_str()))
                    .collect();
                assert!(
                    unused.is_empty(),
                    "locales/{lang}/api.json has keys no variant uses: {unused:?}"
                );
            }
        }
    }

    /// The repository's default language, English.
    fn english() -> Lang {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
        let languages = crate::i18n::Languages::from_sources(&root).expect("the repository's site");
        languages.default_language()
    }

    #[test]
    fn variants_read_their_own_text() {
        assert_eq!(
            Problem::LoginFailed.text(english()),
            "Login failed, please check username and password"
        );
        assert_eq!(
            Notice::Registered.text(english()),
            "Registration successful. You can now log in."
        );
        // A key of its own for every variant: two variants never share a text by mistake.
        let keys: BTreeSet<&str> = used_keys().into_iter().collect();
        assert_eq!(keys.len(), Problem::ALL.len() + Notice::ALL.len());
    }
}
