//! Several entries as one zip (issue 49): `POST DIR/?zip` with `csrf`
//! and repeated `name` fields, each an entry of DIR as its link carries
//! it (the octets of the name as `%HH`, as [`crate::encode_segment`]
//! writes them: a legacy name that is not UTF-8 round-trips).
//!
//! The answer is `application/zip`, an attachment named after DIR, and
//! is **streamed**: a task walks the selection and writes the archive
//! ([`format`]: data descriptors, no seeking, ZIP64 past 4 GiB) into a
//! channel of a few chunks that the body sends, so memory holds a few
//! chunks and one small record per entry, whatever the sizes. Data is
//! "stored" (no compression): what people zip here is mostly compressed
//! already, and the CPU stays free.
//!
//! **Names** are the listing's: the tree has already decoded legacy
//! names (per-directory charsets), and what is still not UTF-8, or not
//! displayable, is its `%HH` (`display::PlainPath`); they are marked
//! UTF-8 (bit 11). A `\` is written `%5C`, so that no extractor reads
//! it as a separator.
//!
//! **Rules**, per entry as for downloads: a file goes in when
//! `Op::Download` is allowed at it ([`babelftp_core::UserCtx::open_download`],
//! the same call a download makes; links are held to the rules at their
//! target by the tree); a folder is entered when `Op::List` is allowed
//! there; what the listing hides is never looked at. An entry the user
//! may not read is **left out** (and logged), not an error of the whole
//! zip. Links to files are followed as a download follows them; a link
//! to a folder is followed only when it is itself selected, never inside
//! the walk (no loops). Everything is a path of the user's tree: nothing
//! outside its root can be named.
//!
//! **Records**: one download event, one xferlog line and the metrics per
//! file, as the web's download of that file makes (the bytes counted are
//! the ones handed to the body); the zip holds one of the user's
//! sessions and shares its bandwidth limit while it runs.

use std::collections::HashSet;

use tokio::sync::mpsc;

use super::download::Sent;
use super::*;
use crate::throttle::Throttle;

mod format;
use format::{Crc32, Zip};

/// The form's size at most: several thousand names.
const FORM_LIMIT: usize = 4 << 20;
/// Octets read from a file at once.
const CHUNK: usize = 256 << 10;
/// Chunks waiting for the client at most.
const QUEUE: usize = 4;
/// Entries of a folder read at once.
const BATCH: usize = 256;
/// Entries in one archive at most: each keeps a record of its name for
/// the central directory (about 100 octets), so memory stays bounded
/// (~10 MB) whatever the tree. The archive then ends, whole and valid,
/// with what it holds, and the log says so.
const MAX_ENTRIES: usize = 100_000;

/// A name as the archive carries it: as the listing shows it (`%HH` for
/// what is not UTF-8 or not displayable), `\` as `%5C`.
fn zip_name(name: &[u8]) -> String {
    babelftp_proto::display::PlainPath(name)
        .to_string()
        .replace('\\', "%5C")
}

/// The selected names: each `name` field's `%HH` decoded to octets, each
/// one component; the same name once.
fn selected(form: &[(Vec<u8>, Vec<u8>)]) -> Option<Vec<Vec<u8>>> {
    let mut seen = HashSet::new();
    let mut names = Vec::new();
    for (k, v) in form {
        if k != b"name" {
            continue;
        }
        let name: Vec<u8> = percent_encoding::percent_decode(v).collect();
        if !valid_name(&name) {
            return None;
        }
        if seen.insert(name.clone()) {
            names.push(name);
        }
    }
    Some(names)
}

