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
                let name = self.shared.events.is_some().then(|| user.clone());
                let r = self.verify(user, password).await;
                // A login counts among its user's sessions: past its
                // max_sessions, 421 (ResourceBusy tells the session why).
                if r.as_ref().is_ok_and(|a| matches!(a, OpOk::Account(Some(_)))) && self.slot.is_none() {
                    return Err(io::ErrorKind::ResourceBusy);
                }
                if let (Some(name), Ok(OpOk::Account(a))) = (&name, &r) {
                    // A login under the name the directory confirmed.
                    let name = a.as_ref().and_then(|a| a.name.clone()).unwrap_or_else(|| name.clone());
                    self.login_checked(&name, a.is_some());
                }
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
            Op::Mkdir(p) => {
                // A directory takes one of the files a quota allows.
                let quota = self.quota();
                if let Some(q) = &quota {
                    q.reserve_dir().await.map_err(|e| e.kind())?;
                }
                let r = blocking(move || st.mkdir(&p).map(|()| OpOk::Done).map_err(|e| e.kind())).await;
                if let (Some(q), Err(_)) = (&quota, &r) {
                    q.dir_gone().await;
                }
                r
            }
            Op::Rmdir(p) => {
                let r = blocking(move || st.rmdir(&p).map(|()| OpOk::Done).map_err(|e| e.kind())).await;
                if let (Some(q), Ok(_)) = (self.quota(), &r) {
                    q.dir_gone().await;
                }
                r
            }
            Op::RemoveFile(p) => {
                let Some(q) = self.quota() else {
                    return blocking(move || st.remove_file(&p).map(|()| OpOk::Done).map_err(|e| e.kind())).await;
                };
                // What really left the name is what the usage loses.
                let size = blocking(move || st.remove_file_counted(&p).map_err(|e| e.kind())).await?;
                if let Some(size) = size {
                    q.removed(size).await;
                }
                Ok(OpOk::Done)
            }
            Op::Quota => match self.quota() {
                Some(q) => q.status().await.map(|i| OpOk::Quota(Some(i))).map_err(|e| e.kind()),
                None => Ok(OpOk::Quota(None)),
            },
            Op::Chmod { path, mode } => {
                blocking(move || st.chmod(&path, mode).map(|()| OpOk::Done).map_err(|e| e.kind())).await
            }
            Op::SetModified { path, time } => {
                blocking(move || st.set_modified(&path, time).map(|()| OpOk::Done).map_err(|e| e.kind())).await
            }
            Op::Rename { from, to, replace } => {
                let quota = self.quota();
                let counted = quota.is_some();
                let replaced = blocking(move || {
                    // A file the rename replaces leaves the usage.
                    let replaced = if counted && replace { file_size(&*st, &to) } else { None };
                    let done = if replace {
                        st.rename(&from, &to)
                    } else {
                        st.rename_no_replace(&from, &to)
                    };
                    done.map(|()| replaced).map_err(|e| e.kind())
                })
                .await?;
                if let (Some(q), Some(size)) = (quota, replaced) {
                    q.removed(size).await;
                }
                Ok(OpOk::Done)
            }
        }
    }

    /// The password check ([`Shared::check_login`]); a login takes its
    /// place among its user's sessions.
    async fn verify(&mut self, user: Vec<u8>, password: Vec<u8>) -> OpResult {
        self.tree = None;
        self.slot = None;
        let protocol = if self.control.is_tls() { "ftps" } else { "ftp" };
        let login = self
            .shared
            .check_login(user, password, self.peer.ip(), protocol)
            .await?;
        Ok(OpOk::Account(login.map(|l| {
            self.tree = l.tree;
            self.rules = Some(l.account.rules.clone());
            self.slot = self.shared.user_sessions.enter(&l.name, l.limits);
            l.account
        })))
    }

    /// Narrows the storage to the user's home, or builds its tree (a home
    /// elsewhere, virtual folders) from what its login said.
    async fn enter_home(&mut self, home: VPath) -> OpResult {
        let st = self.open_home(home).await?;
        // The rules hold at links' targets too.
        self.storage = match self.rules.take() {
            Some(rules) => crate::linkrules::LinkRules::wrap(st, rules),
            None => st,
        };
        self.count_usage().await
    }

    /// The account's home, or the tree the directory built for it.
    async fn open_home(&mut self, home: VPath) -> Result<Arc<dyn Storage>, io::ErrorKind> {
        if let (Some(tree), Some(dir)) = (self.tree.take(), self.shared.cfg.directory.clone()) {
            if !tree.is_plain() {
                let base = self.base.clone();
                return blocking(move || dir.build_tree(base, &home, &tree).map_err(|e| e.kind())).await;
            }
        }
        if home.is_root() {
            // The whole root: nothing to open.
            return Ok(self.base.clone());
        }
        let base = self.base.clone();
        blocking(move || base.subdir(&home).map_err(|e| e.kind())).await
    }

    /// The logged-in user's quota, when it has one and there is a store.
    pub(super) fn quota(&self) -> Option<crate::quota::Quota> {
        let slot = self.slot.as_ref().filter(|s| s.limits.has_quota())?;
        let store = self.shared.cfg.directory.as_ref()?.store()?.clone();
        Some(crate::quota::Quota {
            store,
            name: slot.entry.name.clone(),
            limits: slot.limits,
        })
    }

    /// At login: a user with a quota whose usage was never counted is
    /// counted now, once. A store that fails does not keep it out (its
    /// uploads will say so).
    async fn count_usage(&self) -> OpResult {
        if let Some(q) = self.quota() {
            if let Err(e) = q.ensure_counted(self.storage.clone()).await {
                tracing::warn!(user = %q.name, error = %e, "quota usage could not be counted");
            }
        }
        Ok(OpOk::Done)
    }
}
