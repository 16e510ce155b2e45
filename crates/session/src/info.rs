//! FEAT, HELP, STAT, OPTS and LANG.

use babelftp_i18n::lang::Negotiated;
use babelftp_proto::command::Verb;
use babelftp_proto::feat::{Feature, Features};
use babelftp_proto::lang::{LangFact, LangTag};
use babelftp_proto::listing::{Entry, MLST_FACTS};
use babelftp_proto::reply::{Reply, ReplyCode};

use crate::listing::{ListFormat, ListRender};
use crate::msg::Msg;
use crate::session::ServerSession;
use babelftp_proto::vpath::VPath;

impl ServerSession {
    pub(crate) fn features(&self) -> Features {
        let mut f = vec![
            Feature::Utf8,
            Feature::Lang(LangFact {
                tags: self
                    .cfg
                    .catalogs
                    .tags()
                    .filter_map(|t| LangTag::parse(t.as_bytes()).ok())
                    .collect(),
                current: Some(self.client.lang),
            }),
            Feature::Mlst(
                MLST_FACTS
                    .iter()
                    .map(|f| (display_fact(f), self.client.mlst_facts.contains(f)))
                    .collect(),
            ),
            Feature::Size,
            Feature::Mdtm,
            Feature::RestStream,
            Feature::Epsv,
            Feature::Eprt,
            Feature::Host,
            Feature::Tvfs,
        ];
        if self.cfg.caps.set_times {
            f.push(Feature::Mfmt);
        }
        if self.cfg.tls.is_some() {
            // RFC 4217 6: what a client needs to see to use FTPS.
            f.extend([Feature::Auth(vec!["TLS".into()]), Feature::Pbsz, Feature::Prot]);
        }
        Features(f)
    }

    pub(crate) fn help(&self) -> Reply {
        let mut lines = vec![self.t(Msg::HelpIntro).into_bytes()];
        // Only what works here: no FTPS verbs without TLS, never CCC
        // (refused: the control connection stays protected).
        let tls = self.cfg.tls.is_some();
        let verbs: Vec<Verb> = Verb::ALL
            .iter()
            .copied()
            .filter(|v| match v {
                Verb::Ccc => false,
                Verb::Auth | Verb::Pbsz | Verb::Prot => tls,
                Verb::Mfmt => self.cfg.caps.set_times,
                _ => true,
            })
            .collect();
        for chunk in verbs.chunks(8) {
            let mut l = Vec::new();
            for v in chunk {
                l.extend_from_slice(format!(" {:<5}", v.name()).as_bytes());
            }
            lines.push(l);
        }
        lines.push(self.t(Msg::HelpEnd).into_bytes());
        Reply::multi(ReplyCode::HELP, lines)
    }

    pub(crate) fn status(&self) -> Reply {
        let user = self.login.user_name().map(|u| u.escape_ascii().to_string());
        let mut lines = vec![self.t(Msg::StatusIntro).into_bytes()];
        // Before login, nothing that helps pick an exploit or map the
        // network: no version, no address (status_before_login to show).
        if user.is_some() || self.cfg.status_before_login {
            lines.push(format!(" babelftp {}", env!("CARGO_PKG_VERSION")).into_bytes());
            let user = user.as_deref().unwrap_or("-");
            lines.push(format!(" peer {} user {user}", self.peer).into_bytes());
        }
        lines.push(
            format!(
                " TYPE {:?}, STRU F, MODE S; transfer {}",
                self.client.ttype,
                if self.in_transfer() { "running" } else { "idle" }
            )
            .into_bytes(),
        );
        lines.push(self.t(Msg::StatusEnd).into_bytes());
        Reply::multi(ReplyCode::SYSTEM_STATUS, lines)
    }

