//! Parsing directory listings for the client: the mirror image of the
//! formatting in [`super`].
//!
//! Two wire shapes:
//! - MLSD/MLST fact lines (RFC 3659 7.2): `type=file;size=3;modify=…; name`.
//!   Machine-readable; the name is every byte after the first SP.
//! - LIST lines, which RFC 959 leaves unspecified ("the data may be a list of
//!   files … in a system-dependent format"). In practice they are Unix
//!   `ls -l` (vsftpd, ProFTPD, Pure-FTPd, pyftpdlib, babelftp) or the
//!   DOS/IIS `MM-DD-YY  HH:MMAM  <DIR>|size name` format.
//!
//! Names are bytes from start to end: never decoded, never trimmed (apart
//! from the field separator that precedes them), so a Shift_JIS name comes
//! back exactly as the server sent it and charset work happens later, in one
//! place. Times are read as UTC: LIST times are usually the server's local
//! time, and the listing does not say which zone that is.

use super::Civil;

/// What kind of entry a listing line describes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParsedKind {
    /// A regular file.
    File,
    /// A directory.
    Dir,
    /// A symbolic link, with its target when the listing shows it
    /// (`ls -l`'s `name -> target`, MLSx `type=OS.unix=slink:target`).
    Symlink {
        /// The link target, bytes as listed.
        target: Option<Vec<u8>>,
    },
    /// The listed directory itself: MLSx `type=cdir`, or a LIST directory
    /// named `.`. Callers usually skip it.
    CurrentDir,
    /// The parent directory: MLSx `type=pdir`, or a LIST directory named `..`.
    ParentDir,
    /// Anything else (devices, sockets, FIFOs, unknown or missing type).
    Other,
}

/// One entry parsed from a LIST or MLSx line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedEntry {
    /// The name, every byte as listed (no charset assumed).
    pub name: Vec<u8>,
    /// The kind.
    pub kind: ParsedKind,
    /// Size in octets, when listed (MLSx omits it for directories).
    pub size: Option<u64>,
    /// Modification time, seconds since the Unix epoch, read as UTC. LIST
    /// gives minutes for recent dates and days for old ones.
    pub modified: Option<i64>,
    /// Unix permission bits (low 12 bits), from the `ls -l` mode string or
    /// the MLSx `UNIX.mode` fact.
    pub mode: Option<u32>,
}

/// Parses a whole listing as received on the data connection. Lines end in
/// CR LF or a bare LF; one CR before the LF is removed and nothing else.
/// Lines that are not entries (`total 12`, blank lines, noise) are dropped.
/// `mlsd` selects [`parse_mlsx_line`], otherwise [`parse_list_line`] is used
/// with `now` (Unix seconds) to date `Mmm dd HH:MM` entries.
pub fn parse_listing(data: &[u8], now: i64, mlsd: bool) -> Vec<ParsedEntry> {
    data.split(|&b| b == b'\n')
        .map(|line| line.strip_suffix(b"\r").unwrap_or(line))
        .filter(|line| !line.is_empty())
        .filter_map(|line| {
            if mlsd {
                parse_mlsx_line(line)
            } else {
                parse_list_line(line, now)
            }
        })
        .collect()
}

