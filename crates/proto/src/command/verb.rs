//! The table of verbs: name, RFC 775 aliases, whether login is required,
//! and the RFC that defines each.

macro_rules! verbs {
    ($($variant:ident: [$($name:literal),+], login = $login:literal, $rfc:literal;)*) => {
        /// Every verb babelftp understands. Unknown verbs are
        /// [`ParseError::Unknown`](super::ParseError::Unknown) (reply 502).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Verb { $($variant,)* }

        impl Verb {
            /// All verbs, in table order (HELP lists them).
            pub const ALL: &'static [Verb] = &[$(Verb::$variant,)*];

            /// The verb's canonical name and its aliases.
            pub const fn names(self) -> &'static [&'static str] {
                match self { $(Verb::$variant => &[$($name),+],)* }
            }

            /// Whether the command needs a logged-in session (else 530).
            pub const fn needs_login(self) -> bool {
                match self { $(Verb::$variant => $login,)* }
            }

            /// The document and section that define the command.
            pub const fn rfc(self) -> &'static str {
                match self { $(Verb::$variant => $rfc,)* }
            }
        }
    };
}

verbs! {
    User: ["USER"], login = false, "RFC 959 4.1.1";
    Pass: ["PASS"], login = false, "RFC 959 4.1.1";
    Acct: ["ACCT"], login = false, "RFC 959 4.1.1";
    Cwd: ["CWD", "XCWD"], login = true, "RFC 959 4.1.1, RFC 775";
    Cdup: ["CDUP", "XCUP"], login = true, "RFC 959 4.1.1, RFC 775";
    Rein: ["REIN"], login = false, "RFC 959 4.1.1";
    Quit: ["QUIT"], login = false, "RFC 959 4.1.1";
    Port: ["PORT"], login = true, "RFC 959 4.1.2";
    Pasv: ["PASV"], login = true, "RFC 959 4.1.2";
    Type: ["TYPE"], login = false, "RFC 959 4.1.2";
    Stru: ["STRU"], login = false, "RFC 959 4.1.2";
    Mode: ["MODE"], login = false, "RFC 959 4.1.2";
    Retr: ["RETR"], login = true, "RFC 959 4.1.3";
    Stor: ["STOR"], login = true, "RFC 959 4.1.3";
    Stou: ["STOU"], login = true, "RFC 959 4.1.3, RFC 1123 4.1.2.9";
    Appe: ["APPE"], login = true, "RFC 959 4.1.3";
    Allo: ["ALLO"], login = true, "RFC 959 4.1.3";
    Rest: ["REST"], login = true, "RFC 959 4.1.3, RFC 3659 5";
    Rnfr: ["RNFR"], login = true, "RFC 959 4.1.3";
    Rnto: ["RNTO"], login = true, "RFC 959 4.1.3";
    Abor: ["ABOR"], login = true, "RFC 959 4.1.3";
    Dele: ["DELE"], login = true, "RFC 959 4.1.3";
    Rmd: ["RMD", "XRMD"], login = true, "RFC 959 4.1.3, RFC 775";
    Mkd: ["MKD", "XMKD"], login = true, "RFC 959 4.1.3, RFC 775";
    Pwd: ["PWD", "XPWD"], login = true, "RFC 959 4.1.3, RFC 775";
    List: ["LIST"], login = true, "RFC 959 4.1.3";
    Nlst: ["NLST"], login = true, "RFC 959 4.1.3";
    Site: ["SITE"], login = true, "RFC 959 4.1.3";
    Syst: ["SYST"], login = false, "RFC 959 4.1.3";
    Stat: ["STAT"], login = false, "RFC 959 4.1.3";
    Help: ["HELP"], login = false, "RFC 959 4.1.3";
    Noop: ["NOOP"], login = false, "RFC 959 4.1.3";
    Feat: ["FEAT"], login = false, "RFC 2389 3";
    Opts: ["OPTS"], login = false, "RFC 2389 4";
    Lang: ["LANG"], login = false, "RFC 2640 4.1";
    Host: ["HOST"], login = false, "RFC 7151 3";
    Eprt: ["EPRT"], login = true, "RFC 2428 2";
    Epsv: ["EPSV"], login = true, "RFC 2428 3";
    Mlst: ["MLST"], login = true, "RFC 3659 7";
    Mlsd: ["MLSD"], login = true, "RFC 3659 7";
    Size: ["SIZE"], login = true, "RFC 3659 4";
    Mdtm: ["MDTM"], login = true, "RFC 3659 3";
    Mfmt: ["MFMT"], login = true, "draft-somers-ftp-mfxx";
    Auth: ["AUTH"], login = false, "RFC 2228 3, RFC 4217 4";
    Pbsz: ["PBSZ"], login = false, "RFC 2228 3, RFC 4217 8";
    Prot: ["PROT"], login = false, "RFC 2228 3, RFC 4217 9";
    Ccc: ["CCC"], login = true, "RFC 2228 3, RFC 4217 6";
}

impl Verb {
    /// The canonical name (`XPWD` → `PWD`).
    pub fn name(self) -> &'static str {
        self.names()[0]
    }

    /// Looks a verb up by name, ignoring ASCII case.
    pub fn lookup(name: &[u8]) -> Option<Verb> {
        Verb::ALL
            .iter()
            .copied()
            .find(|v| v.names().iter().any(|n| n.as_bytes().eq_ignore_ascii_case(name)))
    }
}
