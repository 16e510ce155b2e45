//! The store on SQLite in a temporary directory.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use babelftp_accounts::*;
use babelftp_policy::Perm;

use crate::outbox;

fn comps(path: &str) -> Vec<Vec<u8>> {
    path.split('/')
        .filter(|c| !c.is_empty())
        .map(|c| c.as_bytes().to_vec())
        .collect()
}

fn hash() -> String {
    // One hash for every test user: hashing costs tens of milliseconds.
    static H: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    H.get_or_init(|| hash_password(b"s3cret").unwrap()).clone()
}

async fn store(dir: &tempfile::TempDir) -> Store {
    Store::open(&format!("sqlite:{}", dir.path().join("accounts.db").display()))
        .await
        .unwrap()
}

fn user(name: &str) -> NewUser {
    NewUser {
        name: name.into(),
        password: hash(),
        ..NewUser::default()
    }
}

#[tokio::test]
async fn a_user_without_settings_has_everything_at_the_root() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(&dir).await;
    assert_eq!(s.user_count().await.unwrap(), 0);
    assert!(s.describe().starts_with("SQLite "), "{}", s.describe());
    assert!(s.describe().ends_with("accounts.db"), "{}", s.describe());
    s.add_user(&user("alice")).await.unwrap();
    assert_eq!(s.user_count().await.unwrap(), 1);
    let r = s.login_record("alice").await.unwrap().unwrap();
    assert_eq!(r.password, hash());
    assert!(!r.disabled);
    assert_eq!(r.profile.home, Home::Inside(b"/".to_vec()));
    assert_eq!(r.profile.rules, Rules::everywhere(Perms::ALL));
    assert!(r.profile.mounts.is_empty());
    assert_eq!((r.profile.lang, r.profile.charset, r.profile.group), (None, None, None));
    assert!(s.login_record("bob").await.unwrap().is_none());
    assert!(matches!(
        s.add_user(&user("alice")).await,
        Err(AccountsError::UserExists(n)) if n == "alice"
    ));
}

#[tokio::test]
async fn a_user_takes_its_groups_settings_unless_it_sets_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(&dir).await;
    s.add_group(&NewGroup {
        name: "staff".into(),
        home: Some("/staff".into()),
        lang: Some("fr".into()),
        charset: Some("windows-1251".into()),
    })
    .await
    .unwrap();
    s.add_user(&NewUser {
        group: Some("staff".into()),
        ..user("alice")
    })
    .await
    .unwrap();
    s.add_user(&NewUser {
        group: Some("staff".into()),
        home: Some("s3://bucket/bob".into()),
        lang: Some("ja".into()),
        ..user("bob")
    })
    .await
    .unwrap();
    let a = s.profile("alice").await.unwrap().unwrap();
    assert_eq!(a.home, Home::Inside(b"/staff".to_vec()));
    assert_eq!(a.lang.as_deref(), Some("fr"));
    assert_eq!(a.charset.as_deref(), Some("windows-1251"));
    assert_eq!(a.group.as_deref(), Some("staff"));
    let b = s.profile("bob").await.unwrap().unwrap();
    assert_eq!(
        b.home,
        Home::Source(Source::S3 {
            bucket: "bucket".into(),
            prefix: "bob".into()
        })
    );
    assert_eq!(b.lang.as_deref(), Some("ja"));
    assert_eq!(b.charset.as_deref(), Some("windows-1251"));
    // The group's change is alice's at her next login; her own setting wins.
    s.set_group(
        "staff",
        &GroupChanges {
            lang: Some(Some("de".into())),
            ..GroupChanges::default()
        },
    )
    .await
    .unwrap();
    assert_eq!(s.profile("alice").await.unwrap().unwrap().lang.as_deref(), Some("de"));
    assert_eq!(s.profile("bob").await.unwrap().unwrap().lang.as_deref(), Some("ja"));
    // Cleared: the group's again. Out of the group: nothing inherited.
    s.set_user(
        "bob",
        &UserChanges {
            lang: Some(None),
            ..UserChanges::default()
        },
    )
    .await
    .unwrap();
    assert_eq!(s.profile("bob").await.unwrap().unwrap().lang.as_deref(), Some("de"));
    s.set_user(
        "alice",
        &UserChanges {
            group: Some(None),
            ..UserChanges::default()
        },
    )
    .await
    .unwrap();
    let a = s.profile("alice").await.unwrap().unwrap();
    assert_eq!((a.home, a.lang, a.charset), (Home::default(), None, None));
    // A group with members cannot go; an empty one can.
    assert!(matches!(
        s.remove_group("staff").await,
        Err(AccountsError::GroupInUse { members: 1, .. })
    ));
    assert_eq!(
        s.group("staff").await.unwrap().unwrap().members,
        vec!["bob".to_string()]
    );
    s.remove_user("bob").await.unwrap();
    s.remove_group("staff").await.unwrap();
    assert!(s.group("staff").await.unwrap().is_none());
}

