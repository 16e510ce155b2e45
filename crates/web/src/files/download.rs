//! Downloads: a file's bytes (Range, ETag, attachment), recorded as
//! every door records a transfer.

use super::*;

/// The strong validator of a file: its size and time.
fn etag(e: &Entry) -> String {
    format!("\"{:x}-{:x}\"", e.size, e.modified.unwrap_or(0))
}

/// `Content-Disposition: attachment` with the name as RFC 6266 wants it:
/// an ASCII fallback, and `filename*=UTF-8''…` (RFC 5987). A name that is
/// not UTF-8 is given as it is shown (`%HH`).
pub(crate) fn disposition(name: &[u8]) -> String {
    let shown = babelftp_proto::display::PlainPath(name).to_string();
    let ascii: String = shown
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() && c != '"' && c != '\\' && c != '%' || c == ' ' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let mut ext = String::new();
    crate::encode_segment(shown.as_bytes(), &mut ext);
    format!("attachment; filename=\"{ascii}\"; filename*=UTF-8''{ext}")
}

/// `bytes=a-b`, `bytes=a-`, `bytes=-n` of a file of `size` octets: the
/// (start, length) asked for; `Err(())` when it lies past the end (416);
/// `Ok(None)` for no range, a malformed one or several (the whole file).
pub(super) fn range(value: Option<&str>, size: u64) -> Result<Option<(u64, u64)>, ()> {
    let Some(spec) = value.and_then(|v| v.trim().strip_prefix("bytes=")) else {
        return Ok(None);
    };
    if spec.contains(',') {
        return Ok(None);
    }
    let Some((a, b)) = spec.split_once('-') else {
        return Ok(None);
    };
    let (a, b) = (a.trim(), b.trim());
    let parse = |s: &str| s.parse::<u64>().ok();
    match (a.is_empty(), b.is_empty()) {
        (true, false) => match parse(b) {
            Some(0) => Err(()),
            Some(n) => {
                let n = n.min(size);
                if size == 0 {
                    return Err(());
                }
                Ok(Some((size - n, n)))
            }
            None => Ok(None),
        },
        (false, _) => {
            let Some(start) = parse(a) else {
                return Ok(None);
            };
            let end = if b.is_empty() {
                Some(size.saturating_sub(1))
            } else {
                parse(b).map(|e| e.min(size.saturating_sub(1)))
            };
            let Some(end) = end else {
                return Ok(None);
            };
            if start >= size {
                return Err(());
            }
            if end < start {
                return Ok(None);
            }
            Ok(Some((start, end - start + 1)))
        }
        (true, true) => Ok(None),
    }
}

/// When the download's body is gone (sent, or the client left): its
/// event, metrics and log line.
pub(super) struct Sent {
    pub(super) web: St,
    pub(super) ev: Option<crate::events::Event>,
    pub(super) path: Vec<u8>,
    /// The path as stored, for the event.
    pub(super) stored: Vec<u8>,
    pub(super) want: u64,
    pub(super) sent: Arc<AtomicU64>,
    pub(super) started: Instant,
    /// Who, and over which door (the xferlog's).
    pub(super) user: Vec<u8>,
    pub(super) anonymous: bool,
    pub(super) door: babelftp_core::transfer::Door,
    pub(super) _slot: Option<crate::limits::SessionSlot>,
}

impl Drop for Sent {
    fn drop(&mut self) {
        let bytes = self.sent.load(Ordering::Relaxed);
        let complete = bytes >= self.want;
        let elapsed = self.started.elapsed();
        let rec = TransferRecord {
            path: std::mem::take(&mut self.path),
            incoming: false,
            ascii: false,
            bytes,
            seconds: elapsed.as_secs(),
            millis: u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX),
            complete,
            code: Some(if complete { 200 } else { 499 }),
            user: std::mem::take(&mut self.user),
            anonymous: self.anonymous,
        };
        // Metrics, log line, xferlog: as every door records a transfer.
        self.web.shared().record_transfer(self.door, &rec);
        if let Some(mut ev) = self.ev.take() {
            ev.path = Some(std::mem::take(&mut self.stored));
            ev.bytes = Some(bytes);
            ev.size = Some(self.want);
            ev.duration_ms = Some(u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX));
            ev.outcome = Some(if complete { "complete" } else { "cut_short" });
            ev.code = Some(if complete { 200 } else { 499 });
            if let Some(events) = self.web.shared().events.as_ref() {
                events.emit(&ev);
            }
        }
    }
}

