//! The OpenLDAP harness (`babelftp_test_support::slapd`) against the
//! unpacked ldap-utils: slapd from `scripts/slapd.sh` starts with two users
//! and a group, a right password binds and a wrong one does not, over
//! ldap://, StartTLS and ldaps:// (a self-signed certificate made now with
//! rcgen).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use babelftp_test_support::slapd::{ssha, tool, Slapd};
use babelftp_test_support::{certificate, output_within};

const BASE: &str = "dc=example,dc=org";
const ALICE: &str = "uid=alice,ou=people,dc=example,dc=org";
const BOB: &str = "uid=bob,ou=people,dc=example,dc=org";

/// Two users, alice (password stored as `{SSHA}`) and bob (in clear),
/// and the group ftpusers with alice alone.
fn ldif() -> String {
    format!(
        "dn: ou=people,{BASE}
objectClass: organizationalUnit
ou: people

dn: ou=groups,{BASE}
objectClass: organizationalUnit
ou: groups

dn: {ALICE}
objectClass: inetOrgPerson
uid: alice
cn: Alice Liddell
sn: Liddell
userPassword: {alice}

dn: {BOB}
objectClass: inetOrgPerson
uid: bob
cn: Bob Builder
sn: Builder
userPassword: bobs-secret

dn: cn=ftpusers,ou=groups,{BASE}
objectClass: groupOfNames
cn: ftpusers
member: {ALICE}
",
        alice = ssha("wonderland")
    )
}

/// `ldapwhoami -x -H url -D dn -w password` (and `extra`), the server's
/// certificate not checked: (succeeded, stdout + stderr).
fn whoami(url: &str, dn: &str, password: &str, extra: &[&str]) -> (bool, String) {
    let mut cmd = tool("ldapwhoami");
    cmd.args(["-x", "-H", url, "-D", dn, "-w", password])
        .args(extra)
        .env("LDAPTLS_REQCERT", "never");
    let out = output_within(&mut cmd, Duration::from_secs(20));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

fn assert_binds(slapd: &Slapd, url: &str, extra: &[&str]) {
    for (dn, password) in [(ALICE, "wonderland"), (BOB, "bobs-secret")] {
        let (ok, text) = whoami(url, dn, password, extra);
        assert!(ok, "{dn} on {url} {extra:?}: {text}\n{}", slapd.logs());
        assert_eq!(text.trim(), format!("dn:{dn}"));
        let (ok, text) = whoami(url, dn, "wrong", extra);
        assert!(!ok, "{dn} bound with a wrong password on {url} {extra:?}: {text}");
        assert!(text.contains("Invalid credentials (49)"), "{text}");
    }
    let (ok, text) = whoami(url, "uid=carol,ou=people,dc=example,dc=org", "x", extra);
    assert!(!ok && text.contains("Invalid credentials (49)"), "{text}");
}

#[test]
fn binds_with_the_right_password_only() {
    let slapd = Slapd::start(BASE, &ldif(), None);
    assert!(slapd.url.starts_with("ldap://127.0.0.1:"), "{}", slapd.url);
    assert_eq!(slapd.ldaps_url, None);
    assert_binds(&slapd, &slapd.url, &[]);
    // The raw bind the harness waits with.
    assert_eq!(slapd.bind(&slapd.admin_dn, &slapd.admin_password), Some(0));
    assert_eq!(slapd.bind(BOB, "bobs-secret"), Some(0));
    assert_eq!(slapd.bind(BOB, "wrong"), Some(49));

    // The group is there, found by member as an FTP server would, and
    // anonymous reads entries but not passwords.
    let mut search = tool("ldapsearch");
    search
        .args(["-x", "-LLL", "-H", &slapd.url, "-b", BASE])
        .arg(format!("(&(objectClass=groupOfNames)(member={ALICE}))"))
        .arg("cn");
    let out = output_within(&mut search, Duration::from_secs(20));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(text.trim(), format!("dn: cn=ftpusers,ou=groups,{BASE}\ncn: ftpusers"));
    let mut search = tool("ldapsearch");
    search.args(["-x", "-LLL", "-H", &slapd.url, "-b", BOB, "-s", "base", "*"]);
    let out = output_within(&mut search, Duration::from_secs(20));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.contains("uid: bob"), "{text}");
    assert!(!text.contains("userPassword"), "{text}");
}

#[test]
fn binds_over_ldaps_and_starttls() {
    let certs = tempfile::tempdir().unwrap();
    let (cert, key) = certificate(certs.path());
    let slapd = Slapd::start(BASE, &ldif(), Some((&cert, &key)));
    let ldaps = slapd.ldaps_url.clone().unwrap();
    assert!(ldaps.starts_with("ldaps://127.0.0.1:"), "{ldaps}");
    assert_binds(&slapd, &ldaps, &[]);
    // StartTLS required (-ZZ) on the ldap:// port.
    assert_binds(&slapd, &slapd.url, &["-ZZ"]);
    // Without the certificate check turned off, the self-signed
    // certificate is refused: TLS really is in the way.
    let mut cmd = tool("ldapwhoami");
    cmd.args(["-x", "-H", &ldaps, "-D", BOB, "-w", "bobs-secret"])
        .env("LDAPTLS_REQCERT", "demand")
        .env("LDAPTLS_CACERT", "/dev/null");
    let out = output_within(&mut cmd, Duration::from_secs(20));
    assert!(!out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    // With the certificate as the CA, it is accepted.
    let mut cmd = tool("ldapwhoami");
    cmd.args(["-x", "-H", &ldaps, "-D", BOB, "-w", "bobs-secret"])
        .env("LDAPTLS_REQCERT", "demand")
        .env("LDAPTLS_CACERT", &cert);
    let out = output_within(&mut cmd, Duration::from_secs(20));
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