#[tokio::test]
async fn permissions_are_the_union_of_the_groups_and_the_users() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(&dir).await;
    s.add_group(&NewGroup {
        name: "staff".into(),
        ..NewGroup::default()
    })
    .await
    .unwrap();
    s.add_user(&NewUser {
        group: Some("staff".into()),
        ..user("alice")
    })
    .await
    .unwrap();
    let g = Owner::Group("staff");
    let u = Owner::User("alice");
    s.set_perm(g, "/", Perms::READ).await.unwrap();
    s.set_perm(g, "/incoming/", "upload,mkdir".parse().unwrap())
        .await
        .unwrap();
    s.set_perm(g, "/private", Perms::NONE).await.unwrap();
    s.set_perm(u, "/private", Perms::ALL).await.unwrap();
    s.set_perm(u, "/pub", Perms::READ).await.unwrap();
    let rules = s.profile("alice").await.unwrap().unwrap().rules;
    assert_eq!(rules.at(&comps("/")), Perms::READ);
    assert!(rules.at(&comps("/incoming/x")).has(Perm::Upload));
    assert!(!rules.at(&comps("/incoming/x")).has(Perm::Overwrite));
    assert!(!rules.at(&comps("/incoming/x")).has(Perm::Delete));
    assert_eq!(rules.at(&comps("/private/a/b")), Perms::ALL);
    assert_eq!(rules.at(&comps("/pub")), Perms::READ);
    // Her own rules, as stored; the group's in the group.
    let rec = s.user("alice").await.unwrap().unwrap();
    assert_eq!(
        rec.perms,
        vec![("/private".to_string(), Perms::ALL), ("/pub".to_string(), Perms::READ)]
    );
    assert_eq!(s.group("staff").await.unwrap().unwrap().perms.len(), 3);
    // Removing her rule: the group's applies again.
    s.remove_perm(u, "/private").await.unwrap();
    let rules = s.profile("alice").await.unwrap().unwrap().rules;
    assert_eq!(rules.at(&comps("/private")), Perms::NONE);
    assert!(matches!(
        s.remove_perm(u, "/private").await,
        Err(AccountsError::NoSuchRule { .. })
    ));
    // Replacing a rule keeps one.
    s.set_perm(u, "/pub", Perms::ALL).await.unwrap();
    assert_eq!(
        s.user("alice").await.unwrap().unwrap().perms,
        vec![("/pub".into(), Perms::ALL)]
    );
}