/// Parses one MLSD line, or the entry of an MLST reply, without its end of
/// line (RFC 3659 7.2: `entry = [ facts ] SP pathname`). For MLST the
/// caller removes the leading SP of the reply line and the CR NUL padding
/// of the control connection first.
///
/// Fact names and the `type` values are case-insensitive (RFC 3659 7.1).
/// Understood: `type` (`file`, `dir`, `cdir`, `pdir`, `OS.unix=symlink`,
/// `OS.unix=slink[:target]`), `size` (`sizd` for directories when `size` is
/// absent), `modify` (`YYYYMMDDHHMMSS[.sss]`, fraction dropped) and
/// `UNIX.mode` (octal). Other facts are ignored; a fact that is not
/// `name=value` makes the line `None`, as does an empty name.
pub fn parse_mlsx_line(line: &[u8]) -> Option<ParsedEntry> {
    let sp = line.iter().position(|&b| b == b' ')?;
    let (facts, name) = (line.get(..sp)?, line.get(sp + 1..)?);
    if name.is_empty() {
        return None;
    }
    let mut entry = ParsedEntry {
        name: name.to_vec(),
        kind: ParsedKind::Other,
        size: None,
        modified: None,
        mode: None,
    };
    let mut sizd = None;
    for fact in facts.split(|&b| b == b';').filter(|f| !f.is_empty()) {
        let eq = fact.iter().position(|&b| b == b'=')?;
        let (key, value) = (fact.get(..eq)?, fact.get(eq + 1..)?);
        if key.is_empty() {
            return None;
        }
        if key.eq_ignore_ascii_case(b"type") {
            entry.kind = mlsx_type(value);
        } else if key.eq_ignore_ascii_case(b"size") {
            entry.size = digits_u64(value);
        } else if key.eq_ignore_ascii_case(b"sizd") {
            sizd = digits_u64(value);
        } else if key.eq_ignore_ascii_case(b"modify") {
            entry.modified = time_val(value);
        } else if key.eq_ignore_ascii_case(b"unix.mode") {
            entry.mode = octal_u32(value).map(|m| m & 0o7777);
        }
    }
    if entry.size.is_none()
        && matches!(
            entry.kind,
            ParsedKind::Dir | ParsedKind::CurrentDir | ParsedKind::ParentDir
        )
    {
        entry.size = sizd;
    }
    Some(entry)
}

/// Parses one LIST line without its end of line: Unix `ls -l` or DOS/IIS.
/// `now` (Unix seconds) picks the year of a recent `Mmm dd HH:MM` date: the
/// one that puts it nearest to `now`, i.e. within about six months either
/// way (servers print the time instead of the year for the last six months;
/// babelftp also for the next six).
///
/// The name is every byte after the single separator that follows the
/// time/year field (Unix) or the size (DOS); after `<DIR>` all the padding
/// is skipped, as IIS aligns names in a column there. For `l` entries the
/// first ` -> ` separates the name from the link target. Returns `None` for
/// lines that are not entries (`total 12`, error text).
pub fn parse_list_line(line: &[u8], now: i64) -> Option<ParsedEntry> {
    parse_unix(line, now).or_else(|| parse_dos(line))
}