/// `POST DIR/?zip`.
pub(crate) async fn zip(web: &St, ask: &Ask, view: &Arc<View>, body: Body) -> Response {
    let read = tokio::time::timeout(web.shared().cfg.stall_timeout, axum::body::to_bytes(body, FORM_LIMIT)).await;
    let f = match read {
        Ok(Ok(bytes)) => crate::session::form(&bytes),
        Ok(Err(_)) => return web.refuse(ask, StatusCode::PAYLOAD_TOO_LARGE, "web-bad-form", &[]),
        Err(_) => return web.refuse(ask, StatusCode::REQUEST_TIMEOUT, "web-stalled", &[]),
    };
    if !csrf_ok(&f, view.expected_token(ask)) {
        return web.refuse(ask, StatusCode::FORBIDDEN, "web-csrf", &[]);
    }
    let Some(names) = selected(&f) else {
        return web.refuse(ask, StatusCode::BAD_REQUEST, "web-bad-name", &[]);
    };
    if names.is_empty() {
        return web.refuse(ask, StatusCode::BAD_REQUEST, "web-zip-none", &[]);
    }
    // The folder: one the user may list, as its page.
    if let Err(r) = allowed(web, ask, view, &Op::List(ask.path.components())) {
        return r;
    }
    // The selection as the listing shows it: hidden names and names gone
    // are left out; nothing at all is a 404.
    let (st, dir, rules) = (view.tree.clone(), ask.path.clone(), view.rules.clone());
    let top = blocking(move || {
        let below = rules.below(dir.components());
        let mut top = Vec::new();
        for name in names {
            if !below.shows(&name) {
                continue;
            }
            let p = dir.join(&name);
            let Ok(mut e) = st.stat(&p) else { continue };
            let folder = e.kind == EntryKind::Dir || (e.kind == EntryKind::Symlink && st.is_dir(&p));
            e.name = name;
            top.push((e, folder));
        }
        Ok(top)
    })
    .await
    .unwrap_or_default();
    if top.is_empty() {
        return web.refuse(ask, StatusCode::NOT_FOUND, "web-not-found", &[]);
    }
    let slot = match slot(web, view) {
        Ok(s) => s,
        Err(e) => return storage_error(web, ask, &e),
    };
    let throttle = Throttle::for_transfer(false, slot.as_ref(), &web.shared().bandwidth).map(Arc::new);
    let chunk = throttle.as_ref().map_or(CHUNK, |t| t.chunk().min(CHUNK));
    let title = match ask.path.file_name() {
        Some(n) => {
            let mut n = n.to_vec();
            n.extend_from_slice(b".zip");
            n
        }
        None => b"files.zip".to_vec(),
    };
    let (tx, mut rx) = mpsc::channel::<io::Result<Bytes>>(QUEUE);
    let job = Job {
        web: web.clone(),
        view: view.clone(),
        door: door(web, ask),
        dir: ask.path.clone(),
        throttle,
        chunk,
        tx,
        zip: Zip::default(),
        files: 0,
        left_out: 0,
        capped: false,
        _slot: slot,
    };
    tracing::info!(
        path = %babelftp_proto::display::PlainPath(&ask.path.to_bytes()),
        selected = top.len(),
        "web zip"
    );
    tokio::spawn(babelftp_core::logctx::inherit(job.run(top)));
    let body = futures::stream::poll_fn(move |cx| rx.poll_recv(cx));
    Response::builder()
        .status(StatusCode::OK)
        .header(header::CONTENT_TYPE, "application/zip")
        .header(header::CONTENT_DISPOSITION, download::disposition(&title))
        .header(header::CACHE_CONTROL, "private, no-store")
        // A file is never a page of this site.
        .header(header::CONTENT_SECURITY_POLICY, "sandbox; default-src 'none'")
        .body(Body::from_stream(babelftp_core::logctx::stream(body)))
        .unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response())
}

/// The client left, or a file failed half sent: the archive stops.
struct Stop;

/// A folder being walked: its entries still to read, its subfolders
/// still to enter.
struct Frame {
    path: VPath,
    /// Its name in the archive, `/` at the end.
    prefix: String,
    entries: Option<crate::storage::DirEntries>,
    folders: Vec<(Vec<u8>, Option<i64>)>,
}

/// The archive being written.
struct Job {
    web: St,
    view: Arc<View>,
    door: babelftp_core::transfer::Door,
    dir: VPath,
    throttle: Option<Arc<Throttle>>,
    chunk: usize,
    tx: mpsc::Sender<io::Result<Bytes>>,
    zip: Zip,
    files: u64,
    left_out: u64,
    /// [`MAX_ENTRIES`] reached: nothing more goes in.
    capped: bool,
    _slot: Option<crate::limits::SessionSlot>,
}

impl Job {
    async fn run(mut self, top: Vec<(Entry, bool)>) {
        let began = Instant::now();
        let done = self.walk(top).await;
        let outcome = match done {
            Ok(()) => "complete",
            Err(Stop) => "cut_short",
        };
        tracing::info!(
            path = %babelftp_proto::display::PlainPath(&self.dir.to_bytes()),
            files = self.files,
            left_out = self.left_out,
            capped = self.capped,
            bytes = self.zip.written(),
            millis = u64::try_from(began.elapsed().as_millis()).unwrap_or(u64::MAX),
            outcome,
            "web zip sent"
        );
    }

