use super::*;
use crate::auth;

#[test]
fn cidrs_parse_and_match() {
    let net: Cidr = "10.1.0.0/16".parse().unwrap();
    assert!(net.contains("10.1.200.3".parse().unwrap()));
    assert!(!net.contains("10.2.0.1".parse().unwrap()));
    assert!(net.contains("::ffff:10.1.0.9".parse().unwrap()));
    let one: Cidr = "127.0.0.1".parse().unwrap();
    assert!(one.contains("127.0.0.1".parse().unwrap()) && !one.contains("127.0.0.2".parse().unwrap()));
    let v6: Cidr = "2001:db8::/32".parse().unwrap();
    assert!(v6.contains("2001:db8:ffff::1".parse().unwrap()) && !v6.contains("2001:db9::1".parse().unwrap()));
    let all: Cidr = "0.0.0.0/0".parse().unwrap();
    assert!(all.contains("203.0.113.1".parse().unwrap()) && !all.contains("::1".parse().unwrap()));
    for bad in ["10.0.0.0/33", "10.0.0/8", "host", "::1/129", "1.2.3.4/"] {
        assert!(bad.parse::<Cidr>().is_err(), "{bad}");
    }
}

#[test]
fn full_file_parses() {
    let dir = tempfile::tempdir().unwrap();
    let hash = auth::hash_password(b"pw").unwrap();
    std::fs::write(
        dir.path().join("users.toml"),
        format!("[[user]]\nname = \"bob\"\npassword = \"{hash}\"\nhome = \"/bob\"\n"),
    )
    .unwrap();
    let cfg = dir.path().join("babelftp.toml");
    std::fs::write(
        &cfg,
        format!(
            r#"root = "files"
listen = ["127.0.0.1:0", "[::1]:0"]
anonymous = false
anonymous_write = true
users_file = "users.toml"
passive_ports = "50000-50010"
passive_address = "192.0.2.1"
passive_addresses = {{ "10.0.0.0/8" = "10.0.0.5", "10.1.0.0/16" = "10.1.0.5", "fd00::/8" = "fd00::5" }}
max_line = 1024
idle_timeout = 60
data_timeout = 5
login_fail_delay_ms = 10
upload_end_wait_ms = 25
max_connections = 7
max_per_ip = 3
shutdown_grace = 2
xferlog = "xfer.log"
admin_listen = "127.0.0.1:9122"
http_listen = ["127.0.0.1:8080", "[::1]:8080"]

[[user]]
name = "alice"
password = "{hash}"
write = true
"#
        ),
    )
    .unwrap();
    let c = Config::load(&cfg).unwrap();
    assert_eq!(c.root, dir.path().join("files"));
    assert_eq!(c.listen.len(), 2);
    assert!(!c.anonymous && c.anonymous_write);
    assert_eq!(c.passive_ports, Some(50000..=50010));
    assert_eq!(c.passive_address, Some("192.0.2.1".parse().unwrap()));
    // Per client network, the longest match first; the others get none
    // of their own (passive_address answers them).
    let ip = |s: &str| s.parse::<std::net::IpAddr>().unwrap();
    assert_eq!(c.passive_address_for(ip("10.9.9.9")), Some(ip("10.0.0.5")));
    assert_eq!(c.passive_address_for(ip("10.1.2.3")), Some(ip("10.1.0.5")));
    assert_eq!(c.passive_address_for(ip("::ffff:10.1.2.3")), Some(ip("10.1.0.5")));
    assert_eq!(c.passive_address_for(ip("fd00::1")), Some(ip("fd00::5")));
    assert_eq!(c.passive_address_for(ip("203.0.113.1")), None);
    assert_eq!((c.max_line, c.max_connections, c.max_per_ip), (1024, 7, 3));
    assert_eq!(c.idle_timeout, Duration::from_secs(60));
    assert_eq!(c.login_fail_delay, Duration::from_millis(10));
    assert_eq!(c.upload_end_wait, Duration::from_millis(25));
    assert_eq!(c.xferlog, Some(dir.path().join("xfer.log")));
    assert_eq!(c.admin_listen, Some("127.0.0.1:9122".parse().unwrap()));
    assert_eq!(
        c.http_listen,
        vec!["127.0.0.1:8080".parse().unwrap(), "[::1]:8080".parse().unwrap()]
    );
    assert_eq!(c.users.len(), 2);
    assert_eq!(c.users[0].name, b"alice");
    assert!(c.users[0].write);
    assert_eq!(c.users[1].home, b"/bob");
    assert!(!c.users[1].write);
    assert!(c.users[1].secret.verify(b"pw"));
}

