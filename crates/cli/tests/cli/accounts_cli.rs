//! `babelftp user …` and `babelftp group …` on a SQLite store in a
//! temporary directory, as an admin's script runs them.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// Runs `babelftp ARGS --db sqlite:DIR/accounts.db` in English with
/// `stdin` as its standard input: (exit code, stdout, stderr).
fn run_in(dir: &Path, args: &[&str], stdin: &str) -> (i32, String, String) {
    let db = format!("sqlite:{}", dir.join("accounts.db").display());
    let mut child = Command::new(env!("CARGO_BIN_EXE_babelftp"))
        .args(args)
        .args(["--db", &db])
        .env("LC_ALL", "C")
        .env_remove("BABELFTP_DB")
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A command that fails before it reads its input closes the pipe.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn ok(dir: &Path, args: &[&str]) -> String {
    let (code, out, err) = run_in(dir, args, "");
    assert_eq!(code, 0, "{args:?}: {out}{err}");
    out
}

fn fails(dir: &Path, args: &[&str], code: i32, text: &str) {
    let (c, out, err) = run_in(dir, args, "s3cret-pw\n");
    assert_eq!(c, code, "{args:?}: {out}{err}");
    assert!(err.contains(text), "{args:?}: {err:?} lacks {text:?}");
}

#[test]
fn an_admin_sets_up_users_and_groups() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok(
        d,
        &["group", "add", "staff", "--lang", "fr", "--charset", "windows-1251"],
    );
    // The password: one line on standard input.
    let (code, out, err) = run_in(d, &["user", "add", "alice", "--group", "staff"], "s3cret-pw\n");
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("alice") && out.contains("SQLite"), "{out}");
    let (code, _, err) = run_in(d, &["user", "add", "bob", "--home", "/bob"], "a-password\r\n");
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        ok(d, &["user", "list"]),
        "alice\tstaff\t-\tenabled\nbob\t-\t/bob\tenabled\n"
    );

    ok(d, &["user", "perm", "alice", "/", "read"]);
    ok(d, &["user", "perm", "alice", "/incoming", "upload,mkdir"]);
    ok(d, &["group", "perm", "staff", "/pub", "read"]);
    // Sources outside the served root: allowed by the configuration.
    std::fs::write(
        d.join("allowed.toml"),
        "allowed_sources = [\"/srv\", \"s3://team-bucket\"]\n",
    )
    .unwrap();
    ok(
        d,
        &[
            "user",
            "mount",
            "alice",
            "/archive",
            "/srv/archive",
            "--config",
            "allowed.toml",
        ],
    );
    ok(
        d,
        &[
            "group",
            "mount",
            "staff",
            "/shared",
            "s3://team-bucket/shared",
            "--config",
            "allowed.toml",
        ],
    );
    assert_eq!(
        ok(d, &["user", "show", "alice"]),
        "name\talice\n\
         group\tstaff\n\
         state\tenabled\n\
         home\t/\tdefault\n\
         lang\tfr\tgroup\n\
         charset\twindows-1251\tgroup\n\
         perm\t/\tread\tuser\n\
         perm\t/incoming\tupload,mkdir\tuser\n\
         perm\t/pub\tread\tgroup\n\
         mount\t/archive\t/srv/archive\tuser\n\
         mount\t/shared\ts3://team-bucket/shared\tgroup\n\
         quota-bytes\t-\tdefault\nquota-files\t-\tdefault\ndownload-rate\t-\tdefault\n\
         upload-rate\t-\tdefault\nmax-sessions\t-\tdefault\ntls-reuse\t-\tdefault\n"
    );

    ok(
        d,
        &[
            "user",
            "set",
            "alice",
            "--lang",
            "ja",
            "--charset",
            "shift_jis",
            "--home",
            "/alice/",
        ],
    );
    ok(d, &["user", "set", "alice", "--disable"]);
    let show = ok(d, &["user", "show", "alice"]);
    assert!(show.contains("state\tdisabled\n"), "{show}");
    assert!(show.contains("home\t/alice\tuser\n"), "{show}");
    assert!(show.contains("lang\tja\tuser\n"), "{show}");
    ok(d, &["user", "set", "alice", "--enable", "--no-lang", "--no-group"]);
    let show = ok(d, &["user", "show", "alice"]);
    assert!(
        show.contains("state\tenabled\n") && show.contains("lang\t-\tdefault\n"),
        "{show}"
    );
    assert!(!show.contains("/pub"), "{show}");

    // inherit removes the rule; unmount the mount.
    ok(d, &["user", "perm", "alice", "/incoming", "inherit"]);
    ok(d, &["user", "unmount", "alice", "/archive"]);
    let show = ok(d, &["user", "show", "alice"]);
    assert!(!show.contains("/incoming") && !show.contains("mount\t"), "{show}");

    let (code, _, err) = run_in(d, &["user", "passwd", "bob"], "new-password\n");
    assert_eq!(code, 0, "{err}");
    ok(
        d,
        &[
            "group",
            "set",
            "staff",
            "--no-charset",
            "--home",
            "s3://team-bucket/home",
            "--config",
            "allowed.toml",
        ],
    );
    assert_eq!(ok(d, &["group", "list"]), "staff\ts3://team-bucket/home\tfr\t-\t0\n");
    let g = ok(d, &["group", "show", "staff"]);
    assert!(
        g.starts_with("name\tstaff\nhome\ts3://team-bucket/home\nlang\tfr\ncharset\t-\nmembers\t-\n"),
        "{g}"
    );
    ok(d, &["user", "rm", "bob"]);
    ok(d, &["group", "rm", "staff"]);
    assert_eq!(ok(d, &["user", "list"]), "alice\t-\t/alice\tenabled\n");
}