/// How an inline answer (a preview's `?inline`, issue 49) may be used:
/// shown by this site's preview page (`frame-ancestors 'self'`), never
/// run as a page of it (`sandbox`, nothing loaded but itself).
const INLINE_CSP: &str =
    "sandbox; default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'";
/// A PDF inline: Chromium's viewer shows nothing in a sandboxed document,
/// so no `sandbox` (its scripts run in the viewer's own limited engine,
/// never as this site's page).
const PDF_CSP: &str = "default-src 'none'; frame-ancestors 'self'";

/// A file's bytes: a download (`inline: None`), or shown inline with the
/// media type `inline` names (a preview's `?inline`).
pub(super) async fn download(
    web: &St,
    ask: &Ask,
    view: &Arc<View>,
    e: Entry,
    inline: Option<&'static str>,
) -> Response {
    let tag = etag(&e);
    let modified = e
        .modified
        .and_then(|s| u64::try_from(s).ok())
        .map(|s| std::time::UNIX_EPOCH + std::time::Duration::from_secs(s));
    let last_modified = modified.map(httpdate::fmt_http_date);
    let header_str = |k: header::HeaderName| ask.headers.get(k).and_then(|v| v.to_str().ok());
    // 304 when the client has it (RFC 9110 13.1.2, 13.1.3).
    let fresh = match header_str(header::IF_NONE_MATCH) {
        Some(inm) => inm.split(',').any(|t| {
            let t = t.trim();
            t == "*" || t.trim_start_matches("W/") == tag
        }),
        None => match (
            header_str(header::IF_MODIFIED_SINCE).and_then(|d| httpdate::parse_http_date(d).ok()),
            modified,
        ) {
            (Some(since), Some(m)) => m <= since,
            _ => false,
        },
    };
    let name = ask.path.file_name().unwrap_or_default().to_vec();
    let mut r = Response::builder()
        .header(header::ETAG, &tag)
        .header(header::ACCEPT_RANGES, "bytes")
        .header(header::CACHE_CONTROL, "private, no-cache")
        .header(
            header::CONTENT_DISPOSITION,
            match inline {
                None => disposition(&name),
                Some(_) => disposition(&name).replacen("attachment", "inline", 1),
            },
        )
        // A file is never a page of this site.
        .header(
            header::CONTENT_SECURITY_POLICY,
            match inline {
                None => "sandbox; default-src 'none'",
                Some("application/pdf") => PDF_CSP,
                Some(_) => INLINE_CSP,
            },
        );
    if inline.is_some() {
        // Shown in this site's preview page only.
        r = r.header(header::X_FRAME_OPTIONS, "SAMEORIGIN");
    }
    if let Some(lm) = &last_modified {
        r = r.header(header::LAST_MODIFIED, lm);
    }
    if fresh {
        return r
            .status(StatusCode::NOT_MODIFIED)
            .body(Body::empty())
            .unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response());
    }
    // If-Range: the range only while the file is still the one meant.
    let range_ok = match header_str(header::IF_RANGE) {
        None => true,
        Some(v) if v.starts_with('"') => v == tag,
        Some(v) => last_modified.as_deref() == Some(v),
    };
    let (start, len, status) = match range(header_str(header::RANGE).filter(|_| range_ok), e.size) {
        Ok(None) => (0, e.size, StatusCode::OK),
        Ok(Some((s, n))) => (s, n, StatusCode::PARTIAL_CONTENT),
        Err(()) => {
            return r
                .status(StatusCode::RANGE_NOT_SATISFIABLE)
                .header(header::CONTENT_RANGE, format!("bytes */{}", e.size))
                .body(Body::empty())
                .unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response());
        }
    };
    if status == StatusCode::PARTIAL_CONTENT {
        r = r.header(
            header::CONTENT_RANGE,
            format!("bytes {start}-{}/{}", start + len - 1, e.size),
        );
    }
    r = r
        .status(status)
        .header(header::CONTENT_TYPE, inline.unwrap_or("application/octet-stream"))
        .header(header::CONTENT_LENGTH, len);
    if ask.method == axum::http::Method::HEAD {
        return r
            .body(Body::empty())
            .unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response());
    }
    let slot = match slot(web, view) {
        Ok(s) => s,
        Err(e) => return storage_error(web, ask, &e),
    };
    let throttle = crate::throttle::Throttle::for_transfer(false, slot.as_ref(), &web.shared().bandwidth).map(Arc::new);
    // The download as every door opens it (babelftp_core::UserCtx).
    let handle = match ctx(web, view).open_download(&ask.path, start).await {
        Ok(h) => h,
        Err(e) => return service_error(web, ask, e),
    };
    let stored = match web.shared().events.is_some() {
        true => stored(view, &ask.path).await,
        false => Vec::new(),
    };
    let sent = Arc::new(AtomicU64::new(0));
    let done = Sent {
        web: web.clone(),
        ev: web.event(Kind::Download, Some(view.user_bytes()), ask),
        path: ask.path.to_bytes(),
        stored,
        want: len,
        sent: sent.clone(),
        started: Instant::now(),
        user: view.user_bytes(),
        anonymous: view.user.is_none(),
        door: door(web, ask),
        _slot: slot,
    };
    // Under a bandwidth limit, chunks as small as its turns.
    let chunk = throttle.as_ref().map_or(READ_CHUNK, |t| t.chunk().min(READ_CHUNK));
    let chunks = match handle {
        ReadHandle::File(f) => reader_stream(Box::new(f), len, chunk),
        ReadHandle::Reader(rd) => reader_stream(rd, len, chunk),
    };
    let body = chunks.then(move |chunk| {
        let (throttle, sent) = (throttle.clone(), sent.clone());
        // The closure owns `done`: dropped with the body, it reports.
        let _ = &done;
        async move {
            if let Ok(b) = &chunk {
                sent.fetch_add(b.len() as u64, Ordering::Relaxed);
                if let Some(t) = &throttle {
                    t.pace(b.len() as u64).await;
                }
            }
            chunk
        }
    });
    // Polled by hyper after the handler: the request's log tag goes along.
    r.body(Body::from_stream(babelftp_core::logctx::stream(body)))
        .unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response())
}