#[test]
fn mistakes_are_reported_with_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("c.toml");
    std::fs::write(&p, "rooot = \"x\"\n").unwrap();
    let e = Config::load(&p).unwrap_err().to_string();
    assert!(e.contains("c.toml") && e.contains("rooot"), "{e}");
    std::fs::write(&p, "passive_ports = \"9-1\"\n").unwrap();
    assert!(Config::load(&p).unwrap_err().to_string().contains("LOW-HIGH"));
    std::fs::write(&p, "[[user]]\nname = \"a\"\npassword = \"plain\"\n").unwrap();
    assert!(Config::load(&p).unwrap_err().to_string().contains("babelftp passwd"));
    assert!(Config::load(&dir.path().join("missing.toml")).is_err());
    std::fs::write(&p, "fsync = \"sometimes\"\n").unwrap();
    assert!(Config::load(&p)
        .unwrap_err()
        .to_string()
        .contains("\"always\", \"batch\" or \"never\""));
}

#[test]
fn named_users_turn_anonymous_off_unless_the_file_says_otherwise() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("c.toml");
    let hash = auth::hash_password(b"pw").unwrap();
    let user = format!("[[user]]\nname = \"a\"\npassword = \"{hash}\"\n");
    std::fs::write(&p, &user).unwrap();
    let c = Config::load(&p).unwrap();
    assert!(!c.anonymous);
    assert_eq!(c.fsync, crate::storage::fs::Fsync::Batch);
    std::fs::write(&p, format!("anonymous = true\nfsync = \"never\"\n{user}")).unwrap();
    let c = Config::load(&p).unwrap();
    assert!(c.anonymous);
    assert_eq!(c.fsync, crate::storage::fs::Fsync::Never);
    std::fs::write(&p, "").unwrap();
    assert!(Config::load(&p).unwrap().anonymous);
}

#[test]
fn a_virtual_host_takes_a_root_or_any_storage() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("c.toml");
    std::fs::write(
        &p,
        "[[host]]\nname = \"a.test\"\nroot = \"a\"\n\n[[host]]\nname = \"b.test\"\ndefault_lang = \"ja\"\n[host.storage]\nkind = \"s3\"\nbucket = \"ftp\"\nprefix = \"b/\"\n",
    )
    .unwrap();
    let c = Config::load(&p).unwrap();
    assert_eq!(c.hosts.len(), 2);
    assert_eq!(c.hosts[0].root, dir.path().join("a"));
    assert!(c.hosts[0].storage.is_local());
    match &c.hosts[1].storage {
        crate::storage::Backend::S3(s3) => assert_eq!((s3.bucket.as_str(), s3.prefix.as_str()), ("ftp", "b/")),
        other => panic!("{other:?}"),
    }
    std::fs::write(&p, "[[host]]\nname = \"c.test\"\n").unwrap();
    let e = Config::load(&p).unwrap_err().to_string();
    assert!(e.contains("c.test") && e.contains("needs a root"), "{e}");
    std::fs::write(&p, "[[host]]\nname = \"d.test\"\n[host.storage]\nkind = \"s3\"\n").unwrap();
    let e = Config::load(&p).unwrap_err().to_string();
    assert!(e.contains("d.test") && e.contains("needs a bucket"), "{e}");
}

#[test]
fn the_defender_is_on_by_default_allows_loopback_and_reads_its_table() {
    let d = Config::default().defender;
    assert!(d.enabled);
    let loopback =
        |d: &crate::defender::DefenderConfig, ip: &str| d.allow.iter().any(|c| c.contains(ip.parse().unwrap()));
    assert!(loopback(&d, "127.0.0.1") && loopback(&d, "127.9.9.9") && loopback(&d, "::1"));
    assert!(!loopback(&d, "203.0.113.1"));
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("babelftp.toml");
    std::fs::write(
        &cfg,
        "[defender]\nthreshold = 3\nwindow = 60\nban_time = 10\nallow = []\nconnections_per_second = 5\n",
    )
    .unwrap();
    let d = Config::load(&cfg).unwrap().defender;
    assert_eq!((d.threshold, d.window.as_secs(), d.ban_time.as_secs()), (3, 60, 10));
    assert_eq!(d.connections_per_second, 5);
    assert!(d.allow.is_empty(), "[] scores loopback too");
    let def = crate::defender::DefenderConfig::default();
    assert_eq!(
        (def.score_bounce, def.score_foreign_data, def.score_long_line),
        (5, 5, 5)
    );
    assert_eq!((d.score_bounce, d.score_foreign_data, d.score_long_line), (5, 5, 5));
    std::fs::write(
        &cfg,
        "[defender]\nscore_bounce = 0\nscore_foreign_data = 15\nscore_long_line = 2\n",
    )
    .unwrap();
    let d = Config::load(&cfg).unwrap().defender;
    assert_eq!((d.score_bounce, d.score_foreign_data, d.score_long_line), (0, 15, 2));
    std::fs::write(&cfg, "[defender]\nallow = [\"10.0.0.0/33\"]\n").unwrap();
    assert!(Config::load(&cfg).is_err());
    std::fs::write(&cfg, "[defender]\nthreshhold = 3\n").unwrap();
    assert!(Config::load(&cfg).is_err(), "a misspelt key is refused");
    // IPv6 clients are their /64 unless told otherwise.
    assert_eq!(Config::default().defender.ipv6_prefix, 64);
    std::fs::write(&cfg, "[defender]\nipv6_prefix = 56\n").unwrap();
    assert_eq!(Config::load(&cfg).unwrap().defender.ipv6_prefix, 56);
    for bad in ["0", "31", "129"] {
        std::fs::write(&cfg, format!("[defender]\nipv6_prefix = {bad}\n")).unwrap();
        let e = Config::load(&cfg).unwrap_err().to_string();
        assert!(e.contains("ipv6_prefix"), "{e}");
    }
}