#[test]
fn mistakes_are_refused_with_a_reason_and_an_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok(d, &["group", "add", "staff"]);
    let (code, _, err) = run_in(d, &["user", "add", "alice", "--group", "staff"], "s3cret-pw\n");
    assert_eq!(code, 0, "{err}");
    // A wrong value: usage (2).
    fails(
        d,
        &["user", "perm", "alice", "/pub", "read,fly"],
        2,
        "fly is not a permission",
    );
    fails(d, &["user", "perm", "alice", "pub", "read"], 2, "is not a virtual path");
    fails(
        d,
        &["user", "set", "alice", "--charset", "klingon"],
        2,
        "klingon is not a charset",
    );
    fails(
        d,
        &["user", "set", "alice", "--lang", "fr_FR"],
        2,
        "fr_FR is not a language tag",
    );
    fails(d, &["user", "set", "alice", "--home", "alice"], 2, "home alice");
    fails(d, &["user", "mount", "alice", "/x", "srv/x"], 2, "source srv/x");
    fails(
        d,
        &["user", "mount", "alice", "/", "/srv"],
        2,
        "nothing can be mounted at /",
    );
    fails(d, &["user", "add", "a b"], 2, "is not a valid name");
    fails(
        d,
        &["user", "add", "carol", "--charset", "utf-16"],
        2,
        "utf-16 is not a charset",
    );
    let (code, _, err) = run_in(d, &["user", "add", "carol"], "\n");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("empty password"), "{err}");
    // Something that is not there, or already is: 1.
    fails(d, &["user", "show", "nobody"], 1, "no user nobody in SQLite");
    fails(d, &["user", "rm", "nobody"], 1, "no user nobody");
    fails(d, &["user", "passwd", "nobody"], 1, "no user nobody");
    fails(d, &["user", "perm", "nobody", "/", "read"], 1, "no user nobody");
    fails(d, &["group", "perm", "nogroup", "/", "read"], 1, "no group nogroup");
    fails(d, &["user", "add", "bob", "--group", "nogroup"], 1, "no group nogroup");
    fails(d, &["user", "add", "alice"], 1, "user alice already exists");
    fails(d, &["group", "rm", "staff"], 1, "group staff still has 1 users");
    fails(
        d,
        &["user", "unmount", "alice", "/x"],
        1,
        "nothing is mounted at /x for alice",
    );
    fails(
        d,
        &["user", "perm", "alice", "/x", "inherit"],
        1,
        "alice has no permission rule at /x",
    );
    // Nothing above changed alice.
    let show = ok(d, &["user", "show", "alice"]);
    assert!(
        show.contains("charset\t-\tdefault\n") && show.contains("perm\t/\tall\tdefault\n"),
        "{show}"
    );
    assert_eq!(ok(d, &["user", "list"]), "alice\tstaff\t-\tenabled\n");
}