    /// STAT with a pathname: the listing on the control connection.
    /// `wall`: the wall clock when the entries were read (Unix seconds).
    pub(crate) fn stat_listing(&self, dir: &VPath, mut entries: Vec<Entry>, wall: i64) -> Reply {
        let render = ListRender::new(
            ListFormat::List,
            self.perms_below(dir),
            &self.cfg.caps,
            self.client.legacy_now(),
        )
        .at(wall);
        let mut lines = vec![self.t(Msg::StatusIntro).into_bytes()];
        for e in &mut entries {
            let mut l = Vec::new();
            render.line(e, &mut l);
            l.truncate(l.len().saturating_sub(2));
            lines.push(l);
        }
        lines.push(self.t(Msg::StatusEnd).into_bytes());
        Reply::multi(ReplyCode::FILE_STATUS, lines)
    }

    pub(crate) fn opts(&mut self, name: &str, params: Option<&[u8]>) -> Reply {
        match (name, params) {
            // What Windows clients and FileZilla send. Names are UTF-8 either
            // way unless a legacy client charset is configured.
            ("UTF8" | "UTF-8", Some(p)) if p.eq_ignore_ascii_case(b"ON") => {
                self.client.speaks_utf8();
                self.r(ReplyCode::OK, Msg::Utf8On)
            }
            ("UTF8" | "UTF-8", Some(p)) if p.eq_ignore_ascii_case(b"OFF") => {
                // Back to the legacy client charset, if one is configured;
                // without one, names are bytes either way. Said by the
                // client: its names are not to be guessed.
                let legacy = self.client.utf8_off();
                self.r(ReplyCode::OK, if legacy { Msg::Utf8Off } else { Msg::Utf8On })
            }
            ("MLST", p) => {
                let wanted: Vec<Vec<u8>> = p
                    .unwrap_or_default()
                    .split(|&b| b == b';')
                    .filter(|f| !f.is_empty())
                    .map(|f| f.to_ascii_lowercase())
                    .collect();
                self.client.mlst_facts = MLST_FACTS
                    .iter()
                    .copied()
                    .filter(|f| wanted.iter().any(|w| w == f.as_bytes()))
                    .collect();
                let mut text = b"MLST OPTS ".to_vec();
                for f in &self.client.mlst_facts {
                    text.extend_from_slice(display_fact(f).as_bytes());
                    text.push(b';');
                }
                Reply::new(ReplyCode::OK, text)
            }
            _ => self.r(ReplyCode::ARGUMENT_ERROR, Msg::OptsUnknown),
        }
    }

    /// LANG (RFC 2640 4.1-4.2): no argument returns to the default
    /// language; a tag we serve (or whose variant we ship) switches every
    /// later reply to it; a well-formed tag we cannot serve is 504.
    pub(crate) fn lang(&mut self, tag: Option<LangTag>) -> Reply {
        // RFC 2640 A.2: a client that sends LANG understands UTF-8.
        self.client.speaks_utf8();
        // A bare LANG (lftp sends one at login) asks for no language: the
        // account's, once logged in (and at login, if sent before), else
        // the server's (or the host's).
        let Some(tag) = tag else {
            self.client.lang_chosen = false;
            if let Some(l) = self.client.account_lang {
                self.client.lang = l;
                let name = self.cfg.catalogs.language_name(l);
                return self.r(ReplyCode::OK, Msg::LangAccount(name));
            }
            self.client.lang = self.client.default_lang;
            let name = self.cfg.catalogs.language_name(self.client.lang);
            if !self.login.logged_in() {
                return self.r(ReplyCode::OK, Msg::LangDefaultUntilLogin(name));
            }
            return self.r(ReplyCode::OK, Msg::LangDefault(name));
        };
        self.client.lang_chosen = true;
        match self.cfg.catalogs.negotiate(&tag) {
            Negotiated::Lang(l) => {
                self.client.lang = l;
                let name = self.cfg.catalogs.language_name(l);
                tracing::debug!(peer = %self.peer, asked = %tag, chosen = self.cfg.catalogs.tag(l), "LANG");
                self.r(ReplyCode::OK, Msg::LangOk(name))
            }
            Negotiated::Unsupported => self.r(ReplyCode::PARAMETER_NOT_IMPLEMENTED, Msg::LangUnsupported),
        }
    }
}

/// The name FEAT and OPTS show for a fact (RFC 3659 7.9).
pub fn display_fact(f: &str) -> String {
    if f == "unix.mode" {
        "UNIX.mode".into()
    } else {
        f.to_string()
    }
}
