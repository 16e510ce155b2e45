//! The storage operations a session asks for, on the blocking pool.

use super::*;

impl Driver {
    pub(super) async fn run_op(&mut self, op: Op) -> OpResult {
        let st = self.storage.clone();
        match op {
            Op::BindPassive { ip, tls } => {
                // The port held before is given back first (a client may
                // send PASV again and again).
                self.passive = None;
                let Some(hold) = self
                    .shared
                    .passive_holds
                    .hold(self.peer.ip(), self.shared.cfg.passive_cap())
                else {
                    tracing::info!(peer = %self.peer, cap = self.shared.cfg.passive_cap(), "passive port refused: this address holds as many as it may (max_passive_per_ip)");
                    return Err(io::ErrorKind::QuotaExceeded);
                };
                match data::bind_passive(ip, self.shared.cfg.passive_ports.as_ref()).await {
                    Ok(l) => {
                        let port = l.local_addr().map_err(|e| e.kind())?.port();
                        let tls = if tls { self.data_tls.clone() } else { None };
                        self.passive = Some(Passive::start(
                            l,
                            self.peer.ip(),
                            self.shared.cfg.proxy_protocol_from.clone(),
                            tls,
                            self.shared.cfg.data_timeout,
                            hold,
                            self.shared.clone(),
                        ));
                        Ok(OpOk::Port(port))
                    }
                    Err(e) => Err(e.kind()),
                }
            }
            Op::VerifyPassword { user, password } => {
                // A banned address's session: no check, 421 and closed
                // (ConnectionRefused tells the session why).
                let (defender, ip) = (self.shared.defender.clone(), self.peer.ip());
                let banned = move || defender.is_banned(ip, std::time::Instant::now());
                if banned() {
                    return Err(io::ErrorKind::ConnectionRefused);
                }
                let r = self.verify(user, password).await;
                if matches!(r, Ok(OpOk::Account(None))) {
                    self.shared.login_failed(self.peer.ip());
                    if banned() {
                        return Err(io::ErrorKind::ConnectionRefused);
                    }
                }
                r
            }
            Op::EnterHome(home) => self.enter_home(home).await,
            Op::Stat(p) => blocking(move || st.stat(&p).map(OpOk::Entry).map_err(|e| e.kind())).await,
            Op::IsDir(p) => blocking(move || Ok(OpOk::IsDir(st.is_dir(&p)))).await,
            Op::Entries(p) => {
                blocking(move || {
                    let now = unix_now();
                    entries(&*st, &p)
                        .map(|entries| OpOk::Entries { entries, now })
                        .map_err(|e| e.kind())
                })
                .await
            }
            Op::Mkdir(p) => blocking(move || st.mkdir(&p).map(|()| OpOk::Done).map_err(|e| e.kind())).await,
            Op::Rmdir(p) => blocking(move || st.rmdir(&p).map(|()| OpOk::Done).map_err(|e| e.kind())).await,
            Op::RemoveFile(p) => blocking(move || st.remove_file(&p).map(|()| OpOk::Done).map_err(|e| e.kind())).await,
            Op::Chmod { path, mode } => {
                blocking(move || st.chmod(&path, mode).map(|()| OpOk::Done).map_err(|e| e.kind())).await
            }
            Op::SetModified { path, time } => {
                blocking(move || st.set_modified(&path, time).map(|()| OpOk::Done).map_err(|e| e.kind())).await
            }
            Op::Rename { from, to, replace } => {
                blocking(move || {
                    let done = if replace {
                        st.rename(&from, &to)
                    } else {
                        st.rename_no_replace(&from, &to)
                    };
                    done.map(|()| OpOk::Done).map_err(|e| e.kind())
                })
                .await
            }
        }
    }
    /// The password check: the users file (or --user) first, then the
    /// directory (the auth hook, LDAP or the accounts store).
    async fn verify(&mut self, user: Vec<u8>, password: Vec<u8>) -> OpResult {
        let users = self.shared.users.snapshot();
        self.tree = None;
        // A name of the users file (or --user) is that account; any
        // other is the accounts store's, when there is one.
        if let Some(dir) = self.shared.cfg.directory.clone() {
            if !users.iter().any(|u| u.name == user) {
                let protocol = if self.control.is_tls() { "ftps" } else { "ftp" };
                let login = dir
                    .login(&user, password, self.peer.ip(), protocol, &self.shared.hashing)
                    .await
                    .map_err(|e| e.kind())?;
                return Ok(OpOk::Account(login.map(|l| {
                    self.tree = Some(l.tree);
                    l.account
                })));
            }
        }
        let account = |u: &crate::config::User| babelftp_session::Account::with_write(u.home.clone(), u.write);
        let hashed = users.iter().any(|u| u.name == user && u.secret.is_hash());
        // A name that is no account is checked against a decoy as
        // costly as an account's hash: its answer comes no sooner.
        let decoy = match users.iter().any(|u| u.name == user) {
            true => None,
            false => users.iter().find(|u| u.secret.is_hash()).map(|u| u.secret.clone()),
        };
        if !hashed && decoy.is_none() {
            // Clear-text accounts only (--user): a comparison, done
            // here, without a thread hand-off.
            let found = users.iter().find(|u| u.name == user && u.secret.verify(&password));
            return Ok(OpOk::Account(found.map(account)));
        }
        // argon2 costs tens of milliseconds: off the async workers,
        // as many at once as there are cores.
        let Ok(_permit) = self.shared.hashing.clone().acquire_owned().await else {
            return Err(io::ErrorKind::Other);
        };
        blocking(move || {
            if let Some(d) = decoy {
                d.decoy(&password);
                return Ok(OpOk::Account(None));
            }
            let found = users.iter().find(|u| u.name == user && u.secret.verify(&password));
            Ok(OpOk::Account(found.map(account)))
        })
        .await
    }

    /// Narrows the storage to the user's home, or builds its tree (a home
    /// elsewhere, virtual folders) from what its login said.
    async fn enter_home(&mut self, home: VPath) -> OpResult {
        if let (Some(tree), Some(dir)) = (self.tree.take(), self.shared.cfg.directory.clone()) {
            if !tree.is_plain() {
                let base = self.base.clone();
                let st = blocking(move || {
                    let home_st = match &tree.home {
                        Some(src) => dir.open_source(src),
                        None if home.is_root() => Ok(base),
                        None => base.subdir(&home),
                    }
                    .map_err(|e| e.kind())?;
                    let mut mounts = Vec::new();
                    for (at, src) in &tree.mounts {
                        match dir.open_source(src) {
                            Ok(st) => mounts.push((at.clone(), st)),
                            // One folder away does not keep the user out.
                            Err(e) => tracing::warn!(source = %src, error = %e, "virtual folder unavailable"),
                        }
                    }
                    Ok(crate::storage::mount::Mounted::with(home_st, mounts))
                })
                .await?;
                self.storage = st;
                return Ok(OpOk::Done);
            }
        }
        if home.is_root() {
            // The whole root: nothing to open.
            self.storage = self.base.clone();
            return Ok(OpOk::Done);
        }
        let base = self.base.clone();
        let st = blocking(move || base.subdir(&home).map_err(|e| e.kind())).await?;
        self.storage = st;
        Ok(OpOk::Done)
    }
}
