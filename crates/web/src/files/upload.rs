//! Uploads: a form's files or one body, through the upload every door
//! shares (babelftp_core::transfer::Upload).

use super::*;

/// Why an upload stopped.
enum Stop {
    /// A storage or quota answer (its page).
    Io(io::Error),
    /// A refusal page already made.
    Page(Response),
}

impl From<io::Error> for Stop {
    fn from(e: io::Error) -> Stop {
        Stop::Io(e)
    }
}

/// Stores one file of `name` in the directory `dir` from `chunks`: as
/// STOR does, beside the old file and renamed over it at the end (a file
/// of an account without `overwrite` must not exist), metered by the
/// quota and kept to the bandwidth limits. The octets stored.
async fn store<S, E>(web: &St, ask: &Ask, view: &View, dir: &VPath, name: &[u8], chunks: S) -> Result<u64, Stop>
where
    S: futures::Stream<Item = Result<Bytes, E>> + Unpin,
    E: std::fmt::Display,
{
    if !valid_name(name) {
        return Err(Stop::Io(io::ErrorKind::InvalidFilename.into()));
    }
    if let Err(r) = not_reserved(web, ask, name) {
        return Err(Stop::Page(r));
    }
    let path = dir.join(name);
    any_right(web, ask, view, &path, &[Perm::Upload, Perm::Overwrite]).map_err(Stop::Page)?;
    let (st, p) = (view.tree.clone(), path.clone());
    blocking(move || match st.stat(&p) {
        Ok(e) if e.kind == EntryKind::Dir => Err(io::ErrorKind::IsADirectory.into()),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e.into()),
    })
    .await?;
    let mode = if view.rules.at(path.components()).has(Perm::Overwrite) {
        WriteMode::Replace
    } else {
        WriteMode::New
    };
    let slot = slot(web, view)?;
    let throttle = crate::throttle::Throttle::for_transfer(true, slot.as_ref(), &web.shared().bandwidth);
    // The upload as every door runs it: rights, quota meter, buffer
    // budget, commit and settle (babelftp_core::transfer::Upload).
    let mut upload = ctx(web, view).begin_upload(&path, mode).await.map_err(|e| match e {
        e @ (ServiceError::Denied { .. } | ServiceError::DeniedInside { .. }) => Stop::Page(service_error(web, ask, e)),
        e => Stop::Io(io::Error::new(e.kind(), e.to_string())),
    })?;
    let started = Instant::now();
    let progress = AtomicU64::new(0);
    // A body that moves no octet for stall_timeout is given up, as a
    // stalled FTP data connection is.
    let stall = web.shared().cfg.stall_timeout;
    let body = StreamReader::new(
        chunks.map(|c| c.map_err(|e| io::Error::new(io::ErrorKind::ConnectionAborted, e.to_string()))),
    );
    let received = match throttle {
        Some(t) => {
            let mut body = t.wrap(body);
            watch(&progress, stall, upload.receive(&mut body, false, &progress)).await
        }
        None => {
            let mut body = body;
            watch(&progress, stall, upload.receive(&mut body, false, &progress)).await
        }
    };
    let outcome: io::Result<()> = match received {
        Ok((_, tail)) => upload.commit(tail).await.map_err(io::Error::from),
        // Nothing of a refused or cut upload is kept.
        Err(Cut::Failed(Fail::Quota)) => {
            upload.discard().await;
            Err(io::ErrorKind::QuotaExceeded.into())
        }
        Err(cut) => {
            upload.abandon().await;
            Err(match cut {
                Cut::Stalled => io::Error::new(io::ErrorKind::TimedOut, "the upload stopped arriving"),
                Cut::Failed(Fail::Net(e)) => e,
                Cut::Failed(Fail::Storage(e)) => e.into(),
                Cut::Failed(Fail::Quota) => io::ErrorKind::QuotaExceeded.into(),
            })
        }
    };
    let total = progress.load(Ordering::Relaxed);
    let complete = outcome.is_ok();
    let elapsed = started.elapsed();
    let rec = TransferRecord {
        path: path.to_bytes(),
        incoming: true,
        ascii: false,
        bytes: total,
        seconds: elapsed.as_secs(),
        millis: u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX),
        complete,
        code: Some(if complete { 201 } else { 500 }),
        user: view.user_bytes(),
        anonymous: view.user.is_none(),
    };
    // Metrics, log line, xferlog: as every door records a transfer.
    web.shared().record_transfer(door(web, ask), &rec);
    if web.shared().events.is_some() {
        let stored = stored(view, &path).await;
        // The upload's event, as every door's: path, bytes, time,
        // outcome and code from the same record, and the size it left.
        if let Some(mut ev) = web.event(Kind::Upload, Some(view.user_bytes()), ask) {
            ev.path = Some(stored);
            ev.bytes = Some(rec.bytes);
            ev.duration_ms = Some(rec.millis);
            ev.outcome = Some(if rec.complete { "complete" } else { "cut_short" });
            ev.code = rec.code;
            ev.size = complete.then_some(total);
            web.emit(Some(ev));
        }
    }
    outcome?;
    Ok(total)
}

