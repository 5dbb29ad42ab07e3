//! Settings from the environment (and `.env`, read by dotenvy in `main`), each also a flag.

use clap::Args;

use crate::game::{Limits, Shards, ShardsError};

/// Where the database lives.
#[derive(Args, Clone, Debug)]
pub struct DatabaseConfig {
    /// The database URL: a SQLite file (`sqlite://…`, created on first start) or PostgreSQL
    /// (`postgres://user:password@host/db`).
    #[arg(
        long = "db",
        env = "DATABASE_URL",
        default_value = "sqlite://breakthrough.db",
        value_name = "URL"
    )]
    pub database_url: String,
}

/// The Discord bot's settings.
#[derive(Args, Clone)]
pub struct BotConfig {
    #[command(flatten)]
    pub db: DatabaseConfig,
    /// The bot's token. Read from `DISCORD_TOKEN` only (see [`BotConfig::with_token_from_env`]):
    /// a flag would show it to every user of the machine in the process list.
    #[arg(skip)]
    pub token: Option<String>,
    /// Register the commands in this server only (instant; for development). Globally when unset.
    #[arg(long, env = "DISCORD_GUILD_ID", value_parser = guild_id)]
    pub guild_id: Option<u64>,
    /// A Discord-compatible API base URL, such as http://127.0.0.1:8080: for tests and proxies.
    /// https, or http on a loopback address only (the token travels with every request).
    #[arg(long, env = "DISCORD_API_BASE", value_parser = api_base)]
    pub api_base: Option<String>,
    /// Seconds between two checks of the clocks (expiries, time-outs, reminders).
    #[arg(long, env = "SWEEP_INTERVAL_SECS", default_value_t = 30)]
    pub sweep_interval_secs: u64,
    /// Slash commands and button clicks a member may send in a burst, refilled over
    /// `RATE_LIMIT_PERIOD_SECS`; past it they are asked to slow down. Autocomplete is not counted.
    #[arg(long, env = "RATE_LIMIT_COMMANDS", default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..))]
    pub rate_limit_commands: u32,
    /// Seconds in which a member's whole burst of commands is refilled.
    #[arg(long, env = "RATE_LIMIT_PERIOD_SECS", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    pub rate_limit_period_secs: u64,
    /// Games against the AI a member may have in progress at once.
    #[arg(long, env = "AI_GAMES_PER_MEMBER", default_value_t = 3, value_parser = clap::value_parser!(i64).range(1..))]
    pub ai_games_per_member: i64,
    /// AI searches queued or running at once, all members together (one per member); past it a
    /// move against the AI is refused with "try again in a moment". The searches run one per core.
    #[arg(long, env = "AI_QUEUE", default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..))]
    pub ai_queue: u64,
    /// Gateway shards the bot runs over all its processes; unset: Discord's recommended count,
    /// all in this process.
    #[arg(long, env = "SHARD_COUNT", value_parser = clap::value_parser!(u32).range(1..))]
    pub shard_count: Option<u32>,
    /// The shards this process runs, one (`2`) or a range (`0-3`); unset: all of `SHARD_COUNT`.
    /// Each process then looks after only its shards' servers (direct messages are shard 0's).
    #[arg(
        long,
        env = "SHARDS",
        requires = "shard_count",
        value_name = "N|FIRST-LAST"
    )]
    pub shards: Option<String>,
    /// On PostgreSQL, seconds a process's lease on its shards lasts unless renewed (it renews
    /// every third of it): how soon a process that died has its shards taken over.
    #[arg(long, env = "SHARD_LEASE_SECS", default_value_t = crate::store::LEASE.as_secs(), value_parser = clap::value_parser!(u64).range(3..=3600))]
    pub shard_lease_secs: u64,
    /// Days of vacation (clocks paused with `/vacation`) a member may take in any 365 days.
    #[arg(long, env = "VACATION_DAYS_PER_YEAR", default_value_t = 21, value_parser = clap::value_parser!(i64).range(0..=366))]
    pub vacation_days_per_year: i64,
    /// Milliseconds a post of an announcement (a time-out, a reminder, ...) may take before it is
    /// given up and tried again later.
    #[arg(long, env = "POST_TIMEOUT_MS", default_value_t = 10_000)]
    pub post_timeout_ms: u64,
    /// Where to answer health checks over HTTP (`/healthz`, `/readyz`), like 127.0.0.1:9090;
    /// none when unset.
    #[arg(long, env = "HEALTH_ADDR")]
    pub health_addr: Option<std::net::SocketAddr>,
}

impl BotConfig {
    /// The game service's limits, with the ones set here.
    pub fn limits(&self) -> Limits {
        Limits {
            ai_games: self.ai_games_per_member,
            ai_queue: usize::try_from(self.ai_queue).unwrap_or(usize::MAX),
            vacation_days: self.vacation_days_per_year,
            ..Limits::default()
        }
    }