#[tokio::test]
async fn mounts_are_the_union_the_users_winning() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(&dir).await;
    s.add_group(&NewGroup {
        name: "staff".into(),
        ..NewGroup::default()
    })
    .await
    .unwrap();
    s.add_user(&NewUser {
        group: Some("staff".into()),
        ..user("alice")
    })
    .await
    .unwrap();
    let g = Owner::Group("staff");
    let u = Owner::User("alice");
    s.add_mount(g, "/archive", &"/srv/archive".parse().unwrap())
        .await
        .unwrap();
    s.add_mount(g, "/shared", &"s3://team/shared".parse().unwrap())
        .await
        .unwrap();
    s.add_mount(u, "/archive/", &"file:///srv/alice-archive".parse().unwrap())
        .await
        .unwrap();
    let m = s.profile("alice").await.unwrap().unwrap().mounts;
    assert_eq!(
        m,
        vec![
            Mount {
                vpath: b"/archive".to_vec(),
                source: Source::Dir("/srv/alice-archive".into())
            },
            Mount {
                vpath: b"/shared".to_vec(),
                source: Source::S3 {
                    bucket: "team".into(),
                    prefix: "shared".into()
                }
            },
        ]
    );
    assert!(matches!(
        s.add_mount(u, "/", &"/srv".parse().unwrap()).await,
        Err(AccountsError::MountAtRoot)
    ));
    s.remove_mount(u, "/archive").await.unwrap();
    let m = s.profile("alice").await.unwrap().unwrap().mounts;
    assert_eq!(m[0].source, Source::Dir("/srv/archive".into()));
    assert!(matches!(
        s.remove_mount(u, "/nothing").await,
        Err(AccountsError::NoSuchMount { .. })
    ));
    // A user's mounts go with it.
    s.remove_user("alice").await.unwrap();
    s.add_user(&user("alice")).await.unwrap();
    assert!(s.user("alice").await.unwrap().unwrap().mounts.is_empty());
}

#[tokio::test]
async fn disabled_users_and_passwords() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(&dir).await;
    s.add_user(&user("alice")).await.unwrap();
    let off = UserChanges {
        disabled: Some(true),
        ..UserChanges::default()
    };
    s.set_user("alice", &off).await.unwrap();
    assert!(s.login_record("alice").await.unwrap().unwrap().disabled);
    assert!(s.list_users().await.unwrap()[0].disabled);
    s.set_user(
        "alice",
        &UserChanges {
            disabled: Some(false),
            ..UserChanges::default()
        },
    )
    .await
    .unwrap();
    assert!(!s.login_record("alice").await.unwrap().unwrap().disabled);
    let h2 = hash_password(b"other").unwrap();
    s.set_password("alice", &h2).await.unwrap();
    assert_eq!(s.login_record("alice").await.unwrap().unwrap().password, h2);
    assert!(matches!(
        s.set_password("alice", "plain").await,
        Err(AccountsError::BadHash(_))
    ));
    assert!(matches!(
        s.set_password("nobody", &h2).await,
        Err(AccountsError::UnknownUser(_))
    ));
}

#[tokio::test]
async fn a_change_is_seen_by_a_second_store_on_the_same_file() {
    let dir = tempfile::tempdir().unwrap();
    let one = store(&dir).await;
    let two = store(&dir).await;
    one.add_user(&user("alice")).await.unwrap();
    assert_eq!(two.profile("alice").await.unwrap().unwrap().lang, None);
    one.set_user(
        "alice",
        &UserChanges {
            lang: Some(Some("fr".into())),
            charset: Some(Some("cp1251".into())),
            ..UserChanges::default()
        },
    )
    .await
    .unwrap();
    one.set_perm(Owner::User("alice"), "/pub", Perms::READ).await.unwrap();
    let p = two.profile("alice").await.unwrap().unwrap();
    assert_eq!(p.lang.as_deref(), Some("fr"));
    assert_eq!(p.charset.as_deref(), Some("cp1251"));
    assert_eq!(p.rules.at(&comps("/pub")), Perms::READ);
    two.remove_user("alice").await.unwrap();
    assert!(one.login_record("alice").await.unwrap().is_none());
    // Opening again migrates nothing and keeps the data.
    two.add_user(&user("bob")).await.unwrap();
    drop((one, two));
    assert_eq!(store(&dir).await.user_count().await.unwrap(), 1);
}

