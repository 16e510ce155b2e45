//! LDAP logins (RFC 4511 simple bind, RFC 4513): the directory checks the
//! password; babelftp's store gives the account its settings.
//!
//! Finding the user's DN: a template (`user_dn = "uid={user},ou=people,…"`)
//! or a search (`search_base`, `search_filter = "(uid={user})"`, as
//! `bind_dn` or anonymously) that must find exactly one entry; then a bind
//! as that DN with the password. Over `ldaps://`, or `ldap://` with
//! `starttls = true`; the server's certificate is checked against the
//! system's roots and `ca_file`.
//!
//! Groups: with `group_base`, the groups whose `group_filter` (default
//! `(member={dn})`) matches the user are looked up; the first whose `cn`
//! or DN is a key of `groups` names the user's babelftp group
//! (`default_group` otherwise). The account's settings are then the
//! store's: a store account of the same name (its password unused), else
//! its group's. An LDAP user with neither may list and download only.
//!
//! The account is the name the directory confirmed, not the one typed: the
//! directory matches `LBOB`, `Lbob` and `lbob ` as `lbob` (uid's equality
//! rule ignores case and extra spaces), so after the bind the entry's
//! naming attribute is read — the attribute of the filter's `(ATTR={user})`,
//! or of the DN template's first RDN `ATTR={user},…`, or `name_attribute`
//! — and its value is the account's name: its store settings, limits,
//! sessions, logs and events. An entry with several values of it, none
//! the name typed, or none readable, is refused.
//!
//! The user's name is escaped for DNs (RFC 4514) and filters (RFC 4515);
//! an empty password is refused before anything is sent (a bind without
//! one is anonymous and would "succeed"). Passwords are never logged.
//!
//! The directory itself (ldap3) is the `ldap` feature's: a build without
//! it reads an `[ldap]` table as any other, and [`LdapAuth::new`] then says
//! that this build has no LDAP support, so a server so configured does
//! not start.

use std::collections::BTreeMap;
use std::path::PathBuf;
#[cfg(feature = "ldap")]
use std::sync::Arc;
use std::time::Duration;

#[cfg(feature = "ldap")]
use ldap3::{dn_escape, ldap_escape, Ldap, LdapConnAsync, LdapConnSettings, Scope, SearchEntry};

/// The `[ldap]` table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LdapConfig {
    /// `ldap://host:389` or `ldaps://host:636`.
    pub url: String,
    /// StartTLS on an `ldap://` URL.
    pub starttls: bool,
    /// More trusted CA certificates (PEM), besides the system's.
    pub ca_file: Option<PathBuf>,
    /// The user's DN from its name: `{user}` is replaced.
    pub user_dn: Option<String>,
    /// Else: where to search for the user, and how.
    pub search_base: Option<String>,
    pub search_filter: String,
    /// Who searches (anonymous when unset).
    pub bind_dn: Option<String>,
    pub bind_password: Option<String>,
    /// Where the groups are, and which contain the user (`{dn}`,
    /// `{user}` replaced).
    pub group_base: Option<String>,
    pub group_filter: String,
    /// LDAP group (its `cn` or its DN) → babelftp group.
    pub groups: BTreeMap<String, String>,
    /// The babelftp group of users in no mapped group.
    pub default_group: Option<String>,
    /// For the connection and each operation.
    pub timeout: Duration,
    /// The attribute that holds the user's name in its entry; unset: the
    /// attribute of `user_dn`'s first RDN, else of the filter's
    /// `(ATTR={user})`.
    pub name_attribute: Option<String>,
}

impl LdapConfig {
    /// A configuration with the defaults for what is not given.
    pub fn new(url: String) -> LdapConfig {
        LdapConfig {
            url,
            starttls: false,
            ca_file: None,
            user_dn: None,
            search_base: None,
            search_filter: "(uid={user})".into(),
            bind_dn: None,
            bind_password: None,
            group_base: None,
            group_filter: "(member={dn})".into(),
            groups: BTreeMap::new(),
            default_group: None,
            timeout: Duration::from_secs(5),
            name_attribute: None,
        }
    }

