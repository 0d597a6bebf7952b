//! Values that cannot be invalid once parsed: handlers take these, never raw strings.

pub use crate::texts::Problem;

#[derive(Debug, Clone)]
pub struct Username(String);

impl Username {
    pub fn parse(raw: &str) -> Result<Self, Problem> {
        let len = raw.chars().count();
        if !(3..=32).contains(&len) || !raw.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
            return Err(Problem::UsernameRule);
        }
        Ok(Username(raw.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Usernames are unique regardless of case.
    pub fn key(&self) -> String {
        self.0.to_ascii_lowercase()
    }
}

#[derive(Debug, Clone)]
pub struct EmailAddress(String);

impl EmailAddress {
    pub fn parse(raw: &str) -> Result<Self, Problem> {
        let raw = raw.trim();
        let valid = raw.len() <= 254
            && !raw.chars().any(|c| c.is_whitespace() || c.is_control())
            && match raw.split_once('@') {
                Some((local, domain)) => {
                    !local.is_empty()
                        && local.len() <= 64
                        && !domain.contains('@')
                        && domain.contains('.')
                        && !domain.starts_with('.')
                        && !domain.ends_with('.')
                        && !domain.contains("..")
                        && domain.chars().all(|c| c.is_alphanumeric() || c == '.' || c == '-')
                        && lettre::Address::new(local, domain).is_ok()
                }
                None => false,
            };
        if valid {
            Ok(EmailAddress(raw.to_string()))
        } else {
            Err(Problem::EmailShape)
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Addresses are compared without case.
    pub fn key(&self) -> String {
        self.0.to_lowercase()
    }
}

pub struct Password(String);

/// Characters a new password needs at least (ASVS 4.0.3, 2.1.1). Login takes any password, so
/// members who chose a shorter one under the earlier rule of 8 still sign in.
pub const PASSWORD_MIN_CHARS: usize = 12;

impl Password {
    /// A new password (sign-up, reset).
    pub fn parse(raw: &str) -> Result<Self, Problem> {
        let len = raw.chars().count();
        if !(PASSWORD_MIN_CHARS..=128).contains(&len) {
            return Err(Problem::PasswordRule);
        }
        Ok(Password(raw.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A six-digit email code as typed (spaces around it forgiven).
pub struct EmailCode(String);

impl EmailCode {
    pub fn parse(raw: &str) -> Result<Self, Problem> {
        let raw = raw.trim();
        if raw.len() == 6 && raw.chars().all(|c| c.is_ascii_digit()) {
            Ok(EmailCode(raw.to_string()))
        } else {
            Err(Problem::CodeInvalid)
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// An invitation code as typed: case and surrounding spaces do not matter (`k7qf-m2xd-9pla `
/// is `K7QF-M2XD-9PLA`); nothing, or more than 64 characters, is no code at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InviteCode(String);

impl InviteCode {
    pub fn parse(raw: &str) -> Result<Self, Problem> {
        if raw.trim().is_empty() || raw.len() > 64 {
            return Err(Problem::InviteInvalid);
        }
        Ok(InviteCode(raw.trim().to_ascii_uppercase()))
    }

    /// A new code like `K7QF-M2XD-9PLA`: no 0/O or 1/I to misread.
    pub fn random(entropy: &dyn crate::clock::Entropy) -> Self {
        const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
        let mut bytes = [0u8; 12];
        entropy.fill(&mut bytes);
        let chars: Vec<char> = bytes
            .iter()
            .map(|b| ALPHABET[(*b as usize) % ALPHABET.len()] as char)
            .collect();
        let groups: Vec<String> = chars.chunks(4).map(|c| c.iter().collect()).collect();
        InviteCode(groups.join("-"))
    }

    /// The code in its one spelling (upper case, no spaces around it).
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames() {
        assert!(Username::parse("ab").is_err());
        assert!(Username::parse("abc").is_ok());
        assert!(Username::parse(&"a".repeat(32)).is_ok());
        assert!(Username::parse(&"a".repeat(33)).is_err());
        assert!(Username::parse("a b c").is_err());
        assert!(Username::parse("żółw").is_err());
        assert_eq!(Username::parse("Alice_-9").unwrap().key(), "alice_-9");
    }

    #[test]
    fn emails() {
        for good in ["a@b.co", "first.last+tag@example.com", " Alice@Example.org "] {
            assert!(EmailAddress::parse(good).is_ok(), "{good}");
        }
        for bad in ["", "a", "a@b", "a @b.co", "a@b..co", "@b.co", "a@@b.co", "a@.b.co"] {
            assert!(EmailAddress::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(
            EmailAddress::parse("Alice@Example.org").unwrap().key(),
            "alice@example.org"
        );
    }

    #[test]
    fn passwords() {
        assert!(Password::parse("12345678901").is_err());
        assert!(Password::parse("123456789012").is_ok());
        assert!(Password::parse(&"x".repeat(128)).is_ok());
        assert!(Password::parse(&"x".repeat(129)).is_err());
    }

    #[test]
    fn invite_codes() {
        let code = InviteCode::random(&crate::clock::OsEntropy);
        assert_eq!(code.as_str().len(), 14);
        assert_eq!(code.as_str().split('-').count(), 3);
        assert_eq!(
            InviteCode::parse(" k7qf-m2xd-9pla ").unwrap().as_str(),
            "K7QF-M2XD-9PLA"
        );
        assert_eq!(InviteCode::parse("  "), Err(Problem::InviteInvalid));
        assert_eq!(InviteCode::parse(&"A".repeat(65)), Err(Problem::InviteInvalid));
    }

    #[test]
    fn codes() {
        assert!(EmailCode::parse("012345").is_ok());
        assert!(EmailCode::parse("12345").is_err());
        assert!(EmailCode::parse("12345a").is_err());
    }
}
