//! The health checks an admin's supervisor asks over HTTP (`HEALTH_ADDR`): `/healthz`, the
//! process is up; `/readyz`, every gateway shard it runs is connected and its database answers
//! and would take a write (200 `ready`, else 503 with the reason in one line); and `/metrics`,
//! for Prometheus, in its text format (see `crate::telemetry`).

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response, StatusCode};
use poise::serenity_prelude as serenity;
use tokio::net::TcpListener;
use tracing::{info, warn};

use metrics_exporter_prometheus::PrometheusHandle;

use crate::game::Services;
use crate::telemetry;

/// How long the database may take to answer a readiness check.
const DATABASE_WAIT: Duration = Duration::from_secs(2);

/// What the listener reads: the shards' runners (once the client is built), the services, and
/// the metrics' recorder.
#[derive(Clone)]
pub(super) struct Readiness {
    pub(super) shards: Arc<tokio::sync::OnceCell<Arc<serenity::ShardManager>>>,
    pub(super) games: Services,
    pub(super) metrics: PrometheusHandle,
    /// Held by the database's check in flight: checks asked meanwhile do not pile up behind a
    /// database that does not answer.
    pub(super) probing: Arc<tokio::sync::Mutex<()>>,
}

impl Readiness {
    /// `Ok` when ready; else why not, in one line.
    async fn check(&self) -> Result<(), String> {
        let Some(manager) = self.shards.get() else {
            return Err("not connected to Discord yet".to_string());
        };
        {
            let runners = manager.runners.lock().await;
            if runners.is_empty() {
                return Err("no gateway shard is running yet".to_string());
            }
            let mut ids: Vec<_> = runners.keys().copied().collect();
            ids.sort_by_key(|id| id.0);
            for id in ids {
                let stage = runners[&id].stage;
                if stage != serenity::ConnectionStage::Connected {
                    return Err(format!("gateway shard {} is {stage}", id.0));
                }
            }
        }
        let slow = format!(
            "the database did not answer within {} s",
            DATABASE_WAIT.as_secs()
        );
        let Ok(probing) = Arc::clone(&self.probing).try_lock_owned() else {
            return Err(slow);
        };
        // The check runs to its end in a task of its own, even past the wait: a write lock asked
        // for and then dropped half-way could be left held.
        let games = self.games.clone();
        let probe = tokio::spawn(async move {
            let answer = games.database_answers().await;
            drop(probing);
            answer
        });
        match tokio::time::timeout(DATABASE_WAIT, probe).await {
            Ok(Ok(Ok(()))) => Ok(()),
            Ok(Ok(Err(e))) => Err(format!("the database does not answer: {e}")),
            Ok(Err(e)) => Err(format!("the database's check failed: {e}")),
            Err(_) => Err(slow),
        }
    }

    /// The metrics in Prometheus' text format, with what is read as it is scraped: the work
    /// waiting in the database, and each gateway shard's latency.
    async fn metrics(&self) -> String {
        match tokio::time::timeout(DATABASE_WAIT, self.games.load()).await {
            Ok(Ok(load)) => {
                metrics::gauge!(telemetry::GAMES_IN_PROGRESS).set(load.games_in_progress as f64);
                metrics::gauge!(telemetry::OUTBOX_DEPTH).set(load.outbox_depth as f64);
                metrics::gauge!(telemetry::OUTBOX_OLDEST_SECONDS).set(load.outbox_oldest);
            }
            Ok(Err(e)) => warn!(error = ?e, "could not read the work waiting, for /metrics"),
            Err(_) => warn!("the database did not answer in time, for /metrics"),
        }
        if let Some(manager) = self.shards.get() {
            let runners = manager.runners.lock().await;
            for (id, runner) in runners.iter() {
                if let Some(latency) = runner.latency {
                    metrics::gauge!(telemetry::GATEWAY_LATENCY_SECONDS, "shard" => id.0.to_string())
                        .set(latency);
                }
            }
        }
        self.metrics.render()
    }
}

/// Binds `addr` and answers health checks on it until the process ends.
///
/// # Errors
///
/// The address cannot be bound (in use, not this machine's).
pub(super) async fn serve(addr: SocketAddr, readiness: Readiness) -> std::io::Result<()> {
    let listener = TcpListener::bind(addr).await?;
    info!(%addr, "answering health checks");
    tokio::spawn(async move {
        loop {
            let stream = match listener.accept().await {
                Ok((stream, _)) => stream,
                Err(e) => {
                    warn!(error = %e, "a health check's connection failed");
                    continue;
                }
            };
            let readiness = readiness.clone();
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |request| {
                    let readiness = readiness.clone();
                    async move { Ok::<_, Infallible>(answer(&readiness, &request).await) }
                });
                let io = hyper_util::rt::TokioIo::new(stream);
                if let Err(e) = hyper::server::conn::http1::Builder::new()
                    .serve_connection(io, service)
                    .await
                {
                    warn!(error = %e, "a health check's connection failed");
                }
            });
        }
    });
    Ok(())
}

async fn answer(readiness: &Readiness, request: &Request<Incoming>) -> Response<Full<Bytes>> {
    let (status, body) = match request.uri().path() {
        "/healthz" => (StatusCode::OK, "ok\n".to_string()),
        "/readyz" => match readiness.check().await {
            Ok(()) => (StatusCode::OK, "ready\n".to_string()),
            Err(why) => (StatusCode::SERVICE_UNAVAILABLE, format!("{why}\n")),
        },
        "/metrics" => {
            let text = readiness.metrics().await;
            let mut response = Response::new(Full::new(Bytes::from(text)));
            if let Ok(kind) = "text/plain; version=0.0.4; charset=utf-8".parse() {
                response
                    .headers_mut()
                    .insert(hyper::header::CONTENT_TYPE, kind);
            }
            return response;
        }
        _ => (StatusCode::NOT_FOUND, "not found\n".to_string()),
    };
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = status;
    response
}
