//! `babelftp user …`.

use std::collections::BTreeMap;

use anyhow::Context;
use babelftp_accounts::{AccountsError, NewUser, Owner, Perms, Profile, Store, UserChanges, UserRecord};

use super::args::{UserArgs, UserCmd};
use super::shared::{change, dash, hash, limit_lines, mount, origin, perm, read_password, unmount, Served};
use super::store::{explain, open};
use crate::exit::Usage;
use crate::msg::ts;

/// `babelftp user …`.
pub async fn user(a: UserArgs) -> anyhow::Result<()> {
    let served = Served {
        config: a.config.clone(),
        root: a.root.clone(),
    };
    let (s, db) = open(a.db, a.config).await?;
    let r = user_cmd(&s, &db, a.cmd, &served).await;
    s.close().await;
    r
}

async fn user_cmd(s: &Store, db: &str, cmd: UserCmd, served: &Served) -> anyhow::Result<()> {
    let ex = |e| explain(e, db);
    match cmd {
        UserCmd::Add { name, settings, group } => {
            // Every value is checked before a password is asked for.
            babelftp_accounts::check_name(&name).map_err(ex)?;
            let mut u = NewUser {
                name,
                password: String::new(),
                home: settings.home,
                group,
                lang: settings.lang,
                charset: settings.charset,
                disabled: false,
            };
            for (check, v) in [
                (check_home as fn(&str) -> Result<(), AccountsError>, &u.home),
                (babelftp_accounts::check_lang, &u.lang),
                (babelftp_accounts::check_charset, &u.charset),
            ] {
                if let Some(v) = v {
                    check(v).map_err(ex)?;
                }
            }
            served.check_home(u.home.as_deref(), db)?;
            served.check_lang(u.lang.as_deref(), db)?;
            if let Some(g) = &u.group {
                if s.group(g).await.map_err(ex)?.is_none() {
                    return Err(ex(AccountsError::UnknownGroup(g.clone())));
                }
            }
            if s.user(&u.name).await.map_err(ex)?.is_some() {
                return Err(ex(AccountsError::UserExists(u.name)));
            }
            let password = read_password()?;
            served.check_password(&password, db)?;
            u.password = hash(&password, db)?;
            s.add_user(&u).await.map_err(ex)?;
            println!("{}", ts("cli-acct-user-added", &[("name", &u.name), ("db", db)]));
        }
        UserCmd::List => {
            for u in s.list_users().await.map_err(ex)? {
                let state = if u.disabled { "disabled" } else { "enabled" };
                println!(
                    "{}\t{}\t{}\t{state}",
                    u.name,
                    dash(u.group.as_deref()),
                    dash(u.home.as_deref())
                );
            }
        }
        UserCmd::Show { name } => show_user(s, db, &name).await?,
        UserCmd::Rm { name } => {
            s.remove_user(&name).await.map_err(ex)?;
            println!("{}", ts("cli-acct-user-removed", &[("name", &name)]));
        }
        UserCmd::Passwd { name } => {
            if s.user(&name).await.map_err(ex)?.is_none() {
                return Err(ex(AccountsError::UnknownUser(name)));
            }
            let password = read_password()?;
            served.check_password(&password, db)?;
            let phc = hash(&password, db)?;
            s.set_password(&name, &phc).await.map_err(ex)?;
            println!("{}", ts("cli-acct-password-changed", &[("name", &name)]));
        }
        UserCmd::Set {
            name,
            settings,
            clear,
            group,
            no_group,
            disable,
            enable,
            limits,
            tls,
        } => {
            served.check_home(settings.home.as_deref(), db)?;
            served.check_lang(settings.lang.as_deref(), db)?;
            let c = UserChanges {
                home: change(settings.home, clear.no_home),
                lang: change(settings.lang, clear.no_lang),
                charset: change(settings.charset, clear.no_charset),
                group: change(group, no_group),
                disabled: (disable || enable).then_some(disable),
            };
            s.set_user(&name, &c).await.map_err(ex)?;
            s.set_limits(Owner::User(&name), &limits.changes()).await.map_err(ex)?;
            if let Some(r) = tls.tls_reuse {
                s.set_tls_reuse(Owner::User(&name), r.0).await.map_err(ex)?;
            }
            println!("{}", ts("cli-acct-user-changed", &[("name", &name)]));
        }
        UserCmd::QuotaScan { name } => quota_scan(s, db, &name, served).await?,
        UserCmd::Perm { name, vpath, perms } => perm(s, db, Owner::User(&name), &vpath, &perms).await?,
        UserCmd::Mount { name, vpath, source } => mount(s, db, Owner::User(&name), &vpath, &source, served).await?,
        UserCmd::Unmount { name, vpath } => unmount(s, db, Owner::User(&name), &vpath).await?,
        UserCmd::Import { file } => {
            let users = babelftp_accounts::read_users_file(&file).map_err(ex)?;
            let r = s.import(&users).await.map_err(ex)?;
            let msg = ts(
                "cli-acct-imported",
                &[
                    ("file", &file.display().to_string()),
                    ("added", &r.added.to_string()),
                    ("updated", &r.updated.to_string()),
                ],
            );
            println!("{msg}");
        }
    }
    Ok(())
}

