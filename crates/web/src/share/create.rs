//! `POST PATH?share` (issue 49): a logged-in user makes a share link of
//! a path it may read (a download share) or write into (an upload share),
//! from the form of the path's details page.

use super::*;

/// `30s`, `10m`, `2h`, `7d`: seconds.
pub(crate) fn duration(s: &str) -> Option<i64> {
    let s = s.trim();
    let (n, unit) = s.split_at(s.find(|c: char| !c.is_ascii_digit())?);
    let n: i64 = n.parse().ok()?;
    let mul = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        "w" => 7 * 86_400,
        _ => return None,
    };
    (n > 0).then_some(n.checked_mul(mul)?)
}

pub(crate) async fn create(web: &St, ask: &Ask, view: &Arc<View>, body: Body) -> Response {
    let f = match read_form(web, ask, body).await {
        Ok(f) => f,
        Err(r) => return r,
    };
    if !csrf_ok(&f, view.expected_token(ask)) {
        return web.refuse(ask, StatusCode::FORBIDDEN, "web-csrf", &[]);
    }
    // A logged-in account of the store.
    let (Some(user), Some(_)) = (view.user.clone(), view.sid.as_ref()) else {
        return web.refuse(ask, StatusCode::FORBIDDEN, "web-denied", &[]);
    };
    let Some(store) = store(web) else {
        return web.refuse(ask, StatusCode::FORBIDDEN, "web-share-unavailable", &[]);
    };
    let (st, p) = (view.tree.clone(), ask.path.clone());
    let dir = tokio::task::spawn_blocking(move || {
        if p.is_root() {
            return Ok(true);
        }
        st.stat(&p).map(|_| st.is_dir(&p))
    })
    .await;
    let dir = match dir {
        Ok(Ok(d)) => d,
        _ => return web.refuse(ask, StatusCode::NOT_FOUND, "web-not-found", &[]),
    };
    let text = |k: &str| {
        String::from_utf8_lossy(field(&f, k).unwrap_or_default())
            .trim()
            .to_owned()
    };
    let upload = dir && text("upload") == "1";
    // What the owner may do there, as for every request.
    let need = match (dir, upload) {
        (_, true) => Perm::Upload,
        (true, false) => Perm::List,
        (false, false) => Perm::Download,
    };
    if !view.rules.at(ask.path.components()).has(need) {
        tracing::info!(peer = %ask.peer, missing = %need, "web share: refused by the permissions");
        return web.refuse(ask, StatusCode::FORBIDDEN, "web-denied", &[]);
    }
    let expires = match text("expires").as_str() {
        "" => None,
        e => match duration(e) {
            Some(secs) => Some(unix_now().saturating_add(secs)),
            None => return web.refuse(ask, StatusCode::BAD_REQUEST, "web-bad-form", &[]),
        },
    };
    let max_uses = match text("max").as_str() {
        "" => None,
        m => match m.parse::<i64>() {
            Ok(n) if n > 0 => Some(n),
            _ => return web.refuse(ask, StatusCode::BAD_REQUEST, "web-bad-form", &[]),
        },
    };
    let password = field(&f, "password").unwrap_or_default().to_vec();
    let password = if password.is_empty() {
        None
    } else {
        let Ok(_permit) = web.shared().hashing.clone().acquire_owned().await else {
            return web.refuse(ask, StatusCode::SERVICE_UNAVAILABLE, "web-unavailable", &[]);
        };
        match tokio::task::spawn_blocking(move || babelftp_accounts::hash_password(&password)).await {
            Ok(Ok(h)) => Some(h),
            _ => return web.refuse(ask, StatusCode::SERVICE_UNAVAILABLE, "web-unavailable", &[]),
        }
    };
    let new = babelftp_accounts::NewShare {
        owner: user.clone(),
        path: ask.path.to_bytes(),
        kind: if upload { ShareKind::Upload } else { ShareKind::Download },
        expires_unix: expires,
        password,
        max_uses,
        nets: Vec::new(),
    };
    let (share, token) = match store.create_share(&new).await {
        Ok(made) => made,
        Err(babelftp_accounts::AccountsError::UnknownUser(_)) => {
            return web.refuse(ask, StatusCode::FORBIDDEN, "web-share-unavailable", &[]);
        }
        Err(e) => {
            tracing::warn!(peer = %ask.peer, error = %e, "web share: the accounts could not be written");
            return web.refuse(ask, StatusCode::SERVICE_UNAVAILABLE, "web-unavailable", &[]);
        }
    };
    tracing::info!(
        peer = %ask.peer,
        share = %share.id,
        kind = share.kind.name(),
        path = %babelftp_proto::display::PlainPath(&share.path),
        "web share: created"
    );
    let scheme = if web.tls { "https" } else { "http" };
    let host = ask.authority.as_deref().unwrap_or("localhost");
    let url = format!("{scheme}://{host}/s/{token}");
    page::share_created(web, ask, view, &url, &share.id)
}

#[cfg(test)]
mod tests {
    #[test]
    fn durations_as_people_write_them() {
        assert_eq!(super::duration("90s"), Some(90));
        assert_eq!(super::duration("1h"), Some(3600));
        assert_eq!(super::duration("7d"), Some(7 * 86_400));
        assert_eq!(super::duration("0d"), None);
        assert_eq!(super::duration("h"), None);
        assert_eq!(super::duration("12"), None);
    }
}
