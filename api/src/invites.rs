//! Invitation codes: made by the owner on the command line, used up by sign-ups.
//!
//! A code is stored as its HMAC-SHA-256 under a key kept outside the database (INVITE_KEY, or
//! a key made once in DATA_DIR/invite.key), so a copy of the database alone cannot be searched
//! for codes, hint or not.

use crate::clock::{Clock, Entropy};
use crate::db::entities::invite;
use crate::domain::InviteCode;
use crate::secrets::digest;
use hmac::{Hmac, Mac};
use sea_orm::sea_query::{Condition, Expr};
use sea_orm::{ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QueryOrder, Set};
use std::path::Path;

/// The key invitation codes are stored under.
#[derive(Clone)]
pub struct InviteKey(Vec<u8>);

/// The file the key is made in when INVITE_KEY is not given.
pub const KEY_FILE: &str = "invite.key";

impl InviteKey {
    /// INVITE_KEY when given (at least 32 characters), else DATA_DIR/invite.key, made on first use.
    /// Servers that share one database must share the key too.
    pub fn load(data_dir: &Path, given: Option<&str>) -> anyhow::Result<InviteKey> {
        if let Some(given) = given.filter(|k| !k.is_empty()) {
            anyhow::ensure!(given.len() >= 32, "INVITE_KEY must be at least 32 characters long");
            return Ok(InviteKey(given.as_bytes().to_vec()));
        }
        let path = data_dir.join(KEY_FILE);
        if !path.exists() {
            std::fs::create_dir_all(data_dir)?;
            let mut bytes = [0u8; 32];
            crate::clock::OsEntropy.fill(&mut bytes);
            write_new_secret(&path, hex::encode(bytes).as_bytes())?;
        }
        let text = std::fs::read_to_string(&path)
            .map_err(|e| anyhow::anyhow!("cannot read the invitation key {}: {e}", path.display()))?;
        let key = text.trim();
        anyhow::ensure!(
            key.len() >= 32,
            "{} holds no key: delete it to make a new one",
            path.display()
        );
        Ok(InviteKey(key.as_bytes().to_vec()))
    }

    /// What is stored for `code`.
    fn hash(&self, code: &InviteCode) -> String {
        let mut mac = Hmac::<sha2::Sha256>::new_from_slice(&self.0).expect("HMAC takes any key");
        mac.update(code.as_str().as_bytes());
        hex::encode(mac.finalize().into_bytes())
    }

    /// A MAC of `message` under this key for another use (`context` keeps uses apart), hex.
    pub fn sign(&self, context: &str, message: &str) -> String {
        let mut mac = Hmac::<sha2::Sha256>::new_from_slice(&self.0).expect("HMAC takes any key");
        mac.update(context.as_bytes());
        mac.update(b"\n");
        mac.update(message.as_bytes());
        hex::encode(mac.finalize().into_bytes())
    }

    /// Whether `signature` is `sign(context, message)`, compared in constant time.
    pub fn verify(&self, context: &str, message: &str, signature: &str) -> bool {
        let Ok(bytes) = hex::decode(signature) else {
            return false;
        };
        let mut mac = Hmac::<sha2::Sha256>::new_from_slice(&self.0).expect("HMAC takes any key");
        mac.update(context.as_bytes());
        mac.update(b"\n");
        mac.update(message.as_bytes());
        mac.verify_slice(&bytes).is_ok()
    }

    /// What may be stored for `code`: its HMAC, or the bare SHA-256 of codes made before the key.
    fn stored_forms(&self, code: &InviteCode) -> [String; 2] {
        [self.hash(code), digest(code.as_str())]
    }
}

/// Writes a file only its owner can read; never replaces one a concurrent start wrote first.
fn write_new_secret(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(mut file) => file.write_all(bytes),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(e),
    }
}

/// Makes an invitation and returns its code (shown once: only its keyed hash is kept).
pub async fn create(
    db: &impl ConnectionTrait,
    clock: &dyn Clock,
    entropy: &dyn Entropy,
    key: &InviteKey,
    uses: u32,
    expires_days: Option<u32>,
) -> Result<String, DbErr> {
    let code = InviteCode::random(entropy);
    let now = clock.now();
    invite::Entity::insert(invite::ActiveModel {
        code_hash: Set(key.hash(&code)),
        code_hint: Set(code.as_str()[..4].to_string()),
        max_uses: Set(uses.min(i32::MAX as u32) as i32),
        uses: Set(0),
        expires_at: Set(expires_days.map(|d| now + i64::from(d) * 86_400)),
        revoked: Set(false),
        created_at: Set(now),
        ..Default::default()
    })
    .exec(db)
    .await?;
    Ok(code.as_str().to_string())
}

/// Uses up one use of a valid invitation (not revoked, not expired, uses left) in one statement,
/// so two sign-ups cannot both take the last use. False when the code is not valid.
pub async fn consume(db: &impl ConnectionTrait, key: &InviteKey, now: i64, code: &InviteCode) -> Result<bool, DbErr> {
    let result = invite::Entity::update_many()
        .col_expr(invite::Column::Uses, Expr::col(invite::Column::Uses).add(1))
        .filter(invite::Column::CodeHash.is_in(key.stored_forms(code)))
        .filter(invite::Column::Revoked.eq(false))
        .filter(Expr::col(invite::Column::Uses).lt(Expr::col(invite::Column::MaxUses)))
        .filter(
            Condition::any()
                .add(invite::Column::ExpiresAt.is_null())
                .add(invite::Column::ExpiresAt.gt(now)),
        )
        .exec(db)
        .await?;
    Ok(result.rows_affected == 1)
}

pub async fn list(db: &impl ConnectionTrait) -> Result<Vec<invite::Model>, DbErr> {
    invite::Entity::find().order_by_asc(invite::Column::Id).all(db).await
}

/// Revokes by full code or by id; false when nothing matched.
pub async fn revoke(db: &impl ConnectionTrait, key: &InviteKey, code_or_id: &str) -> Result<bool, DbErr> {
    let mut query = invite::Entity::update_many().col_expr(invite::Column::Revoked, Expr::value(true));
    query = match (code_or_id.trim().parse::<i32>(), InviteCode::parse(code_or_id)) {
        (Ok(id), _) => query.filter(invite::Column::Id.eq(id)),
        (Err(_), Ok(code)) => query.filter(invite::Column::CodeHash.is_in(key.stored_forms(&code))),
        (Err(_), Err(_)) => return Ok(false),
    };
    Ok(query.exec(db).await?.rows_affected > 0)
}
