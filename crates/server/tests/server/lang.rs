//! RFC 2640 section 4 on the server, driven by Python's ftplib: FEAT's
//! LANG line, LANG in every shipped language, the 501/504 cases, and the
//! resets (REIN, HOST). Expected texts come from the catalogs themselves.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use babelftp_i18n::lang::{Catalogs, Negotiated};
use babelftp_proto::lang::LangTag;
use common::{python, start};

fn lang_index(c: &Catalogs, tag: &str) -> usize {
    match c.negotiate(&LangTag::parse(tag.as_bytes()).unwrap()) {
        Negotiated::Lang(l) => l,
        Negotiated::Unsupported => panic!("{tag} unsupported"),
    }
}

#[test]
fn feat_lists_every_language_and_marks_the_one_in_use() {
    let srv = start(|_| {});
    let cats = Catalogs::builtin().unwrap();
    let tags: Vec<&str> = cats.tags().collect();
    let out = python(
        &srv,
        r#"
f = ftplib.FTP(encoding='utf-8')
f.connect(HOST, PORT)
print(f.sendcmd('FEAT'))
print(f.sendcmd('LANG ja'))
print(f.sendcmd('FEAT'))
f.quit()
"#,
    );
    let before = format!(" LANG {}*;{}\n", tags[0], tags[1..].join(";"));
    assert!(out.contains(&before), "{out}");
    assert!(out.contains("\n UTF8\n"), "{out}");
    let ja = tags.iter().position(|t| *t == "ja").unwrap();
    let after: Vec<String> = tags
        .iter()
        .enumerate()
        .map(|(i, t)| if i == ja { format!("{t}*") } else { t.to_string() })
        .collect();
    assert!(out.contains(&format!(" LANG {}\n", after.join(";"))), "{out}");
    // The FEAT intro and end are in Japanese after LANG ja; feature
    // names are not translated.
    assert!(out.contains(&format!("211 {}", cats.text(ja, "end", &[]))), "{out}");
    assert!(out.contains(" MLST type*;size*;"), "{out}");
}

#[test]
fn lang_in_every_shipped_language_changes_every_reply() {
    let srv = start(|_| {});
    let cats = Catalogs::builtin().unwrap();
    for tag in cats.tags().collect::<Vec<_>>() {
        let l = lang_index(&cats, tag);
        let out = python(
            &srv,
            &format!(
                r#"
f = ftplib.FTP(encoding='utf-8')
f.connect(HOST, PORT)
print(f.sendcmd('LANG {tag}'))
print(f.sendcmd('USER bob'))
print(f.sendcmd('PASS secret'))
print(f.sendcmd('NOOP'))
print(f.sendcmd('PWD'))
try:
    f.sendcmd('RETR nothing-here')
except ftplib.error_perm as e:
    print(e)
f.quit()
"#
            ),
        );
        let lines: Vec<&str> = out.lines().collect();
        let name = cats.language_name(l);
        assert_eq!(
            lines[0],
            format!(
                "200 {}",
                cats.text(l, "lang-ok", &[("language", babelftp_i18n::lang::Arg::Str(&name))])
            ),
            "{tag}"
        );
        assert_eq!(lines[1], format!("331 {}", cats.text(l, "need-password", &[])), "{tag}");
        assert_eq!(lines[2], format!("230 {}", cats.text(l, "logged-in", &[])), "{tag}");
        assert_eq!(lines[3], format!("200 {}", cats.text(l, "command-ok", &[])), "{tag}");
        assert_eq!(
            lines[4],
            format!("257 \"/\" {}", cats.text(l, "path-is-current", &[])),
            "{tag}"
        );
        assert_eq!(lines[5], format!("550 {}", cats.text(l, "no-such-file", &[])), "{tag}");
        if tag != "en" {
            assert_ne!(lines[3], "200 Command okay.", "{tag} not translated");
        }
    }
}

