//! A ZIP archive written front to back, never sought (PKWARE APPNOTE
//! 6.3.10): each entry's local header with general purpose bit 3 (sizes
//! and CRC-32 follow the data in a data descriptor, 4.3.9) and bit 11
//! (the name is UTF-8, 4.4.4 and appendix D), its data "stored" (method
//! 0: no compression), then the central directory. ZIP64 (4.3.14, 4.5.3)
//! where an entry, an offset or the count passes what 32 (16) bits hold.
//!
//! Sans-IO: every call returns the octets to send next; the caller
//! streams the data between [`Zip::begin_file`] and [`Zip::end_file`]
//! through [`Crc32`]. Memory: one small record per entry (the central
//! directory must name them all at the end), never the data.

/// Local file header, central directory header, data descriptor, end of
/// central directory, ZIP64 end record and its locator (APPNOTE 4.3.7,
/// 4.3.12, 4.3.9.3, 4.3.16, 4.3.14, 4.3.15).
const LOCAL: u32 = 0x0403_4b50;
const CENTRAL: u32 = 0x0201_4b50;
const DESCRIPTOR: u32 = 0x0807_4b50;
const END: u32 = 0x0605_4b50;
const END64: u32 = 0x0606_4b50;
const LOCATOR64: u32 = 0x0706_4b50;
/// Bit 3: sizes and CRC in the data descriptor; bit 11: UTF-8 names.
const FLAG_DESCRIPTOR: u16 = 1 << 3;
const FLAG_UTF8: u16 = 1 << 11;
/// 2.0 (folders, stored data), 4.5 (ZIP64) (APPNOTE 4.4.3.2).
const VERSION: u16 = 20;
const VERSION64: u16 = 45;
/// Made by: Unix (3), spec 6.3 (APPNOTE 4.4.2): the external
/// attributes' high 16 bits are a Unix mode.
const MADE_BY: u16 = (3 << 8) | 63;
/// Where 32 bits no longer hold a size or an offset.
const MAX32: u64 = 0xFFFF_FFFF;

/// One entry, as the central directory names it.
struct Record {
    name: Vec<u8>,
    dir: bool,
    zip64: bool,
    crc: u32,
    size: u64,
    offset: u64,
    time: u16,
    date: u16,
}

/// An archive being written.
#[derive(Default)]
pub(crate) struct Zip {
    /// Octets written so far: the next header's offset.
    offset: u64,
    records: Vec<Record>,
    /// The file between its begin and end.
    open: Option<Record>,
}

fn put16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}
fn put32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}
fn put64(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(&v.to_le_bytes());
}
fn low32(v: u64) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}

/// MS-DOS time and date (APPNOTE 4.4.6) of Unix seconds, in UTC (the
/// format has no zone); 1980-01-01 for anything earlier or unknown.
fn dos_time(secs: Option<i64>) -> (u16, u16) {
    let Some(secs) = secs.filter(|&s| s >= 315_532_800) else {
        return (0, (1 << 5) | 1);
    };
    let c = babelftp_proto::listing::Civil::from_unix(secs);
    let year = u32::try_from(c.year.saturating_sub(1980).min(127)).unwrap_or(127);
    let date = (year << 9) | (c.month << 5) | c.day;
    let time = (c.hour << 11) | (c.minute << 5) | (c.second / 2);
    let (time, date) = (u16::try_from(time).unwrap_or(0), u16::try_from(date).unwrap_or(33));
    (time, date)
}

impl Zip {
    /// Octets written so far.
    /// Entries written so far (each keeps a record for the central
    /// directory).
    pub(crate) fn entries(&self) -> usize {
        self.records.len()
    }

    pub(crate) fn written(&self) -> u64 {
        self.offset
    }

    fn local_header(&mut self, r: &Record, flags: u16) -> Vec<u8> {
        let mut out = Vec::with_capacity(30 + r.name.len() + 20);
        put32(&mut out, LOCAL);
        put16(&mut out, if r.zip64 { VERSION64 } else { VERSION });
        put16(&mut out, flags);
        put16(&mut out, 0); // stored
        put16(&mut out, r.time);
        put16(&mut out, r.date);
        // With bit 3, CRC and sizes are zero here (4.4.4); a ZIP64 entry
        // says so with 0xFFFFFFFF and an extra field (4.5.3).
        put32(&mut out, 0);
        let size = if r.zip64 { u32::MAX } else { 0 };
        put32(&mut out, size);
        put32(&mut out, size);
        put16(&mut out, u16::try_from(r.name.len()).unwrap_or(u16::MAX));
        put16(&mut out, if r.zip64 { 20 } else { 0 });
        out.extend_from_slice(&r.name);
        if r.zip64 {
            put16(&mut out, 0x0001);
            put16(&mut out, 16);
            put64(&mut out, 0);
            put64(&mut out, 0);
        }
        self.offset += out.len() as u64;
        out
    }

