//! `babelftp admin token create [--name N] [--scope S]… | list | rm NAME`: the bearer
//! tokens of the admin API (`serve --admin-listen`, issue 30), kept in the
//! accounts store as SHA-256 hashes. `create` prints the token once; no
//! command shows it again.

use clap::{Args, Subcommand};

use crate::msg::ts;

#[derive(Args, Debug)]
pub struct AdminArgs {
    /// The accounts store, as for `babelftp user` [env: BABELFTP_DB] [default: sqlite:babelftp.db].
    #[arg(long, value_name = "URL", global = true)]
    db: Option<String>,
    /// As for `babelftp user`: the `db` of a configuration file.
    #[arg(long, value_name = "FILE", global = true)]
    config: Option<std::path::PathBuf>,
    #[command(subcommand)]
    cmd: AdminCmd,
}

#[derive(Subcommand, Debug)]
enum AdminCmd {
    /// The admin API's bearer tokens: create [--name N], list, rm NAME.
    Token {
        #[command(subcommand)]
        cmd: TokenCmd,
    },
}

#[derive(Subcommand, Debug)]
enum TokenCmd {
    /// Make a token and print it (once: the store keeps only its hash).
    Create {
        /// Its name, in the logs of every change made with it (default: admin).
        #[arg(long, default_value = "admin")]
        name: String,
        /// What it may do: read (every GET), users (users, groups, quotas), bans, sessions (end one),
        /// or all; repeat for several [default: all].
        #[arg(long = "scope", value_name = "SCOPE", value_parser = scope_arg)]
        scopes: Vec<babelftp_accounts::Scope>,
    },
    /// The tokens' names, when they were made, and their scopes.
    List,
    /// Remove a token: requests that present it are refused from then on.
    Rm { name: String },
}

fn scope_arg(v: &str) -> Result<babelftp_accounts::Scope, String> {
    babelftp_accounts::Scope::parse(v).ok_or_else(|| {
        ts(
            "cli-admin-bad-scope",
            &[("value", v), ("known", &babelftp_accounts::Scope::NAMES.join(", "))],
        )
    })
}

pub async fn admin(a: AdminArgs) -> anyhow::Result<()> {
    let (store, db) = crate::users::open(a.db, a.config).await?;
    let ex = |e| crate::users::explain(e, &db);
    match a.cmd {
        AdminCmd::Token { cmd } => match cmd {
            TokenCmd::Create { name, scopes } => {
                let scopes = babelftp_accounts::Scopes::new(&scopes);
                let token = store.create_admin_token(&name, &scopes).await.map_err(ex)?;
                eprintln!("{}", ts("cli-admin-token-created", &[("name", &name)]));
                println!("{token}");
            }
            TokenCmd::List => {
                let tokens = store.admin_tokens().await.map_err(ex)?;
                if tokens.is_empty() {
                    eprintln!("{}", ts("cli-admin-token-none", &[]));
                }
                for t in tokens {
                    println!("{}\t{}\t{}", t.name, crate::bans::utc(t.created_unix), t.scopes);
                }
            }
            TokenCmd::Rm { name } => {
                store.remove_admin_token(&name).await.map_err(ex)?;
                println!("{}", ts("cli-admin-token-removed", &[("name", &name)]));
            }
        },
    }
    store.close().await;
    Ok(())
}
