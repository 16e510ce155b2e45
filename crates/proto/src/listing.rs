//! Directory listings: the `ls -l` lines of LIST and the fact lines of
//! MLSD/MLST (RFC 3659 7). Pure formatting; names are bytes and are sent
//! verbatim (the only change is RFC 2640's CR NUL padding, applied by the
//! control connection for MLST and never on the data connection).

/// The client side: LIST and MLSx lines parsed back into entries.
pub mod parse;

/// What kind of directory entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    /// A regular file.
    File,
    /// A directory.
    Dir,
    /// A symbolic link (listed by what `lstat` says).
    Symlink,
    /// A device, socket or FIFO.
    Other,
}

/// One directory entry, as the storage layer describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The name as stored (bytes; may be any charset).
    pub name: Vec<u8>,
    /// The kind.
    pub kind: EntryKind,
    /// Size in octets.
    pub size: u64,
    /// Modification time, seconds since the Unix epoch (UTC).
    pub modified: Option<i64>,
    /// Unix permission bits (the low 12 bits of `st_mode`).
    pub mode: u32,
    /// Link count.
    pub nlink: u64,
    /// A stable identity (device, inode) for the MLSx `unique` fact.
    pub unique: Option<(u64, u64)>,
    /// The RFC 3659 7.5.5 `perm` fact for this session (`adfrw`, `elcmp`…).
    pub perm: String,
}

/// Seconds in six months, the `ls` threshold between time and year.
const SIX_MONTHS: i64 = 182 * 24 * 3600;

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// A UTC calendar time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Civil {
    /// Year.
    pub year: i64,
    /// Month 1–12.
    pub month: u32,
    /// Day 1–31.
    pub day: u32,
    /// Hour 0–23.
    pub hour: u32,
    /// Minute.
    pub minute: u32,
    /// Second.
    pub second: u32,
}

impl Civil {
    /// Converts Unix seconds to UTC (proleptic Gregorian; days-from-civil
    /// inverted as in H. Hinnant's `chrono`-compatible algorithms).
    pub fn from_unix(secs: i64) -> Civil {
        let days = secs.div_euclid(86_400);
        let rem = secs.rem_euclid(86_400);
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        let year = yoe + era * 400 + i64::from(month <= 2);
        Civil {
            year,
            month,
            day,
            hour: (rem / 3600) as u32,
            minute: (rem % 3600 / 60) as u32,
            second: (rem % 60) as u32,
        }
    }

    /// RFC 3659 2.3 `time-val`: `YYYYMMDDHHMMSS` in UTC.
    pub fn time_val(&self) -> String {
        format!(
            "{:04}{:02}{:02}{:02}{:02}{:02}",
            self.year, self.month, self.day, self.hour, self.minute, self.second
        )
    }
}

fn mode_string(kind: EntryKind, mode: u32) -> [u8; 10] {
    let mut s = *b"----------";
    s[0] = match kind {
        EntryKind::File => b'-',
        EntryKind::Dir => b'd',
        EntryKind::Symlink => b'l',
        EntryKind::Other => b'?',
    };
    let bits = [
        (0o400, b'r'),
        (0o200, b'w'),
        (0o100, b'x'),
        (0o040, b'r'),
        (0o020, b'w'),
        (0o010, b'x'),
        (0o004, b'r'),
        (0o002, b'w'),
        (0o001, b'x'),
    ];
    for (i, (bit, c)) in bits.iter().enumerate() {
        if mode & bit != 0 {
            s[i + 1] = *c;
        }
    }
    s
}

/// Appends `n` in decimal, right-aligned in `width` columns with spaces
/// (or zeros with `zero`): the listing formats without `fmt` machinery.
fn push_dec(out: &mut Vec<u8>, n: u64, width: usize, zero: bool) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    let mut n = n;
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    let len = digits.len() - i;
    out.extend(std::iter::repeat_n(
        if zero { b'0' } else { b' ' },
        width.saturating_sub(len),
    ));
    out.extend_from_slice(&digits[i..]);
}

