//! Password hashing and the random secrets (codes, tokens) the API hands out.

use crate::clock::Entropy;
use argon2::password_hash::{rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use base64::Engine;
use sha2::{Digest, Sha256};
use std::sync::OnceLock;

/// OWASP's recommended argon2id parameters: 19 MiB of memory, 2 passes, 1 lane.
fn argon2() -> Argon2<'static> {
    Argon2::new(
        Algorithm::Argon2id,
        Version::V0x13,
        Params::new(19_456, 2, 1, None).expect("valid argon2 parameters"),
    )
}

/// Hashes on a blocking thread: argon2 is meant to be slow.
pub async fn hash_password(password: String) -> anyhow::Result<String> {
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut OsRng);
        argon2()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| anyhow::anyhow!("{e}"))
    })
    .await?
}

/// Checks a password against a stored hash; with no hash it still does the work of one check,
/// so an unknown username takes as long as a wrong password.
pub async fn verify_password(password: String, stored: Option<String>) -> bool {
    tokio::task::spawn_blocking(move || {
        let (hash, real) = match stored {
            Some(hash) => (hash, true),
            None => (dummy_hash().to_string(), false),
        };
        let Ok(parsed) = PasswordHash::new(&hash) else {
            return false;
        };
        argon2().verify_password(password.as_bytes(), &parsed).is_ok() && real
    })
    .await
    .unwrap_or(false)
}

fn dummy_hash() -> &'static str {
    static DUMMY: OnceLock<String> = OnceLock::new();
    DUMMY.get_or_init(|| {
        let salt = SaltString::generate(&mut OsRng);
        argon2()
            .hash_password(b"not a real password", &salt)
            .expect("argon2 hashes")
            .to_string()
    })
}

/// What is stored in place of a code or token: its SHA-256, hex.
pub fn digest(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

/// 256 random bits, URL-safe base64: session ids and reset, invite and state tokens.
pub fn random_token(entropy: &dyn Entropy) -> String {
    let mut bytes = [0u8; 32];
    entropy.fill(&mut bytes);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// Six uniformly random digits.
pub fn random_code(entropy: &dyn Entropy) -> String {
    // Rejection sampling: values at or above the largest multiple of 10^6 would bias the result.
    const LIMIT: u32 = u32::MAX - (u32::MAX % 1_000_000);
    loop {
        let mut bytes = [0u8; 4];
        entropy.fill(&mut bytes);
        let n = u32::from_le_bytes(bytes);
        if n < LIMIT {
            return format!("{:06}", n % 1_000_000);
        }
    }
}

/// An invitation code like `K7QF-M2XD-9PLA`: no 0/O or 1/I to misread.
pub fn random_invite_code(entropy: &dyn Entropy) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut bytes = [0u8; 12];
    entropy.fill(&mut bytes);
    let chars: Vec<char> = bytes
        .iter()
        .map(|b| ALPHABET[(*b as usize) % ALPHABET.len()] as char)
        .collect();
    chars
        .chunks(4)
        .map(|c| c.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("-")
}

/// Invitation codes as typed: case and surrounding spaces do not matter.
pub fn normalize_invite_code(raw: &str) -> String {
    raw.trim().to_ascii_uppercase()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::OsEntropy;

    #[test]
    fn codes_are_six_digits() {
        for _ in 0..100 {
            let code = random_code(&OsEntropy);
            assert_eq!(code.len(), 6);
            assert!(code.chars().all(|c| c.is_ascii_digit()));
        }
    }

    #[test]
    fn invite_codes_have_three_groups() {
        let code = random_invite_code(&OsEntropy);
        assert_eq!(code.len(), 14);
        assert_eq!(code.split('-').count(), 3);
    }

    #[tokio::test]
    async fn passwords_verify() {
        let hash = hash_password("correct horse".into()).await.unwrap();
        assert!(hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
        assert!(verify_password("correct horse".into(), Some(hash.clone())).await);
        assert!(!verify_password("wrong horse".into(), Some(hash)).await);
        assert!(!verify_password("not a real password".into(), None).await);
    }
}
