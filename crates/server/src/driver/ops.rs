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
                    return Err(OpError::PassiveLimit);
                };
                match data::bind_passive(ip, self.shared.cfg.passive_ports.as_ref()).await {
                    Ok(l) => {
                        let port = l.local_addr().map_err(|e| OpError::from(e.kind()))?.port();
                        let tls = if tls { self.data_tls.clone() } else { None };
                        self.passive = Some(Box::new(Passive::start(
                            l,
                            self.peer.ip(),
                            self.shared.cfg.proxy_protocol_from.clone(),
                            tls,
                            self.shared.cfg.data_timeout,
                            hold,
                            self.shared.clone(),
                        )));
                        self.passive_reply = true;
                        Ok(OpOk::Port(port))
                    }
                    Err(e) => Err(e.kind().into()),
                }
            }
            Op::VerifyPassword { user, password } => {
                let name = self.shared.events.is_some().then(|| user.clone());
                // A banned address's session: no check, 421 and closed
                // (OpError::Banned tells the session why).
                let r = self.verify(user, password).await?;
                // A login counts among its user's sessions: past its
                // max_sessions, 421.
                if matches!(r, OpOk::Account(Some(_))) && self.slot.is_none() {
                    return Err(OpError::SessionLimit);
                }
                if let (Some(name), OpOk::Account(a)) = (&name, &r) {
                    // A login under the name the directory confirmed.
                    let name = a.as_ref().and_then(|a| a.name.clone()).unwrap_or_else(|| name.clone());
                    self.login_checked(&name, a.is_some());
                }
                // A refusal the defender banned the address for: said,
                // and the connection ends.
                if matches!(r, OpOk::Account(None)) && self.shared.is_banned(self.peer.ip()) {
                    return Err(OpError::Banned);
                }
                Ok(r)
            }
            Op::EnterHome(home) => self.enter_home(home).await,
            Op::Stat(p) => {
                let quick = st.clone();
                Ok(on_disk(&*quick, move || st.stat(&p).map(OpOk::Entry).map_err(|e| e.kind())).await?)
            }
            Op::IsDir(p) => {
                let quick = st.clone();
                Ok(on_disk(&*quick, move || Ok(OpOk::IsDir(st.is_dir(&p)))).await?)
            }
            Op::Entries(p) => Ok(blocking(move || {
                let now = unix_now();
                entries(&*st, &p)
                    .map(|entries| OpOk::Entries { entries, now })
                    .map_err(|e| e.kind())
            })
            .await?),
            Op::Quota => match self.user().quota() {
                Some(q) => q
                    .status()
                    .await
                    .map(|i| OpOk::Quota(Some(i)))
                    .map_err(|e| e.kind().into()),
                None => Ok(OpOk::Quota(None)),
            },
            // The changes to the tree: the user's operations, as every
            // door runs them (babelftp_core::UserCtx).
            Op::Mkdir(p) => done(self.user().mkdir(&p).await),
            Op::Rmdir(p) => done(self.user().rmdir(&p).await),
            Op::RemoveFile(p) => done(self.user().remove(&p).await),
            Op::Chmod { path, mode } => done(self.user().chmod(&path, mode).await),
            Op::SetModified { path, time } => done(self.user().set_times(&path, time).await),
            Op::Rename { from, to, replace } => done(self.user().rename(&from, &to, replace).await),
        }
    }

    /// The login, as every door asks for it (`Services::login`: the ban,
    /// the password, the defender's score); a login takes its place among
    /// its user's sessions.
    async fn verify(&mut self, user: Vec<u8>, password: Vec<u8>) -> OpResult {
        self.tree = None;
        self.user = None;
        self.slot = None;
        self.tls_reuse = None;
        let protocol = if self.control.is_tls() { "ftps" } else { "ftp" };
        let login = self.shared.login(user, password, self.peer.ip(), protocol).await?;
        Ok(OpOk::Account(login.map(|l| {
            self.tree = l.tree.map(Box::new);
            self.rules = Some(l.account.rules.clone());
            self.slot = self.shared.enter_session(&l.name, l.limits).ok();
            self.tls_reuse = l.tls_reuse;
            l.account
        })))
    }

    /// Narrows the storage to the user's home, or builds its tree (a home
    /// elsewhere, virtual folders) from what its login said.
    async fn enter_home(&mut self, home: VPath) -> OpResult {
        let st = self.open_home(home).await?;
        // The rules hold at links' targets too. An account of the users
        // file or the directory has its rules here; an anonymous one's
        // are the session's alone.
        let rules = self.rules.take();
        self.storage = match &rules {
            Some(rules) => crate::linkrules::LinkRules::wrap(st, rules.clone()),
            None => st,
        };
        let rules = rules.unwrap_or_else(|| Arc::new(babelftp_policy::Rules::everywhere(babelftp_policy::Perms::ALL)));
        self.user = Some(match &self.slot {
            Some(slot) => UserCtx::new(
                self.shared.core.clone(),
                self.storage.clone(),
                rules,
                Some(slot.entry.name.clone()),
                slot.limits,
            ),
            None => UserCtx::new(
                self.shared.core.clone(),
                self.storage.clone(),
                rules,
                None,
                babelftp_accounts::Limits::default(),
            ),
        });
        self.count_usage().await
    }

    /// The account's home, or the tree the directory built for it, as
    /// every door opens it.
    async fn open_home(&mut self, home: VPath) -> Result<Arc<dyn Storage>, OpError> {
        let tree = self.tree.take().map(|t| *t);
        Ok(self.shared.open_tree(self.base.clone(), home, tree).await?)
    }

    /// The logged-in user's context: its tree, rules, limits and quota
    /// (before EnterHome, the server's tree with the session's own
    /// rules deciding alone).
    pub(super) fn user(&self) -> UserCtx {
        match &self.user {
            Some(u) => u.clone(),
            None => UserCtx::new(
                self.shared.core.clone(),
                self.storage.clone(),
                Arc::new(babelftp_policy::Rules::everywhere(babelftp_policy::Perms::ALL)),
                None,
                babelftp_accounts::Limits::default(),
            ),
        }
    }

    /// At login: a user with a quota whose usage was never counted is
    /// counted now, once. A store that fails does not keep it out (its
    /// uploads will say so).
    async fn count_usage(&self) -> OpResult {
        if let Some(q) = self.user().quota() {
            if let Err(e) = q.ensure_counted(self.storage.clone()).await {
                tracing::warn!(user = %q.name, error = %e, "quota usage could not be counted");
            }
        }
        Ok(OpOk::Done)
    }
}

/// A user's operation's answer, for the session.
fn done(r: Result<(), babelftp_core::ServiceError>) -> OpResult {
    r.map(|()| OpOk::Done).map_err(OpError::from)
}