    /// The attribute whose value in the user's entry is the account's
    /// name: `name_attribute`, else the attribute of `user_dn`'s first RDN
    /// (`uid={user},…`), else of the search filter's `(ATTR={user})`.
    pub fn naming_attribute(&self) -> Result<String, LdapError> {
        if let Some(a) = self.name_attribute.as_deref().map(str::trim).filter(|a| !a.is_empty()) {
            if !is_attribute(a) {
                return Err(LdapError::Config(format!(
                    "name_attribute {a:?} is not an attribute name"
                )));
            }
            return Ok(a.to_owned());
        }
        let found = match &self.user_dn {
            Some(t) => {
                let first = t.split(',').next().unwrap_or_default();
                first
                    .split_once('=')
                    .filter(|(_, v)| v.trim() == "{user}")
                    .map(|(a, _)| a.trim())
            }
            None => filter_attribute(&self.search_filter),
        };
        match found.filter(|a| is_attribute(a)) {
            Some(a) => Ok(a.to_owned()),
            None => Err(LdapError::Config(match &self.user_dn {
                Some(t) => format!(
                    "user_dn {t:?} does not start with ATTR={{user}}: set name_attribute (the attribute that holds the user's name, such as uid)"
                ),
                None => format!(
                    "search_filter {:?} has no (ATTR={{user}}): set name_attribute (the attribute that holds the user's name, such as uid)",
                    self.search_filter
                ),
            })),
        }
    }
}

/// An attribute description: a name or an OID, maybe with options
/// (`uid`, `cn;lang-fr`, `0.9.2342.19200300.100.1.1`).
fn is_attribute(a: &str) -> bool {
    !a.is_empty()
        && a.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.' || b == b';')
}

/// The attribute of the first `(ATTR={user})` of a filter.
fn filter_attribute(filter: &str) -> Option<&str> {
    let at = filter.find("={user})")?;
    let open = filter[..at].rfind('(')?;
    Some(filter[open + 1..at].trim())
}

/// The account's name among the values of the entry's naming attribute:
/// its only value, else the one that is exactly the name typed; `None`
/// when there is none, or several and none is.
#[cfg(feature = "ldap")]
fn confirmed_name(values: &[String], typed: &str) -> Option<String> {
    match values {
        [one] => Some(one.clone()),
        many => many.iter().find(|v| *v == typed).cloned(),
    }
}

/// The values of `attr` in `entry` (attribute names compare without
/// case).
#[cfg(feature = "ldap")]
fn values_of(entry: &SearchEntry, attr: &str) -> Vec<String> {
    entry
        .attrs
        .iter()
        .filter(|(k, _)| k.eq_ignore_ascii_case(attr))
        .flat_map(|(_, v)| v.iter().cloned())
        .collect()
}

/// Why the directory could not answer (not: a wrong password).
#[derive(Debug, thiserror::Error)]
pub enum LdapError {
    #[error("LDAP {url}: {reason}")]
    Failed { url: String, reason: String },
    #[error("LDAP configuration: {0}")]
    Config(String),
    /// An `[ldap]` table in a build without the `ldap` feature.
    #[error("[ldap]: this build has no LDAP support (feature ldap)")]
    NotBuilt,
}

/// A configured directory.
#[cfg(feature = "ldap")]
pub struct LdapAuth {
    cfg: LdapConfig,
    /// The attribute that holds the account's name.
    naming: String,
    tls: Arc<rustls::ClientConfig>,
}

/// What the directory said of a login.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LdapLogin {
    /// The password is right: the user's DN, its name as the directory
    /// holds it (the account's name, whatever spelling was typed), and
    /// its babelftp group.
    Ok {
        dn: String,
        name: String,
        group: Option<String>,
    },
    /// Wrong password, unknown user, or more than one entry found.
    Refused,
}