#[test]
fn server_bandwidth_limits_read_top_level_or_in_their_table() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("c.toml");
    assert_eq!(Config::default().download_rate, None);
    std::fs::write(&p, "download_rate = \"1MiB/s\"\nupload_rate = \"500KiB/s\"\n").unwrap();
    let c = Config::load(&p).unwrap();
    assert_eq!((c.download_rate, c.upload_rate), (Some(1 << 20), Some(500 << 10)));
    std::fs::write(&p, "[limits]\ndownload_rate = \"2MiB/s\"\n").unwrap();
    let c = Config::load(&p).unwrap();
    assert_eq!((c.download_rate, c.upload_rate), (Some(2 << 20), None));
    std::fs::write(&p, "download_rate = \"fast\"\n").unwrap();
    let e = Config::load(&p).unwrap_err().to_string();
    assert!(e.contains("download_rate") && e.contains("fast"), "{e}");
    std::fs::write(&p, "download_rate = \"0/s\"\n").unwrap();
    assert!(Config::load(&p).is_err(), "a rate of nothing is a mistake, not a stop");
}

#[test]
fn event_hooks_parse() {
    use crate::events::{Kind, Target};
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("babelftp.toml");
    std::fs::write(
        &cfg,
        r#"
node = "ftp1"

[[hook]]
url = "https://pipeline.example.org/ftp-events"
events = ["upload", "rename", "login_failed"]
path = "/incoming/**"
secret = "s3cret"
timeout_ms = 2500
max_backoff = 30

[[hook]]
command = "mv \"$ROOT$BABELFTP_PATH\" /srv/done/"
name = "mover"
"#,
    )
    .unwrap();
    let c = Config::load(&cfg).unwrap();
    assert_eq!(c.node.as_deref(), Some("ftp1"));
    assert_eq!(c.hooks.len(), 2);
    let (web, cmd) = (&c.hooks[0], &c.hooks[1]);
    assert_eq!(
        web.target,
        Target::Url("https://pipeline.example.org/ftp-events".into())
    );
    assert_eq!(web.name, "https://pipeline.example.org/ftp-events");
    assert_eq!(web.events, [Kind::Upload, Kind::Rename, Kind::LoginFailed]);
    assert_eq!(web.path.as_deref(), Some("/incoming/**"));
    assert_eq!(web.secret.as_deref(), Some("s3cret"));
    assert_eq!(web.timeout, Duration::from_millis(2500));
    assert_eq!(web.max_backoff, Duration::from_secs(30));
    assert_eq!(cmd.name, "mover");
    assert!(cmd.events.is_empty(), "every event");
    assert!(matches!(&cmd.target, Target::Command(c) if c.starts_with("mv ")));
    for (bad, says) in [
        ("[[hook]]\nurl = \"ftp://x\"\n", "expected http"),
        ("[[hook]]\nevents = [\"upload\"]\n", "needs a url or a command"),
        (
            "[[hook]]\nurl = \"http://x\"\ncommand = \"true\"\n",
            "needs a url or a command",
        ),
        (
            "[[hook]]\nurl = \"http://x\"\nevents = [\"uploaded\"]\n",
            "\"uploaded\" is none of upload",
        ),
    ] {
        std::fs::write(&cfg, bad).unwrap();
        let e = Config::load(&cfg).unwrap_err().to_string();
        assert!(e.contains(says), "{bad}: {e}");
    }
}

