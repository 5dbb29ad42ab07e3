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
