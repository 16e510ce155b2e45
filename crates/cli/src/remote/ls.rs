//! `babelftp ls`.

use clap::Args;

use super::common::Common;
use super::session::Session;

/// A modification time as `ls -l` writes it, in UTC (the time zone of
/// MLSD facts and of MDTM): `Nov 23 06:40` for the past six months,
/// `Nov 23  2024` for older times and for times in the future (beyond an
/// hour of clock skew). Always 12 columns.
pub fn ls_time(t: i64, now: i64) -> String {
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    const SIX_MONTHS: i64 = 182 * 24 * 3600;
    let c = babelftp_proto::listing::Civil::from_unix(t);
    let month = MONTHS[(c.month as usize).saturating_sub(1) % 12];
    if t > now - SIX_MONTHS && t <= now + 3600 {
        format!("{month} {:>2} {:02}:{:02}", c.day, c.hour, c.minute)
    } else {
        format!("{month} {:>2} {:>5}", c.day, c.year)
    }
}

#[derive(Args, Debug)]
pub struct LsArgs {
    /// ftp://[user[:password]@]host[:port]/path/
    url: String,
    /// Long format: kind, size, time (UTC, as ls writes it: Nov 23 06:40, or Nov 23  2024 when
    /// older than six months).
    #[arg(short, long)]
    long: bool,
    #[command(flatten)]
    common: Common,
}

pub async fn ls(a: LsArgs) -> anyhow::Result<()> {
    let mut s = Session::open(&a.url, &a.common).await?;
    let path = s.url.path_bytes();
    let dir = if path.is_empty() { None } else { Some(path.as_slice()) };
    let entries = match s.list(dir).await {
        Ok(e) => e,
        // `ls` of a file (MLSD of a file is 550, RFC 3659 7.1): its line of
        // its directory's listing, as ls and lftp's cls show it.
        Err(e) => match single_entry(&mut s, &path, &e).await {
            Some(entry) => vec![entry],
            // The path named in the error (a 550 says which directory).
            None => return Err(e.context(String::from_utf8_lossy(&s.show(&path)).into_owned())),
        },
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    let mut out = Vec::new();
    for e in &entries {
        if a.long {
            let kind = if e.is_dir { 'd' } else { '-' };
            let size = e.size.map(|n| n.to_string()).unwrap_or_default();
            let time = e.modified.map(|t| ls_time(t, now)).unwrap_or_default();
            out.extend_from_slice(format!("{kind} {size:>12} {time:>12} ").as_bytes());
        }
        out.extend(s.show(&e.name));
        if e.is_dir {
            out.push(b'/');
        }
        out.push(b'\n');
    }
    std::io::Write::write_all(&mut std::io::stdout().lock(), &out)?;
    s.client.quit().await?;
    Ok(())
}

/// The entry of `path` in its directory's listing, when listing `path`
/// itself was refused for good (550): a file named by `ls`.
async fn single_entry(s: &mut Session, path: &[u8], refused: &anyhow::Error) -> Option<babelftp_client::RemoteEntry> {
    if !crate::exit::is_permanent_refusal(refused) {
        return None;
    }
    let trimmed = path.strip_suffix(b"/").unwrap_or(path);
    let (parent, name) = match trimmed.iter().rposition(|&b| b == b'/') {
        Some(0) => (Some(&b"/"[..]), &trimmed[1..]),
        Some(i) => (Some(&trimmed[..i]), &trimmed[i + 1..]),
        None => (None, trimmed),
    };
    if name.is_empty() {
        return None;
    }
    let entries = s.list(parent).await.ok()?;
    let wanted = s.encode(name);
    entries.into_iter().find(|e| e.name == wanted && !e.is_dir)
}
