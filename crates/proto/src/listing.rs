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

/// One `LIST` line in the Unix `ls -l` format that clients parse
/// (`drwxr-xr-x 1 ftp ftp 4096 Nov 22 05:08 name`), CR LF included.
/// Owner and group are always `ftp`: real account names are nobody's
/// business. `now` decides between the time and the year column.
pub fn list_line(e: &Entry, now: i64, out: &mut Vec<u8>) {
    out.extend_from_slice(&mode_string(e.kind, e.mode));
    let date = match e.modified {
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
    out.extend_from_slice(format!(" {:>3} ftp ftp {:>12} {date} ", e.nlink.max(1), e.size).as_bytes());
    out.extend_from_slice(&e.name);
    out.extend_from_slice(b"\r\n");
}

/// The MLSx facts babelftp offers, in FEAT order (RFC 3659 7.8).
pub const MLST_FACTS: &[&str] = &["type", "size", "modify", "perm", "unique", "unix.mode"];

/// The fact part of an MLSx line (`type=file;size=3;…;`), facts limited
/// to `enabled` (names lower case, from [`MLST_FACTS`]). `cdir`/`pdir`
/// entries are written by passing `type_override`.
pub fn mlsx_facts(e: &Entry, enabled: &[&str], type_override: Option<&str>) -> Vec<u8> {
    use std::fmt::Write;
    let mut s = String::with_capacity(96);
    // `write!` into a String cannot fail.
    for fact in MLST_FACTS.iter().filter(|f| enabled.contains(f)) {
        let _ = match (*fact, e.kind) {
            ("type", kind) => {
                let t = type_override.unwrap_or(match kind {
                    EntryKind::File => "file",
                    EntryKind::Dir => "dir",
                    EntryKind::Symlink => "OS.unix=symlink",
                    EntryKind::Other => "OS.unix=special",
                });
                write!(s, "type={t};")
            }
            ("size", EntryKind::File) => write!(s, "size={};", e.size),
            ("modify", _) => match e.modified {
                Some(t) => write!(s, "modify={};", Civil::from_unix(t).time_val()),
                None => Ok(()),
            },
            ("perm", _) => write!(s, "perm={};", e.perm),
            ("unique", _) => match e.unique {
                Some((dev, ino)) => write!(s, "unique={dev:x}g{ino:x};"),
                None => Ok(()),
            },
            ("unix.mode", _) => write!(s, "UNIX.mode=0{:o};", e.mode & 0o7777),
            _ => Ok(()),
        };
    }
    s.into_bytes()
}

/// One MLSD line: facts, SP, name, CR LF (RFC 3659 7.2).
pub fn mlsd_line(e: &Entry, enabled: &[&str], out: &mut Vec<u8>) {
    out.extend_from_slice(&mlsx_facts(e, enabled, None));
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