/// Issue 45: `[events] max_pending`, `allowed_sources` (relative to the
/// file, `..` refused), `admin_insecure_http`, and which LDAP attribute
/// names the account.
#[test]
fn issue_45_settings_parse() {
    let dir = tempfile::tempdir().unwrap();
    let base = std::fs::canonicalize(dir.path()).unwrap();
    let cfg = base.join("a.toml");
    std::fs::write(
        &cfg,
        "root = \"files\"\nallowed_sources = [\"/srv/ftp/\", \"data\", \"s3://bucket/pre/\"]\nadmin_insecure_http = true\n[events]\nmax_pending = 7\n",
    )
    .unwrap();
    let c = Config::load(&cfg).unwrap();
    assert_eq!(c.events_max_pending, 7);
    assert!(c.admin_insecure_http);
    assert_eq!(
        c.allowed_sources().describe(),
        format!("/srv/ftp, {}, s3://bucket/pre", base.join("data").display())
    );
    // By default: the served root, made absolute.
    let d = Config::load(&{
        std::fs::write(base.join("b.toml"), "root = \"files\"\n").unwrap();
        base.join("b.toml")
    })
    .unwrap();
    assert_eq!(d.events_max_pending, DEFAULT_MAX_PENDING);
    assert!(!d.admin_insecure_http);
    assert_eq!(d.allowed_sources().describe(), base.join("files").display().to_string());
    for bad in [
        "allowed_sources = [\"../x\"]",
        "allowed_sources = [\"/srv/../etc\"]",
        "allowed_sources = [\"ftp://x\"]",
        "[events]\nmax_pending = 0",
        "[ldap]\nurl = \"ldap://h\"\nsearch_base = \"dc=x\"\nsearch_filter = \"(cn=*{user}*)\"",
        "[ldap]\nurl = \"ldap://h\"\nuser_dn = \"{user}@example.org\"",
    ] {
        std::fs::write(base.join("c.toml"), bad).unwrap();
        assert!(Config::load(&base.join("c.toml")).is_err(), "{bad}");
    }
    for (good, attr) in [
        ("user_dn = \"uid={user},ou=people,dc=x\"", "uid"),
        ("search_base = \"dc=x\"", "uid"),
        (
            "search_base = \"dc=x\"\nsearch_filter = \"(&(objectClass=person)(sAMAccountName={user}))\"",
            "sAMAccountName",
        ),
        ("user_dn = \"{user}@example.org\"\nname_attribute = \"mail\"", "mail"),
    ] {
        std::fs::write(base.join("c.toml"), format!("[ldap]\nurl = \"ldap://h\"\n{good}\n")).unwrap();
        let l = Config::load(&base.join("c.toml")).unwrap().ldap.unwrap();
        assert_eq!(l.naming_attribute().unwrap(), attr, "{good}");
    }
}

/// Issue 46: one schema. The defaults are `Settings::default()`, resolved
/// (what `Config::default()` is); a file that leaves a key out gets the
/// same value as no file at all.
#[test]
fn the_defaults_are_the_schemas_resolved() {
    let c = Settings::default().resolve().unwrap();
    assert_eq!(c.root, std::path::PathBuf::from(schema::DEFAULT_ROOT));
    assert_eq!(c.listen, vec!["127.0.0.1:2121".parse().unwrap()]);
    assert!(c.anonymous && !c.anonymous_write);
    assert_eq!((c.max_connections, c.max_per_ip, c.max_passive_per_ip), (512, 32, None));
    assert_eq!(c.max_line, babelftp_proto::line::DEFAULT_MAX_LINE);
    assert_eq!(
        (c.idle_timeout, c.data_timeout, c.stall_timeout, c.http_header_timeout),
        (
            Duration::from_secs(300),
            Duration::from_secs(30),
            Duration::from_secs(60),
            Duration::from_secs(20)
        )
    );
    assert_eq!(
        (c.login_fail_delay, c.upload_end_wait, c.shutdown_grace),
        (
            Duration::from_secs(1),
            Duration::from_millis(10),
            Duration::from_secs(30)
        )
    );
    assert_eq!(c.fsync, crate::storage::fs::Fsync::Batch);
    assert!(c.tls_reuse_required && !c.tls_required);
    assert_eq!(c.events_max_pending, DEFAULT_MAX_PENDING);
    assert_eq!(c.defender, crate::defender::DefenderConfig::default());
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("empty.toml");
    std::fs::write(&p, "").unwrap();
    let f = Config::load(&p).unwrap();
    assert_eq!(format!("{f:?}"), format!("{c:?}"), "an empty file is the defaults");
    assert_eq!(format!("{:?}", Config::default()), format!("{c:?}"));
    // The passive cap: max_per_ip by default, a quarter of the range at
    // most, at least 1.
    let mut c = c;
    assert_eq!(c.passive_cap(), 32);
    c.passive_ports = Some(50000..=50019);
    assert_eq!(c.passive_cap(), 5);
    assert_eq!(c.passive_cap_exceeds_range(), None);
    c.max_passive_per_ip = Some(2);
    assert_eq!(c.passive_cap(), 2);
    // A value written wins over the quarter (issue 48), and is said at
    // start when it exceeds the range.
    c.max_passive_per_ip = Some(15);
    assert_eq!(c.passive_cap(), 15);
    assert_eq!(c.passive_cap_exceeds_range(), None);
    c.max_passive_per_ip = Some(5000);
    assert_eq!(c.passive_cap(), 5000);
    assert_eq!(c.passive_cap_exceeds_range(), Some((5000, 20)));
    c.max_passive_per_ip = None;
    c.passive_ports = Some(50000..=50000);
    assert_eq!(c.passive_cap(), 1);
}