    async fn walk(&mut self, top: Vec<(Entry, bool)>) -> Result<(), Stop> {
        for (e, folder) in top {
            let path = self.dir.join(&e.name);
            let name = zip_name(&e.name);
            if folder {
                self.folder(path, name, e.modified).await?;
            } else {
                self.file(&path, name, e.modified, e.size).await?;
            }
        }
        let end = self.zip.finish();
        self.send(end).await
    }

    /// Whether the archive is full ([`MAX_ENTRIES`]); logged once.
    fn full(&mut self) -> bool {
        if !self.capped && self.zip.entries() >= MAX_ENTRIES {
            self.capped = true;
            tracing::warn!(
                path = %babelftp_proto::display::PlainPath(&self.dir.to_bytes()),
                max = MAX_ENTRIES,
                "web zip: the archive holds the most entries it may; the rest is left out"
            );
        }
        self.capped
    }

    async fn send(&mut self, b: Vec<u8>) -> Result<(), Stop> {
        self.tx.send(Ok(Bytes::from(b))).await.map_err(|_| Stop)
    }

    /// An entry left out: the rules, or it could not be read.
    fn leave_out(&mut self, path: &VPath, why: &str) {
        self.left_out += 1;
        tracing::info!(path = %babelftp_proto::display::PlainPath(&path.to_bytes()), why, "web zip: entry left out");
    }

    /// A folder and everything in it the user may see, depth first.
    async fn folder(&mut self, path: VPath, name: String, modified: Option<i64>) -> Result<(), Stop> {
        let Some(frame) = self.enter(path, format!("{name}/"), modified).await? else {
            return Ok(());
        };
        let mut stack = vec![frame];
        while let Some(mut frame) = stack.pop() {
            if self.full() {
                return Ok(());
            }
            if let Some(it) = frame.entries.take() {
                let read = blocking(move || {
                    let mut it = it;
                    let batch: Vec<_> = it.by_ref().take(BATCH).collect();
                    Ok((it, batch))
                })
                .await;
                let Ok((it, batch)) = read else {
                    self.leave_out(&frame.path, "the folder could not be read");
                    continue;
                };
                if !batch.is_empty() {
                    frame.entries = Some(it);
                }
                let below = self.view.rules.below(frame.path.components());
                let mut files = Vec::new();
                for e in batch {
                    // An entry gone meanwhile is left out.
                    let Ok(e) = e else { continue };
                    if !below.shows(&e.name) {
                        continue;
                    }
                    match e.kind {
                        EntryKind::Dir => frame.folders.push((e.name, e.modified)),
                        _ => files.push(e),
                    }
                }
                for e in files {
                    let p = frame.path.join(&e.name);
                    if e.kind == EntryKind::Symlink {
                        // Never into a folder through a link inside the walk.
                        let (st, q) = (self.view.tree.clone(), p.clone());
                        if blocking(move || Ok(st.is_dir(&q))).await.unwrap_or(true) {
                            self.leave_out(&p, "a link to a folder");
                            continue;
                        }
                    }
                    let name = format!("{}{}", frame.prefix, zip_name(&e.name));
                    self.file(&p, name, e.modified, e.size).await?;
                }
                stack.push(frame);
                continue;
            }
            // Its entries read: its subfolders, one at a time.
            if let Some((n, modified)) = frame.folders.pop() {
                let p = frame.path.join(&n);
                let prefix = format!("{}{}/", frame.prefix, zip_name(&n));
                stack.push(frame);
                if let Some(child) = self.enter(p, prefix, modified).await? {
                    stack.push(child);
                }
            }
        }
        Ok(())
    }

    /// A folder's entry and its listing, when the user may list it.
    async fn enter(&mut self, path: VPath, prefix: String, modified: Option<i64>) -> Result<Option<Frame>, Stop> {
        if self.full() {
            return Ok(None);
        }
        if self.ctx().permit(&Op::List(path.components())).is_err() {
            self.leave_out(&path, "the rules (list)");
            return Ok(None);
        }
        let (st, p) = (self.view.tree.clone(), path.clone());
        let entries = match blocking(move || st.read_dir(&p, false).map_err(io::Error::from)).await {
            Ok(it) => it,
            Err(e) => {
                self.leave_out(&path, &e.to_string());
                return Ok(None);
            }
        };
        let header = self.zip.dir(prefix.clone().into_bytes(), modified);
        self.send(header).await?;
        Ok(Some(Frame {
            path,
            prefix,
            entries: Some(entries),
            folders: Vec::new(),
        }))
    }

    fn ctx(&self) -> babelftp_core::UserCtx {
        ctx(&self.web, &self.view)
    }

