//! Settings from the environment (and `.env`, read by dotenvy in `main`), each also a flag.

use clap::Args;

/// Where the database lives.
#[derive(Args, Clone, Debug)]
pub struct DatabaseConfig {
    /// SQLite database URL; the file is created on first start.
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
    /// The bot's token, from the Discord developer portal (Bot → Reset Token). Never logged.
    #[arg(long, env = "DISCORD_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
    /// Register the commands in this server only (instant; for development). Globally when unset.
    #[arg(long, env = "DISCORD_GUILD_ID")]
    pub guild_id: Option<u64>,
    /// A Discord-compatible API base URL, such as http://127.0.0.1:8080: for tests and proxies.
    #[arg(long, env = "DISCORD_API_BASE")]
    pub api_base: Option<String>,
    /// Seconds between two checks of the clocks (expiries, time-outs, reminders).
    #[arg(long, env = "SWEEP_INTERVAL_SECS", default_value_t = 30)]
    pub sweep_interval_secs: u64,
    /// Milliseconds a post of an announcement (a time-out, a reminder, ...) may take before it is
    /// given up and tried again later.
    #[arg(long, env = "POST_TIMEOUT_MS", default_value_t = 10_000)]
    pub post_timeout_ms: u64,
}

impl std::fmt::Debug for BotConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BotConfig")
            .field("database_url", &self.db.database_url)
            .field("token", &self.token.as_ref().map(|_| "(set)"))
            .field("guild_id", &self.guild_id)
            .field("api_base", &self.api_base)
            .field("sweep_interval_secs", &self.sweep_interval_secs)
            .field("post_timeout_ms", &self.post_timeout_ms)
            .finish()
    }
}

/// What to say when the bot is started without a token.
pub const MISSING_TOKEN: &str = "\
DISCORD_TOKEN is not set, so the bot cannot connect to Discord.
  1. Create an application at https://discord.com/developers/applications, open Bot, and press
     Reset Token to get one.
  2. Put it in .env as DISCORD_TOKEN=... (see .env.example), or in the environment.
To try the game without Discord, run: breakthrough-bot console";