/// `user quota-scan`: counts the user's tree (as the server builds it
/// from the configuration's root and storage) and stores the count.
async fn quota_scan(s: &Store, db: &str, name: &str, served: &Served) -> anyhow::Result<()> {
    let ex = |e| explain(e, db);
    let Some(profile) = s.profile(name).await.map_err(ex)? else {
        return Err(ex(AccountsError::UnknownUser(name.to_owned())));
    };
    if served.config.is_none() && served.root.is_none() {
        return Err(anyhow::Error::new(Usage(ts("cli-acct-scan-needs-root", &[]))));
    }
    let cfg = served.config()?;
    let dir = std::sync::Arc::new(babelftp_server::directory::Directory::of(&cfg, None)?);
    let what = cfg.storage.describe(&cfg.root);
    let usage = babelftp_server::quota::scan_user(&cfg, &dir, profile)
        .await
        .with_context(|| ts("cli-acct-scan-failed", &[("name", name), ("root", &what)]))?;
    s.set_usage(name, usage).await.map_err(ex)?;
    let msg = ts(
        "cli-acct-quota-scanned",
        &[
            ("name", name),
            ("bytes", &babelftp_accounts::format_size(usage.bytes)),
            ("files", &usage.files.to_string()),
            ("root", &what),
        ],
    );
    println!("{msg}");
    Ok(())
}

fn check_home(h: &str) -> Result<(), AccountsError> {
    h.parse::<babelftp_accounts::Home>().map(|_| ())
}

async fn show_user(s: &Store, db: &str, name: &str) -> anyhow::Result<()> {
    let ex = |e| explain(e, db);
    let (Some(rec), Some(p)) = (s.user(name).await.map_err(ex)?, s.profile(name).await.map_err(ex)?) else {
        return Err(ex(AccountsError::UnknownUser(name.to_owned())));
    };
    let grp = match &rec.group {
        Some(g) => s.group(g).await.map_err(ex)?,
        None => None,
    };
    print!("{}", render_user(&rec, grp.as_ref(), &p));
    let mut rows = Vec::new();
    limit_lines(&p.limits, &rec.limits, grp.as_ref().map(|g| &g.limits), &mut rows);
    for r in rows {
        println!("{}", r.join("\t"));
    }
    // Issue 48: the data-connection reuse rule, and where it comes from.
    let own = s.own_tls_reuse(Owner::User(name)).await.map_err(ex)?;
    let theirs = match &rec.group {
        Some(g) => s.own_tls_reuse(Owner::Group(g)).await.map_err(ex)?,
        None => None,
    };
    let rule = p.tls_reuse.map_or("-", babelftp_accounts::TlsReuse::as_str);
    println!("tls-reuse\t{rule}\t{}", origin(own.is_some(), theirs.is_some()));
    if let Some(u) = s.usage(name).await.map_err(ex)? {
        println!("usage\t{}\t{}", u.bytes, u.files);
    }
    Ok(())
}

/// `user show`'s lines: `key<TAB>value[<TAB>origin]`.
fn render_user(rec: &UserRecord, grp: Option<&babelftp_accounts::GroupRecord>, p: &Profile) -> String {
    let mut out = String::new();
    let mut line = |parts: &[&str]| {
        out.push_str(&parts.join("\t"));
        out.push('\n');
    };
    line(&["name", &rec.name]);
    line(&["group", dash(rec.group.as_deref())]);
    line(&["state", if rec.disabled { "disabled" } else { "enabled" }]);
    let g = |f: fn(&babelftp_accounts::GroupRecord) -> &Option<String>| grp.is_some_and(|g| f(g).is_some());
    line(&["home", &p.home.to_string(), origin(rec.home.is_some(), g(|g| &g.home))]);
    line(&[
        "lang",
        dash(p.lang.as_deref()),
        origin(rec.lang.is_some(), g(|g| &g.lang)),
    ]);
    line(&[
        "charset",
        dash(p.charset.as_deref()),
        origin(rec.charset.is_some(), g(|g| &g.charset)),
    ]);
    // By path; without any rule, "/ all" (the default).
    let rules: BTreeMap<String, Perms> = p.rules.iter().collect();
    for (path, perms) in &rules {
        let own = rec.perms.iter().any(|(q, _)| q == path);
        let from_group = grp.is_some_and(|g| g.perms.iter().any(|(q, _)| q == path));
        line(&["perm", path, &perms.to_string(), origin(own, from_group)]);
    }
    for m in &p.mounts {
        let path = String::from_utf8_lossy(&m.vpath).into_owned();
        let own = rec.mounts.iter().any(|(q, _)| *q == path);
        line(&["mount", &path, &m.source.to_string(), origin(own, !own)]);
    }
    out
}
