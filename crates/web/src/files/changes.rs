//! Changes to the tree: new folder, rename, delete, through the user's
//! operations (babelftp_core::UserCtx).

use super::*;

/// POST `dir/?mkdir` with `name`.
pub(crate) async fn mkdir(web: &St, ask: &Ask, view: &Arc<View>, body: Body) -> Response {
    let f = match checked_form(web, ask, view, body).await {
        Ok(f) => f,
        Err(r) => return r,
    };
    let name = field(&f, "name").unwrap_or_default().to_vec();
    if !valid_name(&name) {
        return web.refuse(ask, StatusCode::BAD_REQUEST, "web-bad-name", &[]);
    }
    if let Err(r) = not_reserved(web, ask, &name) {
        return r;
    }
    let path = ask.path.join(&name);
    let names = stored_names(web, view, &path, None).await;
    // A folder takes one of the files a quota allows, as MKD's does.
    match ctx(web, view).mkdir(&path).await {
        Ok(()) => {
            changed(web, ask, view, Kind::Mkdir, &path, names);
            see_other(&href(&ask.path, true))
        }
        Err(ServiceError::QuotaExceeded) => web.refuse(ask, StatusCode::INSUFFICIENT_STORAGE, "quota-entries", &[]),
        Err(e) => service_error(web, ask, e),
    }
}

/// POST `path?rename` with `to`, a new name in the same directory.
pub(crate) async fn rename(web: &St, ask: &Ask, view: &Arc<View>, body: Body) -> Response {
    let f = match checked_form(web, ask, view, body).await {
        Ok(f) => f,
        Err(r) => return r,
    };
    let to_name = field(&f, "to").unwrap_or_default().to_vec();
    if !valid_name(&to_name) || ask.path.is_root() {
        return web.refuse(ask, StatusCode::BAD_REQUEST, "web-bad-name", &[]);
    }
    if let Err(r) = not_reserved(web, ask, &to_name) {
        return r;
    }
    let dir = ask.path.parent();
    let to = dir.join(&to_name);
    // The web view never replaces silently: over an existing name it
    // refuses (409).
    let names = stored_names(web, view, &ask.path, Some(&to)).await;
    match ctx(web, view).rename(&ask.path, &to, false).await {
        Ok(()) => {
            changed(web, ask, view, Kind::Rename, &ask.path, names);
            see_other(&href(&dir, true))
        }
        Err(e) => service_error(web, ask, e),
    }
}

/// POST `path?delete`: a file, or an empty folder.
pub(crate) async fn delete(web: &St, ask: &Ask, view: &Arc<View>, body: Body) -> Response {
    if let Err(r) = checked_form(web, ask, view, body).await {
        return r;
    }
    if ask.path.is_root() {
        return web.refuse(ask, StatusCode::BAD_REQUEST, "web-bad-name", &[]);
    }
    if let Err(r) = any_right(web, ask, view, &ask.path, &[Perm::Delete, Perm::Rmdir]) {
        return r;
    }
    let (st, p) = (view.tree.clone(), ask.path.clone());
    let is_dir = blocking(move || Ok(st.is_dir(&p))).await.unwrap_or(false);
    let names = stored_names(web, view, &ask.path, None).await;
    let user = ctx(web, view);
    let r = if is_dir {
        user.rmdir(&ask.path).await
    } else {
        user.remove(&ask.path).await
    };
    match r {
        Ok(()) => {
            let kind = if is_dir { Kind::Rmdir } else { Kind::Delete };
            changed(web, ask, view, kind, &ask.path, names);
            see_other(&href(&ask.path.parent(), true))
        }
        Err(e) => service_error(web, ask, e),
    }
}