#[cfg(feature = "ldap")]
impl LdapAuth {
    pub fn new(cfg: LdapConfig) -> Result<LdapAuth, LdapError> {
        if cfg.user_dn.is_none() && cfg.search_base.is_none() {
            return Err(LdapError::Config(
                "set user_dn, or search_base (and search_filter)".into(),
            ));
        }
        let naming = cfg.naming_attribute()?;
        let _ = rustls::crypto::ring::default_provider().install_default();
        let mut roots = rustls::RootCertStore::empty();
        for cert in rustls_native_certs::load_native_certs().certs {
            let _ = roots.add(cert);
        }
        if let Some(f) = &cfg.ca_file {
            use rustls_pki_types::pem::PemObject;
            let certs = rustls_pki_types::CertificateDer::pem_file_iter(f)
                .map_err(|e| LdapError::Config(format!("ca_file {}: {e}", f.display())))?;
            for c in certs {
                let c = c.map_err(|e| LdapError::Config(format!("ca_file {}: {e}", f.display())))?;
                roots
                    .add(c)
                    .map_err(|e| LdapError::Config(format!("ca_file {}: {e}", f.display())))?;
            }
        }
        let tls = rustls::ClientConfig::builder()
            .with_root_certificates(roots)
            .with_no_client_auth();
        Ok(LdapAuth {
            cfg,
            naming,
            tls: Arc::new(tls),
        })
    }

    /// The directory, for people.
    pub fn describe(&self) -> String {
        format!("LDAP {}", self.cfg.url)
    }

    fn failed(&self, e: impl std::fmt::Display) -> LdapError {
        LdapError::Failed {
            url: self.cfg.url.clone(),
            reason: e.to_string(),
        }
    }

    async fn connect(&self) -> Result<Ldap, LdapError> {
        let settings = LdapConnSettings::new()
            .set_conn_timeout(self.cfg.timeout)
            .set_starttls(self.cfg.starttls)
            .set_config(self.tls.clone());
        let (conn, mut ldap) = LdapConnAsync::with_settings(settings, &self.cfg.url)
            .await
            .map_err(|e| self.failed(e))?;
        tokio::spawn(async move {
            if let Err(e) = conn.drive().await {
                tracing::debug!(error = %e, "LDAP connection ended");
            }
        });
        ldap.with_timeout(self.cfg.timeout);
        Ok(ldap)
    }

    /// Checks `password` for `user`.
    pub async fn login(&self, user: &str, password: &str) -> Result<LdapLogin, LdapError> {
        if user.is_empty() || password.is_empty() {
            return Ok(LdapLogin::Refused);
        }
        let mut ldap = self.connect().await?;
        let answer = self.login_on(&mut ldap, user, password).await;
        let _ = ldap.unbind().await;
        answer
    }

    async fn login_on(&self, ldap: &mut Ldap, user: &str, password: &str) -> Result<LdapLogin, LdapError> {
        // The entry's naming attribute, when the search read it.
        let mut values = None;
        let dn = match &self.cfg.user_dn {
            Some(t) => t.replace("{user}", &dn_escape(user)),
            None => {
                if let (Some(dn), Some(pw)) = (&self.cfg.bind_dn, &self.cfg.bind_password) {
                    ldap.simple_bind(dn, pw)
                        .await
                        .and_then(|r| r.success())
                        .map_err(|e| self.failed(format!("bind as {dn}: {e}")))?;
                }
                let base = self.cfg.search_base.as_deref().unwrap_or_default();
                let filter = self.cfg.search_filter.replace("{user}", &ldap_escape(user));
                let (entries, _) = ldap
                    .search(base, Scope::Subtree, &filter, vec![self.naming.as_str()])
                    .await
                    .and_then(|r| r.success())
                    .map_err(|e| self.failed(format!("search {filter} in {base}: {e}")))?;
                let mut found = entries.into_iter().map(SearchEntry::construct);
                match (found.next(), found.next()) {
                    (Some(e), None) => {
                        values = Some(values_of(&e, &self.naming));
                        e.dn
                    }
                    (None, _) => return Ok(LdapLogin::Refused),
                    (Some(_), Some(_)) => {
                        tracing::warn!(user = %user, filter = %filter, "LDAP: more than one entry for the user; refused");
                        return Ok(LdapLogin::Refused);
                    }
                }
            }
        };
        let bound = ldap
            .simple_bind(&dn, password)
            .await
            .map_err(|e| self.failed(format!("bind as {dn}: {e}")))?;
        // 49: invalidCredentials (also an unknown DN, on most servers).
        if bound.rc != 0 {
            tracing::info!(user = %user, dn = %dn, rc = bound.rc, "LDAP bind refused");
            return Ok(LdapLogin::Refused);
        }
        // A DN template: the entry, read as the user just bound.
        let values = match values {
            Some(v) => v,
            None => {
                let (entries, _) = ldap
                    .search(&dn, Scope::Base, "(objectClass=*)", vec![self.naming.as_str()])
                    .await
                    .and_then(|r| r.success())
                    .map_err(|e| self.failed(format!("read {} of {dn}: {e}", self.naming)))?;
                entries
                    .into_iter()
                    .next()
                    .map(|e| values_of(&SearchEntry::construct(e), &self.naming))
                    .unwrap_or_default()
            }
        };
        let Some(name) = confirmed_name(&values, user) else {
            tracing::warn!(user = %user, dn = %dn, attribute = %self.naming, values = values.len(),
                "LDAP: the entry does not say which name is the account's (its naming attribute has no value readable by the user, or several and none is the name typed); refused");
            return Ok(LdapLogin::Refused);
        };
        let group = self.group_of(ldap, &name, &dn).await?;
        Ok(LdapLogin::Ok { dn, name, group })
    }

