//! Metrics in the Prometheus/OpenMetrics text format and a health check,
//! on their own HTTP listener (`metrics_listen`), for nodes behind a load
//! balancer (issue 14).
//!
//! - `GET /metrics`: sessions now, and by negotiated language and client
//!   charset; logins by result; transfers by direction and outcome, and
//!   their bytes; error replies (4xx, 5xx) by code; event deliveries
//!   waiting in this node's outbox (`events_pending`); failures of the
//!   hooks (`hook_failures_total{hook="events"}`: each failed delivery
//!   attempt of an event hook, webhook or command; `{hook="auth"}`: each
//!   login the auth hook could not answer); the web view's requests by
//!   status class (`web_requests_total{status="2xx"}`). Counters start at
//!   zero with the process, as Prometheus expects.
//! - `GET /health`: `200 ok` while the server accepts sessions, `503
//!   draining` from the moment it stops accepting (SIGTERM) until it
//!   exits, so that a balancer polling it sends no new clients while the
//!   running transfers finish; `503 degraded: …` while the storage does
//!   not answer (a server started with `allow_degraded`).
//!
//! The registry and the text encoding are `prometheus-client`'s (the
//! Prometheus project's own crate); the HTTP side is axum on hyper, the
//! stack the admin API and the web view build on (HEAD comes with GET;
//! other methods get 405, other paths 404).