#[tokio::test]
async fn bad_input_is_refused_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(&dir).await;
    s.add_user(&user("alice")).await.unwrap();
    let s2 = s.clone();
    let bad = move |u: NewUser| {
        let s = s2.clone();
        async move { s.add_user(&u).await }
    };
    assert!(matches!(bad(user("a b")).await, Err(AccountsError::BadName(_))));
    let e = bad(NewUser {
        group: Some("nope".into()),
        ..user("bob")
    })
    .await;
    assert!(matches!(e, Err(AccountsError::UnknownGroup(_))), "{e:?}");
    let e = bad(NewUser {
        home: Some("relative".into()),
        ..user("bob")
    })
    .await;
    assert!(matches!(e, Err(AccountsError::BadHome(_))), "{e:?}");
    let e = bad(NewUser {
        password: "s3cret".into(),
        ..user("bob")
    })
    .await;
    assert!(matches!(e, Err(AccountsError::BadHash(_))), "{e:?}");
    // A set with one bad value changes nothing.
    let e = s
        .set_user(
            "alice",
            &UserChanges {
                lang: Some(Some("fr".into())),
                charset: Some(Some("klingon".into())),
                ..UserChanges::default()
            },
        )
        .await;
    assert!(matches!(e, Err(AccountsError::BadCharset(_))), "{e:?}");
    assert_eq!(s.profile("alice").await.unwrap().unwrap().lang, None);
    let e = s
        .set_user(
            "alice",
            &UserChanges {
                lang: Some(Some("fr_FR".into())),
                ..UserChanges::default()
            },
        )
        .await;
    assert!(matches!(e, Err(AccountsError::BadLang(_))), "{e:?}");
    let u = Owner::User("alice");
    assert!(matches!(
        s.set_perm(u, "pub", Perms::READ).await,
        Err(AccountsError::BadPath(_))
    ));
    assert!(matches!(
        s.set_perm(u, "/a/../b", Perms::READ).await,
        Err(AccountsError::BadPath(_))
    ));
    assert!(matches!(
        s.set_perm(Owner::User("nobody"), "/", Perms::READ).await,
        Err(AccountsError::UnknownUser(_))
    ));
    assert!(matches!(
        s.set_perm(Owner::Group("nobody"), "/", Perms::READ).await,
        Err(AccountsError::UnknownGroup(_))
    ));
    assert!(matches!(
        s.remove_user("nobody").await,
        Err(AccountsError::UnknownUser(_))
    ));
    assert!(matches!(
        s.remove_group("nobody").await,
        Err(AccountsError::UnknownGroup(_))
    ));
    assert!(matches!(
        Store::open("mysql://h/db").await,
        Err(AccountsError::BadUrl(_))
    ));
    assert_eq!(s.user("alice").await.unwrap().unwrap().perms, vec![]);
}

#[tokio::test]
async fn a_users_file_is_imported() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(&dir).await;
    s.add_user(&user("bob")).await.unwrap();
    let file = dir.path().join("users.toml");
    let h = hash();
    std::fs::write(
        &file,
        format!(
            "[[user]]\nname = \"alice\"\npassword = \"{h}\"\nhome = \"/alice\"\nwrite = true\n\n\
             [[user]]\nname = \"bob\"\npassword = \"{h}\"\n"
        ),
    )
    .unwrap();
    let users = read_users_file(&file).unwrap();
    assert_eq!(users.len(), 2);
    let report = s.import(&users).await.unwrap();
    assert_eq!(report, ImportReport { added: 1, updated: 1 });
    let a = s.profile("alice").await.unwrap().unwrap();
    assert_eq!(a.home, Home::Inside(b"/alice".to_vec()));
    assert_eq!(a.rules, Rules::everywhere(Perms::ALL));
    let b = s.profile("bob").await.unwrap().unwrap();
    assert_eq!(b.rules, Rules::everywhere(Perms::READ));
    // Again: nothing new.
    assert_eq!(s.import(&users).await.unwrap(), ImportReport { added: 0, updated: 2 });
    std::fs::write(&file, "[[user]]\nname = \"x\"\npassword = \"plain\"\n").unwrap();
    let e = read_users_file(&file).unwrap_err();
    assert!(
        matches!(&e, AccountsError::ImportEntry { source, .. } if matches!(**source, AccountsError::BadHash(_))),
        "{e:?}"
    );
    std::fs::write(&file, "[[user]]\nname = \"x\"\n").unwrap();
    assert!(matches!(read_users_file(&file), Err(AccountsError::Import { .. })));
}

