//! `babelftp mv`.

use anyhow::bail;
use clap::Args;

use super::common::Common;
use super::session::Session;

#[derive(Args, Debug)]
pub struct MvArgs {
    /// ftp://host/path/old
    url: String,
    /// The new path (absolute, or relative to the old one's directory; ending in / to move into
    /// a directory), or an ftp:// URL on the same server.
    to: String,
    #[command(flatten)]
    common: Common,
}

pub async fn mv(a: MvArgs) -> anyhow::Result<()> {
    // A URL as the new name: its path, and only on the same server (a
    // rename cannot cross servers); it is never sent as it was written.
    let target = if looks_like_url(&a.to) {
        let old = crate::redact::parse_url(&a.url)?;
        let new = crate::redact::parse_url(&a.to)?;
        let same = old.host.to_string().eq_ignore_ascii_case(&new.host.to_string())
            && old.port_or_default() == new.port_or_default()
            && old.secure == new.secure
            && (new.user.is_none() || new.user == old.user);
        if !same {
            bail!(crate::msg::ts(
                "cli-x2-mv-other-server",
                &[
                    ("to", &crate::redact::url(&a.to)),
                    ("from", &crate::redact::url(&a.url))
                ]
            ));
        }
        MoveTo::Url(new.path_bytes())
    } else {
        MoveTo::Typed(a.to.clone().into_bytes())
    };
    let mut s = Session::open(&a.url, &a.common).await?;
    let mut from = s.resolve_file(&s.url.path_bytes()).await?;
    // A directory named with a trailing / is renamed as itself, not into.
    while from.len() > 1 && from.ends_with(b"/") {
        from.pop();
    }
    let to = match target {
        // A URL's path is from the login directory, as the old one's is.
        MoveTo::Url(p) => new_path(&from, &s.encode(&p), true),
        MoveTo::Typed(p) => new_path(&from, &s.encode(&p), false),
    };
    if let Err(e) = s.client.rename(&from, &to).await {
        let named = format!(
            "{} -> {}",
            String::from_utf8_lossy(&s.show(&from)),
            String::from_utf8_lossy(&s.show(&to))
        );
        return Err(anyhow::Error::from(e).context(named));
    }
    s.client.quit().await?;
    Ok(())
}

enum MoveTo {
    Url(Vec<u8>),
    Typed(Vec<u8>),
}

/// Whether the user wrote a URL (`ftp://…`, `ftps://…`) rather than a path.
fn looks_like_url(s: &str) -> bool {
    let l = s.to_ascii_lowercase();
    l.starts_with("ftp://") || l.starts_with("ftps://")
}

/// The new name of `from` (server bytes): `to` as it is when absolute or
/// `whole` (a URL's path), else relative to `from`'s directory; a `to`
/// ending in `/` is a directory the file moves into under its own name.
pub fn new_path(from: &[u8], to: &[u8], whole: bool) -> Vec<u8> {
    let leaf_at = from.iter().rposition(|&b| b == b'/').map_or(0, |i| i + 1);
    let mut out = if whole || to.starts_with(b"/") {
        Vec::new()
    } else {
        from[..leaf_at].to_vec()
    };
    out.extend_from_slice(to);
    if to.is_empty() || to.ends_with(b"/") {
        out.extend_from_slice(&from[leaf_at..]);
    }
    out
}
