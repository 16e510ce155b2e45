//! The entries on each side: comparison keys, local entries and times,
//! remote paths, and our part files.

use std::collections::{HashMap, HashSet};
use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::time::UNIX_EPOCH;

use anyhow::Context;
use babelftp_client::RemoteEntry;
use unicode_normalization::UnicodeNormalization;

/// The comparison key of a name: NFC of its text when it is text, else
/// the bytes themselves.
pub(super) fn key(text: Option<&str>, raw: &[u8]) -> Vec<u8> {
    match text {
        Some(t) => t.nfc().collect::<String>().into_bytes(),
        None => raw.to_vec(),
    }
}

pub(super) fn mtime_secs(md: &std::fs::Metadata) -> Option<i64> {
    md.modified()
        .ok()?
        .duration_since(UNIX_EPOCH)
        .ok()
        .map(|d| d.as_secs() as i64)
}

pub(super) fn join_remote(dir: &[u8], name: &[u8]) -> Vec<u8> {
    let mut p = dir.to_vec();
    if !p.is_empty() && !p.ends_with(b"/") {
        p.push(b'/');
    }
    p.extend_from_slice(name);
    p
}

/// The end of every part file's name.
const PART_SUFFIX: &[u8] = b".babelftp-part";

/// Whether a local name is one of our part files.
pub(super) fn is_part(name: &[u8]) -> bool {
    name.starts_with(b".") && name.ends_with(PART_SUFFIX)
}

/// The resumable part file's name for a download of `e` to `local_name`:
/// `.NAME.SIZE-MTIME.babelftp-part`; `None` when the listing gives no size
/// or time, or the name would be too long for the file system.
pub(super) fn part_name(local_name: &[u8], e: &RemoteEntry) -> Option<Vec<u8>> {
    let (size, time) = (e.size?, e.modified?);
    let mut p = b".".to_vec();
    p.extend_from_slice(local_name);
    p.extend_from_slice(format!(".{size}-{time}").as_bytes());
    p.extend_from_slice(PART_SUFFIX);
    (p.len() <= 255).then_some(p)
}

/// Local entries of a directory, by comparison key; our part files apart.
type Local = HashMap<Vec<u8>, (OsString, std::fs::Metadata)>;

pub(super) fn local_entries(dir: &Path) -> anyhow::Result<(Local, HashSet<OsString>)> {
    let mut out = HashMap::new();
    let mut parts = HashSet::new();
    for e in std::fs::read_dir(dir)
        .with_context(|| crate::msg::ts("cli-opening", &[("path", &dir.display().to_string())]))?
    {
        let e = e?;
        let name = e.file_name();
        if is_part(name.as_bytes()) {
            parts.insert(name);
            continue;
        }
        let md = e.metadata()?;
        let k = key(name.to_str(), name.as_bytes());
        out.insert(k, (name, md));
    }
    Ok((out, parts))
}
