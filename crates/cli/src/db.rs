//! Which accounts store `serve` uses: `--db URL`, else `db = "…"` in the
//! configuration, else `BABELFTP_DB`, else `babelftp.db` in the working
//! directory when it is there (the file `babelftp user add` makes by
//! default). A server without any of them has no store: its accounts are
//! `--user`, `--users` and `[[user]]` only, and starting it creates no
//! file. The server opens it (`Directory::open`).

use babelftp_server::config::Config;

/// The default store of every command: `babelftp.db` in the working
/// directory.
pub const DEFAULT_DB: &str = "sqlite:babelftp.db";

/// The store of the `user` and `group` commands: `--db`, else the `db` of
/// `--config FILE`, else `BABELFTP_DB`, else [`DEFAULT_DB`].
pub fn admin_url(flag: Option<String>, config: Option<&std::path::Path>) -> anyhow::Result<String> {
    if let Some(url) = flag.filter(|s| !s.is_empty()) {
        return Ok(url);
    }
    if let Some(path) = config {
        if let Some(url) = Config::load(path)?.db {
            return Ok(url);
        }
    }
    Ok(std::env::var("BABELFTP_DB")
        .ok()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| DEFAULT_DB.to_owned()))
}

/// The store `serve` finds when neither `--db` nor `db` names one:
/// `BABELFTP_DB`, else `babelftp.db` in the working directory when it is
/// there.
pub fn found_url() -> Option<String> {
    std::env::var("BABELFTP_DB").ok().filter(|v| !v.is_empty()).or_else(|| {
        std::path::Path::new("babelftp.db")
            .is_file()
            .then(|| DEFAULT_DB.to_owned())
    })
}

/// Issue 48: a warning (standard error) when a SQLite store's file can be
/// read by its group or by others: it holds password and token hashes.
pub fn warn_if_readable(url: Option<&str>) {
    use std::os::unix::fs::PermissionsExt;
    let Some(file) = url.and_then(babelftp_accounts::sqlite_file) else {
        return;
    };
    let Ok(meta) = std::fs::metadata(&file) else {
        return;
    };
    let mode = meta.permissions().mode() & 0o777;
    if mode & 0o077 != 0 {
        let file = file.display().to_string();
        let mode = format!("{mode:03o}");
        eprintln!(
            "{}",
            crate::msg::ts("cli-store-readable", &[("file", &file), ("mode", &mode)])
        );
    }
}