#[test]
fn a_users_file_is_imported_and_the_db_comes_from_the_environment() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let hash = Command::new(env!("CARGO_BIN_EXE_babelftp"))
        .arg("passwd")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            c.stdin.take().unwrap().write_all(b"s3cret\n")?;
            c.wait_with_output()
        })
        .unwrap();
    let hash = String::from_utf8(hash.stdout).unwrap().trim().to_owned();
    let file = d.join("users.toml");
    std::fs::write(
        &file,
        format!(
            "[[user]]\nname = \"alice\"\npassword = \"{hash}\"\nhome = \"/alice\"\nwrite = true\n\n\
             [[user]]\nname = \"bob\"\npassword = \"{hash}\"\n"
        ),
    )
    .unwrap();
    let out = ok(d, &["user", "import", "users.toml"]);
    assert!(out.contains("2 users added, 0 updated"), "{out}");
    assert_eq!(
        ok(d, &["user", "list"]),
        "alice\t-\t/alice\tenabled\nbob\t-\t/\tenabled\n"
    );
    assert!(ok(d, &["user", "show", "alice"]).contains("perm\t/\tall\tuser\n"));
    assert!(ok(d, &["user", "show", "bob"]).contains("perm\t/\tread\tuser\n"));
    let out = ok(d, &["user", "import", "users.toml"]);
    assert!(out.contains("0 users added, 2 updated"), "{out}");
    std::fs::write(&file, "[[user]]\nname = \"x\"\npassword = \"plain\"\n").unwrap();
    fails(
        d,
        &["user", "import", "users.toml"],
        1,
        "the password of x is not an argon2 hash",
    );
    fails(d, &["user", "import", "missing.toml"], 1, "missing.toml");

    // BABELFTP_DB when there is no --db; the default: babelftp.db here.
    let other = d.join("other.db");
    let run = |env_db: Option<&str>| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_babelftp"));
        c.args(["user", "list"]).env("LC_ALL", "C").current_dir(d);
        match env_db {
            Some(v) => c.env("BABELFTP_DB", v),
            None => c.env_remove("BABELFTP_DB"),
        };
        let out = c.output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(run(Some(other.to_str().unwrap())), "");
    assert!(other.is_file());
    assert!(run(Some(&format!("sqlite:{}", d.join("accounts.db").display()))).starts_with("alice\t"));
    assert_eq!(run(None), "");
    assert!(d.join("babelftp.db").is_file());
    let out = Command::new(env!("CARGO_BIN_EXE_babelftp"))
        .args(["user", "list"])
        .env("LC_ALL", "C")
        .env("BABELFTP_DB", "mysql://ftp:s3cret@h/x")
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("mysql://ftp:****@h/x is not an accounts store"), "{err}");
}

