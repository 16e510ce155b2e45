//! Command dispatch: one parsed line to its handler, and the handlers of
//! SITE, MFMT, REIN and HOST. The state lives in the parts (`login`,
//! `client`, `data`, `tls`, `transfer`, `io`); the handlers of login and
//! TLS are in `access`, of data connections in `data_commands`, of
//! information in `info`, and results of operations in `results`.

use std::net::SocketAddr;
use std::time::Instant;

use babelftp_proto::command::{Command, EpsvArg, ParseError, Structure, TransferMode, TransferType, Verb};
use babelftp_proto::path::WirePath;
use babelftp_proto::reply::{Reply, ReplyCode};

use crate::data_commands::ListKind;
use crate::effects::{Action, Op, WriteMode};
use crate::msg::Msg;
use crate::session::ServerSession;
use crate::tls::AfterRein;
use crate::transfer::Pending;
use babelftp_policy::{Op as P, Perm};
use babelftp_proto::vpath::VPath;

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
        if self.client.settle_charset(cmd.pathname().map(|p| p.as_bytes())) {
            tracing::info!(peer = %self.peer, charset = self.cfg.legacy_charset.map_or("", |c| c.name()), "the client sends UTF-8 pathnames: the legacy client charset is off for this session");
        }
        if cmd.verb().needs_login() && !self.login.logged_in() {
            self.reply(ReplyCode::NOT_LOGGED_IN, Msg::NotLoggedIn);
            return;
        }
        self.work.before(&cmd);
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
                if !self.require(Perm::List, &t) {
                    return;
                }
                self.op(Op::Entries(t.clone()), Pending::StatPath(t));
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
                self.client.ttype = t;
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
                let r = self.path_reply(&self.client.cwd, Msg::IsCurrentDirectory);
                self.send(&r);
            }
            // A stat, not a yes/no: a missing directory is "No such file
            // or directory", a file is "Not a directory".
            C::Cwd(p) => {
                let t = self.path(&p);
                self.op(Op::Stat(t.clone()), Pending::Cwd(t));
            }
            C::Cdup => {
                let t = self.client.cwd.parent();
                self.op(Op::Stat(t.clone()), Pending::Cwd(t));
            }
            C::Mkd(p) => {
                let t = self.path(&p);
                if !self.name_allowed(&t) || !self.permit(&P::Mkdir(t.components())) {
                    return;
                }
                self.op(Op::Mkdir(t.clone()), Pending::Mkd(t));
            }
            C::Rmd(p) => {
                let t = self.path(&p);
                if !self.permit(&P::Rmdir(t.components())) {
                    return;
                }
                self.op(Op::Rmdir(t), Pending::Rmd);
            }
            C::Dele(p) => {
                let t = self.path(&p);
                if !self.permit(&P::Delete(t.components())) {
                    return;
                }
                self.op(Op::RemoveFile(t), Pending::Dele);
            }
            C::Rnfr(p) => {
                let t = self.path(&p);
                if !self.require(Perm::Rename, &t) {
                    return;
                }
                self.op(Op::Stat(t.clone()), Pending::Rnfr(t));
            }
            C::Rnto(p) => {
                let Some(from) = self.work.take_rnfr() else {
                    self.reply(ReplyCode::BAD_SEQUENCE, Msg::BadSequence);
                    return;
                };
                let to = self.path(&p);
                if !self.name_allowed(&to) {
                    return;
                }
                let check = P::Rename {
                    from: from.components(),
                    to: to.components(),
                    to_exists: false,
                };
                if !self.permit(&check) {
                    return;
                }
                // Replacing a file needs `overwrite` too: without it the
                // storage refuses an existing target (no stat-then-rename
                // race).
                let replace = self.perms_at(&to).has(Perm::Overwrite);
                self.op(
                    Op::Rename {
                        from,
                        to: to.clone(),
                        replace,
                    },
                    Pending::Rnto { to, replace },
                );
            }
            C::Rest(n) => {
                self.work.set_rest(n);
                self.reply(ReplyCode::PENDING, Msg::RestartPending(n));
            }
            C::Size(p) => {
                let t = self.path(&p);
                if !self.require(Perm::List, &t) {
                    return;
                }
                self.op(Op::Stat(t), Pending::Size);
            }
            C::Mdtm(p) => {
                let t = self.path(&p);
                if !self.require(Perm::List, &t) {
                    return;
                }
                self.op(Op::Stat(t), Pending::Mdtm);
            }
            C::Mfmt { time, path } => self.mfmt(time, path),
            C::Mlst(p) => {
                let target = match &p {
                    Some(p) => self.path(p),
                    None => self.client.cwd.clone(),
                };
                if !self.require(Perm::List, &target) {
                    return;
                }
                let shown = p
                    .map(WirePath::into_bytes)
                    .unwrap_or_else(|| self.wire_out(&target.to_bytes()));
                self.op(Op::Stat(target.clone()), Pending::Mlst { target, shown });
            }
            C::Pasv => self.pasv(false),
            C::Epsv(EpsvArg::All) => {
                self.data.set_epsv_all();
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
            C::List(p) => self.list(now, p, ListKind::List),
            C::Nlst(p) => self.list(now, p, ListKind::Nlst),
            C::Mlsd(p) => self.list(now, p, ListKind::Mlsd),
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
                    b" CHMOD HELP QUOTA".to_vec()
                } else {
                    b" HELP QUOTA".to_vec()
                },
                self.t(Msg::HelpEnd).into_bytes(),
            ];
            self.send(&Reply::multi(ReplyCode::HELP, lines));
            return;
        }
        if word.eq_ignore_ascii_case(b"QUOTA") {
            if !self.login.logged_in() {
                self.reply(ReplyCode::NOT_LOGGED_IN, Msg::NotLoggedIn);
                return;
            }
            self.op(Op::Quota, Pending::Quota);
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
        if !self.permit(&P::Chmod(t.components())) {
            return;
        }
        self.op(Op::Chmod { path: t, mode }, Pending::Chmod);
    }

    /// SITE QUOTA's reply: where the account stands, in its language.
    pub(crate) fn quota_reply(&mut self, q: Option<crate::QuotaInfo>) {
        let Some(q) = q else {
            self.reply(ReplyCode::OK, Msg::QuotaNone);
            return;
        };
        let none = self.t(Msg::QuotaNoLimit);
        let bytes = Msg::QuotaBytes {
            used: babelftp_i18n::format_size(q.bytes),
            limit: q.bytes_limit.map_or(none.clone(), babelftp_i18n::format_size),
        };
        let files = Msg::QuotaFiles {
            used: q.files,
            limit: q.files_limit.map_or(none, |n| n.to_string()),
        };
        let lines = vec![
            self.t(Msg::QuotaStatus).into_bytes(),
            format!(" {}", self.t(bytes)).into_bytes(),
            format!(" {}", self.t(files)).into_bytes(),
            self.t(Msg::End).into_bytes(),
        ];
        self.send(&Reply::multi(ReplyCode::OK, lines));
    }

    /// MFMT (draft-somers-ftp-mfxx 3): a writer sets a file's last
    /// modification time; offered only by a storage that keeps it.
    fn mfmt(&mut self, time: i64, path: WirePath) {
        if !self.cfg.caps.set_times {
            self.reply(ReplyCode::NOT_IMPLEMENTED, Msg::UnknownCommand);
            return;
        }
        let t = self.path(&path);
        if !self.permit(&P::Chmod(t.components())) {
            return;
        }
        let shown = path.into_bytes();
        self.op(Op::SetModified { path: t, time }, Pending::Mfmt { time, shown });
    }

    fn rein(&mut self) {
        self.login.reset();
        if self.data.reset() {
            self.action(Action::ReleasePassive);
        }
        // RFC 2640 4.1: REIN returns to the default language; RFC 7151:
        // and to the default host.
        self.action(Action::SelectRoot(None));
        self.client.reset(self.cfg.catalogs.default_lang());
        self.reply(ReplyCode::READY, Msg::Greeting);
        // RFC 4217 13: REIN returns the control connection to the state it
        // had when it was opened, which for AUTH TLS means in clear: the 220
        // goes out under TLS, then the TLS session ends (as in Microsoft's
        // MS-FTPS 3.1.5.3). A client that wants TLS again sends AUTH. On
        // the implicit port TLS is the port's own: it stays, and so do the
        // port's defaults (PBSZ 0, PROT P).
        if self.tls.rein() == AfterRein::EndTls {
            // Whatever the client sent behind REIN under TLS is not read
            // in clear.
            self.io.forget_plaintext(self.cfg.max_line);
            self.action(Action::EndTls);
        }
    }

    /// HOST (RFC 7151 3): before login, selects a virtual host, its root
    /// and its default language; an unknown name is 504. With no virtual
    /// hosts configured any name is accepted.
    fn host(&mut self, name: &[u8]) {
        if self.login.started() {
            self.reply(ReplyCode::BAD_SEQUENCE, Msg::HostAfterLogin);
            return;
        }
        // A client that sends HOST is a new client (A.2): UTF-8.
        self.client.speaks_utf8();
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
            self.client.default_lang = self.cfg.hosts[i].lang;
            self.action(Action::SelectRoot(Some(i)));
        }
        self.client.cwd = VPath::root();
        // A new host starts over, language included.
        self.client.lang = self.client.default_lang;
        self.reply(ReplyCode::READY, Msg::HostOk);
    }
}
