//! The health checks an admin's supervisor asks over HTTP (`HEALTH_ADDR`): `/healthz`, the
//! process is up; `/readyz`, every gateway shard it runs is connected and its database answers
//! (200 `ready`, else 503 with the reason in one line).

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

use crate::game::Services;

/// How long the database may take to answer a readiness check.
const DATABASE_WAIT: Duration = Duration::from_secs(2);

/// What `/readyz` reads: the shards' runners (once the client is built) and the services.
#[derive(Clone)]
pub(super) struct Readiness {
    pub(super) shards: Arc<tokio::sync::OnceCell<Arc<serenity::ShardManager>>>,
    pub(super) games: Services,
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
        match tokio::time::timeout(DATABASE_WAIT, self.games.database_answers()).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(format!("the database does not answer: {e}")),
            Err(_) => Err(format!(
                "the database did not answer within {} s",
                DATABASE_WAIT.as_secs()
            )),
        }
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
        "/healthz" => (StatusCode::OK, "ok".to_string()),
        "/readyz" => match readiness.check().await {
            Ok(()) => (StatusCode::OK, "ready".to_string()),
            Err(why) => (StatusCode::SERVICE_UNAVAILABLE, why),
        },
        _ => (StatusCode::NOT_FOUND, "not found".to_string()),
    };
    let mut response = Response::new(Full::new(Bytes::from(format!("{body}\n"))));
    *response.status_mut() = status;
    response
}
