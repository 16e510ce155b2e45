//! The client part: what the client chose or the session learned about it
//! (RFC 959, 2640, 3659, 7151): the language of replies, the charset of
//! its pathnames, the working directory, TYPE, and the MLSx facts.
//!
//! A leaf part: pathnames in and out through the charset layer, and the
//! settings REIN and HOST reset.

use std::borrow::Cow;

use babelftp_i18n::lang::Lang;
use babelftp_i18n::Charset;
use babelftp_proto::command::TransferType;
use babelftp_proto::listing::MLST_FACTS;
use babelftp_proto::path::WirePath;

use babelftp_proto::vpath::VPath;

/// What the client chose.
#[derive(Debug, Clone)]
pub(crate) struct Client {
    /// The language before LANG (the server's, or the host's after HOST).
    pub(crate) default_lang: Lang,
    /// The language replies are in (RFC 2640 4.1).
    pub(crate) lang: Lang,
    /// The legacy client charset (RFC 2640 A.2), if any: the server's,
    /// or after login the account's.
    legacy: Option<Charset>,
    /// The server's legacy client charset, for REIN.
    server_legacy: Option<Charset>,
    /// The client said it speaks UTF-8 (LANG, HOST, `OPTS UTF8 ON`).
    said_utf8: bool,
    /// The client chose its language (LANG): an account's does not
    /// override it.
    pub(crate) lang_chosen: bool,
    /// The account's language, once logged in (issue 48: a bare LANG
    /// returns to it, not to the server's).
    pub(crate) account_lang: Option<Lang>,
    /// The legacy client charset layer is on until LANG, HOST or `OPTS UTF8
    /// ON`, or until the client's first non-ASCII pathname turns out to be
    /// UTF-8.
    legacy_active: bool,
    /// Whether the client's charset is settled: by its first non-ASCII
    /// pathname (UTF-8 or not, RFC 2640 A.1) or by what it said (OPTS
    /// UTF8, LANG, HOST); until then a UTF-8 pathname turns the legacy
    /// layer off.
    charset_settled: bool,
    pub(crate) cwd: VPath,
    pub(crate) ttype: TransferType,
    pub(crate) mlst_facts: Vec<&'static str>,
}

impl Client {
    pub(crate) fn new(lang: Lang, legacy: Option<Charset>) -> Self {
        Client {
            default_lang: lang,
            lang,
            legacy,
            server_legacy: legacy,
            said_utf8: false,
            lang_chosen: false,
            account_lang: None,
            legacy_active: legacy.is_some(),
            charset_settled: false,
            cwd: VPath::root(),
            ttype: TransferType::Ascii,
            mlst_facts: MLST_FACTS.to_vec(),
        }
    }

    /// REIN (RFC 959; RFC 2640 4.1: the default language; RFC 7151: the
    /// default host): everything as at the greeting.
    pub(crate) fn reset(&mut self, lang: Lang) {
        *self = Client::new(lang, self.server_legacy);
    }

    /// The legacy charset names go out in now, if its layer is on.
    pub(crate) fn legacy_now(&self) -> Option<Charset> {
        self.legacy.filter(|_| self.legacy_active)
    }

    /// The charset of this client's pathnames, by name.
    pub(crate) fn charset_name(&self) -> &'static str {
        self.legacy_now().map_or("UTF-8", |c| c.name())
    }

    /// A client that says it speaks UTF-8 (LANG, HOST, `OPTS UTF8 ON`).
    pub(crate) fn speaks_utf8(&mut self) {
        self.legacy_active = false;
        self.said_utf8 = true;
    }

    /// At login: the account's language, unless the client chose one.
    pub(crate) fn account_lang(&mut self, lang: Lang) {
        self.account_lang = Some(lang);
        if !self.lang_chosen {
            self.lang = lang;
        }
    }

    /// At login: the account's legacy client charset, unless the client
    /// said it speaks UTF-8 or sent a UTF-8 pathname. Whether it is on.
    pub(crate) fn account_charset(&mut self, cs: Charset) -> bool {
        if self.said_utf8 || (self.charset_settled && !self.legacy_active) {
            return false;
        }
        self.legacy = Some(cs);
        self.legacy_active = true;
        true
    }

    /// `OPTS UTF8 OFF`: back to the legacy client charset, if one is
    /// configured, and said by the client: its names are not to be guessed.
    /// Whether the legacy layer is on now.
    pub(crate) fn utf8_off(&mut self) -> bool {
        self.legacy_active = self.legacy.is_some();
        self.charset_settled = true;
        self.legacy_active
    }

    /// RFC 2640 A.1: a non-ASCII pathname that is valid UTF-8 is, with
    /// overwhelming probability, UTF-8. curl, ftplib and Apache Commons Net
    /// send UTF-8 without `OPTS UTF8 ON`: under a legacy client charset
    /// their names were read as that charset (`Привет` stored as
    /// `РџСЂРёРІРµС‚`). So the first non-ASCII pathname decides: UTF-8
    /// turns the legacy layer off for the session (replies and listings
    /// follow), anything else keeps it. Whether it was turned off now.
    pub(crate) fn settle_charset(&mut self, pathname: Option<&[u8]>) -> bool {
        if self.charset_settled || !self.legacy_active {
            return false;
        }
        let Some(bytes) = pathname else { return false };
        if bytes.is_ascii() {
            return false;
        }
        self.charset_settled = true;
        if babelftp_proto::utf8::is_utf8(bytes) {
            self.legacy_active = false;
            return true;
        }
        false
    }

    /// A pathname from the client resolved against the working directory.
    pub(crate) fn path(&self, p: &WirePath) -> VPath {
        self.cwd.join(&self.wire_in(p.as_bytes()))
    }

    /// A pathname from the client as the storage sees it: UTF-8 from a
    /// legacy client's charset while that layer is on (RFC 2640 A.2).
    pub(crate) fn wire_in<'a>(&self, bytes: &'a [u8]) -> Cow<'a, [u8]> {
        match self.legacy_now() {
            Some(cs) => babelftp_i18n::names::legacy_in(bytes, cs),
            None => Cow::Borrowed(bytes),
        }
    }

    /// A pathname for the client: back into a legacy client's charset
    /// while that layer is on.
    pub(crate) fn wire_out(&self, name: &[u8]) -> Vec<u8> {
        match self.legacy_now() {
            Some(cs) => babelftp_i18n::names::legacy_out(name, cs).into_owned(),
            None => name.to_vec(),
        }
    }
}
