//! The store on a real PostgreSQL (Debian's postgresql-15, unpacked by
//! `scripts/postgres.sh`): two nodes on one cluster see each other's
//! changes at the next login.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use babelftp_accounts::*;

use crate::outbox;

fn comps(path: &str) -> Vec<Vec<u8>> {
    path.split('/')
        .filter(|c| !c.is_empty())
        .map(|c| c.as_bytes().to_vec())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_nodes_on_one_postgresql_see_each_others_changes() {
    let pg = babelftp_test_support::postgres::start();
    // Both nodes start at once on an empty database: one migrates, the
    // other finds it done (or waits and retries).
    let (one, two) = tokio::join!(Store::open(&pg.url), Store::open(&pg.url));
    let (one, two) = (one.unwrap(), two.unwrap());
    let port = pg.addr.port();
    assert_eq!(one.describe(), format!("PostgreSQL 127.0.0.1:{port}/postgres"));
    assert_eq!(two.user_count().await.unwrap(), 0);

    let hash = hash_password(b"s3cret").unwrap();
    one.add_group(&NewGroup {
        name: "staff".into(),
        lang: Some("fr".into()),
        ..NewGroup::default()
    })
    .await
    .unwrap();
    one.add_user(&NewUser {
        name: "alice".into(),
        password: hash.clone(),
        group: Some("staff".into()),
        ..NewUser::default()
    })
    .await
    .unwrap();
    let r = two.login_record("alice").await.unwrap().unwrap();
    assert_eq!(r.password, hash);
    assert_eq!(r.profile.lang.as_deref(), Some("fr"));
    assert_eq!(r.profile.home, Home::default());
    assert_eq!(r.profile.rules, Rules::everywhere(Perms::ALL));

    // Node two changes her; node one's next login sees it.
    let u = Owner::User("alice");
    two.set_user(
        "alice",
        &UserChanges {
            home: Some(Some("/alice".into())),
            charset: Some(Some("windows-1251".into())),
            ..UserChanges::default()
        },
    )
    .await
    .unwrap();
    two.set_perm(u, "/", Perms::READ).await.unwrap();
    two.set_perm(u, "/incoming", "upload,mkdir".parse().unwrap())
        .await
        .unwrap();
    two.set_perm(Owner::Group("staff"), "/pub", Perms::READ).await.unwrap();
    two.add_mount(u, "/archive", &"s3://archive/alice".parse().unwrap())
        .await
        .unwrap();
    let p = one.login_record("alice").await.unwrap().unwrap().profile;
    assert_eq!(p.home, Home::Inside(b"/alice".to_vec()));
    assert_eq!(p.charset.as_deref(), Some("windows-1251"));
    assert_eq!(p.lang.as_deref(), Some("fr"));
    assert_eq!(p.rules.at(&comps("/incoming/x")), "upload,mkdir".parse().unwrap());
    assert_eq!(p.rules.at(&comps("/pub/a")), Perms::READ);
    assert_eq!(p.mounts.len(), 1);
    assert_eq!(p.mounts[0].vpath, b"/archive");

    // Disabled on one, refused on two; a users file imported on two.
    one.set_user(
        "alice",
        &UserChanges {
            disabled: Some(true),
            ..UserChanges::default()
        },
    )
    .await
    .unwrap();
    assert!(two.login_record("alice").await.unwrap().unwrap().disabled);
    let report = two
        .import(&[ImportedUser {
            name: "bob".into(),
            password: hash.clone(),
            home: "/bob".into(),
            write: false,
        }])
        .await
        .unwrap();
    assert_eq!(report.added, 1);
    assert_eq!(one.list_users().await.unwrap().len(), 2);
    assert!(matches!(
        one.add_user(&NewUser {
            name: "bob".into(),
            password: hash,
            ..NewUser::default()
        })
        .await,
        Err(AccountsError::UserExists(_))
    ));
    one.remove_user("alice").await.unwrap();
    assert!(two.login_record("alice").await.unwrap().is_none());
    assert!(matches!(
        two.remove_group("nobody").await,
        Err(AccountsError::UnknownGroup(_))
    ));
    one.close().await;
    two.close().await;
    // A third node, later: migrations already applied, data there.
    let three = Store::open(&pg.url).await.unwrap();
    assert_eq!(three.user_count().await.unwrap(), 1);
    three.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_event_outbox_on_postgresql() {
    let pg = babelftp_test_support::postgres::start();
    let s = Store::open(&pg.url).await.unwrap();
    outbox::round_trip(&s).await;
    // (round_trip leaves 2 entries of other nodes and hooks behind)
    outbox::past_a_waiting_session(&s).await;
    outbox::hooks_taken_out(&s).await;
    outbox::dropped_while_delivery_writes(&s).await;
}

/// Issue 45: what one node changes moves the session stamp another node
/// reads (the new column, migrated on PostgreSQL too).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_change_on_one_node_moves_the_session_stamp_the_other_reads() {
    let pg = babelftp_test_support::postgres::start();
    let (one, two) = (Store::open(&pg.url).await.unwrap(), Store::open(&pg.url).await.unwrap());
    one.add_user(&NewUser {
        name: "alice".into(),
        password: hash_password(b"s3cret").unwrap(),
        ..NewUser::default()
    })
    .await
    .unwrap();
    let first = two.session_stamp("alice").await.unwrap().unwrap();
    let able = |d: bool| UserChanges {
        disabled: Some(d),
        ..UserChanges::default()
    };
    one.set_user("alice", &able(true)).await.unwrap();
    one.set_user("alice", &able(false)).await.unwrap();
    let second = two.session_stamp("alice").await.unwrap().unwrap();
    assert_ne!(second, first, "disabled, then enabled");
    one.set_password("alice", &hash_password(b"other").unwrap())
        .await
        .unwrap();
    let third = two.session_stamp("alice").await.unwrap().unwrap();
    assert_ne!(third, second, "a new password");
    one.remove_user("alice").await.unwrap();
    assert_eq!(two.session_stamp("alice").await.unwrap(), None);
}

/// Issue 45: on PostgreSQL too, the migration that brings token scopes
/// gives the tokens made before it `all`, and a new token keeps the
/// scopes it was made with.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn admin_tokens_made_before_scopes_keep_all_on_postgresql() {
    let pg = babelftp_test_support::postgres::start();
    let store = Store::open(&pg.url).await.unwrap();
    store.close().await;
    // Back to the schema before scopes (and the migrations after it: the
    // tls_reuse columns of issue 48, the shares of issue 49), with a
    // token made then.
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&pg.url).await.unwrap();
    for q in [
        "ALTER TABLE admin_tokens DROP COLUMN scopes",
        "ALTER TABLE users DROP COLUMN tls_reuse",
        "ALTER TABLE user_groups DROP COLUMN tls_reuse",
        "DROP TABLE shares",
        // Version 8 brought the scopes.
        "DELETE FROM schema_version WHERE version >= 8",
        "INSERT INTO admin_tokens (name, hash, created_unix) VALUES ('old', 'x', 0)",
    ] {
        sqlx::query(q).execute(&pool).await.unwrap();
    }
    pool.close().await;
    let store = Store::open(&pg.url).await.unwrap();
    let ro = store
        .create_admin_token("ro", &Scopes::new(&[Scope::Read, Scope::Bans]))
        .await
        .unwrap();
    let list = store.admin_tokens().await.unwrap();
    let scopes: Vec<(String, String)> = list.iter().map(|t| (t.name.clone(), t.scopes.to_string())).collect();
    assert_eq!(
        scopes,
        [
            ("old".to_owned(), "all".to_owned()),
            ("ro".to_owned(), "read,bans".to_owned())
        ]
    );
    let (name, s) = store.check_admin_token(&ro).await.unwrap().unwrap();
    assert_eq!(name, "ro");
    assert!(s.has(Scope::Bans) && !s.has(Scope::Users) && s.may_read(Scope::Users));
}

/// Issue 49: share links on PostgreSQL (the same checks as on SQLite).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn share_links_on_postgresql() {
    let pg = babelftp_test_support::postgres::start();
    let s = Store::open(&pg.url).await.unwrap();
    crate::shares::round_trip(&s).await;
}