/// The rule "anonymous off when named accounts exist", once, for every
/// source of accounts; an explicit `anonymous` (the key, or a flag over
/// it) wins.
#[test]
fn anonymous_is_off_with_any_named_accounts_unless_said() {
    let hash = auth::hash_password(b"pw").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let users = dir.path().join("users.toml");
    std::fs::write(&users, format!("[[user]]\nname = \"u\"\npassword = \"{hash}\"\n")).unwrap();
    type Named = Box<dyn Fn(&mut Settings)>;
    let cases: Vec<(&str, Named)> = vec![
        (
            "[[user]]",
            Box::new(|s| s.user.push(schema::UserEntry::clear("a", "b"))),
        ),
        ("users_file", Box::new(move |s| s.users_file.push(users.clone()))),
        ("db", Box::new(|s| s.db = Some("sqlite:x.db".into()))),
        (
            "auth_hook",
            Box::new(|s| s.auth_hook = Some(schema::AuthHook::new("http://127.0.0.1:1/".into()))),
        ),
    ];
    for (what, named) in cases {
        let mut s = Settings::default();
        named(&mut s);
        assert!(!s.clone().resolve().unwrap().anonymous, "{what}");
        s.anonymous = Some(true);
        assert!(s.clone().resolve().unwrap().anonymous, "{what}, anonymous = true");
    }
    let s = Settings {
        anonymous: Some(false),
        ..Settings::default()
    };
    assert!(!s.resolve().unwrap().anonymous);
}

/// The file's format does not change: `users_file` is one path, a
/// `--user` (a password in clear) cannot be written as a table, and a
/// mistake's message names the key and its line.
#[test]
fn the_schema_reads_the_files_it_always_read() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("c.toml");
    for bad in [
        "users_file = [\"a.toml\"]\n",
        "[[user]]\nname = \"a\"\npassword = \"pw\"\nclear = true\n",
        "file = \"x\"\n",
    ] {
        std::fs::write(&p, bad).unwrap();
        assert!(Config::load(&p).is_err(), "{bad}");
    }
    std::fs::write(&p, "root = \"r\"\nmax_per_ip = \"3\"\n").unwrap();
    let e = Config::load(&p).unwrap_err().to_string();
    assert!(e.contains("c.toml:2: ") && e.contains("max_per_ip"), "{e}");
    // Listen keys take one address or a list; a relative path is the
    // file's neighbour, an absolute one stays.
    std::fs::write(
        &p,
        "listen = \"127.0.0.1:21\"\nmetrics_listen = [\"127.0.0.1:9121\"]\nxferlog = \"/var/log/x\"\ncatalogs = \"cat\"\ndb = \"sqlite:a.db\"\n",
    )
    .unwrap();
    let c = Config::load(&p).unwrap();
    assert_eq!(c.listen, vec!["127.0.0.1:21".parse().unwrap()]);
    assert_eq!(c.metrics_listen, Some("127.0.0.1:9121".parse().unwrap()));
    assert_eq!(c.xferlog, Some("/var/log/x".into()));
    assert_eq!(c.catalogs_dir, Some(dir.path().join("cat")));
    assert_eq!(c.db, Some(format!("sqlite:{}", dir.path().join("a.db").display())));
    // A value wrong on the command line names no file.
    let s = Settings {
        passive_ports: Some("x".into()),
        ..Settings::default()
    };
    assert_eq!(
        s.resolve().unwrap_err().to_string(),
        "passive_ports wants \"LOW-HIGH\", got \"x\""
    );
}
