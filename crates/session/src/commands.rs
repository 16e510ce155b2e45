//! Command dispatch and the handlers that need no data connection.

use std::borrow::Cow;
use std::net::SocketAddr;
use std::time::Instant;

use babelftp_proto::command::{Command, EpsvArg, ParseError, Structure, TransferMode, TransferType, Verb};
use babelftp_proto::listing::{self, EntryKind, MLST_FACTS};
use babelftp_proto::path::WirePath;
use babelftp_proto::reply::{Reply, ReplyCode};

use crate::session::{Busy, DataSetup, Login};
use crate::{Account, Action, Msg, Op, OpOk, OpResult, ServerSession, VPath, WriteMode};

/// What an outstanding [`Op`] is for.
#[derive(Debug)]
pub(crate) enum Pending {
    Cwd(VPath),
    Mkd(VPath),
    Rmd,
    Dele,
    Rnfr(VPath),
    Rnto,
    Chmod,
    /// MFMT: the time set and the pathname as the client sent it, for the
    /// 213 reply.
    Mfmt {
        time: i64,
        shown: Vec<u8>,
    },
    Size,
    Mdtm,
    Mlst {
        target: VPath,
        shown: Vec<u8>,
    },
    StatPath,
    Verify {
        user: Vec<u8>,
        /// When PASS came: a failure is answered `login_fail_delay` after
        /// it, however long the check took (no timing of which names exist).
        since: Instant,
    },
    EnterHome {
        user: Vec<u8>,
        write: bool,
    },
    Pasv {
        extended: bool,
    },
    /// A download with no data connection: 550 if the path is missing,
    /// else 425.
    NoData,
}

impl ServerSession {
    /// One command line, while idle.
    pub(crate) fn run_line(&mut self, now: Instant, line: &[u8]) {
        let cmd = match Command::parse(line) {
            Ok(c) => c,
            Err(e) => {
                let msg = match &e {
                    ParseError::Empty | ParseError::Garbage => Msg::SyntaxError,
                    ParseError::Unknown(_) => Msg::UnknownCommand,
                    ParseError::UnsupportedParameter(_) => Msg::ParameterNotImplemented,
                    ParseError::UnsupportedProtocol(_) => Msg::ProtocolNotSupported,
                    ParseError::BadArgument(Verb::Lang, _) => Msg::LangMalformed,
                    _ => Msg::ArgumentError,
                };
                tracing::debug!(peer = %self.peer, error = %e, "bad command");
                self.reply(e.code(), msg);
                return;
            }
        };
        tracing::debug!(peer = %self.peer, command = %cmd, "command");
        self.settle_charset(&cmd);
        if cmd.verb().needs_login() && !self.logged_in() {
            self.reply(ReplyCode::NOT_LOGGED_IN, Msg::NotLoggedIn);
            return;
        }
        // RNFR must be followed by RNTO, REST by a transfer (RFC 959 5.4,
        // RFC 3659 5.3): anything else drops the pending state.
        if !matches!(cmd, Command::Rnto(_)) {
            self.rnfr = None;
        }
        let keeps_rest = matches!(
            cmd,
            Command::Retr(_)
                | Command::Stor(_)
                | Command::Appe(_)
                | Command::Rest(_)
                | Command::Type(_)
                | Command::Pasv
                | Command::Epsv(_)
                | Command::Port(_)
                | Command::Eprt(_)
                | Command::Noop
        );
        if !keeps_rest {
            self.rest = None;
        }
        self.command(now, cmd);
    }