    /// The shards this process runs, when a count is set: `SHARDS` of `SHARD_COUNT`, or all of
    /// them.
    ///
    /// # Errors
    ///
    /// A `SHARDS` that is not a shard or a range of shards below `SHARD_COUNT`.
    pub fn shard_range(&self) -> Result<Option<Shards>, ShardsError> {
        match (self.shard_count, &self.shards) {
            (Some(count), Some(text)) => Shards::parse(text, count).map(Some),
            (Some(count), None) => Ok(Some(Shards::all(count))),
            (None, _) => Ok(None),
        }
    }

    /// The token from `DISCORD_TOKEN` (set and not blank), the one place it is read from.
    pub fn with_token_from_env(mut self) -> BotConfig {
        self.token = std::env::var("DISCORD_TOKEN")
            .ok()
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty());
        self
    }
}

impl std::fmt::Debug for BotConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BotConfig")
            .field("database_url", &self.db.database_url)
            .field("token", &self.token.as_ref().map(|_| "(set)"))
            .field("guild_id", &self.guild_id)
            .field("api_base", &self.api_base)
            .field("sweep_interval_secs", &self.sweep_interval_secs)
            .field("rate_limit_commands", &self.rate_limit_commands)
            .field("rate_limit_period_secs", &self.rate_limit_period_secs)
            .field("ai_games_per_member", &self.ai_games_per_member)
            .field("ai_queue", &self.ai_queue)
            .field("vacation_days_per_year", &self.vacation_days_per_year)
            .field("shard_count", &self.shard_count)
            .field("shards", &self.shards)
            .field("shard_lease_secs", &self.shard_lease_secs)
            .field("post_timeout_ms", &self.post_timeout_ms)
            .finish()
    }
}

/// Checks `DISCORD_API_BASE`: every request carries the bot's token, so it goes over https, or
/// over plain http only to this machine (a test's fake Discord, a local proxy).
fn api_base(text: &str) -> Result<String, String> {
    let url = url::Url::parse(text.trim()).map_err(|e| {
        format!(
            "{e}: DISCORD_API_BASE must be a URL such as https://proxy.example or \
                 http://127.0.0.1:8080"
        )
    })?;
    let loopback = match url.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        Some(url::Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        None => false,
    };
    match url.scheme() {
        "https" if url.host().is_some() => {}
        "http" if loopback => {}
        "http" => {
            return Err(
                "plain http would send the token in clear: DISCORD_API_BASE must be https, or \
                 http on a loopback address (127.0.0.1, [::1], localhost)"
                    .into(),
            )
        }
        other => {
            return Err(format!(
                "the scheme must be https (or http on loopback), not {other}: check \
                 DISCORD_API_BASE"
            ))
        }
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err("DISCORD_API_BASE is a base URL alone, without ?query or #fragment".into());
    }
    Ok(url.as_str().trim_end_matches('/').to_string())
}

/// Checks `DISCORD_GUILD_ID`: a server id is a positive number (a snowflake).
fn guild_id(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(id) if id > 0 => Ok(id),
        _ => Err(
            "DISCORD_GUILD_ID must be a server id (Developer Mode, right-click the server, \
             Copy Server ID), or empty to register the commands globally"
                .into(),
        ),
    }
}

/// Removes every variable among `names` whose value is empty or blank: in a copied `.env.example`
/// an empty setting means "not set", so its default applies (clap would otherwise try to read
/// the empty string as a value).
pub fn forget_empty_settings<'a>(names: impl IntoIterator<Item = &'a str>) {
    for name in names {
        let empty = std::env::var_os(name).is_some_and(|v| v.to_string_lossy().trim().is_empty());
        if empty {
            // Called at start-up, before any other thread exists.
            std::env::remove_var(name);
        }
    }
}

/// What to say when the bot is started without a token.
pub const MISSING_TOKEN: &str = "\
DISCORD_TOKEN is not set, so the bot cannot connect to Discord.
  1. Create an application at https://discord.com/developers/applications, open Bot, and press
     Reset Token to get one.
  2. Put it in .env as DISCORD_TOKEN=... (see .env.example), or in the environment.
To try the game without Discord, run: breakthrough-bot console";

#[cfg(test)]
mod tests {
    use super::api_base;

    #[test]
    fn the_api_base_is_https_or_loopback_http() {
        for ok in [
            "https://proxy.example.com",
            "https://proxy.example.com:8443/discord/",
            "http://127.0.0.1:8080",
            "http://127.3.4.5",
            "http://[::1]:9000",
            "http://localhost:1234",
        ] {
            assert!(api_base(ok).is_ok(), "{ok} should be accepted");
        }
        for bad in [
            "http://example.com",
            "http://10.0.0.1:8080",
            "http://192.168.1.2",
            "ftp://127.0.0.1",
            "ws://127.0.0.1",
            "127.0.0.1:8080",
            "https://x.example?token=1",
            "",
        ] {
            assert!(api_base(bad).is_err(), "{bad:?} should be refused");
        }
        assert_eq!(
            api_base("http://127.0.0.1:8080/").as_deref(),
            Ok("http://127.0.0.1:8080")
        );
    }
}
