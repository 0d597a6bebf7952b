//! Six-digit email codes: stored hashed, 10 minutes, 5 tries, single use, newest wins.

use crate::clock::{Clock, Entropy};
use crate::db::entities::email_code::{self, Purpose};
use crate::mail::CODE_MINUTES;
use crate::secrets::{digest, random_code};
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, Set};

pub const MAX_TRIES: i32 = 5;

/// The hash binds the code to its purpose and address, so a code for one cannot pass as another.
fn code_hash(purpose: Purpose, email_key: &str, code: &str) -> String {
    digest(&format!("{}\n{email_key}\n{code}", purpose.as_str()))
}

/// Makes a new code for (purpose, address), replacing any earlier one, and returns it.
pub async fn issue(
    db: &impl ConnectionTrait,
    clock: &dyn Clock,
    entropy: &dyn Entropy,
    purpose: Purpose,
    email_key: &str,
    member_id: Option<i32>,
) -> Result<String, DbErr> {
    let code = random_code(entropy);
    let now = clock.now();
    // One statement, so two requests for one address cannot both delete and then both insert.
    email_code::Entity::insert(email_code::ActiveModel {
        purpose: Set(purpose.as_str().to_string()),
        email_key: Set(email_key.to_string()),
        member_id: Set(member_id),
        code_hash: Set(code_hash(purpose, email_key, &code)),
        tries: Set(0),
        created_at: Set(now),
        expires_at: Set(now + CODE_MINUTES * 60),
        ..Default::default()
    })
    .on_conflict(
        OnConflict::columns([email_code::Column::Purpose, email_code::Column::EmailKey])
            .update_columns([
                email_code::Column::MemberId,
                email_code::Column::CodeHash,
                email_code::Column::Tries,
                email_code::Column::CreatedAt,
                email_code::Column::ExpiresAt,
            ])
            .to_owned(),
    )
    .exec_without_returning(db)
    .await?;
    Ok(code)
}

/// The live code for (purpose, address) when `code` matches it and `belongs` accepts it.
/// Every comparison first spends one of the code's tries in a conditional update, so however
/// many guesses arrive at once, at most `MAX_TRIES` are ever compared. Nothing is consumed here.
pub async fn check(
    db: &impl ConnectionTrait,
    now: i64,
    purpose: Purpose,
    email_key: &str,
    code: &str,
    belongs: impl FnOnce(&email_code::Model) -> bool,
) -> Result<Option<email_code::Model>, DbErr> {
    let Some(found) = email_code::Entity::find()
        .filter(email_code::Column::Purpose.eq(purpose.as_str()))
        .filter(email_code::Column::EmailKey.eq(email_key))
        .one(db)
        .await?
    else {
        return Ok(None);
    };
    if found.expires_at <= now || found.tries >= MAX_TRIES {
        email_code::Entity::delete_by_id(found.id).exec(db).await?;
        return Ok(None);
    }
    let spent = email_code::Entity::update_many()
        .col_expr(email_code::Column::Tries, Expr::col(email_code::Column::Tries).add(1))
        .filter(email_code::Column::Id.eq(found.id))
        .filter(email_code::Column::CodeHash.eq(found.code_hash.clone()))
        .filter(email_code::Column::Tries.lt(MAX_TRIES))
        .exec(db)
        .await?;
    if spent.rows_affected != 1 {
        return Ok(None);
    }
    let matched = found.code_hash == code_hash(purpose, email_key, code) && belongs(&found);
    Ok(matched.then_some(found))
}

/// Uses up a code; false when someone else used it first.
pub async fn consume(db: &impl ConnectionTrait, code: &email_code::Model) -> Result<bool, DbErr> {
    let result = email_code::Entity::delete_many()
        .filter(email_code::Column::Id.eq(code.id))
        .filter(email_code::Column::CodeHash.eq(code.code_hash.clone()))
        .exec(db)
        .await?;
    Ok(result.rows_affected == 1)
}
