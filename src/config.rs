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