/// Appends `n` in base 16 (lower case) or 8.
fn push_radix(out: &mut Vec<u8>, n: u64, radix: u64) {
    let mut digits = [0u8; 22];
    let mut i = digits.len();
    let mut n = n;
    loop {
        i -= 1;
        digits[i] = b"0123456789abcdef"[(n % radix) as usize];
        n /= radix;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

/// One `LIST` line in the Unix `ls -l` format that clients parse
/// (`drwxr-xr-x 1 ftp ftp 4096 Nov 22 05:08 name`), CR LF included.
/// Owner and group are always `ftp`: real account names are nobody's
/// business. `now` decides between the time and the year column.
pub fn list_line(e: &Entry, now: i64, out: &mut Vec<u8>) {
    out.reserve(60 + e.name.len());
    out.extend_from_slice(&mode_string(e.kind, e.mode));
    out.push(b' ');
    push_dec(out, e.nlink.max(1), 3, false);
    out.extend_from_slice(b" ftp ftp ");
    push_dec(out, e.size, 12, false);
    out.push(b' ');
    match e.modified {
        Some(t) => {
            let c = Civil::from_unix(t);
            out.extend_from_slice(MONTHS[(c.month as usize).saturating_sub(1) % 12].as_bytes());
            out.push(b' ');
            push_dec(out, u64::from(c.day), 2, false);
            out.push(b' ');
            if (now - t).abs() < SIX_MONTHS {
                push_dec(out, u64::from(c.hour), 2, true);
                out.push(b':');
                push_dec(out, u64::from(c.minute), 2, true);
            } else if c.year >= 0 {
                out.push(b' ');
                push_dec(out, c.year as u64, 4, false);
            } else {
                out.extend_from_slice(format!("{:>5}", c.year).as_bytes());
            }
        }
        None => out.extend_from_slice(b"Jan  1  1970"),
    }
    out.push(b' ');
    out.extend_from_slice(&e.name);
    out.extend_from_slice(b"\r\n");
}

/// The MLSx facts babelftp offers, in FEAT order (RFC 3659 7.8).
pub const MLST_FACTS: &[&str] = &["type", "size", "modify", "perm", "unique", "unix.mode"];

/// The fact part of an MLSx line (`type=file;size=3;…;`), facts limited
/// to `enabled` (names lower case, from [`MLST_FACTS`]). `cdir`/`pdir`
/// entries are written by passing `type_override`.
pub fn mlsx_facts(e: &Entry, enabled: &[&str], type_override: Option<&str>) -> Vec<u8> {
    let mut out = Vec::with_capacity(96);
    mlsx_facts_into(e, enabled, type_override, &mut out);
    out
}

/// [`mlsx_facts`], appended to `out`.
pub fn mlsx_facts_into(e: &Entry, enabled: &[&str], type_override: Option<&str>, out: &mut Vec<u8>) {
    for fact in MLST_FACTS.iter().filter(|f| enabled.contains(f)) {
        match (*fact, e.kind) {
            ("type", kind) => {
                let t = type_override.unwrap_or(match kind {
                    EntryKind::File => "file",
                    EntryKind::Dir => "dir",
                    EntryKind::Symlink => "OS.unix=symlink",
                    EntryKind::Other => "OS.unix=special",
                });
                out.extend_from_slice(b"type=");
                out.extend_from_slice(t.as_bytes());
                out.push(b';');
            }
            ("size", EntryKind::File) => {
                out.extend_from_slice(b"size=");
                push_dec(out, e.size, 0, false);
                out.push(b';');
            }
            ("modify", _) => {
                if let Some(t) = e.modified {
                    let c = Civil::from_unix(t);
                    out.extend_from_slice(b"modify=");
                    if (0..=9999).contains(&c.year) {
                        push_dec(out, c.year as u64, 4, true);
                        for v in [c.month, c.day, c.hour, c.minute, c.second] {
                            push_dec(out, u64::from(v), 2, true);
                        }
                    } else {
                        out.extend_from_slice(c.time_val().as_bytes());
                    }
                    out.push(b';');
                }
            }
            ("perm", _) => {
                out.extend_from_slice(b"perm=");
                out.extend_from_slice(e.perm.as_bytes());
                out.push(b';');
            }
            ("unique", _) => {
                if let Some((dev, ino)) = e.unique {
                    out.extend_from_slice(b"unique=");
                    push_radix(out, dev, 16);
                    out.push(b'g');
                    push_radix(out, ino, 16);
                    out.push(b';');
                }
            }
            ("unix.mode", _) => {
                out.extend_from_slice(b"UNIX.mode=0");
                push_radix(out, u64::from(e.mode & 0o7777), 8);
                out.push(b';');
            }
            _ => {}
        }
    }
}

/// One MLSD line: facts, SP, name, CR LF (RFC 3659 7.2).
pub fn mlsd_line(e: &Entry, enabled: &[&str], out: &mut Vec<u8>) {
    mlsx_facts_into(e, enabled, None, out);
    out.push(b' ');
    out.extend_from_slice(&e.name);
    out.extend_from_slice(b"\r\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &[u8], kind: EntryKind) -> Entry {
        Entry {
            name: name.to_vec(),
            kind,
            size: 1234,
            modified: Some(1_795_000_000),
            mode: 0o644,
            nlink: 1,
            unique: Some((0x803, 0x1234)),
            perm: "adfrw".into(),
        }
    }

    /// The hand-written formatting writes what `format!` would, for every
    /// width and value edge.
    #[test]
    fn lines_match_the_format_reference() {
        let now = 1_795_000_000;
        for (size, nlink, t, mode) in [
            (0u64, 0u64, Some(0i64), 0o7777u32),
            (1234, 1, Some(now - 60), 0o644),
            (u64::MAX, u64::MAX, Some(now - 400 * 86_400), 0o755),
            (999_999_999_999, 1000, Some(253_402_300_799), 0o1777),
            (7, 2, None, 0),
            (7, 2, Some(-86_400 * 800_000), 0o600),
        ] {
            let e = Entry {
                name: b"n".to_vec(),
                kind: EntryKind::File,
                size,
                modified: t,
                mode,
                nlink,
                unique: Some((size, nlink)),
                perm: "r".into(),
            };
            let date = match t {
                Some(t) => {
                    let c = Civil::from_unix(t);
                    let month = MONTHS[(c.month as usize).saturating_sub(1) % 12];
                    if (now - t).abs() < SIX_MONTHS {
                        format!("{month} {:>2} {:02}:{:02}", c.day, c.hour, c.minute)
                    } else {
                        format!("{month} {:>2}  {:>4}", c.day, c.year)
                    }
                }
                None => "Jan  1  1970".to_string(),
            };
            let mut want = mode_string(e.kind, e.mode).to_vec();
            want.extend_from_slice(format!(" {:>3} ftp ftp {:>12} {date} n\r\n", nlink.max(1), size).as_bytes());
            let mut got = Vec::new();
            list_line(&e, now, &mut got);
            assert_eq!(String::from_utf8_lossy(&got), String::from_utf8_lossy(&want));
            let mut facts = format!("type=file;size={size};");
            if let Some(t) = t {
                facts += &format!("modify={};", Civil::from_unix(t).time_val());
            }
            facts += &format!("perm=r;unique={size:x}g{nlink:x};UNIX.mode=0{:o};", mode & 0o7777);
            assert_eq!(String::from_utf8(mlsx_facts(&e, MLST_FACTS, None)).unwrap(), facts);
        }
    }

    #[test]
    fn civil_dates() {
        assert_eq!(Civil::from_unix(0).time_val(), "19700101000000");
        assert_eq!(Civil::from_unix(951_782_400).time_val(), "20000229000000");
        assert_eq!(Civil::from_unix(1_795_000_000).time_val(), "20261118110640");
        assert_eq!(Civil::from_unix(-1).time_val(), "19691231235959");
        assert_eq!(Civil::from_unix(4_102_444_800).time_val(), "21000101000000");
    }

    #[test]
    fn ls_line_recent_and_old() {
        let e = entry("日本語.txt".as_bytes(), EntryKind::File);
        let mut out = Vec::new();
        list_line(&e, 1_795_000_000 + 3600, &mut out);
        let s = String::from_utf8(out).unwrap();
        assert!(s.starts_with("-rw-r--r--   1 ftp ftp         1234 Nov 18 "), "{s}");
        assert!(s.ends_with(" 日本語.txt\r\n"), "{s}");
        let mut out = Vec::new();
        list_line(&e, 1_795_000_000 + 400 * 86_400, &mut out);
        assert!(String::from_utf8(out).unwrap().contains("Nov 18  2026 "));
    }

    #[test]
    fn ls_line_keeps_raw_bytes() {
        let e = entry(b"\x93\xfa\x96\x7b", EntryKind::Dir);
        let mut out = Vec::new();
        list_line(&e, 0, &mut out);
        assert!(out.starts_with(b"drw-r--r--"));
        assert!(out.ends_with(b" \x93\xfa\x96\x7b\r\n"));
    }

    #[test]
    fn mlsd_facts_rfc3659_7() {
        let e = entry(b"a b", EntryKind::File);
        let mut out = Vec::new();
        mlsd_line(&e, MLST_FACTS, &mut out);
        let s = String::from_utf8(out).unwrap();
        assert!(s.starts_with("type=file;size=1234;modify=20261118"), "{s}");
        assert!(
            s.ends_with(";perm=adfrw;unique=803g1234;UNIX.mode=0644; a b\r\n"),
            "{s}"
        );
        let d = entry(b".", EntryKind::Dir);
        let f = mlsx_facts(&d, &["type", "size"], Some("cdir"));
        assert_eq!(f, b"type=cdir;");
    }
}
