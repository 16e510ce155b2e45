//! The store's schema, as migrations compiled into the binary.
//!
//! `schema_version` holds one row per migration applied. [`migrate`] runs
//! the ones a store lacks, each in a transaction with its row, so that a
//! migration is applied whole or not at all. Two nodes opening a new
//! PostgreSQL store at once both try: the second one's `CREATE TABLE` or
//! version row fails once the first commits, and it reads the version
//! again and finds nothing left to do.
//!
//! Portable SQL only: TEXT and BIGINT, named primary keys, no
//! AUTOINCREMENT or SERIAL, no foreign keys (the store checks that a
//! user's group exists, and removes a user's rules and mounts with it).
//! Migrations are only ever added at the end; one that ships is never
//! edited.

use sqlx::AnyPool;

use crate::AccountsError;

/// Every migration, in order: migration `i` brings the schema to version
/// `i + 1`.
pub(crate) const MIGRATIONS: &[&[&str]] = &[
    &[
        "CREATE TABLE user_groups (
        name TEXT NOT NULL PRIMARY KEY,
        home TEXT NULL,
        lang TEXT NULL,
        charset TEXT NULL
    )",
        "CREATE TABLE users (
        name TEXT NOT NULL PRIMARY KEY,
        password TEXT NOT NULL,
        home TEXT NULL,
        grp TEXT NULL,
        lang TEXT NULL,
        charset TEXT NULL,
        disabled BIGINT NOT NULL DEFAULT 0
    )",
        "CREATE INDEX users_grp ON users (grp)",
        // kind: 'user' or 'group'; owner: its name.
        "CREATE TABLE perms (
        kind TEXT NOT NULL,
        owner TEXT NOT NULL,
        vpath TEXT NOT NULL,
        perms TEXT NOT NULL,
        PRIMARY KEY (kind, owner, vpath)
    )",
        "CREATE TABLE mounts (
        kind TEXT NOT NULL,
        owner TEXT NOT NULL,
        vpath TEXT NOT NULL,
        source TEXT NOT NULL,
        PRIMARY KEY (kind, owner, vpath)
    )",
    ],
    &[
        // The defender's bans (issue 29), shared by every node: an address
        // (its canonical text), until when (Unix seconds), how many bans it
        // had within a day, and why.
        "CREATE TABLE bans (
        addr TEXT NOT NULL PRIMARY KEY,
        until_unix BIGINT NOT NULL,
        count BIGINT NOT NULL,
        reason TEXT NOT NULL
    )",
    ],
    &[
        // Limits (issue 29) of users and groups (NULL: none), and each
        // user's quota usage.
        "ALTER TABLE users ADD COLUMN quota_bytes BIGINT NULL",
        "ALTER TABLE users ADD COLUMN quota_files BIGINT NULL",
        "ALTER TABLE users ADD COLUMN download_rate BIGINT NULL",
        "ALTER TABLE users ADD COLUMN upload_rate BIGINT NULL",
        "ALTER TABLE users ADD COLUMN max_sessions BIGINT NULL",
        "ALTER TABLE user_groups ADD COLUMN quota_bytes BIGINT NULL",
        "ALTER TABLE user_groups ADD COLUMN quota_files BIGINT NULL",
        "ALTER TABLE user_groups ADD COLUMN download_rate BIGINT NULL",
        "ALTER TABLE user_groups ADD COLUMN upload_rate BIGINT NULL",
        "ALTER TABLE user_groups ADD COLUMN max_sessions BIGINT NULL",
        "CREATE TABLE quota_usage (
        name TEXT NOT NULL PRIMARY KEY,
        bytes BIGINT NOT NULL,
        files BIGINT NOT NULL
    )",
    ],
    &[
        // The event outbox (issue 30): one row per event and hook until
        // the hook has it. id: the event's; node: the node that recorded
        // it (and delivers it); seq: that node's order (per session, the
        // order of delivery); body: the event's JSON; next_try: Unix
        // milliseconds.
        "CREATE TABLE event_outbox (
        id TEXT NOT NULL,
        hook TEXT NOT NULL,
        node TEXT NOT NULL,
        session TEXT NOT NULL,
        seq BIGINT NOT NULL,
        body TEXT NOT NULL,
        attempts BIGINT NOT NULL,
        next_try BIGINT NOT NULL,
        last_error TEXT NULL,
        PRIMARY KEY (id, hook)
    )",
        "CREATE INDEX event_outbox_order ON event_outbox (node, hook, seq)",
    ],
    &[
        // The admin API's bearer tokens (issue 30): a name, the SHA-256 of
        // the token (hex; the token itself is shown once and never
        // stored), and when it was made (Unix seconds).
        "CREATE TABLE admin_tokens (
        name TEXT NOT NULL PRIMARY KEY,
        hash TEXT NOT NULL,
        created_unix BIGINT NOT NULL
    )",
    ],
    &[
        // A delivery task reads past a session whose entry waits for its
        // next try: the entries of one session, in order.
        "CREATE INDEX event_outbox_session ON event_outbox (node, hook, session, seq)",
    ],
    &[
        // issue 45: web sessions end when their account changes. A
        // generation each disable moves on; a session holds a stamp of
        // it, the password hash and `disabled` (see sessions.rs).
        "ALTER TABLE users ADD COLUMN sessions_gen BIGINT NOT NULL DEFAULT 0",
    ],
    &[
        // Issue 45: what each admin token may do (`read,users`…; the
        // tokens made before keep everything).
        "ALTER TABLE admin_tokens ADD COLUMN scopes TEXT NOT NULL DEFAULT 'all'",
    ],
    &[
        // Issue 48: a user's or a group's FTPS data-connection reuse rule
        // ('required' or 'optional'; NULL: the group's, else the server's).
        "ALTER TABLE users ADD COLUMN tls_reuse TEXT NULL",
        "ALTER TABLE user_groups ADD COLUMN tls_reuse TEXT NULL",
    ],
    &[
        // Issue 49: share links (see shares.rs). id: short, printable, for
        // `share list` and `share rm`; hash: the SHA-256 of the secret
        // token (hex; the token is shown once); owner: a user (its shares
        // go with it); path: hex of the path's octets; kind: 'download' or
        // 'upload'; password: an argon2 PHC string or NULL; max_uses and
        // uses: downloads or uploads; nets: CIDRs, comma-separated, or
        // NULL; removed_unix: `share rm` keeps a row that answers 410.
        "CREATE TABLE shares (
        id TEXT NOT NULL PRIMARY KEY,
        hash TEXT NOT NULL,
        owner TEXT NOT NULL,
        path TEXT NOT NULL,
        kind TEXT NOT NULL,
        created_unix BIGINT NOT NULL,
        expires_unix BIGINT NULL,
        password TEXT NULL,
        max_uses BIGINT NULL,
        uses BIGINT NOT NULL DEFAULT 0,
        nets TEXT NULL,
        removed_unix BIGINT NULL
    )",
        "CREATE UNIQUE INDEX shares_hash ON shares (hash)",
        "CREATE INDEX shares_owner ON shares (owner)",
    ],
];