    /// A folder's entry (`name` ends with `/`): its header, no data.
    pub(crate) fn dir(&mut self, name: Vec<u8>, modified: Option<i64>) -> Vec<u8> {
        let (time, date) = dos_time(modified);
        let r = Record {
            name,
            dir: true,
            zip64: false,
            crc: 0,
            size: 0,
            offset: self.offset,
            time,
            date,
        };
        let out = self.local_header(&r, FLAG_UTF8);
        self.records.push(r);
        out
    }

    /// A file's header; `size`: what it is expected to hold (ZIP64 from
    /// 4 GiB on; it may then hold less, never more).
    pub(crate) fn begin_file(&mut self, name: Vec<u8>, modified: Option<i64>, size: u64) -> Vec<u8> {
        let (time, date) = dos_time(modified);
        let r = Record {
            name,
            dir: false,
            zip64: size >= MAX32,
            crc: 0,
            size: 0,
            offset: self.offset,
            time,
            date,
        };
        let out = self.local_header(&r, FLAG_DESCRIPTOR | FLAG_UTF8);
        self.open = Some(r);
        out
    }

    /// The data descriptor after `size` octets of data whose CRC-32 is
    /// `crc` (sizes of 8 octets in a ZIP64 entry, 4.3.9.2).
    pub(crate) fn end_file(&mut self, crc: u32, size: u64) -> Vec<u8> {
        let mut out = Vec::with_capacity(24);
        self.offset += size;
        let Some(mut r) = self.open.take() else {
            return out;
        };
        put32(&mut out, DESCRIPTOR);
        put32(&mut out, crc);
        if r.zip64 {
            put64(&mut out, size);
            put64(&mut out, size);
        } else {
            put32(&mut out, low32(size));
            put32(&mut out, low32(size));
        }
        self.offset += out.len() as u64;
        r.crc = crc;
        r.size = size;
        self.records.push(r);
        out
    }

    /// The central directory and its end: the archive's last octets.
    pub(crate) fn finish(&mut self) -> Vec<u8> {
        let start = self.offset;
        let mut out = Vec::new();
        for r in &self.records {
            let big_size = r.size >= MAX32 || r.zip64;
            let big_offset = r.offset >= MAX32;
            let mut extra = Vec::new();
            if big_size || big_offset {
                put16(&mut extra, 0x0001);
                let n = if big_size { 16 } else { 0 } + if big_offset { 8 } else { 0 };
                put16(&mut extra, n);
                if big_size {
                    put64(&mut extra, r.size);
                    put64(&mut extra, r.size);
                }
                if big_offset {
                    put64(&mut extra, r.offset);
                }
            }
            put32(&mut out, CENTRAL);
            put16(&mut out, MADE_BY);
            put16(&mut out, if extra.is_empty() { VERSION } else { VERSION64 });
            put16(&mut out, if r.dir { FLAG_UTF8 } else { FLAG_DESCRIPTOR | FLAG_UTF8 });
            put16(&mut out, 0);
            put16(&mut out, r.time);
            put16(&mut out, r.date);
            put32(&mut out, r.crc);
            let size = if big_size { u32::MAX } else { low32(r.size) };
            put32(&mut out, size);
            put32(&mut out, size);
            put16(&mut out, u16::try_from(r.name.len()).unwrap_or(u16::MAX));
            put16(&mut out, u16::try_from(extra.len()).unwrap_or(0));
            put16(&mut out, 0); // comment
            put16(&mut out, 0); // disk
            put16(&mut out, 0); // internal attributes
                                // Unix mode in the high half; MS-DOS's directory bit.
            let attrs: u32 = if r.dir {
                (0o040_755 << 16) | 0x10
            } else {
                0o100_644 << 16
            };
            put32(&mut out, attrs);
            put32(&mut out, if big_offset { u32::MAX } else { low32(r.offset) });
            out.extend_from_slice(&r.name);
            out.extend_from_slice(&extra);
        }
        let size = out.len() as u64;
        let count = self.records.len() as u64;
        let end64 = count >= 0xFFFF || size >= MAX32 || start >= MAX32;
        if end64 {
            let at = start + size;
            put32(&mut out, END64);
            put64(&mut out, 44);
            put16(&mut out, MADE_BY);
            put16(&mut out, VERSION64);
            put32(&mut out, 0);
            put32(&mut out, 0);
            put64(&mut out, count);
            put64(&mut out, count);
            put64(&mut out, size);
            put64(&mut out, start);
            put32(&mut out, LOCATOR64);
            put32(&mut out, 0);
            put64(&mut out, at);
            put32(&mut out, 1);
        }
        put32(&mut out, END);
        put16(&mut out, 0);
        put16(&mut out, 0);
        let count16 = if end64 {
            u16::MAX
        } else {
            u16::try_from(count).unwrap_or(u16::MAX)
        };
        put16(&mut out, count16);
        put16(&mut out, count16);
        put32(&mut out, if end64 { u32::MAX } else { low32(size) });
        put32(&mut out, if end64 { u32::MAX } else { low32(start) });
        put16(&mut out, 0);
        self.offset += out.len() as u64;
        out
    }
}

