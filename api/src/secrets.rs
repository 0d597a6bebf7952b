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
}