use axum::extract::State;
use axum::http::header::CONTENT_TYPE;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::Registry;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use tokio::net::TcpListener;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ResultLabel {
    result: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct TransferLabel {
    direction: &'static str,
    outcome: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct DirectionLabel {
    direction: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct CodeLabel {
    code: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct HookLabel {
    hook: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct StatusLabel {
    status: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct LanguageLabel {
    language: String,
    charset: String,
}

/// The server's metrics.
pub struct Metrics {
    registry: Registry,
    sessions: Gauge,
    sessions_by_language: Family<LanguageLabel, Gauge>,
    logins: Family<ResultLabel, Counter>,
    transfers: Family<TransferLabel, Counter>,
    transfer_bytes: Family<DirectionLabel, Counter>,
    error_replies: Family<CodeLabel, Counter>,
    /// The defender's bans, and the connections of banned addresses it
    /// closed.
    bans: Counter,
    banned_connections: Counter,
    /// Events the outbox dropped past `[events] max_pending`.
    events_dropped: Counter,
    /// Event deliveries waiting in this node's outbox (one per event and
    /// hook).
    events_pending: Gauge,
    /// Failed hook calls, by hook (`events`, `auth`).
    hook_failures: Family<HookLabel, Counter>,
    /// The web view's answers, by status class.
    web_requests: Family<StatusLabel, Counter>,
    draining: AtomicBool,
    /// Why the storage does not answer, while it does not.
    degraded: std::sync::Mutex<Option<String>>,
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

impl Metrics {
    pub fn new() -> Metrics {
        let mut registry = Registry::with_prefix("babelftp");
        let sessions = Gauge::default();
        let sessions_by_language = Family::<LanguageLabel, Gauge>::default();
        let logins = Family::<ResultLabel, Counter>::default();
        let transfers = Family::<TransferLabel, Counter>::default();
        let transfer_bytes = Family::<DirectionLabel, Counter>::default();
        let error_replies = Family::<CodeLabel, Counter>::default();
        registry.register("sessions", "Control connections being served", sessions.clone());
        registry.register(
            "sessions_by_language",
            "Sessions by the language of their replies (RFC 2640 LANG) and their pathname charset",
            sessions_by_language.clone(),
        );
        registry.register("logins", "Logins by result: ok, anonymous, failed", logins.clone());
        registry.register(
            "transfers",
            "File transfers by direction (upload, download) and outcome (complete, incomplete)",
            transfers.clone(),
        );
        registry.register(
            "transfer_bytes",
            "Octets of file transfers by direction",
            transfer_bytes.clone(),
        );
        registry.register("error_replies", "4xx and 5xx replies by code", error_replies.clone());
        let bans = Counter::default();
        let banned_connections = Counter::default();
        registry.register("bans", "Addresses this node banned (the defender)", bans.clone());
        registry.register(
            "banned_connections",
            "Connections of banned addresses closed at once",
            banned_connections.clone(),
        );
        let events_dropped = Counter::default();
        registry.register(
            "events_dropped",
            "Events dropped from a full outbox ([events] max_pending), failed logins first",
            events_dropped.clone(),
        );
        let events_pending = Gauge::default();
        registry.register(
            "events_pending",
            "Event deliveries waiting in this node's outbox (one per event and hook)",
            events_pending.clone(),
        );
        let hook_failures = Family::<HookLabel, Counter>::default();
        registry.register(
            "hook_failures",
            "Failed hook calls: events (a delivery attempt of an event hook that failed), auth (a login the auth hook could not answer)",
            hook_failures.clone(),
        );
        let web_requests = Family::<StatusLabel, Counter>::default();
        registry.register(
            "web_requests",
            "Requests the web view answered, by status class (2xx, 3xx, 4xx, 5xx)",
            web_requests.clone(),
        );
        // Both hooks' lines show from the start (at 0).
        for hook in ["events", "auth"] {
            drop(hook_failures.get_or_create(&HookLabel { hook }));
        }
        Metrics {
            events_dropped,
            events_pending,
            hook_failures,
            web_requests,
            registry,
            sessions,
            sessions_by_language,
            logins,
            transfers,
            transfer_bytes,
            error_replies,
            bans,
            banned_connections,
            draining: AtomicBool::new(false),
            degraded: std::sync::Mutex::new(None),
        }
    }

    /// The counter the event outbox adds its drops to.
    pub fn events_dropped(&self) -> Counter {
        self.events_dropped.clone()
    }

    /// The gauge of the event deliveries waiting in the outbox.
    pub fn events_pending(&self) -> Gauge {
        self.events_pending.clone()
    }

    /// The counter of `hook`'s failures (`events`, `auth`).
    pub fn hook_failures(&self, hook: &'static str) -> Counter {
        self.hook_failures.get_or_create(&HookLabel { hook }).clone()
    }

    /// Counts one answer of the web view.
    pub fn web_request(&self, status: u16) {
        let status = match status {
            100..=199 => "1xx",
            200..=299 => "2xx",
            300..=399 => "3xx",
            400..=499 => "4xx",
            _ => "5xx",
        };
        self.web_requests.get_or_create(&StatusLabel { status }).inc();
    }

    pub fn count_ban(&self) {
        self.bans.inc();
    }

    pub fn count_banned_connection(&self) {
        self.banned_connections.inc();
    }

    /// Counts what a session reported since it was last asked.
    pub fn tally(&self, t: &babelftp_session::Tally) {
        for (result, n) in [
            ("ok", t.logins_ok),
            ("anonymous", t.logins_anonymous),
            ("failed", t.logins_failed),
        ] {
            if n > 0 {
                self.logins.get_or_create(&ResultLabel { result }).inc_by(u64::from(n));
            }
        }
        for &code in &t.error_replies {
            self.error_replies.get_or_create(&CodeLabel { code }).inc();
        }
    }

    /// Counts one transfer.
    pub fn transfer(&self, incoming: bool, complete: bool, bytes: u64) {
        let direction = if incoming { "upload" } else { "download" };
        let outcome = if complete { "complete" } else { "incomplete" };
        self.transfers
            .get_or_create(&TransferLabel { direction, outcome })
            .inc();
        self.transfer_bytes
            .get_or_create(&DirectionLabel { direction })
            .inc_by(bytes);
    }

    /// The server stops accepting: `/health` says 503 from now on.
    pub fn set_draining(&self) {
        self.draining.store(true, Ordering::Relaxed);
    }

    /// Whether the server has stopped accepting (SIGTERM).
    pub fn is_draining(&self) -> bool {
        self.draining.load(Ordering::Relaxed)
    }

    /// The storage does not answer (`Some(why)`), or does again (`None`):
    /// `/health` says 503 with the reason meanwhile.
    pub fn set_degraded(&self, why: Option<String>) {
        *self.degraded.lock().unwrap_or_else(|p| p.into_inner()) = why;
    }

    /// Why the storage does not answer, if it does not.
    pub fn degraded(&self) -> Option<String> {
        self.degraded.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// The metrics in the OpenMetrics text format.
    pub fn encode(&self) -> String {
        let mut out = String::new();
        if prometheus_client::encoding::text::encode(&mut out, &self.registry).is_err() {
            out.clear();
        }
        out
    }
}

/// A session's place in the gauges, from its start to its end (drop).
pub struct SessionGauge {
    metrics: Arc<Metrics>,
    label: LanguageLabel,
}

impl SessionGauge {
    pub fn new(metrics: Arc<Metrics>, language: &str, charset: &str) -> SessionGauge {
        metrics.sessions.inc();
        let label = LanguageLabel {
            language: language.to_owned(),
            charset: charset.to_owned(),
        };
        metrics.sessions_by_language.get_or_create(&label).inc();
        SessionGauge { metrics, label }
    }

    /// The session's language or charset may have changed (LANG, OPTS
    /// UTF8 ON, HOST): moves it to its new line of the gauge.
    pub fn update(&mut self, language: &str, charset: &str) {
        if self.label.language == language && self.label.charset == charset {
            return;
        }
        self.metrics.sessions_by_language.get_or_create(&self.label).dec();
        self.label = LanguageLabel {
            language: language.to_owned(),
            charset: charset.to_owned(),
        };
        self.metrics.sessions_by_language.get_or_create(&self.label).inc();
    }

    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }
}

impl Drop for SessionGauge {
    fn drop(&mut self) {
        self.metrics.sessions.dec();
        self.metrics.sessions_by_language.get_or_create(&self.label).dec();
    }
}

/// Serves `/metrics` and `/health` on `listener` until the task is dropped
/// (axum on hyper: the HTTP stack the admin API and the web view share).
pub async fn serve_http(listener: crate::http::Guarded, metrics: Arc<Metrics>) {
    use axum::routing::get;
    let app = axum::Router::new()
        .route("/metrics", get(openmetrics))
        .route("/health", get(health))
        .with_state(metrics);
    crate::http::serve(listener, None, app, "metrics").await;
}

/// The metrics, as OpenMetrics text.
async fn openmetrics(State(metrics): State<Arc<Metrics>>) -> impl IntoResponse {
    (
        [(
            CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        metrics.encode(),
    )
}

/// 200 `ok`; 503 while draining, or while the storage does not answer.
async fn health(State(metrics): State<Arc<Metrics>>) -> impl IntoResponse {
    let text = [(CONTENT_TYPE, "text/plain; charset=utf-8")];
    if metrics.draining.load(Ordering::Relaxed) {
        return (StatusCode::SERVICE_UNAVAILABLE, text, "draining\n".to_owned());
    }
    match metrics.degraded() {
        Some(why) => (
            StatusCode::SERVICE_UNAVAILABLE,
            text,
            format!("degraded: storage unreachable: {}\n", why.replace(['\r', '\n'], " ")),
        ),
        None => (StatusCode::OK, text, "ok\n".to_owned()),
    }
}

/// Binds the metrics listener.
pub async fn bind(addr: SocketAddr) -> std::io::Result<TcpListener> {
    TcpListener::bind(addr).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_gauges_show_in_the_text() {
        let m = Arc::new(Metrics::new());
        let mut g = SessionGauge::new(m.clone(), "en", "UTF-8");
        m.tally(&babelftp_session::Tally {
            logins_ok: 1,
            logins_anonymous: 0,
            logins_failed: 2,
            error_replies: vec![530, 530, 550],
        });
        m.transfer(true, true, 1000);
        m.transfer(false, false, 10);
        g.update("ja", "UTF-8");
        m.web_request(200);
        m.web_request(403);
        m.web_request(404);
        m.hook_failures("events").inc();
        m.events_pending().set(3);
        let text = m.encode();
        for line in [
            "babelftp_sessions 1",
            "babelftp_sessions_by_language{language=\"ja\",charset=\"UTF-8\"} 1",
            "babelftp_sessions_by_language{language=\"en\",charset=\"UTF-8\"} 0",
            "babelftp_logins_total{result=\"ok\"} 1",
            "babelftp_logins_total{result=\"failed\"} 2",
            "babelftp_error_replies_total{code=\"530\"} 2",
            "babelftp_error_replies_total{code=\"550\"} 1",
            "babelftp_transfers_total{direction=\"upload\",outcome=\"complete\"} 1",
            "babelftp_transfer_bytes_total{direction=\"upload\"} 1000",
            "babelftp_transfer_bytes_total{direction=\"download\"} 10",
            "babelftp_web_requests_total{status=\"2xx\"} 1",
            "babelftp_web_requests_total{status=\"4xx\"} 2",
            "babelftp_hook_failures_total{hook=\"events\"} 1",
            "babelftp_hook_failures_total{hook=\"auth\"} 0",
            "babelftp_events_pending 3",
        ] {
            assert!(text.lines().any(|l| l == line), "{line} not in\n{text}");
        }
        drop(g);
        assert!(m.encode().lines().any(|l| l == "babelftp_sessions 0"));
    }
}