/// CRC-32 (ISO-HDLC, the polynomial 0xEDB88320 reflected, APPNOTE
/// 4.4.7), by the `crc` crate (already in the tree under sqlx).
pub(crate) struct Crc32(crc::Digest<'static, u32>);

static CRC32: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC);

impl Crc32 {
    pub(crate) fn new() -> Crc32 {
        Crc32(CRC32.digest())
    }

    pub(crate) fn update(&mut self, data: &[u8]) {
        self.0.update(data);
    }

    pub(crate) fn value(&self) -> u32 {
        self.0.clone().finalize()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn crc32_check_values() {
        // The catalogue's check value of CRC-32/ISO-HDLC.
        let mut c = Crc32::new();
        c.update(b"123456789");
        assert_eq!(c.value(), 0xCBF4_3926);
        // Split anywhere, the same.
        let data: Vec<u8> = (0..1000u32).map(|i| (i * 7 % 251) as u8).collect();
        let mut whole = Crc32::new();
        whole.update(&data);
        for cut in [0, 1, 7, 8, 9, 500, 999] {
            let mut c = Crc32::new();
            c.update(&data[..cut]);
            c.update(&data[cut..]);
            assert_eq!(c.value(), whole.value(), "cut at {cut}");
        }
        assert_eq!(Crc32::new().value(), 0);
    }

    #[test]
    fn dos_times() {
        // 2026-11-26 01:01:02 UTC.
        let (t, d) = dos_time(Some(1_795_651_200 + 3_662));
        assert_eq!(d, ((2026 - 1980) << 9) | (11 << 5) | 26);
        assert_eq!(t, (1 << 11) | (1 << 5) | 1);
        assert_eq!(dos_time(None), (0, 33));
        assert_eq!(dos_time(Some(0)), (0, 33));
    }

    /// An archive of `entries` (name, data; a name ending in `/` a folder).
    pub(crate) fn archive(entries: &[(&str, &[u8])]) -> Vec<u8> {
        let mut z = Zip::default();
        let mut out = Vec::new();
        for (name, data) in entries {
            if name.ends_with('/') {
                out.extend(z.dir(name.as_bytes().to_vec(), Some(1_795_651_200)));
                continue;
            }
            out.extend(z.begin_file(name.as_bytes().to_vec(), Some(1_795_651_200), data.len() as u64));
            out.extend_from_slice(data);
            let mut c = Crc32::new();
            c.update(data);
            out.extend(z.end_file(c.value(), data.len() as u64));
        }
        out.extend(z.finish());
        assert_eq!(z.written(), out.len() as u64);
        out
    }

    /// Python's zipfile reads it: names, the UTF-8 flag, bytes, CRCs
    /// (`testzip`), folders.
    #[test]
    fn pythons_zipfile_reads_what_is_written() {
        let big: Vec<u8> = (0..300_000u32).map(|i| (i % 253) as u8).collect();
        let zip = archive(&[
            ("Документы/", b""),
            ("Документы/Отчёт.txt", "привет\n".as_bytes()),
            ("%E9t%E9.txt", b"latin-1"),
            ("名前/a b.bin", &big),
            ("empty.txt", b""),
        ]);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.zip");
        std::fs::write(&path, &zip).unwrap();
        let script = r#"
import hashlib, json, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
assert z.testzip() is None
print(json.dumps([[i.filename, i.flag_bits, i.compress_type, i.is_dir(), hashlib.sha256(z.read(i)).hexdigest(), i.date_time[:3]] for i in z.infolist()], ensure_ascii=False))
"#;
        let out = std::process::Command::new("python3")
            .arg("-c")
            .arg(script)
            .arg(&path)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let got = String::from_utf8(out.stdout).unwrap();
        let sha = |d: &[u8]| {
            let o = std::process::Command::new("python3")
                .arg("-c")
                .arg("import hashlib,sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())")
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            use std::io::Write;
            let mut o = o;
            o.stdin.take().unwrap().write_all(d).unwrap();
            String::from_utf8(o.wait_with_output().unwrap().stdout)
                .unwrap()
                .trim()
                .to_owned()
        };
        let want = format!(
            r#"[["Документы/", 2048, 0, true, "{}", [2026, 11, 26]], ["Документы/Отчёт.txt", 2056, 0, false, "{}", [2026, 11, 26]], ["%E9t%E9.txt", 2056, 0, false, "{}", [2026, 11, 26]], ["名前/a b.bin", 2056, 0, false, "{}", [2026, 11, 26]], ["empty.txt", 2056, 0, false, "{}", [2026, 11, 26]]]"#,
            sha(b""),
            sha("привет\n".as_bytes()),
            sha(b"latin-1"),
            sha(&big),
            sha(b"")
        );
        assert_eq!(got.trim(), want);
    }

    /// A real reader takes the ZIP64 forms: an entry announced at 4 GiB
    /// (ZIP64 header, 8-octet descriptor, ZIP64 extra in the central
    /// directory) and more than 65,535 entries (the ZIP64 end record and
    /// its locator).
    #[test]
    fn pythons_zipfile_reads_the_zip64_forms() {
        let mut z = Zip::default();
        let mut out = z.begin_file(b"announced-big.bin".to_vec(), None, 5 << 30);
        out.extend_from_slice(b"abc");
        let mut c = Crc32::new();
        c.update(b"abc");
        out.extend(z.end_file(c.value(), 3));
        let empty = Crc32::new().value();
        for i in 0..70_000u32 {
            out.extend(z.begin_file(format!("many/{i}").into_bytes(), None, 0));
            out.extend(z.end_file(empty, 0));
        }
        out.extend(z.finish());
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("z64.zip");
        std::fs::write(&path, &out).unwrap();
        let script = "import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nn = z.infolist()\nprint(len(n), z.read('announced-big.bin').decode(), n[-1].filename, z.read(n[-1]) == b'')";
        let got = std::process::Command::new("python3")
            .arg("-c")
            .arg(script)
            .arg(&path)
            .output()
            .unwrap();
        assert!(got.status.success(), "{}", String::from_utf8_lossy(&got.stderr));
        assert_eq!(String::from_utf8_lossy(&got.stdout).trim(), "70001 abc many/69999 True");
    }

    /// Past 4 GiB of offsets (faked: the writer is told the data went by)
    /// the central directory carries ZIP64 fields, and an entry announced
    /// at 4 GiB or more has a ZIP64 header and descriptor.
    #[test]
    fn zip64_where_32_bits_do_not_hold() {
        let mut z = Zip::default();
        let h = z.begin_file(b"big".to_vec(), None, 5 << 30);
        assert_eq!(u16::from_le_bytes([h[4], h[5]]), VERSION64);
        assert_eq!(&h[18..26], &[0xFF; 8]);
        assert_eq!(u16::from_le_bytes([h[28], h[29]]), 20);
        let d = z.end_file(7, 5 << 30);
        assert_eq!(d.len(), 24, "a ZIP64 descriptor has 8-octet sizes");
        let h = z.begin_file(b"after".to_vec(), None, 3);
        assert_eq!(u16::from_le_bytes([h[4], h[5]]), VERSION);
        z.end_file(0, 3);
        let end = z.finish();
        // Both central entries have ZIP64 extras (size; offset), and the
        // end records are ZIP64's.
        let find = |sig: u32| end.windows(4).filter(|w| *w == sig.to_le_bytes()).count();
        assert_eq!(find(CENTRAL), 2);
        assert_eq!(find(END64), 1);
        assert_eq!(find(LOCATOR64), 1);
        let tail = &end[end.len() - 22..];
        assert_eq!(&tail[12..20], &[0xFF; 8]);
    }
}