/// A file (or an object store's reader) as a stream of `len` octets in
/// chunks, each read on the blocking pool straight into the buffer the
/// body sends (no second copy, no thread held between chunks: a slow
/// client holds none).
fn reader_stream(
    rd: Box<dyn io::Read + Send>,
    len: u64,
    chunk: usize,
) -> impl futures::Stream<Item = io::Result<Bytes>> + Send {
    futures::stream::unfold(Some((rd, len)), move |state| async move {
        let (mut rd, left) = state?;
        if left == 0 {
            return None;
        }
        let want = usize::try_from(left.min(chunk as u64)).unwrap_or(chunk);
        let r = tokio::task::spawn_blocking(move || {
            let mut buf = Vec::with_capacity(want);
            // Fill the chunk: a file gives it in one read, a stream in several.
            io::Read::read_to_end(&mut io::Read::take(&mut rd, want as u64), &mut buf)?;
            Ok::<_, io::Error>((rd, buf))
        })
        .await
        .unwrap_or_else(|e| Err(io::Error::other(e)));
        match r {
            Ok((_, buf)) if buf.is_empty() => Some((Err(io::ErrorKind::UnexpectedEof.into()), None)),
            Ok((rd, buf)) => {
                let n = buf.len() as u64;
                Some((Ok(Bytes::from(buf)), Some((rd, left - n))))
            }
            Err(e) => Some((Err(e), None)),
        }
    })
}
