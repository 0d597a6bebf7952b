//! Invitation codes: made by the owner on the command line, used up by sign-ups.

use crate::clock::{Clock, Entropy};
use crate::db::entities::invite;
use crate::secrets::{digest, normalize_invite_code, random_invite_code};
use sea_orm::sea_query::{Condition, Expr};
use sea_orm::{ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QueryOrder, Set};

/// Makes an invitation and returns its code (shown once: only its hash is kept).
pub async fn create(
    db: &impl ConnectionTrait,
    clock: &dyn Clock,
    entropy: &dyn Entropy,
    uses: u32,
    expires_days: Option<u32>,
) -> Result<String, DbErr> {
    let code = random_invite_code(entropy);
    let now = clock.now();
    invite::Entity::insert(invite::ActiveModel {
        code_hash: Set(digest(&code)),
        code_hint: Set(code[..4].to_string()),
        max_uses: Set(uses.min(i32::MAX as u32) as i32),
        uses: Set(0),
        expires_at: Set(expires_days.map(|d| now + i64::from(d) * 86_400)),
        revoked: Set(false),
        created_at: Set(now),
        ..Default::default()
    })
    .exec(db)
    .await?;
    Ok(code)
}

/// Uses up one use of a valid invitation (not revoked, not expired, uses left) in one statement,
/// so two sign-ups cannot both take the last use. False when the code is not valid.
pub async fn consume(db: &impl ConnectionTrait, now: i64, code: &str) -> Result<bool, DbErr> {
    let result = invite::Entity::update_many()
        .col_expr(invite::Column::Uses, Expr::col(invite::Column::Uses).add(1))
        .filter(invite::Column::CodeHash.eq(digest(&normalize_invite_code(code))))
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
pub async fn revoke(db: &impl ConnectionTrait, code_or_id: &str) -> Result<bool, DbErr> {
    let mut query = invite::Entity::update_many().col_expr(invite::Column::Revoked, Expr::value(true));
    query = match code_or_id.trim().parse::<i32>() {
        Ok(id) => query.filter(invite::Column::Id.eq(id)),
        Err(_) => query.filter(invite::Column::CodeHash.eq(digest(&normalize_invite_code(code_or_id)))),
    };
    Ok(query.exec(db).await?.rows_affected > 0)
}
