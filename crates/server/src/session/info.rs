//! FEAT, HELP, STAT and OPTS.

use super::*;

impl Session {
    pub(super) fn features(&self) -> Features {
        Features(vec![
            Feature::Utf8,
            Feature::Lang(LangFact {
                tags: self
                    .catalogs
                    .tags()
                    .filter_map(|t| LangTag::parse(t.as_bytes()).ok())
                    .collect(),
                current: Some(self.lang),
            }),
            Feature::Mlst(
                MLST_FACTS
                    .iter()
                    .map(|f| (display_fact(f), self.mlst_facts.contains(f)))
                    .collect(),
            ),
            Feature::Size,
            Feature::Mdtm,
            Feature::RestStream,
            Feature::Epsv,
            Feature::Eprt,
            Feature::Host,
            Feature::Tvfs,
        ])
    }

    pub(super) fn help(&self) -> Reply {
        let mut lines = vec![self.t(Msg::HelpIntro).into_bytes()];
        for chunk in Verb::ALL.chunks(8) {
            let mut l = Vec::new();
            for v in chunk {
                l.extend_from_slice(format!(" {:<5}", v.name()).as_bytes());
            }
            lines.push(l);
        }
        lines.push(self.t(Msg::HelpEnd).into_bytes());
        Reply::multi(ReplyCode::HELP, lines)
    }

    pub(super) fn status(&self) -> Reply {
        let user = match &self.login {
            Login::LoggedIn { user, .. } => user.escape_ascii().to_string(),
            _ => "-".into(),
        };
        let lines = vec![
            self.t(Msg::StatusIntro).into_bytes(),
            format!(" babelftp {}", env!("CARGO_PKG_VERSION")).into_bytes(),
            format!(" peer {} user {user}", self.peer).into_bytes(),
            format!(
                " TYPE {:?}, STRU F, MODE S; transfer {}",
                self.ttype,
                if self.transfer.is_some() { "running" } else { "idle" }
            )
            .into_bytes(),
            self.t(Msg::StatusEnd).into_bytes(),
        ];
        Reply::multi(ReplyCode::SYSTEM_STATUS, lines)
    }

    pub(super) async fn stat_path(&mut self, p: &WirePath) -> io::Result<Reply> {
        if !self.logged_in() {
            return Ok(self.r(ReplyCode::NOT_LOGGED_IN, Msg::NotLoggedIn));
        }
        let entries = self.entries(&self.path(p)).await?;
        let now = now();
        let mut lines = vec![self.t(Msg::StatusIntro).into_bytes()];
        for e in &entries {
            let mut l = Vec::new();
            listing::list_line(e, now, &mut l);
            l.truncate(l.len() - 2);
            lines.push(l);
        }
        lines.push(self.t(Msg::StatusEnd).into_bytes());
        Ok(Reply::multi(ReplyCode::FILE_STATUS, lines))
    }

    pub(super) fn opts(&mut self, name: &str, params: Option<&[u8]>) -> Reply {
        match (name, params) {
            // What Windows clients and FileZilla send; UTF-8 is always on.
            // What Windows clients and FileZilla send. Names are UTF-8 either way
            // unless a legacy client charset is configured.
            ("UTF8" | "UTF-8", Some(p)) if p.eq_ignore_ascii_case(b"ON") => {
                self.legacy_active = false;
                self.r(ReplyCode::OK, Msg::Utf8On)
            }
            ("UTF8" | "UTF-8", Some(p)) if p.eq_ignore_ascii_case(b"OFF") => {
                // Back to the legacy client charset, if one is configured;
                // without one, names are bytes either way.
                self.legacy_active = self.legacy.is_some();
                self.r(
                    ReplyCode::OK,
                    if self.legacy_active { Msg::Utf8Off } else { Msg::Utf8On },
                )
            }
            ("MLST", p) => {
                let wanted: Vec<Vec<u8>> = p
                    .unwrap_or_default()
                    .split(|&b| b == b';')
                    .filter(|f| !f.is_empty())
                    .map(|f| f.to_ascii_lowercase())
                    .collect();
                self.mlst_facts = MLST_FACTS
                    .iter()
                    .copied()
                    .filter(|f| wanted.iter().any(|w| w == f.as_bytes()))
                    .collect();
                let mut text = b"MLST OPTS ".to_vec();
                for f in &self.mlst_facts {
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
    pub(super) fn lang(&mut self, tag: Option<LangTag>) -> Reply {
        // RFC 2640 A.2: a client that sends LANG understands UTF-8.
        self.legacy_active = false;
        let Some(tag) = tag else {
            self.lang = self.default_lang;
            let name = self.catalogs.language_name(self.lang);
            return self.r(ReplyCode::OK, Msg::LangDefault(name));
        };
        match self.catalogs.negotiate(&tag) {
            Negotiated::Lang(l) => {
                self.lang = l;
                let name = self.catalogs.language_name(l);
                tracing::debug!(peer = %self.peer, asked = %tag, chosen = self.catalogs.tag(l), "LANG");
                self.r(ReplyCode::OK, Msg::LangOk(name))
            }
            Negotiated::Unsupported => self.r(ReplyCode::PARAMETER_NOT_IMPLEMENTED, Msg::LangUnsupported),
        }
    }
}
