//! The client's control connection against a real babelftp server.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use babelftp_client::{Control, Error};
use babelftp_proto::command::Command;
use babelftp_proto::path::WirePath;
use babelftp_proto::reply::ReplyCode;
use babelftp_server::{config::User, Config, Server};

#[tokio::test]
async fn feat_login_and_pathnames_with_cr_and_spaces() {
    let root = tempfile::tempdir().unwrap();
    let cfg = Config {
        root: root.path().to_path_buf(),
        listen: vec!["127.0.0.1:0".parse().unwrap()],
        users: vec![User::plain("u", "p")],
        login_fail_delay: Duration::from_millis(10),
        ..Config::default()
    };
    let server = Server::bind(cfg).await.unwrap();
    let addr = server.local_addrs()[0];
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(server.run(
        async {
            let _ = stopped.await;
        },
        Duration::from_secs(1),
    ));

    let mut c = Control::connect(addr).await.unwrap();
    assert_eq!(c.greeting.code, ReplyCode::READY);
    let feat = c.feat().await.unwrap();
    assert!(feat.utf8());
    assert!(feat.lang().is_some());
    match c.login(b"u", b"wrong").await {
        Err(Error::Refused(r)) => assert_eq!(r.code, ReplyCode::NOT_LOGGED_IN),
        other => panic!("{:?}", other.map(|r| r.code)),
    }
    c.login(b"u", b"p").await.unwrap();
    // A name with a CR, a quote and leading spaces: sent padded, created
    // exactly, and read back from the 257 reply.
    let name = WirePath::new(b"  a\r\"b\" \xe6\x97\xa5".to_vec());
    let r = c.command(&Command::Mkd(name.clone())).await.unwrap();
    assert_eq!(r.code, ReplyCode::PATH_CREATED);
    let created = WirePath::unquote_257(&r.lines[0]).unwrap();
    assert_eq!(&created.as_bytes()[1..], name.as_bytes());
    assert!(root.path().join("  a\r\"b\" 日").is_dir());
    // An LF would end the command line: the client refuses to send it.
    let bad = c.command(&Command::Dele(WirePath::new(b"x\nRMD y".to_vec()))).await;
    assert!(matches!(bad, Err(Error::Path(_))));
    assert_eq!(c.command(&Command::Quit).await.unwrap().code, ReplyCode::CLOSING);

    stop.send(()).unwrap();
    task.await.unwrap().unwrap();
}