fn is_sep(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// The next field at or after `from`: `(start, end)` byte offsets.
fn next_field(s: &[u8], from: usize) -> Option<(usize, usize)> {
    let start = from + s.get(from..)?.iter().position(|&b| !is_sep(b))?;
    let end = s
        .get(start..)?
        .iter()
        .position(|&b| is_sep(b))
        .map_or(s.len(), |p| start + p);
    Some((start, end))
}

fn field(s: &[u8], (start, end): (usize, usize)) -> &[u8] {
    s.get(start..end).unwrap_or_default()
}

/// `.`/`..` directories in a LIST are the current and parent directory.
fn dir_kind(name: &[u8]) -> ParsedKind {
    match name {
        b"." => ParsedKind::CurrentDir,
        b".." => ParsedKind::ParentDir,
        _ => ParsedKind::Dir,
    }
}

// ---- Unix `ls -l` -------------------------------------------------------

fn parse_unix(line: &[u8], now: i64) -> Option<ParsedEntry> {
    let mode_field = next_field(line, 0)?;
    let (type_char, mode) = mode_string(field(line, mode_field))?;
    // Between the mode and the date come link count, owner, group and size,
    // some of them missing on some servers. The date is the first
    // `Mmm dd HH:MM|YYYY` preceded by a number (the size).
    let mut window: [Option<(usize, usize)>; 4] = [None; 4];
    let mut pos = mode_field.1;
    let (size, date) = loop {
        let f = next_field(line, pos)?;
        pos = f.1;
        window = [window[1], window[2], window[3], Some(f)];
        if let [Some(size), Some(mon), Some(day), Some(tail)] = window {
            let size = field(line, size);
            if size.iter().all(u8::is_ascii_digit) {
                if let Some(date) = unix_date(field(line, mon), field(line, day), field(line, tail)) {
                    break (digits_u64(size), date);
                }
            }
        }
    };
    // Exactly one separator after the time/year field: the name keeps any
    // leading spaces of its own.
    let name = line.get(pos + 1..).filter(|n| !n.is_empty())?;
    let modified = match date {
        (month, day, DateTail::Year(year)) => to_unix(year, month, day, 0, 0, 0),
        (month, day, DateTail::Time(hour, minute)) => recent(now, month, day, hour, minute),
    };
    let (name, kind) = match type_char {
        b'-' => (name, ParsedKind::File),
        b'd' => (name, dir_kind(name)),
        b'l' => match find(name, b" -> ") {
            Some(i) => (
                name.get(..i)?,
                ParsedKind::Symlink {
                    target: name.get(i + 4..).map(<[u8]>::to_vec),
                },
            ),
            None => (name, ParsedKind::Symlink { target: None }),
        },
        _ => (name, ParsedKind::Other),
    };
    if name.is_empty() {
        return None;
    }
    Some(ParsedEntry {
        name: name.to_vec(),
        kind,
        size,
        modified,
        mode: Some(mode),
    })
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// `drwxr-sr-t`, optionally with an ACL/xattr marker (`+`, `@`, `.`):
/// the type character and the permission bits, setuid/setgid/sticky
/// included.
fn mode_string(f: &[u8]) -> Option<(u8, u32)> {
    let f = match f {
        [m @ .., b'+' | b'@' | b'.'] if m.len() == 10 => m,
        m if m.len() == 10 => m,
        _ => return None,
    };
    let (&type_char, perms) = f.split_first()?;
    if !b"-dlbcpsDnw?".contains(&type_char) {
        return None;
    }
    let mut mode = 0;
    for (i, &c) in perms.iter().enumerate() {
        let shift = 3 * (2 - i as u32 / 3);
        let special = 0o4000 >> (i / 3);
        mode |= match (i % 3, i / 3, c) {
            (_, _, b'-') => 0,
            (0, _, b'r') => 0o4 << shift,
            (1, _, b'w') => 0o2 << shift,
            (2, _, b'x') => 0o1 << shift,
            (2, 0, b's') | (2, 1, b's') | (2, 2, b't') => special | (0o1 << shift),
            // `l`: System V mandatory locking, setgid without group x.
            (2, 0, b'S') | (2, 1, b'S' | b'l') | (2, 2, b'T') => special,
            _ => return None,
        };
    }
    Some((type_char, mode))
}

/// The last field of an `ls -l` date: `HH:MM` within six months, else the year.
enum DateTail {
    Time(u32, u32),
    Year(i64),
}

const MONTHS: [&[u8; 3]; 12] = [
    b"jan", b"feb", b"mar", b"apr", b"may", b"jun", b"jul", b"aug", b"sep", b"oct", b"nov", b"dec",
];

/// `Mmm dd HH:MM` or `Mmm dd YYYY` (English months, any case): month, day, tail.
fn unix_date(mon: &[u8], day: &[u8], tail: &[u8]) -> Option<(u32, u32, DateTail)> {
    let month = MONTHS.iter().position(|m| m.eq_ignore_ascii_case(mon))? as u32 + 1;
    if day.is_empty() || day.len() > 2 {
        return None;
    }
    let day = digits_u64(day)? as u32;
    if !(1..=31).contains(&day) {
        return None;
    }
    if tail.len() == 4 && tail.iter().all(u8::is_ascii_digit) {
        let year = digits_u64(tail)? as i64;
        return Some((month, day, DateTail::Year(year)));
    }
    let (hour, minute) = hh_mm(tail)?;
    (hour < 24).then_some((month, day, DateTail::Time(hour, minute)))
}

/// `H:MM` or `HH:MM` (hour unchecked, minute 0–59).
fn hh_mm(s: &[u8]) -> Option<(u32, u32)> {
    let colon = s.iter().position(|&b| b == b':')?;
    let (h, m) = (s.get(..colon)?, s.get(colon + 1..)?);
    if h.is_empty() || h.len() > 2 || m.len() != 2 {
        return None;
    }
    let (h, m) = (digits_u64(h)? as u32, digits_u64(m)? as u32);
    (m < 60).then_some((h, m))
}

/// The year that puts `Mmm dd HH:MM` nearest to `now` (ties go to the past).
fn recent(now: i64, month: u32, day: u32, hour: u32, minute: u32) -> Option<i64> {
    let year = Civil::from_unix(now).year;
    [year - 1, year, year + 1]
        .into_iter()
        .filter_map(|y| to_unix(y, month, day, hour, minute, 0))
        .min_by_key(|&t| (t.abs_diff(now), t > now))
}

// ---- DOS / IIS --------------------------------------------------------------

fn parse_dos(line: &[u8]) -> Option<ParsedEntry> {
    let date_field = next_field(line, 0)?;
    let (year, month, day) = dos_date(field(line, date_field))?;
    let time_field = next_field(line, date_field.1)?;
    let time = field(line, time_field);
    let mut next = next_field(line, time_field.1)?;
    let (hour, minute) = match time {
        [t @ .., a, m] if m.eq_ignore_ascii_case(&b'm') && matches!(a.to_ascii_lowercase(), b'a' | b'p') => {
            twelve_hour(t, *a)?
        }
        _ => {
            // `05:08 AM` with the meridiem as its own field.
            let (h, m) = hh_mm(time)?;
            match field(line, next) {
                [a, b'M' | b'm'] if matches!(a.to_ascii_lowercase(), b'a' | b'p') => {
                    let hm = twelve_hour(time, *a)?;
                    next = next_field(line, next.1)?;
                    hm
                }
                _ if h < 24 => (h, m),
                _ => return None,
            }
        }
    };
    let modified = to_unix(year, month, day, hour, minute, 0);
    let size_or_dir = field(line, next);
    let (name, kind, size) = if size_or_dir.eq_ignore_ascii_case(b"<DIR>") {
        let name = next_field(line, next.1).and_then(|(start, _)| line.get(start..))?;
        (name, dir_kind(name), None)
    } else if !size_or_dir.is_empty() && size_or_dir.iter().all(|&b| b.is_ascii_digit() || b == b',') {
        let digits: Vec<u8> = size_or_dir.iter().copied().filter(u8::is_ascii_digit).collect();
        (line.get(next.1 + 1..)?, ParsedKind::File, digits_u64(&digits))
    } else {
        return None;
    };
    if name.is_empty() {
        return None;
    }
    Some(ParsedEntry {
        name: name.to_vec(),
        kind,
        size,
        modified,
        mode: None,
    })
}

/// `MM-DD-YY` or `MM-DD-YYYY` (`/` also accepted). Two-digit years follow
/// POSIX `%y`: 69–99 are 19xx, 00–68 are 20xx.
fn dos_date(s: &[u8]) -> Option<(i64, u32, u32)> {
    let sep = *s.get(2)?;
    if (sep != b'-' && sep != b'/') || s.get(5) != Some(&sep) {
        return None;
    }
    let (m, d, y) = (s.get(..2)?, s.get(3..5)?, s.get(6..)?);
    let (month, day) = (digits_u64(m)? as u32, digits_u64(d)? as u32);
    let year = match y.len() {
        2 => match digits_u64(y)? as i64 {
            y @ 69.. => 1900 + y,
            y => 2000 + y,
        },
        4 => digits_u64(y)? as i64,
        _ => return None,
    };
    ((1..=12).contains(&month) && (1..=31).contains(&day)).then_some((year, month, day))
}

/// `hh:mm` with an `a`/`p` meridiem: 12AM is midnight, 12PM noon.
fn twelve_hour(t: &[u8], meridiem: u8) -> Option<(u32, u32)> {
    let (h, m) = hh_mm(t)?;
    if !(1..=12).contains(&h) {
        return None;
    }
    let pm = meridiem.eq_ignore_ascii_case(&b'p');
    Some((h % 12 + if pm { 12 } else { 0 }, m))
}

// ---- MLSx facts -------------------------------------------------------------

/// `prefix` (ASCII, lower case) matched case-insensitively; the rest.
fn strip_prefix_ci<'a>(v: &'a [u8], prefix: &[u8]) -> Option<&'a [u8]> {
    let head = v.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| v.get(prefix.len()..))
        .flatten()
}

