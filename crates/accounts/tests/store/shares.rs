//! The share-link checks (issue 49), run on SQLite and on PostgreSQL.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use babelftp_accounts::*;

/// A share is found by its token (only its hash is stored), its uses are
/// counted up to its limit by one statement, `rm` leaves it gone (410, not
/// unknown), a disabled owner is told, and removing the owner ends its
/// shares (gone, not listed, not given to a new user of the same name).
pub async fn round_trip(s: &Store) {
    s.add_user(&NewUser {
        name: "alice".into(),
        password: hash_password(b"s3cret").unwrap(),
        ..NewUser::default()
    })
    .await
    .unwrap();
    let new = NewShare {
        owner: "alice".into(),
        path: [&b"/\xE9t\xE9/%/"[..], "Доку".as_bytes()].concat(),
        kind: ShareKind::Download,
        expires_unix: None,
        password: Some(hash_password(b"pw").unwrap()),
        max_uses: Some(2),
        nets: vec!["10.0.0.0/8".into(), "::1/128".into()],
    };
    let (share, token) = s.create_share(&new).await.unwrap();
    assert!(is_share_token(&token), "{token}");
    let (found, disabled) = s.share_by_token(&token).await.unwrap().unwrap();
    assert_eq!(found, share);
    assert_eq!(found.path, new.path);
    assert_eq!(found.nets, new.nets);
    assert!(!disabled);
    assert!(s
        .share_by_token(&format!("bfs_{}", "0".repeat(64)))
        .await
        .unwrap()
        .is_none());
    assert!(s.use_share(&share.id).await.unwrap());
    assert!(s.use_share(&share.id).await.unwrap());
    assert!(!s.use_share(&share.id).await.unwrap(), "the limit holds");
    s.give_back_share_use(&share.id).await.unwrap();
    assert!(s.use_share(&share.id).await.unwrap(), "a use given back is there again");
    assert!(!s.use_share(&share.id).await.unwrap());
    let (used, _) = s.share_by_token(&token).await.unwrap().unwrap();
    assert_eq!(used.uses, 2);
    assert_eq!(used.ended(0, false), Some(Ended::UsedUp));
    // An unknown owner is refused.
    let mut bob = new.clone();
    bob.owner = "bob".into();
    assert!(matches!(s.create_share(&bob).await, Err(AccountsError::UnknownUser(_))));
    // Upload share, expiring, listed by owner.
    let up = NewShare {
        kind: ShareKind::Upload,
        expires_unix: Some(100),
        password: None,
        max_uses: None,
        nets: Vec::new(),
        path: b"/in".to_vec(),
        ..new.clone()
    };
    let (up, up_token) = s.create_share(&up).await.unwrap();
    assert_eq!(up.ended(99, false), None);
    assert_eq!(up.ended(100, false), Some(Ended::Expired));
    assert_eq!(up.ended(0, true), Some(Ended::OwnerDisabled));
    assert_eq!(s.shares(Some("alice")).await.unwrap().len(), 2);
    s.remove_share(&share.id).await.unwrap();
    assert!(matches!(
        s.remove_share(&share.id).await,
        Err(AccountsError::UnknownShare(_))
    ));
    let (gone, _) = s.share_by_token(&token).await.unwrap().unwrap();
    assert_eq!(gone.ended(0, false), Some(Ended::Removed));
    assert_eq!(s.shares(None).await.unwrap(), vec![up.clone()]);
    s.set_user(
        "alice",
        &UserChanges {
            disabled: Some(true),
            ..UserChanges::default()
        },
    )
    .await
    .unwrap();
    assert!(s.share_by_token(&up_token).await.unwrap().unwrap().1);
    s.remove_user("alice").await.unwrap();
    let (ended, _) = s.share_by_token(&up_token).await.unwrap().unwrap();
    assert_eq!(ended.ended(0, false), Some(Ended::Removed));
    assert!(s.shares(None).await.unwrap().is_empty());
    s.add_user(&NewUser {
        name: "alice".into(),
        password: hash_password(b"other").unwrap(),
        ..NewUser::default()
    })
    .await
    .unwrap();
    let (again, disabled) = s.share_by_token(&up_token).await.unwrap().unwrap();
    assert_eq!((again.ended(0, disabled)), Some(Ended::Removed));
    assert!(s.shares(Some("alice")).await.unwrap().is_empty());
}