/// Issue 45, items 6 and 7: homes and mounts set with the commands lie
/// under the allowed sources: those of `--config FILE`, else the root
/// `--root DIR`, else `ftp-root` of the working directory (serve's
/// default); a `file://` home keeps its form (it is no path of the root).
#[test]
fn the_commands_keep_homes_and_mounts_under_the_allowed_sources() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (code, _, err) = run_in(d, &["user", "add", "alice"], "a-password\n");
    assert_eq!(code, 0, "{err}");
    ok(d, &["group", "add", "staff"]);
    let default_root = std::path::absolute(d.join("ftp-root")).unwrap();
    // Outside the default root: refused (exit 1), naming what is allowed.
    for args in [
        &["user", "add", "mallory", "--home", "file:///etc"][..],
        &["user", "set", "alice", "--home", "file:///"],
        &["user", "mount", "alice", "/slash", "/"],
        &["user", "mount", "alice", "/s3", "s3://bucket/x"],
        &["group", "add", "wheel", "--home", "file:///root"],
        &["group", "set", "staff", "--home", "file:///etc"],
        &["group", "mount", "staff", "/etc", "/etc"],
    ] {
        let (code, out, err) = run_in(d, args, "a-password\n");
        assert_eq!(code, 1, "{args:?}: {out}{err}");
        assert!(err.contains("allowed_sources"), "{args:?}: {err}");
        assert!(err.contains(&default_root.display().to_string()), "{args:?}: {err}");
    }
    let listed = ok(d, &["user", "list"]);
    assert!(!listed.contains("mallory"), "{listed}");
    assert!(ok(d, &["user", "show", "alice"]).contains("home\t/\t"), "unchanged");
    // Below the default root: accepted; a sibling of the same prefix is not.
    let inside = default_root.join("shared");
    ok(d, &["user", "mount", "alice", "/shared", inside.to_str().unwrap()]);
    let sibling = format!("{}x", default_root.display());
    fails(d, &["user", "mount", "alice", "/x", &sibling], 1, "allowed_sources");
    // --root names another root.
    let root = d.join("served");
    let root_abs = std::path::absolute(&root).unwrap();
    let home = format!("file://{}", root_abs.join("carol").display());
    let (code, out, err) = run_in(
        d,
        &[
            "user",
            "add",
            "carol",
            "--home",
            &home,
            "--root",
            root.to_str().unwrap(),
        ],
        "a-password\n",
    );
    assert_eq!(code, 0, "{out}{err}");
    // Kept as file://: not a path of the root (item 7).
    assert!(
        ok(d, &["user", "list"]).contains(&format!("carol\t-\t{home}\tenabled")),
        "{home}"
    );
    assert!(ok(d, &["user", "show", "carol"]).contains(&format!("home\t{home}\tuser")));
    // --config: its allowed_sources.
    std::fs::write(
        d.join("c.toml"),
        "allowed_sources = [\"/srv/data\", \"s3://bucket/pre\"]\n",
    )
    .unwrap();
    ok(
        d,
        &["user", "mount", "alice", "/data", "/srv/data/x", "--config", "c.toml"],
    );
    ok(
        d,
        &[
            "group",
            "mount",
            "staff",
            "/b",
            "s3://bucket/pre/fix",
            "--config",
            "c.toml",
        ],
    );
    fails(
        d,
        &["user", "mount", "alice", "/y", "/srv/datax", "--config", "c.toml"],
        1,
        "/srv/data, s3://bucket/pre",
    );
    fails(
        d,
        &[
            "group",
            "mount",
            "staff",
            "/c",
            "s3://bucket/prefix",
            "--config",
            "c.toml",
        ],
        1,
        "allowed_sources",
    );
}