#[test]
fn lang_variants_errors_and_resets() {
    let srv = start(|_| {});
    let cats = Catalogs::builtin().unwrap();
    let fr = lang_index(&cats, "fr");
    let en_ok = cats.text(0, "command-ok", &[]);
    let fr_ok = cats.text(fr, "command-ok", &[]);
    let out = python(
        &srv,
        r#"
def cmd(f, c):
    try:
        print(f.sendcmd(c))
    except ftplib.Error as e:
        print(e)
f = ftplib.FTP(encoding='utf-8')
print(f.connect(HOST, PORT))
for c in ['NOOP', 'LANG fr-CA', 'NOOP', 'LANG tlh', 'LANG i-klingon', 'LANG fr_FR', 'LANG en-AU', 'NOOP',
          'LANG pt', 'LANG', 'NOOP', 'LANG fr', 'USER bob', 'PASS secret', 'LANG de', 'LANG fr', 'REIN', 'NOOP',
          'LANG fr', 'HOST localhost', 'NOOP']:
    cmd(f, c)
f.quit()
"#,
    );
    let l: Vec<&str> = out.lines().collect();
    // Before any LANG: the default language, in plain ASCII.
    assert!(l[0].starts_with("220 ") && l[0].is_ascii(), "{out}");
    assert_eq!(l[1], format!("200 {en_ok}"));
    assert!(
        l[2].starts_with("200 ") && l[2].contains(&cats.language_name(fr)),
        "{out}"
    );
    assert_eq!(l[3], format!("200 {fr_ok}"), "{out}");
    assert!(l[4].starts_with("504 "), "{out}");
    assert!(l[5].starts_with("504 "), "{out}");
    assert!(l[6].starts_with("501 "), "{out}");
    assert!(l[7].starts_with("200 ") && l[7].contains("English"), "{out}");
    assert_eq!(l[8], format!("200 {en_ok}"), "{out}");
    assert!(
        l[9].starts_with("200 ") && l[9].contains(&cats.language_name(lang_index(&cats, "pt-BR"))),
        "{out}"
    );
    assert!(l[10].starts_with("200 ") && l[10].contains("English"), "{out}");
    assert_eq!(l[11], format!("200 {en_ok}"), "{out}");
    // LANG after login works (ProFTPD answers 500 there).
    assert!(
        l[15].starts_with("200 ") && l[15].contains(&cats.language_name(lang_index(&cats, "de"))),
        "{out}"
    );
    assert!(
        l[16].starts_with("200 ") && l[16].contains(&cats.language_name(fr)),
        "{out}"
    );
    // REIN returns to the default language.
    assert!(l[17].starts_with("220 ") && l[17].is_ascii(), "{out}");
    assert_eq!(l[18], format!("200 {en_ok}"), "{out}");
    // HOST too.
    assert!(
        l[19].starts_with("200 ") && l[19].contains(&cats.language_name(fr)),
        "{out}"
    );
    assert!(l[20].starts_with("220 "), "{out}");
    assert_eq!(l[21], format!("200 {en_ok}"), "{out}");
}

#[test]
fn default_language_is_configurable() {
    let srv = start(|c| c.default_lang = Some(LangTag::parse(b"de").unwrap()));
    let cats = Catalogs::builtin().unwrap();
    let de = lang_index(&cats, "de");
    let out = python(
        &srv,
        r#"
f = ftplib.FTP(encoding='utf-8')
print(f.connect(HOST, PORT))
print(f.sendcmd('NOOP'))
print(f.sendcmd('FEAT').splitlines()[2:4])
f.quit()
"#,
    );
    assert!(
        out.starts_with(&format!("220 {}", cats.text(de, "greeting", &[]))),
        "{out}"
    );
    assert!(
        out.contains(&format!("200 {}", cats.text(de, "command-ok", &[]))),
        "{out}"
    );
    assert!(out.contains("de*"), "{out}");
}

#[test]
fn host_selects_a_virtual_host_with_its_root_and_language_rfc7151() {
    let jp_root = tempfile::tempdir().unwrap();
    std::fs::write(jp_root.path().join("日本.txt"), b"jp").unwrap();
    let srv = start(|c| {
        c.hosts = vec![babelftp_server::config::VirtualHost {
            name: "ftp.example.jp".into(),
            root: jp_root.path().to_path_buf(),
            storage: babelftp_server::storage::Backend::Local,
            default_lang: Some(LangTag::parse(b"ja").unwrap()),
        }];
    });
    let cats = Catalogs::builtin().unwrap();
    let ja = lang_index(&cats, "ja");
    let out = python(
        &srv,
        r#"
def cmd(f, c):
    try:
        print(f.sendcmd(c))
    except ftplib.Error as e:
        print(e)
f = ftplib.FTP(encoding='utf-8')
f.connect(HOST, PORT)
cmd(f, 'HOST nowhere.example')
cmd(f, 'HOST FTP.EXAMPLE.JP')
cmd(f, 'NOOP')
f.login('bob', 'secret')
print('files', f.nlst())
cmd(f, 'HOST ftp.example.jp')
cmd(f, 'REIN')
f.login('bob', 'secret')
print('files', f.nlst())
f.quit()
"#,
    );
    let l: Vec<&str> = out.lines().collect();
    assert!(l[0].starts_with("504 "), "{out}");
    assert_eq!(l[1], format!("220 {}", cats.text(ja, "host-ok", &[])), "{out}");
    assert_eq!(l[2], format!("200 {}", cats.text(ja, "command-ok", &[])), "{out}");
    assert_eq!(l[3], "files ['日本.txt']", "{out}");
    assert!(l[4].starts_with("503 "), "{out}");
    assert!(l[5].starts_with("220 "), "{out}");
    assert_eq!(l[6], "files ['readme.txt']", "{out}");
}