    /// A download event of this door (as `Web::event` makes one).
    fn event(&self) -> Option<crate::events::Event> {
        let events = self.web.shared.events.as_ref()?;
        if !events.wants(Kind::Download) {
            return None;
        }
        let session = format!("{}w", events.session_id(self.web.next_id()));
        let user = self.view.user_bytes();
        self.web.shared.event(Kind::Download, Some(&user), self.door, session)
    }

    /// A file: opened as a download is (the rules at it and at a link's
    /// target), its header, its data, its descriptor.
    async fn file(&mut self, path: &VPath, name: String, modified: Option<i64>, size: u64) -> Result<(), Stop> {
        if self.full() {
            return Ok(());
        }
        let handle = match self.ctx().open_download(path, 0).await {
            Ok(h) => h,
            Err(e) => {
                let why = match e {
                    ServiceError::Denied { .. } | ServiceError::DeniedInside { .. } => {
                        "the rules (download)".to_owned()
                    }
                    e => e.to_string(),
                };
                self.leave_out(path, &why);
                return Ok(());
            }
        };
        // A link's size is its target's: the open file's.
        let (reader, size): (Box<dyn io::Read + Send>, u64) = match handle {
            ReadHandle::File(f) => {
                let n = f.metadata().map_or(size, |m| m.len());
                (Box::new(f), n)
            }
            ReadHandle::Reader(r) => (r, size),
        };
        let stored = match self.web.shared().events.is_some() {
            true => stored(&self.view, path).await,
            false => Vec::new(),
        };
        let sent = Arc::new(AtomicU64::new(0));
        // Dropped at the end of this file (sent, or cut): its records.
        let _record = Sent {
            web: self.web.clone(),
            ev: self.event(),
            path: path.to_bytes(),
            stored,
            want: size,
            sent: sent.clone(),
            started: Instant::now(),
            user: self.view.user_bytes(),
            anonymous: self.view.user.is_none(),
            door: self.door,
            _slot: None,
        };
        let header = self.zip.begin_file(name.into_bytes(), modified, size);
        self.send(header).await?;
        // At most the size it had when opened: a file that grows while it
        // is read does not outgrow its header (ZIP64 or not).
        let mut state = Some((reader, Crc32::new()));
        let (mut left, mut total) = (size, 0u64);
        let mut crc = 0;
        while let Some((rd, c)) = state.take() {
            if left == 0 {
                crc = c.value();
                break;
            }
            let want = usize::try_from(left.min(self.chunk as u64)).unwrap_or(self.chunk);
            let read = blocking(move || {
                let (mut rd, mut c) = (rd, c);
                let mut buf = Vec::with_capacity(want);
                io::Read::read_to_end(&mut io::Read::take(&mut rd, want as u64), &mut buf)?;
                c.update(&buf);
                Ok((rd, c, buf))
            })
            .await;
            let (rd, c, buf) = match read {
                Ok(r) => r,
                Err(e) => {
                    tracing::warn!(path = %babelftp_proto::display::PlainPath(&path.to_bytes()), error = %e, "web zip: a file failed while read");
                    let _ = self.tx.send(Err(e)).await;
                    return Err(Stop);
                }
            };
            if buf.is_empty() {
                // Shorter than it was: what it had is what it holds.
                crc = c.value();
                break;
            }
            let n = buf.len() as u64;
            (left, total) = (left - n, total + n);
            self.tx.send(Ok(Bytes::from(buf))).await.map_err(|_| Stop)?;
            sent.fetch_add(n, Ordering::Relaxed);
            if let Some(t) = &self.throttle {
                t.pace(n).await;
            }
            state = Some((rd, c));
        }
        let descriptor = self.zip.end_file(crc, total);
        self.send(descriptor).await?;
        self.files += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn selected_names_are_decoded_once_more_and_checked() {
        let f = crate::session::form(b"csrf=x&name=%25E9t%25E9.txt&name=a%2520b&name=a%2520b&name=%D0%AF");
        assert_eq!(
            selected(&f).unwrap(),
            vec![b"\xE9t\xE9.txt".to_vec(), b"a b".to_vec(), "Я".as_bytes().to_vec()]
        );
        for bad in [&b"name=..&csrf=x"[..], b"name=a%252Fb", b"name=", b"name=%2500"] {
            assert!(selected(&crate::session::form(bad)).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn names_in_the_archive_are_the_listings() {
        assert_eq!(zip_name("Отчёт.txt".as_bytes()), "Отчёт.txt");
        assert_eq!(zip_name(b"\xE9t\xE9.txt"), "%E9t%E9.txt");
        assert_eq!(zip_name(b"..\\..\\x"), "..%5C..%5Cx");
    }
}
