//! The random secrets (codes, tokens) the API hands out, and how they are stored.

use crate::clock::Entropy;
use base64::Engine;
use sha2::{Digest, Sha256};

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
}