#[tokio::test]
async fn the_event_outbox_keeps_order_and_forgets_what_was_delivered() {
    let dir = tempfile::tempdir().unwrap();
    outbox::round_trip(&store(&dir).await).await;
    // A second opening (a restart) finds what was left.
    let again = store(&dir).await;
    assert_eq!(again.outbox_len().await.unwrap(), 2);
}

#[tokio::test]
async fn the_event_outbox_is_read_past_a_session_that_waits() {
    let dir = tempfile::tempdir().unwrap();
    outbox::past_a_waiting_session(&store(&dir).await).await;
}

#[tokio::test]
async fn the_event_outbox_drops_what_waits_for_hooks_taken_out() {
    let dir = tempfile::tempdir().unwrap();
    outbox::hooks_taken_out(&store(&dir).await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_event_outbox_drops_hooks_taken_out_while_delivery_writes() {
    let dir = tempfile::tempdir().unwrap();
    outbox::dropped_while_delivery_writes(&store(&dir).await).await;
}

/// Issue 45: a user's session stamp changes with a new password (even the
/// same one, hashed anew), a disable (even undone), and its removal; not
/// with its other settings.
#[tokio::test]
async fn the_session_stamp_moves_when_sessions_must_end() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(&dir).await;
    assert_eq!(s.session_stamp("alice").await.unwrap(), None);
    s.add_user(&user("alice")).await.unwrap();
    let first = s.session_stamp("alice").await.unwrap().unwrap();
    let lang = UserChanges {
        lang: Some(Some("fr".into())),
        ..UserChanges::default()
    };
    s.set_user("alice", &lang).await.unwrap();
    s.set_perm(Owner::User("alice"), "/", Perms::READ).await.unwrap();
    assert_eq!(s.session_stamp("alice").await.unwrap(), Some(first), "other settings");
    s.set_password("alice", &hash_password(b"s3cret").unwrap())
        .await
        .unwrap();
    let second = s.session_stamp("alice").await.unwrap().unwrap();
    assert_ne!(second, first, "a new password");
    let able = |d: bool| UserChanges {
        disabled: Some(d),
        ..UserChanges::default()
    };
    s.set_user("alice", &able(true)).await.unwrap();
    s.set_user("alice", &able(false)).await.unwrap();
    let third = s.session_stamp("alice").await.unwrap().unwrap();
    assert_ne!(third, second, "disabled, then enabled");
    s.set_user("alice", &able(false)).await.unwrap();
    assert_eq!(s.session_stamp("alice").await.unwrap(), Some(third), "enabled twice");
    s.end_sessions("alice").await.unwrap();
    assert_ne!(s.session_stamp("alice").await.unwrap(), Some(third));
    assert!(s.end_sessions("nobody").await.is_err());
    s.remove_user("alice").await.unwrap();
    assert_eq!(s.session_stamp("alice").await.unwrap(), None);
}

/// Issue 49: share links on SQLite.
#[tokio::test]
async fn share_links_are_found_by_token_counted_and_end_with_their_owner() {
    let dir = tempfile::tempdir().unwrap();
    crate::shares::round_trip(&store(&dir).await).await;
}