    /// The babelftp group of the user's LDAP groups.
    async fn group_of(&self, ldap: &mut Ldap, user: &str, dn: &str) -> Result<Option<String>, LdapError> {
        let Some(base) = &self.cfg.group_base else {
            return Ok(self.cfg.default_group.clone());
        };
        let filter = self
            .cfg
            .group_filter
            .replace("{dn}", &ldap_escape(dn))
            .replace("{user}", &ldap_escape(user));
        let (entries, _) = ldap
            .search(base, Scope::Subtree, &filter, vec!["cn"])
            .await
            .and_then(|r| r.success())
            .map_err(|e| self.failed(format!("search {filter} in {base}: {e}")))?;
        let mut mine: Vec<SearchEntry> = entries.into_iter().map(SearchEntry::construct).collect();
        mine.sort_by(|a, b| a.dn.cmp(&b.dn));
        for g in &mine {
            let names = g.attrs.get("cn").into_iter().flatten().chain(std::iter::once(&g.dn));
            for n in names {
                if let Some(to) = self.cfg.groups.get(n) {
                    return Ok(Some(to.clone()));
                }
            }
        }
        Ok(self.cfg.default_group.clone())
    }
}

/// A build without the `ldap` feature: there is no such directory, and
/// making one says so.
#[cfg(not(feature = "ldap"))]
pub struct LdapAuth {
    none: std::convert::Infallible,
}

#[cfg(not(feature = "ldap"))]
impl LdapAuth {
    /// Always [`LdapError::NotBuilt`].
    pub fn new(cfg: LdapConfig) -> Result<LdapAuth, LdapError> {
        let _ = cfg;
        Err(LdapError::NotBuilt)
    }

    pub fn describe(&self) -> String {
        match self.none {}
    }

    pub async fn login(&self, _user: &str, _password: &str) -> Result<LdapLogin, LdapError> {
        match self.none {}
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[cfg(feature = "ldap")]
    #[test]
    fn the_account_is_the_entry_s_value_not_the_spelling_typed() {
        let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(confirmed_name(&v(&["lbob"]), "LBOB").as_deref(), Some("lbob"));
        assert_eq!(confirmed_name(&v(&["lbob"]), "lbob ").as_deref(), Some("lbob"));
        // Several values: only the one typed exactly.
        assert_eq!(confirmed_name(&v(&["lbob", "bob"]), "bob").as_deref(), Some("bob"));
        assert_eq!(confirmed_name(&v(&["lbob", "bob"]), "BOB"), None);
        assert_eq!(confirmed_name(&[], "lbob"), None);
    }

    #[test]
    fn the_naming_attribute_is_the_filter_s() {
        assert_eq!(filter_attribute("(&(objectClass=x)( uid ={user}))"), Some("uid"));
        assert_eq!(filter_attribute("(cn=*{user}*)"), None);
    }
}