    fn command(&mut self, now: Instant, cmd: Command) {
        use Command as C;
        match cmd {
            C::User(name) => self.user(name),
            C::Pass(pw) => self.pass(now, pw),
            C::Acct(_) => self.reply(ReplyCode::SUPERFLUOUS, Msg::AccountNotNeeded),
            C::Quit => {
                self.reply(ReplyCode::CLOSING, Msg::Goodbye);
                self.close("QUIT");
            }
            C::Rein => self.rein(),
            C::Noop => self.reply(ReplyCode::OK, Msg::Ok),
            C::Syst => self.reply(ReplyCode::SYSTEM_TYPE, Msg::SystemType),
            C::Feat => {
                let r = self
                    .features()
                    .reply(self.t(Msg::Features).as_bytes(), self.t(Msg::End).as_bytes());
                self.send(&r);
            }
            C::Help(_) => {
                let r = self.help();
                self.send(&r);
            }
            C::Stat(None) => {
                let r = self.status();
                self.send(&r);
            }
            C::Stat(Some(p)) => {
                let t = self.path(&p);
                self.op(Op::Entries(t), Pending::StatPath);
            }
            C::Opts(name, params) => {
                let r = self.opts(&name, params.as_deref());
                self.send(&r);
            }
            C::Lang(tag) => {
                let r = self.lang(tag);
                self.send(&r);
            }
            C::Host(name) => self.host(&name),
            C::Type(t) => {
                self.ttype = t;
                let name = match t {
                    TransferType::Ascii => "A",
                    TransferType::Image => "I",
                };
                self.reply(ReplyCode::OK, Msg::TypeSet(name));
            }
            C::Stru(Structure::File) => self.reply(ReplyCode::OK, Msg::StruOk),
            C::Stru(_) => self.reply(ReplyCode::PARAMETER_NOT_IMPLEMENTED, Msg::ParameterNotImplemented),
            C::Mode(TransferMode::Stream) => self.reply(ReplyCode::OK, Msg::ModeOk),
            C::Mode(_) => self.reply(ReplyCode::PARAMETER_NOT_IMPLEMENTED, Msg::ParameterNotImplemented),
            C::Allo(_) => self.reply(ReplyCode::SUPERFLUOUS, Msg::Superfluous),
            C::Pwd => {
                let r = self.path_reply(&self.cwd.clone(), Msg::IsCurrentDirectory);
                self.send(&r);
            }
            // A stat, not a yes/no: a missing directory is "No such file
            // or directory", a file is "Not a directory".
            C::Cwd(p) => {
                let t = self.path(&p);
                self.op(Op::Stat(t.clone()), Pending::Cwd(t));
            }
            C::Cdup => {
                let t = self.cwd.parent();
                self.op(Op::Stat(t.clone()), Pending::Cwd(t));
            }
            C::Mkd(p) => {
                if self.refuse_write() {
                    return;
                }
                let t = self.path(&p);
                self.op(Op::Mkdir(t.clone()), Pending::Mkd(t));
            }
            C::Rmd(p) => {
                if self.refuse_write() {
                    return;
                }
                let t = self.path(&p);
                self.op(Op::Rmdir(t), Pending::Rmd);
            }
            C::Dele(p) => {
                if self.refuse_write() {
                    return;
                }
                let t = self.path(&p);
                self.op(Op::RemoveFile(t), Pending::Dele);
            }
            C::Rnfr(p) => {
                if self.refuse_write() {
                    return;
                }
                let t = self.path(&p);
                self.op(Op::Stat(t.clone()), Pending::Rnfr(t));
            }
            C::Rnto(p) => {
                let Some(from) = self.rnfr.take() else {
                    self.reply(ReplyCode::BAD_SEQUENCE, Msg::BadSequence);
                    return;
                };
                let to = self.path(&p);
                self.op(Op::Rename { from, to }, Pending::Rnto);
            }
            C::Rest(n) => {
                self.rest = Some(n);
                self.reply(ReplyCode::PENDING, Msg::RestartPending(n));
            }
            C::Size(p) => {
                let t = self.path(&p);
                self.op(Op::Stat(t), Pending::Size);
            }
            C::Mdtm(p) => {
                let t = self.path(&p);
                self.op(Op::Stat(t), Pending::Mdtm);
            }
            C::Mfmt { time, path } => self.mfmt(time, path),
            C::Mlst(p) => {
                let target = match &p {
                    Some(p) => self.path(p),
                    None => self.cwd.clone(),
                };
                let shown = p
                    .map(WirePath::into_bytes)
                    .unwrap_or_else(|| self.wire_out(&target.to_bytes()));
                self.op(Op::Stat(target.clone()), Pending::Mlst { target, shown });
            }
            C::Pasv => self.pasv(false),
            C::Epsv(EpsvArg::All) => {
                self.epsv_all = true;
                self.reply(ReplyCode::OK, Msg::EpsvAllOk);
            }
            C::Epsv(EpsvArg::Protocol(n)) if (n == 1) != self.local.is_ipv4() => {
                self.reply(ReplyCode::PROTOCOL_NOT_SUPPORTED, Msg::ProtocolNotSupported)
            }
            C::Epsv(_) => self.pasv(true),
            C::Port(addr) => self.active(SocketAddr::V4(addr)),
            C::Eprt(addr) => self.active(addr),
            C::Retr(p) => self.retr(now, &p),
            C::Stor(p) => self.stor(now, Some(&p), WriteMode::Replace),
            C::Appe(p) => self.stor(now, Some(&p), WriteMode::Append),
            C::Stou(p) => self.stor(now, p.as_ref(), WriteMode::Unique),
            C::List(p) => self.list(now, p, crate::transfer::ListKind::List),
            C::Nlst(p) => self.list(now, p, crate::transfer::ListKind::Nlst),
            C::Mlsd(p) => self.list(now, p, crate::transfer::ListKind::Mlsd),
            C::Abor => self.reply(ReplyCode::DATA_OPEN, Msg::NoTransfer),
            C::Auth(mechanism) => self.auth(&mechanism),
            C::Pbsz(_) => self.pbsz(),
            C::Prot(level) => self.prot(level),
            // RFC 4217 6: a server may refuse to drop protection.
            C::Ccc if self.cfg.tls.is_some() => self.reply(ReplyCode::POLICY_DENIED, Msg::CccRefused),
            C::Site(args) => self.site(&args),
            C::Ccc => self.reply(ReplyCode::NOT_IMPLEMENTED, Msg::UnknownCommand),
        }
    }

