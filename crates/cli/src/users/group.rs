//! `babelftp group …`.

use babelftp_accounts::{AccountsError, GroupChanges, NewGroup, Owner, Store};

use super::args::{GroupArgs, GroupCmd};
use super::shared::{change, dash, limit_lines, mount, perm, unmount, Served};
use super::store::{explain, open};
use crate::msg::ts;

/// `babelftp group …`.
pub async fn group(a: GroupArgs) -> anyhow::Result<()> {
    let served = Served {
        config: a.config.clone(),
        root: a.root.clone(),
    };
    let (s, db) = open(a.db, a.config).await?;
    let r = group_cmd(&s, &db, a.cmd, &served).await;
    s.close().await;
    r
}

async fn group_cmd(s: &Store, db: &str, cmd: GroupCmd, served: &Served) -> anyhow::Result<()> {
    let ex = |e| explain(e, db);
    match cmd {
        GroupCmd::Add { name, settings } => {
            served.check_home(settings.home.as_deref(), db)?;
            served.check_lang(settings.lang.as_deref(), db)?;
            let g = NewGroup {
                name,
                home: settings.home,
                lang: settings.lang,
                charset: settings.charset,
            };
            s.add_group(&g).await.map_err(ex)?;
            println!("{}", ts("cli-acct-group-added", &[("name", &g.name), ("db", db)]));
        }
        GroupCmd::List => {
            for g in s.list_groups().await.map_err(ex)? {
                println!(
                    "{}\t{}\t{}\t{}\t{}",
                    g.name,
                    dash(g.home.as_deref()),
                    dash(g.lang.as_deref()),
                    dash(g.charset.as_deref()),
                    g.members.len()
                );
            }
        }
        GroupCmd::Show { name } => {
            let Some(g) = s.group(&name).await.map_err(ex)? else {
                return Err(ex(AccountsError::UnknownGroup(name)));
            };
            println!("name\t{}", g.name);
            println!("home\t{}", dash(g.home.as_deref()));
            println!("lang\t{}", dash(g.lang.as_deref()));
            println!("charset\t{}", dash(g.charset.as_deref()));
            let members = g.members.join(",");
            println!("members\t{}", if members.is_empty() { "-" } else { &members });
            let mut rows = Vec::new();
            limit_lines(&g.limits, &g.limits, None, &mut rows);
            for mut r in rows {
                r.pop();
                println!("{}", r.join("\t"));
            }
            let rule = s.own_tls_reuse(Owner::Group(&name)).await.map_err(ex)?;
            println!("tls-reuse\t{}", rule.map_or("-", babelftp_accounts::TlsReuse::as_str));
            for (path, perms) in &g.perms {
                println!("perm\t{path}\t{perms}");
            }
            for (path, source) in &g.mounts {
                println!("mount\t{path}\t{source}");
            }
        }
        GroupCmd::Rm { name } => {
            s.remove_group(&name).await.map_err(ex)?;
            println!("{}", ts("cli-acct-group-removed", &[("name", &name)]));
        }
        GroupCmd::Set {
            name,
            settings,
            clear,
            limits,
            tls,
        } => {
            served.check_home(settings.home.as_deref(), db)?;
            served.check_lang(settings.lang.as_deref(), db)?;
            let c = GroupChanges {
                home: change(settings.home, clear.no_home),
                lang: change(settings.lang, clear.no_lang),
                charset: change(settings.charset, clear.no_charset),
            };
            s.set_group(&name, &c).await.map_err(ex)?;
            s.set_limits(Owner::Group(&name), &limits.changes()).await.map_err(ex)?;
            if let Some(r) = tls.tls_reuse {
                s.set_tls_reuse(Owner::Group(&name), r.0).await.map_err(ex)?;
            }
            println!("{}", ts("cli-acct-group-changed", &[("name", &name)]));
        }
        GroupCmd::Perm { name, vpath, perms } => perm(s, db, Owner::Group(&name), &vpath, &perms).await?,
        GroupCmd::Mount { name, vpath, source } => mount(s, db, Owner::Group(&name), &vpath, &source, served).await?,
        GroupCmd::Unmount { name, vpath } => unmount(s, db, Owner::Group(&name), &vpath).await?,
    }
    Ok(())
}