/// The schema version this build knows.
pub(crate) fn known() -> i64 {
    i64::try_from(MIGRATIONS.len()).unwrap_or(i64::MAX)
}

async fn current(pool: &AnyPool) -> Result<i64, AccountsError> {
    let versions: Vec<i64> = sqlx::query_scalar("SELECT version FROM schema_version")
        .fetch_all(pool)
        .await?;
    Ok(versions.into_iter().max().unwrap_or(0))
}

/// Brings the store's schema to [`known`]; refuses a newer one.
pub(crate) async fn migrate(pool: &AnyPool, postgres: bool) -> Result<(), AccountsError> {
    let mut tries = 0;
    loop {
        match migrate_once(pool, postgres).await {
            Ok(()) => return Ok(()),
            // Another node migrating at the same time: read again.
            Err(AccountsError::Db(_)) if tries < 3 => tries += 1,
            Err(e) => return Err(e),
        }
    }
}

async fn migrate_once(pool: &AnyPool, postgres: bool) -> Result<(), AccountsError> {
    sqlx::query("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL PRIMARY KEY)")
        .execute(pool)
        .await?;
    let found = current(pool).await?;
    if found > known() {
        return Err(AccountsError::TooNew { found, known: known() });
    }
    for (i, statements) in MIGRATIONS.iter().enumerate() {
        let version = i64::try_from(i).unwrap_or(i64::MAX).saturating_add(1);
        if version <= found {
            continue;
        }
        let mut tx = pool.begin().await?;
        if postgres {
            // One node migrates at a time; the others wait here, then
            // find the version applied (SQLite has one writer anyway).
            sqlx::query("LOCK TABLE schema_version IN ACCESS EXCLUSIVE MODE")
                .execute(&mut *tx)
                .await?;
            let done: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM schema_version WHERE version = $1")
                .bind(version)
                .fetch_one(&mut *tx)
                .await?;
            if done > 0 {
                tx.commit().await?;
                continue;
            }
        }
        for s in *statements {
            sqlx::query(s).execute(&mut *tx).await?;
        }
        sqlx::query("INSERT INTO schema_version (version) VALUES ($1)")
            .bind(version)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
    }
    Ok(())
}