/// The `type` fact (RFC 3659 7.5.1), with the `OS.unix=` extensions of
/// ProFTPD and babelftp (`symlink`, `slink`, `slink:target`).
fn mlsx_type(v: &[u8]) -> ParsedKind {
    let is = |t: &[u8]| v.eq_ignore_ascii_case(t);
    if is(b"file") {
        ParsedKind::File
    } else if is(b"dir") {
        ParsedKind::Dir
    } else if is(b"cdir") {
        ParsedKind::CurrentDir
    } else if is(b"pdir") {
        ParsedKind::ParentDir
    } else if let Some(os) = strip_prefix_ci(v, b"os.unix=") {
        if os.eq_ignore_ascii_case(b"symlink") || os.eq_ignore_ascii_case(b"slink") {
            ParsedKind::Symlink { target: None }
        } else if let Some(target) = strip_prefix_ci(os, b"slink:") {
            ParsedKind::Symlink {
                target: (!target.is_empty()).then(|| target.to_vec()),
            }
        } else {
            ParsedKind::Other
        }
    } else {
        ParsedKind::Other
    }
}

/// RFC 3659 2.3 `time-val`: `YYYYMMDDHHMMSS[.sss]`, UTC, as Unix seconds
/// (the `modify` fact, and MFMT's argument). Seconds may be 60 (a leap
/// second); the fraction is dropped. `None` for anything else, including
/// a date that is not in the calendar (month 13, February 30).
pub fn time_val(v: &[u8]) -> Option<i64> {
    let whole = match v.iter().position(|&b| b == b'.') {
        Some(dot) => {
            let frac = v.get(dot + 1..)?;
            if frac.is_empty() || !frac.iter().all(u8::is_ascii_digit) {
                return None;
            }
            v.get(..dot)?
        }
        None => v,
    };
    if whole.len() != 14 {
        return None;
    }
    let num = |a: usize, b: usize| whole.get(a..b).and_then(digits_u64);
    let (hour, minute, second) = (num(8, 10)? as u32, num(10, 12)? as u32, num(12, 14)? as u32);
    if hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    to_unix(
        num(0, 4)? as i64,
        num(4, 6)? as u32,
        num(6, 8)? as u32,
        hour,
        minute,
        second,
    )
}

