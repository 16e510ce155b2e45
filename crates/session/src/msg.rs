//! Reply texts. A reply carries a code and a [`Msg`]; the session renders
//! the text from the message catalogs (`babelftp_i18n::lang`) in the
//! language it speaks, so no handler holds a literal. Reply codes, FEAT
//! names and pathnames are protocol elements and never pass through here.

use babelftp_i18n::lang::{Arg, Catalogs, Lang};
use babelftp_proto::reply::ReplyCode;

/// A refusal a part of the session decides on: its reply.
pub(crate) type Refusal = (ReplyCode, Msg);

/// Every reply text the server sends; each maps to one catalog message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Msg {
    Greeting,
    Goodbye,
    Ok,
    NeedPassword,
    LoggedIn,
    LoggedInAnonymous,
    LoginFailed,
    HomeUnavailable,
    /// The address is banned (too many failed logins): 421.
    Banned,
    NotLoggedIn,
    AlreadyLoggedIn,
    AccountNotNeeded,
    BadSequence,
    CwdOk,
    IsCurrentDirectory,
    Created,
    Removed,
    Deleted,
    RenamePending,
    Renamed,
    StruOk,
    ModeOk,
    Superfluous,
    SystemType,
    Features,
    End,
    HelpIntro,
    HelpEnd,
    StatusIntro,
    StatusEnd,
    Passive,
    ExtendedPassive,
    PortOk,
    PortRefused,
    OpeningData,
    TransferComplete,
    TransferAborted,
    AbortOk,
    NoTransfer,
    CantOpenData,
    PassiveLimit,
    DataTimeout,
    PassiveNeedsIpv4,
    EpsvAllOnly,
    EpsvAllOk,
    NoSuchFile,
    NotAFile,
    NotADirectory,
    PermissionDenied,
    FileExists,
    DirectoryNotEmpty,
    NoSpace,
    LocalError,
    UnknownCommand,
    SyntaxError,
    ArgumentError,
    ParameterNotImplemented,
    /// The storage cannot do this (an object store: no append, no offset write).
    StorageUnsupported,
    NameUntranslatable,
    /// A name the charset of the names on disk cannot hold (the charset's
    /// name: a translating server, RFC 2640 Annex B.3).
    NameNotInCharset(&'static str),
    ProtocolNotSupported,
    LineTooLong,
    Idle,
    ShuttingDown,
    /// An administrator ended the session (the admin API): 421.
    EndedByAdmin,
    TooManyConnections,
    /// 421 instead of the greeting: the server holds `max_connections`
    /// sessions (the number).
    ServerFull(u64),
    /// 421 instead of the greeting: the client's address holds
    /// `max_per_ip` sessions (the number).
    AddressFull(u64),
    /// 421 when a login cannot get what it needs (EMFILE opening a home).
    OutOfResources,
    Utf8On,
    Utf8Off,
    OptsUnknown,
    LangUnsupported,
    LangMalformed,
    HostOk,
    HostUnknown,
    HostAfterLogin,
    UniqueName,
    AuthOk,
    AuthAlready,
    AuthUnsupported,
    /// PROT accepted: `C` or `P`.
    ProtOk(&'static str),
    ProtUnsupported,
    CccRefused,
    /// SITE CHMOD done.
    ChmodOk,
    /// SITE CHMOD with a mode that is not 0–777 in octal.
    BadMode,
    /// SITE HELP: the intro of the list.
    SiteHelp,
    /// A SITE command this server does not have.
    SiteUnknown,
    TlsRequired,
    ProtRequired,
    TlsReuseRequired,
    TlsDataFailed,
    /// REST accepted: the offset.
    RestartPending(u64),
    /// TYPE accepted: `A` or `I`.
    TypeSet(&'static str),
    /// The account's permissions refuse the operation: the permission it
    /// lacks (`upload`, `overwrite`, …: a configuration keyword).
    PolicyDenied(&'static str),
    /// A rename or RMD of a directory that the rule of a folder inside it
    /// refuses: the permission that folder lacks (its path leads the
    /// reply, quoted).
    PolicyDeniedInside(&'static str),
    /// LANG accepted: the language's own name.
    LangOk(String),
    /// LANG without argument: the default language's name.
    LangDefault(String),
    /// LANG without argument after login: the account's language's name.
    LangAccount(String),
    /// LANG without argument before login: the default language's name
    /// (an account's own applies at login).
    LangDefaultUntilLogin(String),
    /// 421: the account has as many sessions as it may.
    UserSessionsLimit,
    /// 552: an upload would pass the account's quota.
    QuotaExceeded,
    /// 552: MKD would pass the account's quota of files (folders count).
    QuotaEntries,
    /// SITE QUOTA: the first line.
    QuotaStatus,
    /// SITE QUOTA: bytes used and the limit (as text: a size, or
    /// [`Msg::QuotaNoLimit`] rendered).
    QuotaBytes {
        used: String,
        limit: String,
    },
    /// SITE QUOTA: files and the limit.
    QuotaFiles {
        used: u64,
        limit: String,
    },
    QuotaNoLimit,
    QuotaNone,
    // issue 45: server
    /// 553: a name in the server's temporary-name pattern
    /// (`.babelftp-*.part`), which a client may not create.
    ReservedName,
}

impl Msg {
    /// The catalog id and the one argument, if any.
    fn parts(&self) -> (&'static str, Option<(&'static str, Arg<'_>)>) {
        use Msg::*;
        match self {
            Greeting => ("greeting", None),
            Goodbye => ("goodbye", None),
            Ok => ("command-ok", None),
            NeedPassword => ("need-password", None),
            LoggedIn => ("logged-in", None),
            LoggedInAnonymous => ("logged-in-anonymous", None),
            LoginFailed => ("login-failed", None),
            HomeUnavailable => ("home-unavailable", None),
            Banned => ("banned", None),
            NotLoggedIn => ("not-logged-in", None),
            AlreadyLoggedIn => ("already-logged-in", None),
            AccountNotNeeded => ("account-not-needed", None),
            BadSequence => ("bad-sequence", None),
            CwdOk => ("cwd-ok", None),
            IsCurrentDirectory => ("path-is-current", None),
            Created => ("path-created", None),
            Removed => ("directory-removed", None),
            Deleted => ("file-deleted", None),
            RenamePending => ("rename-pending", None),
            Renamed => ("renamed", None),
            StruOk => ("stru-ok", None),
            ModeOk => ("mode-ok", None),
            Superfluous => ("superfluous", None),
            SystemType => ("system-type", None),
            Features => ("features", None),
            End => ("end", None),
            HelpIntro => ("help-intro", None),
            HelpEnd => ("help-end", None),
            StatusIntro => ("status-intro", None),
            StatusEnd => ("status-end", None),
            Passive => ("passive", None),
            ExtendedPassive => ("extended-passive", None),
            PortOk => ("port-ok", None),
            PortRefused => ("port-refused", None),
            OpeningData => ("opening-data", None),
            TransferComplete => ("transfer-complete", None),
            TransferAborted => ("transfer-aborted", None),
            AbortOk => ("abort-ok", None),
            NoTransfer => ("no-transfer", None),
            CantOpenData => ("cant-open-data", None),
            PassiveLimit => ("passive-limit", None),
            DataTimeout => ("data-timeout", None),
            PassiveNeedsIpv4 => ("pasv-needs-ipv4", None),
            EpsvAllOnly => ("epsv-all-only", None),
            EpsvAllOk => ("epsv-all-ok", None),
            NoSuchFile => ("no-such-file", None),
            NotAFile => ("not-a-file", None),
            NotADirectory => ("not-a-directory", None),
            PermissionDenied => ("permission-denied", None),
            FileExists => ("file-exists", None),
            DirectoryNotEmpty => ("directory-not-empty", None),
            NoSpace => ("no-space", None),
            LocalError => ("local-error", None),
            UnknownCommand => ("unknown-command", None),
            SyntaxError => ("syntax-error", None),
            ArgumentError => ("argument-error", None),
            ParameterNotImplemented => ("parameter-not-implemented", None),
            StorageUnsupported => ("storage-unsupported", None),
            NameUntranslatable => ("name-untranslatable", None),
            NameNotInCharset(c) => ("name-not-in-charset", Some(("charset", Arg::Str(c)))),
            ProtocolNotSupported => ("protocol-not-supported", None),
            LineTooLong => ("line-too-long", None),
            Idle => ("idle-timeout", None),
            ShuttingDown => ("shutting-down", None),
            EndedByAdmin => ("ended-by-admin", None),
            TooManyConnections => ("too-many-connections", None),
            ServerFull(n) => ("server-full", Some(("max", Arg::Num(*n)))),
            AddressFull(n) => ("address-full", Some(("max", Arg::Num(*n)))),
            OutOfResources => ("out-of-resources", None),
            Utf8On => ("utf8-on", None),
            Utf8Off => ("utf8-off", None),
            OptsUnknown => ("option-unknown", None),
            LangUnsupported => ("lang-unsupported", None),
            LangMalformed => ("lang-malformed", None),
            HostOk => ("host-ok", None),
            HostUnknown => ("host-unknown", None),
            HostAfterLogin => ("host-after-login", None),
            UniqueName => ("unique-name", None),
            AuthOk => ("auth-ok", None),
            AuthAlready => ("auth-already", None),
            AuthUnsupported => ("auth-unsupported", None),
            ProtOk(l) => ("prot-ok", Some(("level", Arg::Str(l)))),
            ProtUnsupported => ("prot-unsupported", None),
            CccRefused => ("ccc-refused", None),
            ChmodOk => ("chmod-ok", None),
            BadMode => ("bad-mode", None),
            SiteHelp => ("site-help", None),
            SiteUnknown => ("site-unknown", None),
            TlsRequired => ("tls-required", None),
            ProtRequired => ("prot-required", None),
            TlsReuseRequired => ("tls-reuse-required-account", None),
            TlsDataFailed => ("tls-data-failed", None),
            RestartPending(n) => ("restart-pending", Some(("offset", Arg::Num(*n)))),
            TypeSet(t) => ("type-set", Some(("type", Arg::Str(t)))),
            PolicyDenied(p) => ("policy-denied", Some(("perm", Arg::Str(p)))),
            PolicyDeniedInside(p) => ("policy-denied-inside", Some(("perm", Arg::Str(p)))),
            LangOk(l) => ("lang-ok", Some(("language", Arg::Str(l)))),
            LangDefault(l) => ("lang-default", Some(("language", Arg::Str(l)))),
            LangAccount(l) => ("lang-account", Some(("language", Arg::Str(l)))),
            LangDefaultUntilLogin(l) => ("lang-default-until-login", Some(("language", Arg::Str(l)))),
            UserSessionsLimit => ("user-sessions-limit", None),
            QuotaExceeded => ("quota-exceeded", None),
            QuotaEntries => ("quota-entries", None),
            QuotaStatus => ("quota-status", None),
            // Two arguments: see `render`.
            QuotaBytes { .. } => ("quota-bytes", None),
            QuotaFiles { .. } => ("quota-files", None),
            QuotaNoLimit => ("quota-no-limit", None),
            QuotaNone => ("quota-none", None),
            ReservedName => ("reserved-name", None),
        }
    }

    /// The text in `lang`.
    pub fn render(&self, catalogs: &Catalogs, lang: Lang) -> String {
        match self {
            Msg::QuotaBytes { used, limit } => {
                return catalogs.text(
                    lang,
                    "quota-bytes",
                    &[("used", Arg::Str(used)), ("limit", Arg::Str(limit))],
                )
            }
            Msg::QuotaFiles { used, limit } => {
                return catalogs.text(
                    lang,
                    "quota-files",
                    &[("used", Arg::Num(*used)), ("limit", Arg::Str(limit))],
                )
            }
            _ => {}
        }
        let (id, arg) = self.parts();
        match arg {
            Some(a) => catalogs.text(lang, id, &[a]),
            None => catalogs.text(lang, id, &[]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every message the server can send exists in the English catalog.
    #[test]
    fn every_msg_has_a_catalog_entry() {
        let en = babelftp_i18n::lang::shipped_source("en").unwrap();
        let ids = Catalogs::message_ids(en);
        let all = [
            Msg::Greeting,
            Msg::Goodbye,
            Msg::Ok,
            Msg::NeedPassword,
            Msg::LoggedIn,
            Msg::LoggedInAnonymous,
            Msg::LoginFailed,
            Msg::HomeUnavailable,
            Msg::Banned,
            Msg::NotLoggedIn,
            Msg::AlreadyLoggedIn,
            Msg::AccountNotNeeded,
            Msg::BadSequence,
            Msg::CwdOk,
            Msg::IsCurrentDirectory,
            Msg::Created,
            Msg::Removed,
            Msg::Deleted,
            Msg::RenamePending,
            Msg::Renamed,
            Msg::StruOk,
            Msg::ModeOk,
            Msg::Superfluous,
            Msg::SystemType,
            Msg::Features,
            Msg::End,
            Msg::HelpIntro,
            Msg::HelpEnd,
            Msg::StatusIntro,
            Msg::StatusEnd,
            Msg::Passive,
            Msg::ExtendedPassive,
            Msg::PortOk,
            Msg::PortRefused,
            Msg::OpeningData,
            Msg::TransferComplete,
            Msg::TransferAborted,
            Msg::AbortOk,
            Msg::NoTransfer,
            Msg::CantOpenData,
            Msg::PassiveLimit,
            Msg::DataTimeout,
            Msg::PassiveNeedsIpv4,
            Msg::EpsvAllOnly,
            Msg::EpsvAllOk,
            Msg::NoSuchFile,
            Msg::NotAFile,
            Msg::NotADirectory,
            Msg::PermissionDenied,
            Msg::FileExists,
            Msg::DirectoryNotEmpty,
            Msg::NoSpace,
            Msg::LocalError,
            Msg::UnknownCommand,
            Msg::SyntaxError,
            Msg::ArgumentError,
            Msg::ParameterNotImplemented,
            Msg::StorageUnsupported,
            Msg::NameUntranslatable,
            Msg::NameNotInCharset("windows-1252"),
            Msg::ProtocolNotSupported,
            Msg::LineTooLong,
            Msg::Idle,
            Msg::ShuttingDown,
            Msg::EndedByAdmin,
            Msg::TooManyConnections,
            Msg::ServerFull(512),
            Msg::AddressFull(32),
            Msg::OutOfResources,
            Msg::Utf8On,
            Msg::Utf8Off,
            Msg::OptsUnknown,
            Msg::LangUnsupported,
            Msg::LangMalformed,
            Msg::HostOk,
            Msg::HostUnknown,
            Msg::HostAfterLogin,
            Msg::UniqueName,
            Msg::AuthOk,
            Msg::AuthAlready,
            Msg::AuthUnsupported,
            Msg::ProtOk("P"),
            Msg::ProtUnsupported,
            Msg::CccRefused,
            Msg::ChmodOk,
            Msg::BadMode,
            Msg::SiteHelp,
            Msg::SiteUnknown,
            Msg::TlsRequired,
            Msg::ProtRequired,
            Msg::TlsReuseRequired,
            Msg::TlsDataFailed,
            Msg::RestartPending(1),
            Msg::TypeSet("A"),
            Msg::PolicyDenied("upload"),
            Msg::PolicyDeniedInside("rename"),
            Msg::LangOk("x".into()),
            Msg::LangDefault("x".into()),
            Msg::LangAccount("x".into()),
            Msg::LangDefaultUntilLogin("x".into()),
            Msg::UserSessionsLimit,
            Msg::QuotaExceeded,
            Msg::QuotaEntries,
            Msg::QuotaStatus,
            Msg::QuotaBytes {
                used: "1 B".into(),
                limit: "2 B".into(),
            },
            Msg::QuotaFiles {
                used: 1,
                limit: "2".into(),
            },
            Msg::QuotaNoLimit,
            Msg::QuotaNone,
            Msg::ReservedName,
        ];
        for m in all {
            let (id, _) = m.parts();
            assert!(ids.iter().any(|i| i == id), "{id} missing from the English catalog");
        }
    }
}
