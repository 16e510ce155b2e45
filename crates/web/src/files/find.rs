//! Find (issue 49): `GET DIR/?q=TEXT`, the entries in DIR and below
//! whose names contain TEXT, case ignored, as the listing shows them
//! (legacy names decoded by the tree, `%HH` for what cannot be shown).
//!
//! The walk sees what the listings show and nothing more: a folder is
//! read only where the user may list it (a drop box's names stay
//! hidden; so do a folder's the user may do nothing with), an entry
//! counts only where its folder's listing shows it, symbolic links are
//! never followed (a link that matches is a hit, what it leads to is not
//! searched), and it stays in the user's tree. Its work is bounded
//! ([`ENTRIES`], [`DIRS`], [`TIME`]) and so are its results
//! ([`RESULTS`]); the page says when a bound cut it short.

use std::collections::VecDeque;
use std::time::Duration;

use super::*;

/// Hits on one page at most.
pub(crate) const RESULTS: usize = 200;
/// Entries read at most (in every folder together).
pub(crate) const ENTRIES: usize = 20_000;
/// Folders read at most.
const DIRS: usize = 2_000;
/// Time spent at most.
const TIME: Duration = Duration::from_secs(5);
/// The longest search text taken, in octets (UTF-8).
pub(crate) const MAX_QUERY: usize = 200;

/// One entry found.
pub(crate) struct Hit {
    pub(crate) path: VPath,
    pub(crate) dir: bool,
    /// Whether its details page may be seen (`list` at it).
    pub(crate) info: bool,
}

/// What a search found, and whether a bound stopped it before the end.
pub(crate) struct Found {
    pub(crate) hits: Vec<Hit>,
    pub(crate) cut: bool,
}

/// How a name reads in the listing, in lower case: what a search text
/// (also in lower case) is looked for in.
pub(crate) fn shown_lower(name: &[u8]) -> String {
    babelftp_proto::display::PlainPath(name).to_string().to_lowercase()
}

/// The walk, breadth first from `start` (which the user may list).
fn walk(st: &dyn crate::storage::Storage, rules: &babelftp_policy::Rules, start: VPath, needle: &str) -> Found {
    let began = Instant::now();
    let mut queue = VecDeque::from([start]);
    let (mut hits, mut entries, mut dirs) = (Vec::new(), 0usize, 0usize);
    let mut cut = false;
    'walk: while let Some(dir) = queue.pop_front() {
        if dirs == DIRS || began.elapsed() > TIME {
            cut = true;
            break;
        }
        dirs += 1;
        let below = rules.below(dir.components());
        // A folder gone meanwhile, or refused (a link's target): skipped.
        let Ok(list) = st.read_dir(&dir, false) else {
            continue;
        };
        for e in list {
            if entries == ENTRIES {
                cut = true;
                break 'walk;
            }
            entries += 1;
            let Ok(e) = e else { continue };
            if !below.shows(&e.name) {
                continue;
            }
            let perms = below.of(&e.name);
            let path = dir.join(&e.name);
            // Only a real folder is entered: never through a link.
            let real_dir = e.kind == EntryKind::Dir;
            if shown_lower(&e.name).contains(needle) {
                if hits.len() == RESULTS {
                    cut = true;
                    break 'walk;
                }
                let dir = real_dir || (e.kind == EntryKind::Symlink && st.is_dir(&path));
                hits.push(Hit {
                    path: path.clone(),
                    dir,
                    info: perms.has(Perm::List),
                });
            }
            if real_dir && perms.has(Perm::List) {
                queue.push_back(path);
            }
        }
    }
    hits.sort_by(|a, b| a.path.components().cmp(b.path.components()));
    Found { hits, cut }
}

/// `GET DIR/?q=TEXT` of a folder the user may list.
pub(crate) async fn find(web: &St, ask: &Ask, view: &Arc<View>, q: &str) -> Response {
    let needle = q.to_lowercase();
    let (st, rules, start) = (view.tree.clone(), view.rules.clone(), ask.path.clone());
    let found = blocking(move || Ok(walk(&*st, &rules, start, &needle))).await;
    match found {
        Ok(found) => {
            tracing::info!(
                path = %babelftp_proto::display::PlainPath(&ask.path.to_bytes()),
                hits = found.hits.len(),
                cut = found.cut,
                "web find"
            );
            super::page::found(web, ask, view, q, &found)
        }
        Err(e) => storage_error(web, ask, &e),
    }
}

#[cfg(test)]
mod tests {
    use super::shown_lower;

    #[test]
    fn names_are_matched_as_shown_case_ignored() {
        assert!(shown_lower("Отчёт.TXT".as_bytes()).contains("отчёт.txt"));
        assert!(shown_lower("ÉTÉ".as_bytes()).contains("été"));
        // Octets that are not UTF-8 read as their %HH, as in the listing.
        assert_eq!(shown_lower(b"\xE9t\xE9"), "%e9t%e9");
    }
}