    /// SITE (RFC 959 4.1.3): `CHMOD <octal> <path>` (what `lftp mirror -R`
    /// and FileZilla send after an upload) and `HELP`.
    fn site(&mut self, args: &[u8]) {
        let (word, rest) = match args.iter().position(|&b| b == b' ') {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &b""[..]),
        };
        let chmod = self.cfg.caps.chmod;
        if word.eq_ignore_ascii_case(b"HELP") {
            let lines = vec![
                self.t(Msg::SiteHelp).into_bytes(),
                if chmod {
                    b" CHMOD HELP".to_vec()
                } else {
                    b" HELP".to_vec()
                },
                self.t(Msg::HelpEnd).into_bytes(),
            ];
            self.send(&Reply::multi(ReplyCode::HELP, lines));
            return;
        }
        if !word.eq_ignore_ascii_case(b"CHMOD") {
            self.reply(ReplyCode::PARAMETER_NOT_IMPLEMENTED, Msg::SiteUnknown);
            return;
        }
        if !chmod {
            self.reply(ReplyCode::NOT_IMPLEMENTED, Msg::StorageUnsupported);
            return;
        }
        if self.refuse_write() {
            return;
        }
        let (mode, path) = match rest.iter().position(|&b| b == b' ') {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, &b""[..]),
        };
        let mode = std::str::from_utf8(mode)
            .ok()
            .filter(|m| !m.is_empty() && m.len() <= 4)
            .and_then(|m| u32::from_str_radix(m, 8).ok())
            .filter(|&m| m <= 0o777);
        let (Some(mode), false) = (mode, path.is_empty()) else {
            self.reply(ReplyCode::ARGUMENT_ERROR, Msg::BadMode);
            return;
        };
        let t = self.path(&WirePath::new(path.to_vec()));
        self.op(Op::Chmod { path: t, mode }, Pending::Chmod);
    }

    /// MFMT (draft-somers-ftp-mfxx 3): a writer sets a file's last
    /// modification time; offered only by a storage that keeps it.
    fn mfmt(&mut self, time: i64, path: WirePath) {
        if !self.cfg.caps.set_times {
            self.reply(ReplyCode::NOT_IMPLEMENTED, Msg::UnknownCommand);
            return;
        }
        if self.refuse_write() {
            return;
        }
        let t = self.path(&path);
        let shown = path.into_bytes();
        self.op(Op::SetModified { path: t, time }, Pending::Mfmt { time, shown });
    }

    /// The result of an [`Op`], for the command that asked for it.
    pub(crate) fn op_done(&mut self, now: Instant, pending: Pending, result: OpResult) {
        let ok = match result {
            Ok(ok) => ok,
            Err(e) => {
                match pending {
                    Pending::Pasv { .. } => self.reply(
                        ReplyCode::CANT_OPEN_DATA,
                        // This address already holds as many passive ports
                        // as it may (the server's max_passive_per_ip).
                        if e == std::io::ErrorKind::QuotaExceeded {
                            Msg::PassiveLimit
                        } else {
                            Msg::CantOpenData
                        },
                    ),
                    Pending::EnterHome { user, .. } if home_missing(e) => {
                        // The password was right: the user is told why,
                        // at once (the admin was warned at start).
                        tracing::warn!(peer = %self.peer, user = %user.escape_ascii(), error = ?e, "login refused: home unavailable");
                        self.tally.logins_failed += 1;
                        self.login = Login::AwaitUser;
                        self.reply(ReplyCode::NOT_LOGGED_IN, Msg::HomeUnavailable);
                    }
                    Pending::Verify { user, .. } | Pending::EnterHome { user, .. } => {
                        if home_missing(e) {
                            tracing::warn!(peer = %self.peer, user = %user.escape_ascii(), error = ?e, "login failed");
                            self.login_failed(now);
                        } else {
                            // Out of descriptors or memory: not the client's
                            // fault, and no 530 that would say it was.
                            tracing::warn!(peer = %self.peer, user = %user.escape_ascii(), error = ?e, "login refused: out of resources");
                            self.reply(ReplyCode::UNAVAILABLE, Msg::OutOfResources);
                            self.close("out of resources");
                        }
                    }
                    _ => {
                        let (code, msg) = self.error_reply(e);
                        self.reply(code, msg);
                    }
                }
                return;
            }
        };
        match (pending, ok) {
            (Pending::Cwd(t), OpOk::Entry(e)) if e.kind == EntryKind::Dir => {
                self.cwd = t;
                self.reply(ReplyCode::FILE_ACTION_OK, Msg::CwdOk);
            }
            (Pending::Cwd(_), OpOk::Entry(_)) => self.reply(ReplyCode::FILE_UNAVAILABLE, Msg::NotADirectory),
            (Pending::Mkd(t), OpOk::Done) => {
                let r = self.path_reply(&t, Msg::Created);
                self.send(&r);
            }
            (Pending::Rmd, OpOk::Done) => self.reply(ReplyCode::FILE_ACTION_OK, Msg::Removed),
            (Pending::Dele, OpOk::Done) => self.reply(ReplyCode::FILE_ACTION_OK, Msg::Deleted),
            (Pending::Rnfr(t), OpOk::Entry(_)) => {
                self.rnfr = Some(t);
                self.reply(ReplyCode::PENDING, Msg::RenamePending);
            }
            (Pending::Rnto, OpOk::Done) => self.reply(ReplyCode::FILE_ACTION_OK, Msg::Renamed),
            (Pending::Chmod, OpOk::Done) => self.reply(ReplyCode::OK, Msg::ChmodOk),
            (Pending::Mfmt { time, shown }, OpOk::Done) => {
                // "213 Modify=YYYYMMDDHHMMSS; pathname": a protocol
                // element, the same in every language.
                let mut text = format!("Modify={}; ", listing::Civil::from_unix(time).time_val()).into_bytes();
                text.extend_from_slice(&shown);
                self.send(&Reply::new(ReplyCode::FILE_STATUS, text));
            }
            (Pending::Size, OpOk::Entry(e)) => {
                if e.kind == EntryKind::File {
                    self.send(&Reply::new(ReplyCode::FILE_STATUS, e.size.to_string()));
                } else {
                    self.reply(ReplyCode::FILE_UNAVAILABLE, Msg::NotAFile);
                }
            }
            (Pending::Mdtm, OpOk::Entry(e)) => match (e.kind, e.modified) {
                (EntryKind::File, Some(m)) => {
                    let r = Reply::new(ReplyCode::FILE_STATUS, listing::Civil::from_unix(m).time_val());
                    self.send(&r);
                }
                _ => self.reply(ReplyCode::FILE_UNAVAILABLE, Msg::NotAFile),
            },
            (Pending::Mlst { target, shown }, OpOk::Entry(mut e)) => {
                e.perm = perm_fact(e.kind, self.may_write(), &self.cfg.caps);
                let mut line = b" ".to_vec();
                line.extend(listing::mlsx_facts(&e, &self.mlst_facts, None));
                line.push(b' ');
                line.extend(self.wire_out(&target.to_bytes()));
                let mut first = b"Listing ".to_vec();
                first.extend(shown);
                let r = Reply::multi(
                    ReplyCode::FILE_ACTION_OK,
                    vec![first, line, self.t(Msg::End).into_bytes()],
                );
                self.send(&r);
            }
            (Pending::StatPath, OpOk::Entries { entries, now }) => {
                let r = self.stat_listing(entries, now);
                self.send(&r);
            }
            (Pending::Verify { user, .. }, OpOk::Account(Some(Account { home, write }))) => {
                let home = VPath::root().join(&home);
                self.op(Op::EnterHome(home), Pending::EnterHome { user, write });
            }
            (Pending::Verify { user, since }, OpOk::Account(None)) => {
                tracing::warn!(peer = %self.peer, user = %user.escape_ascii(), "failed login");
                // Counted from PASS: an unknown name and a wrong password
                // are answered at the same moment.
                self.login_failed(since);
            }
            (Pending::EnterHome { user, write }, OpOk::Done) => {
                tracing::info!(peer = %self.peer, user = %user.escape_ascii(), "login");
                self.tally.logins_ok += 1;
                self.cwd = VPath::root();
                self.login = Login::LoggedIn { user, write };
                self.reply(ReplyCode::LOGGED_IN, Msg::LoggedIn);
            }
            (Pending::Pasv { extended }, OpOk::Port(port)) => self.passive_reply(extended, port),
            (Pending::NoData, _) => self.reply(ReplyCode::CANT_OPEN_DATA, Msg::CantOpenData),
            (p, ok) => {
                // A result that does not answer the operation: a driver bug.
                tracing::error!(pending = ?p, result = ?ok, "operation result does not match its operation");
                if matches!(p, Pending::Verify { .. } | Pending::EnterHome { .. }) {
                    self.login_failed(now);
                } else {
                    self.reply(ReplyCode::LOCAL_ERROR, Msg::LocalError);
                }
            }
        }
    }

    fn user(&mut self, name: Vec<u8>) {
        // RFC 4217 11: a server that requires TLS refuses USER before it.
        if self.cfg.tls.is_some_and(|t| t.required) && !self.tls {
            self.reply(ReplyCode::NOT_LOGGED_IN, Msg::TlsRequired);
            return;
        }
        if self.logged_in() {
            self.reply(ReplyCode::BAD_SEQUENCE, Msg::AlreadyLoggedIn);
            return;
        }
        self.login = Login::AwaitPass { user: name };
        self.reply(ReplyCode::NEED_PASSWORD, Msg::NeedPassword);
    }

    fn pass(&mut self, now: Instant, pw: Vec<u8>) {
        let user = match &self.login {
            Login::AwaitPass { user } => user.clone(),
            // (The session stays logged in: a stray PASS does not log out.)
            Login::LoggedIn { .. } => return self.reply(ReplyCode::BAD_SEQUENCE, Msg::AlreadyLoggedIn),
            Login::AwaitUser => return self.reply(ReplyCode::BAD_SEQUENCE, Msg::BadSequence),
        };
        self.login = Login::AwaitUser;
        if is_anonymous(&user) && self.cfg.anonymous {
            let write = self.cfg.anonymous_write;
            tracing::info!(peer = %self.peer, "anonymous login");
            self.tally.logins_anonymous += 1;
            self.login = Login::LoggedIn { user, write };
            self.reply(
                ReplyCode::LOGGED_IN,
                if write { Msg::LoggedIn } else { Msg::LoggedInAnonymous },
            );
            return;
        }
        self.op(
            Op::VerifyPassword {
                user: user.clone(),
                password: pw,
            },
            Pending::Verify { user, since: now },
        );
    }

    /// AUTH (RFC 4217 4): `TLS` (also `TLS-C`, and the older `SSL` and
    /// `TLS-P`, which also protect data connections at once) before login.
    fn auth(&mut self, mechanism: &str) {
        if self.cfg.tls.is_none() {
            self.reply(ReplyCode::NOT_IMPLEMENTED, Msg::UnknownCommand);
            return;
        }
        if self.tls {
            self.reply(ReplyCode::BAD_SEQUENCE, Msg::AuthAlready);
            return;
        }
        let protect_data = match mechanism {
            "TLS" | "TLS-C" => false,
            "SSL" | "TLS-P" => true,
            _ => {
                self.reply(ReplyCode::PARAMETER_NOT_IMPLEMENTED, Msg::AuthUnsupported);
                return;
            }
        };
        if self.logged_in() || matches!(self.login, Login::AwaitPass { .. }) {
            self.reply(ReplyCode::BAD_SEQUENCE, Msg::BadSequence);
            return;
        }
        self.reply(ReplyCode::AUTH_OK, Msg::AuthOk);
        self.tls = true;
        self.pbsz = protect_data;
        self.prot_private = protect_data;
        self.forget_plaintext();
        self.action(Action::StartTls);
    }

    /// PBSZ (RFC 4217 8): only after AUTH; the size is always 0 for TLS.
    fn pbsz(&mut self) {
        if !self.tls {
            self.reply(ReplyCode::BAD_SEQUENCE, Msg::BadSequence);
            return;
        }
        self.pbsz = true;
        // "PBSZ=0" is the protocol's own answer, not a text to translate.
        self.send(&Reply::new(ReplyCode::OK, "PBSZ=0"));
    }

    /// PROT (RFC 4217 9): C or P after PBSZ; S and E are not TLS levels.
    fn prot(&mut self, level: babelftp_proto::command::ProtLevel) {
        use babelftp_proto::command::ProtLevel as L;
        if !self.tls || !self.pbsz {
            self.reply(ReplyCode::BAD_SEQUENCE, Msg::BadSequence);
            return;
        }
        match level {
            L::Clear => {
                self.prot_private = false;
                self.reply(ReplyCode::OK, Msg::ProtOk("C"));
            }
            L::Private => {
                self.prot_private = true;
                self.reply(ReplyCode::OK, Msg::ProtOk("P"));
            }
            _ => self.reply(ReplyCode::PROT_NOT_SUPPORTED, Msg::ProtUnsupported),
        }
    }

    fn login_failed(&mut self, now: Instant) {
        self.tally.logins_failed += 1;
        self.login = Login::AwaitUser;
        self.busy = Busy::LoginDelay(now + self.cfg.login_fail_delay);
    }

    fn rein(&mut self) {
        self.login = Login::AwaitUser;
        self.cwd = VPath::root();
        self.ttype = TransferType::Ascii;
        if self.data == DataSetup::Passive {
            self.action(Action::ReleasePassive);
        }
        self.data = DataSetup::None;
        self.epsv_all = false;
        self.mlst_facts = MLST_FACTS.to_vec();
        // RFC 2640 4.1: REIN returns to the default language; RFC 7151:
        // and to the default host.
        self.action(Action::SelectRoot(None));
        self.default_lang = self.cfg.catalogs.default_lang();
        self.lang = self.default_lang;
        self.legacy_active = self.cfg.legacy_charset.is_some();
        self.charset_settled = false;
        self.reply(ReplyCode::READY, Msg::Greeting);
        // RFC 4217 13: REIN returns the control connection to the state it
        // had when it was opened, which for AUTH TLS means in clear: the 220
        // goes out under TLS, then the TLS session ends (as in Microsoft's
        // MS-FTPS 3.1.5.3). A client that wants TLS again sends AUTH. On
        // the implicit port TLS is the port's own: it stays, and so do the
        // port's defaults (PBSZ 0, PROT P).
        if self.implicit {
            self.pbsz = true;
            self.prot_private = true;
        } else if self.tls {
            self.tls = false;
            self.pbsz = false;
            self.prot_private = false;
            // Whatever the client sent behind REIN under TLS is not read
            // in clear.
            self.forget_plaintext();
            self.action(Action::EndTls);
        }
    }

    /// HOST (RFC 7151 3): before login, selects a virtual host, its root
    /// and its default language; an unknown name is 504. With no virtual
    /// hosts configured any name is accepted.
    fn host(&mut self, name: &[u8]) {
        if self.logged_in() || matches!(self.login, Login::AwaitPass { .. }) {
            self.reply(ReplyCode::BAD_SEQUENCE, Msg::HostAfterLogin);
            return;
        }
        // A client that sends HOST is a new client (A.2): UTF-8.
        self.legacy_active = false;
        if !self.cfg.hosts.is_empty() {
            let Some(i) = self
                .cfg
                .hosts
                .iter()
                .position(|h| h.name.as_bytes().eq_ignore_ascii_case(name))
            else {
                self.reply(ReplyCode::PARAMETER_NOT_IMPLEMENTED, Msg::HostUnknown);
                return;
            };
            self.default_lang = self.cfg.hosts[i].lang;
            self.action(Action::SelectRoot(Some(i)));
        }
        self.cwd = VPath::root();
        // A new host starts over, language included.
        self.lang = self.default_lang;
        self.reply(ReplyCode::READY, Msg::HostOk);
    }

    pub(crate) fn refuse_write(&mut self) -> bool {
        if self.may_write() {
            return false;
        }
        tracing::info!(user = %self.log_user().0.escape_ascii(), "write refused: read-only account");
        self.reply(ReplyCode::FILE_UNAVAILABLE, Msg::PermissionDenied);
        true
    }

    /// A `257 "path" text` reply (RFC 959 Appendix II quoting).
    fn path_reply(&self, p: &VPath, msg: Msg) -> Reply {
        let mut text = WirePath::new(self.wire_out(&p.to_bytes())).quote_257();
        text.push(b' ');
        text.extend_from_slice(self.t(msg).as_bytes());
        Reply::new(ReplyCode::PATH_CREATED, text)
    }

    /// RFC 2640 A.1: a non-ASCII pathname that is valid UTF-8 is, with
    /// overwhelming probability, UTF-8. curl, ftplib and Apache Commons Net
    /// send UTF-8 without `OPTS UTF8 ON`: under a legacy client charset
    /// their names were read as that charset (`Привет` stored as
    /// `РџСЂРёРІРµС‚`). So the first non-ASCII pathname decides: UTF-8
    /// turns the legacy layer off for the session (replies and listings
    /// follow), anything else keeps it.
    fn settle_charset(&mut self, cmd: &Command) {
        if self.charset_settled || !self.legacy_active {
            return;
        }
        let Some(p) = cmd.pathname() else { return };
        let bytes = p.as_bytes();
        if bytes.is_ascii() {
            return;
        }
        self.charset_settled = true;
        if babelftp_proto::utf8::is_utf8(bytes) {
            self.legacy_active = false;
            tracing::info!(peer = %self.peer, charset = self.cfg.legacy_charset.map_or("", |c| c.name()), "the client sends UTF-8 pathnames: the legacy client charset is off for this session");
        }
    }

    /// A pathname from the client resolved against the working directory.
    pub(crate) fn path(&self, p: &WirePath) -> VPath {
        self.cwd.join(&self.wire_in(p.as_bytes()))
    }

    /// A pathname from the client as the storage sees it: UTF-8 from a
    /// legacy client's charset while that layer is on (RFC 2640 A.2).
    pub(crate) fn wire_in<'a>(&self, bytes: &'a [u8]) -> Cow<'a, [u8]> {
        match self.cfg.legacy_charset {
            Some(cs) if self.legacy_active => babelftp_i18n::names::legacy_in(bytes, cs),
            _ => Cow::Borrowed(bytes),
        }
    }

    /// A pathname for the client: back into a legacy client's charset
    /// while that layer is on.
    pub(crate) fn wire_out(&self, name: &[u8]) -> Vec<u8> {
        match self.cfg.legacy_charset {
            Some(cs) if self.legacy_active => babelftp_i18n::names::legacy_out(name, cs).into_owned(),
            _ => name.to_vec(),
        }
    }

    /// The user name for the transfer log.
    pub(crate) fn log_user(&self) -> (Vec<u8>, bool) {
        match &self.login {
            Login::LoggedIn { user, .. } => (user.clone(), is_anonymous(user)),
            _ => (b"-".to_vec(), false),
        }
    }
}

/// `anonymous` and `ftp` (RFC 1635), in any case.
pub(crate) fn is_anonymous(user: &[u8]) -> bool {
    user.eq_ignore_ascii_case(b"anonymous") || user.eq_ignore_ascii_case(b"ftp")
}

/// RFC 3659 7.5.5: what this session may do with an entry (`a`, APPE,
/// only where the storage can append).
pub fn perm_fact(kind: EntryKind, write: bool, caps: &crate::Capabilities) -> String {
    match (kind, write, caps.append) {
        (EntryKind::Dir, true, _) => "cdeflmp",
        (EntryKind::Dir, false, _) => "el",
        (_, true, true) => "adfrw",
        (_, true, false) => "dfrw",
        (_, false, _) => "r",
    }
    .into()
}

/// A storage error that says a home directory is not there (or not one).
fn home_missing(e: std::io::ErrorKind) -> bool {
    use std::io::ErrorKind as K;
    matches!(e, K::NotFound | K::PermissionDenied | K::NotADirectory)
}
