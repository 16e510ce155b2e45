//! Bans through the admin API, as `babelftp ban` manages them: in the
//! store, read back into this node's defender at once.

use super::*;

/// A ban in force, on every node of the store.
#[derive(Serialize, ToSchema)]
pub(crate) struct Ban {
    /// The address, or the network (an IPv6 client's /64, as the
    /// defender bans it).
    address: String,
    /// Until when, Unix seconds.
    until: i64,
    /// Bans of this address within a day, this one included.
    count: u32,
    reason: String,
}

/// A ban to add.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewBan {
    /// An IPv4 or IPv6 address, or a network (`2001:db8:1:2::/64`).
    address: String,
    /// How long, in seconds (default: a day).
    seconds: Option<u64>,
    /// Why (default: `admin API`).
    reason: Option<String>,
}

fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

/// An address, or a network (`2001:db8:1:2::/64`).
fn address(s: &str) -> Result<babelftp_accounts::BanNet, ApiError> {
    s.parse::<babelftp_accounts::BanNet>()
        .map_err(|()| ApiError::bad(format!("{s:?} is not an IP address or network")))
}

#[utoipa::path(get, path = "/api/v1/bans", tag = "bans",
    responses((status = 200, description = "The bans in force, soonest to end first", body = [Ban])))]
pub(crate) async fn list_bans(State(st): State<AdminState>) -> Result<Response, ApiError> {
    let list: Vec<Ban> = st
        .store
        .bans(unix_now())
        .await?
        .into_iter()
        .map(|b| Ban {
            address: b.addr.to_string(),
            until: b.until_unix,
            count: b.count,
            reason: b.reason,
        })
        .collect();
    Ok(json(StatusCode::OK, &list))
}

#[utoipa::path(post, path = "/api/v1/bans", tag = "bans", request_body = NewBan,
    responses((status = 201, description = "Banned on every node (this one at once, the others within seconds)", body = Ban),
              (status = 400, description = "Not an address, or no duration", body = ErrorBody)))]
pub(crate) async fn add_ban(
    State(st): State<AdminState>,
    Extension(caller): Extension<Caller>,
    bytes: Bytes,
) -> Result<Response, ApiError> {
    let b: NewBan = body(&bytes)?;
    let ip = address(&b.address)?;
    let seconds = b.seconds.unwrap_or(86_400);
    if seconds == 0 {
        return Err(ApiError::bad("seconds: write a duration above 0"));
    }
    let reason = b.reason.unwrap_or_else(|| "admin API".to_owned());
    let until = unix_now().saturating_add(i64::try_from(seconds).unwrap_or(i64::MAX));
    st.store.ban(ip, until, 1, &reason).await?;
    st.shared.sync_bans().await;
    tracing::info!(token = %caller, address = %ip, seconds, "admin API: address banned");
    Ok(json(
        StatusCode::CREATED,
        &Ban {
            address: ip.to_string(),
            until,
            count: 1,
            reason,
        },
    ))
}

#[utoipa::path(delete, path = "/api/v1/bans/{address}", tag = "bans",
    params(("address" = String, Path, description = "The banned address or network (`/` as `%2F`); an address lifts every ban that covers it")),
    responses((status = 204, description = "Lifted on every node"),
              (status = 404, description = "Not banned", body = ErrorBody)))]
pub(crate) async fn delete_ban(
    State(st): State<AdminState>,
    Extension(caller): Extension<Caller>,
    Path(addr): Path<String>,
) -> Result<StatusCode, ApiError> {
    let ip = address(&addr)?;
    let lifted = st.store.unban(ip).await?;
    if lifted.is_empty() {
        return Err(ApiError::not_found(format!("{ip} is not banned")));
    }
    st.shared.sync_bans().await;
    for net in lifted {
        tracing::info!(token = %caller, address = %net, "admin API: ban lifted");
    }
    Ok(StatusCode::NO_CONTENT)
}
