//! `run`: the bot as a process: its claim on the database, the services over it, and the
//! Discord front end serving them until it stops.

use std::sync::Arc;

use crate::config::BotConfig;
use crate::game::{Services, SystemClock, LOCAL_SERVER};
use crate::store::{holder_name, is_postgres, InstanceLock, Store, StoreError};

use super::{run, Refusals};

/// `run`: claims the database (one bot per database, or per shard of it), opens it, builds the
/// game service as the bot serves it, and hands it to the Discord front end. On PostgreSQL the
/// claim is a lease per shard in the database, renewed while the bot runs and given up when it
/// stops; losing it stops the bot.
pub async fn serve(config: BotConfig, refusals: Refusals) -> anyhow::Result<()> {
    let shards = config.shard_range()?;
    let _claim = InstanceLock::acquire_for(&config.db.database_url, shards)?;
    let store = Store::open(&config.db.database_url).await?;
    let lease_time = std::time::Duration::from_secs(config.shard_lease_secs);
    let lease = if is_postgres(&config.db.database_url) {
        let holder = holder_name();
        store.claim_shards(shards, &holder, lease_time).await?;
        Some(holder)
    } else {
        None
    };
    // The console's local server, should it share this database, is the console's to look after.
    let mut games = Services::ready(store.clone(), Arc::new(SystemClock), config.limits())
        .await?
        .all_servers_but(LOCAL_SERVER);
    if let Some(shards) = shards {
        games = games.on_shards(shards);
    }
    let served = match &lease {
        None => run(config, games, refusals).await,
        Some(holder) => tokio::select! {
            served = run(config, games, refusals) => served,
            lost = store.keep_shards(shards, holder, lease_time) => Err(match lost {
                lost @ StoreError::LeaseLost => lost.into(),
                failed => anyhow::Error::from(failed).context(
                    "could not renew this process's shard leases before they would run out; \
                     stopping, so that no two processes serve the same games",
                ),
            }),
        },
    };
    if let Some(holder) = &lease {
        if let Err(e) = store.release_shards(holder).await {
            tracing::warn!(error = %e, "could not give up this process's shard leases; they run out by themselves");
        }
    }
    store.close().await;
    served
}
