//! One table per kind of record. Times are Unix seconds (i64) so SQLite and PostgreSQL agree.

pub mod member {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "members")]
    pub struct Model {
        #[sea_orm(primary_key)]
        pub id: i32,
        pub username: String,
        /// Lower-cased username: uniqueness ignores case.
        #[sea_orm(unique)]
        pub username_key: String,
        pub email: Option<String>,
        #[sea_orm(unique)]
        pub email_key: Option<String>,
        /// None for members who only sign in with Google.
        pub password_hash: Option<String>,
        #[sea_orm(unique)]
        pub google_sub: Option<String>,
        pub created_at: i64,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

pub mod session {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "sessions")]
    pub struct Model {
        /// SHA-256 of the cookie value: a leaked table cannot be replayed.
        #[sea_orm(primary_key, auto_increment = false)]
        pub token_hash: String,
        pub member_id: i32,
        pub created_at: i64,
        pub expires_at: i64,
        /// When the session was last used (to the hour): idle sessions end.
        pub last_seen_at: Option<i64>,
        /// The `User-Agent` of the login (at most `sessions::USER_AGENT_CHARS` characters), to
        /// describe the device on the member page.
        pub user_agent: Option<String>,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

pub mod email_code {
    use sea_orm::entity::prelude::*;

    /// What a code is for; stored in `purpose` by name.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Purpose {
        Register,
        Reset,
    }

    impl Purpose {
        pub fn as_str(self) -> &'static str {
            match self {
                Purpose::Register => "register",
                Purpose::Reset => "reset",
            }
        }
    }

    pub const REGISTER: Purpose = Purpose::Register;
    pub const RESET: Purpose = Purpose::Reset;

    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "email_codes")]
    pub struct Model {
        #[sea_orm(primary_key)]
        pub id: i32,
        pub purpose: String,
        pub email_key: String,
        /// The member a reset code belongs to.
        pub member_id: Option<i32>,
        pub code_hash: String,
        pub tries: i32,
        pub created_at: i64,
        pub expires_at: i64,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

pub mod reset_token {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "reset_tokens")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub token_hash: String,
        pub member_id: i32,
        pub expires_at: i64,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

pub mod invite {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "invites")]
    pub struct Model {
        #[sea_orm(primary_key)]
        pub id: i32,
        #[sea_orm(unique)]
        pub code_hash: String,
        /// The first characters of the code, so the owner can tell invites apart in a list.
        pub code_hint: String,
        pub max_uses: i32,
        pub uses: i32,
        pub expires_at: Option<i64>,
        pub revoked: bool,
        pub created_at: i64,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

pub mod google_pending {
    use sea_orm::entity::prelude::*;

    /// A Google account that signed in but is not a member yet, waiting for an invitation code.
    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "google_pending")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub token_hash: String,
        pub google_sub: String,
        pub email: Option<String>,
        pub name: Option<String>,
        pub expires_at: i64,
        /// Set when the Google account's address is a member's but Google does not vouch for
        /// the domain: the member's next password login (with this record's cookie) links it.
        pub link_member_id: Option<i32>,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

pub mod oauth_state {
    use sea_orm::entity::prelude::*;

    /// An authorization request in flight: its state (hashed) and PKCE verifier.
    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "oauth_states")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub state_hash: String,
        pub pkce_verifier: String,
        pub lang: String,
        pub expires_at: i64,
        /// SHA-256 of the nonce cookie of the browser that started the sign-in.
        pub nonce_hash: Option<String>,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

pub mod rate_limit {
    use sea_orm::entity::prelude::*;

    /// One rate-limit counter: `hits` events under `key` since `started_at`, in a window of
    /// `window_seconds`.
    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "rate_limits")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub key: String,
        #[sea_orm(primary_key, auto_increment = false)]
        pub window_seconds: i64,
        pub started_at: i64,
        pub hits: i32,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}