/// POST `dir/?upload`: a form's files (multipart/form-data; the `csrf`
/// field first), or, from the page's script, `POST dir/NAME?upload` with
/// the file as the body and the token in `X-CSRF-Token`.
pub(crate) async fn upload(web: &St, ask: &Ask, view: &Arc<View>, body: Body) -> Response {
    let ctype = ask
        .headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if !ctype.starts_with("multipart/form-data") {
        // One file, named by the path.
        let token = ask
            .headers
            .get("x-csrf-token")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        let expected = view.expected_token(ask);
        if expected.is_empty() || !crate::session::same_token(token, expected) {
            return web.refuse(ask, StatusCode::FORBIDDEN, "web-csrf", &[]);
        }
        let (dir, name) = (ask.path.parent(), ask.path.file_name().unwrap_or_default().to_vec());
        return match store(web, ask, view, &dir, &name, body.into_data_stream()).await {
            Ok(_) => StatusCode::CREATED.into_response(),
            Err(Stop::Io(e)) => storage_error(web, ask, &e),
            Err(Stop::Page(r)) => r,
        };
    }
    let Ok(boundary) = multer::parse_boundary(ctype) else {
        return web.refuse(ask, StatusCode::BAD_REQUEST, "web-bad-form", &[]);
    };
    // The token is read whole: it may not be large (a file streams, and
    // anything else is skipped as it comes).
    let limits = multer::Constraints::new().size_limit(multer::SizeLimit::new().for_field("csrf", 1024));
    let mut mp = multer::Multipart::with_constraints(body.into_data_stream(), boundary, limits);
    let mut csrf = false;
    let mut stored = 0;
    let stall = web.shared().cfg.stall_timeout;
    loop {
        let field = match tokio::time::timeout(stall, mp.next_field()).await {
            Ok(Ok(Some(f))) => f,
            Ok(Ok(None)) => break,
            Ok(Err(_)) => return web.refuse(ask, StatusCode::BAD_REQUEST, "web-bad-form", &[]),
            Err(_) => return web.refuse(ask, StatusCode::REQUEST_TIMEOUT, "web-stalled", &[]),
        };
        match field.name() {
            Some("csrf") => {
                let got = match tokio::time::timeout(stall, field.text()).await {
                    Ok(Ok(got)) => got,
                    Ok(Err(_)) => return web.refuse(ask, StatusCode::BAD_REQUEST, "web-bad-form", &[]),
                    Err(_) => return web.refuse(ask, StatusCode::REQUEST_TIMEOUT, "web-stalled", &[]),
                };
                let expected = view.expected_token(ask);
                csrf = !expected.is_empty() && crate::session::same_token(&got, expected);
            }
            Some("file") => {
                if !csrf {
                    return web.refuse(ask, StatusCode::FORBIDDEN, "web-csrf", &[]);
                }
                let Some(name) = field.file_name().map(|n| base_name(n.as_bytes()).to_vec()) else {
                    continue;
                };
                // An empty file input sends a part without a name.
                if name.is_empty() {
                    continue;
                }
                match store(web, ask, view, &ask.path, &name, field).await {
                    Ok(_) => stored += 1,
                    Err(Stop::Io(e)) => return storage_error(web, ask, &e),
                    Err(Stop::Page(r)) => return r,
                }
            }
            _ => {}
        }
    }
    if !csrf {
        return web.refuse(ask, StatusCode::FORBIDDEN, "web-csrf", &[]);
    }
    tracing::debug!(peer = %ask.peer, files = stored, "web upload form done");
    see_other(&href(&ask.path, true))
}