/// Issue 48, items 3 and 4, with the commands: a language the server has
/// no catalog for is a usage error (2) that names those it has, for
/// `user add`, `user set`, `group add` and `group set`, and nothing is
/// stored; a tag a catalog serves (`fr-CA`, by `fr`) is taken. A password
/// shorter than `[accounts] min_password_length` (8, or the file's) is
/// refused by `user add` and `user passwd`, saying the minimum.
#[test]
fn a_language_without_catalog_and_a_short_password_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok(d, &["group", "add", "staff"]);
    let (code, _, err) = run_in(d, &["user", "add", "carol"], "carol-pw\n");
    assert_eq!(code, 0, "{err}");
    for args in [
        &["user", "set", "carol", "--lang", "klingon"][..],
        &["user", "add", "kirk", "--lang", "klingon"],
        &["group", "add", "crew", "--lang", "klingon"],
        &["group", "set", "staff", "--lang", "klingon"],
    ] {
        let (code, out, err) = run_in(d, args, "enterprise\n");
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains("no catalog for the language klingon"), "{args:?}: {err}");
        assert!(
            err.contains("en, fr, de") && err.contains("pt-BR") && err.contains("th"),
            "{err}"
        );
    }
    let listed = ok(d, &["user", "list"]);
    assert!(!listed.contains("kirk"), "{listed}");
    assert!(ok(d, &["user", "show", "carol"]).contains("lang\t-"), "unchanged");
    ok(d, &["user", "set", "carol", "--lang", "fr-CA"]);
    assert!(ok(d, &["user", "show", "carol"]).contains("lang\tfr-CA"));

    // Passwords: 8 characters at least by default.
    for (args, pw) in [
        (&["user", "add", "dave"][..], "x\n"),
        (&["user", "add", "dave"], "1234567\n"),
        (&["user", "passwd", "carol"], "short\n"),
    ] {
        let (code, out, err) = run_in(d, args, pw);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(
            err.contains("too short") && err.contains("at least 8 characters"),
            "{err}"
        );
    }
    assert!(!ok(d, &["user", "list"]).contains("dave"));
    let (code, _, err) = run_in(d, &["user", "add", "dave"], "12345678\n");
    assert_eq!(code, 0, "{err}");
    // The configuration's minimum.
    std::fs::write(d.join("strict.toml"), "[accounts]\nmin_password_length = 12\n").unwrap();
    let (code, _, err) = run_in(
        d,
        &["user", "passwd", "dave", "--config", "strict.toml"],
        "eleven-char\n",
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("at least 12 characters"), "{err}");
    let (code, _, err) = run_in(
        d,
        &["user", "passwd", "dave", "--config", "strict.toml"],
        "twelve-chars\n",
    );
    assert_eq!(code, 0, "{err}");
}

/// Issue 48.14: `user add` makes a new SQLite store readable by its owner
/// only (it holds password and token hashes), and SQLite's -wal and -shm
/// files beside it too; a store others can read makes `user` commands and
/// `serve` warn, naming the file and `chmod 600`.
#[test]
fn a_new_store_is_private_and_a_readable_one_is_warned_about() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("accounts.db");
    let db = format!("sqlite:{}", file.display());
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let (code, out, err) = crate::common::serve::run(&["user", "add", "carol", "--db", &db], "long-password\n");
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(mode(&file), 0o600);
    assert!(!err.contains("chmod"), "{err}");
    let root = dir.path().join("root");
    std::fs::create_dir_all(&root).unwrap();
    let log = dir.path().join("serve.log");
    {
        let _srv = crate::common::serve::Serve::start_logged(&root, &["--db", &db], &[], Some(&log));
        for side in ["accounts.db-wal", "accounts.db-shm"] {
            let p = dir.path().join(side);
            if p.exists() {
                assert_eq!(mode(&p), 0o600, "{side}");
            }
        }
    }
    assert!(!std::fs::read_to_string(&log).unwrap().contains("chmod"));
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    let (code, out, err) = crate::common::serve::run(&["user", "list", "--db", &db], "");
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("carol"), "{out}");
    let shown = file.display().to_string();
    assert!(
        err.contains(&format!("{shown} can be read by other users")) && err.contains(&format!("chmod 600 {shown}")),
        "{err}"
    );
    let _srv = crate::common::serve::Serve::start_logged(&root, &["--db", &db], &[], Some(&log));
    let said = std::fs::read_to_string(&log).unwrap();
    assert!(said.contains(&format!("chmod 600 {shown}")), "{said}");
}