// ---- numbers and dates ------------------------------------------------------

/// Decimal digits only (no sign, no spaces), without overflow.
fn digits_u64(s: &[u8]) -> Option<u64> {
    if s.is_empty() {
        return None;
    }
    s.iter().try_fold(0u64, |acc, &b| {
        if b.is_ascii_digit() {
            acc.checked_mul(10)?.checked_add(u64::from(b - b'0'))
        } else {
            None
        }
    })
}

fn octal_u32(s: &[u8]) -> Option<u32> {
    if s.is_empty() {
        return None;
    }
    s.iter().try_fold(0u32, |acc, &b| {
        if (b'0'..=b'7').contains(&b) {
            acc.checked_mul(8)?.checked_add(u32::from(b - b'0'))
        } else {
            None
        }
    })
}

fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// UTC calendar time to Unix seconds (H. Hinnant's `days_from_civil`, the
/// inverse of [`Civil::from_unix`]); `None` for an invalid date or overflow.
/// Hour, minute and second are not range-checked here.
fn to_unix(year: i64, month: u32, day: u32, hour: u32, minute: u32, second: u32) -> Option<i64> {
    if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
        return None;
    }
    let y = if month <= 2 { year.checked_sub(1)? } else { year };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = i64::from((month + 9) % 12);
    let doy = (153 * mp + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era.checked_mul(146_097)?.checked_add(doe - 719_468)?;
    let secs = i64::from(hour) * 3600 + i64::from(minute) * 60 + i64::from(second);
    days.checked_mul(86_400)?.checked_add(secs)
}

#[cfg(test)]
mod tests;
