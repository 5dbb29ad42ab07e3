//! Statements written in parts, for the queries kept to some [`Servers`]: the one place that
//! says in SQL which servers a query looks at, and which gateway shard a server is on.

use sqlx::any::{Any, AnyArguments};
use sqlx::error::BoxDynError;
use sqlx::{Arguments, AssertSqlSafe, Encode, Type};

use crate::domain::Shards;

use super::{Result, Servers};

/// A statement written in parts: its text, and the values of its parameters, each bound as its
/// `$n` is written; for the queries kept to some [`Servers`]. sqlx's `QueryBuilder` writes each
/// parameter as `?` through the `Any` driver, which PostgreSQL does not read, and panics on a
/// value it cannot encode; here such a value fails the statement, as `bind` does.
pub struct Sql {
    text: String,
    args: AnyArguments,
    bound: usize,
    unencoded: Option<BoxDynError>,
}

impl Sql {
    /// A statement beginning with `text`; [`Sql::arg`] binds the parameters it names.
    pub fn new(text: &str) -> Sql {
        Sql {
            text: text.to_string(),
            args: AnyArguments::default(),
            bound: 0,
            unencoded: None,
        }
    }

    /// Binds the next parameter, one the text written so far names already.
    pub fn arg<'q, T: Encode<'q, Any> + Type<Any>>(mut self, value: T) -> Sql {
        if let Err(e) = self.args.add(value) {
            self.unencoded.get_or_insert(e);
        }
        self.bound += 1;
        self
    }

    pub fn push(mut self, text: impl std::fmt::Display) -> Sql {
        use std::fmt::Write;
        let _infallible = write!(self.text, "{text}");
        self
    }

    /// Writes the next parameter, `$n`, and binds `value` to it.
    pub fn push_bind<'q, T: Encode<'q, Any> + Type<Any>>(self, value: T) -> Sql {
        let n = self.bound + 1;
        self.push(format_args!("${n}")).arg(value)
    }

    /// Keeps the statement to `servers`, by the server id in `column`: one condition for each
    /// limit they set, joined by `AND`, or `TRUE` for every server. The text depends on which
    /// limits there are, not on their values, so the databases prepare it once for each kind.
    pub fn servers(mut self, column: &str, servers: Servers) -> Sql {
        let mut and = "";
        if let Some(guild) = servers.only {
            self = self.push(format_args!("{column} = ")).push_bind(guild);
            and = " AND ";
        }
        if let Some(guild) = servers.left_out {
            self = self
                .push(format_args!("{and}{column} <> "))
                .push_bind(guild);
            and = " AND ";
        }
        if let Some(shards) = servers.shards {
            self = self
                .push(and)
                .shard_of(column, shards.count)
                .push(" BETWEEN ")
                .push_bind(i64::from(shards.first))
                .push(" AND ")
                .push_bind(i64::from(shards.last));
            and = " AND ";
        }
        if and.is_empty() {
            self = self.push("TRUE");
        }
        self
    }

    /// The gateway shard of the server id in `column`, of `count`: [`Shards::of`] in SQL.
    fn shard_of(self, column: &str, count: u32) -> Sql {
        self.push(format_args!("({column} >> {}) % ", Shards::ID_SHIFT))
            .push_bind(i64::from(count))
    }

    /// The text as written so far.
    #[cfg(feature = "test-support")]
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The text and the arguments, to run with sqlx's `query_with` and its kin.
    pub fn build(self) -> Result<(AssertSqlSafe<String>, AnyArguments)> {
        match self.unencoded {
            Some(e) => Err(sqlx::Error::Encode(e).into()),
            None => Ok((AssertSqlSafe(self.text), self.args)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::GuildId;
    use sqlx::Connection;

    fn text(servers: Servers) -> String {
        let (sql, _) = Sql::new("WHERE x = $1 AND ")
            .arg(0_i64)
            .servers("g.guild_id", servers)
            .build()
            .expect("built");
        sql.0
    }

    /// Each kind of limit has its own text, numbered after the parameters before it, and the
    /// same text whatever the servers and shards.
    #[test]
    fn the_text_says_which_limits_there_are_and_not_their_values() {
        let two = |first| Shards {
            count: 4,
            first,
            last: first + 1,
        };
        assert_eq!(text(Servers::ALL), "WHERE x = $1 AND TRUE");
        assert_eq!(
            text(Servers::one(GuildId::new(7))),
            "WHERE x = $1 AND g.guild_id = $2"
        );
        assert_eq!(
            text(Servers::all_but(GuildId::new(7)).on_shards(two(0))),
            "WHERE x = $1 AND g.guild_id <> $2 AND (g.guild_id >> 22) % $3 BETWEEN $4 AND $5"
        );
        assert_eq!(
            text(Servers::all_but(GuildId::new(8)).on_shards(two(2))),
            text(Servers::all_but(GuildId::new(7)).on_shards(two(0)))
        );
        assert_eq!(
            text(Servers::ALL.on_shards(Shards::all(4))),
            text(Servers::ALL)
        );
    }

    /// The database puts each server on the shard Discord does.
    #[tokio::test]
    async fn a_query_kept_to_some_shards_finds_the_servers_discord_sends_on_them() {
        sqlx::any::install_default_drivers();
        let mut conn = sqlx::AnyConnection::connect("sqlite::memory:")
            .await
            .expect("connect");
        sqlx::query("CREATE TABLE t (guild_id INTEGER NOT NULL)")
            .execute(&mut conn)
            .await
            .expect("table");
        let guilds: Vec<GuildId> = [0, 1 << 22, 3 << 22, 81_384_788_765_712_384, i64::MAX as u64]
            .into_iter()
            .chain((0..40).map(|i| 1_234_567_890_123_456_789 + i * 987_654_321_987))
            .map(GuildId::new)
            .collect();
        for &guild in &guilds {
            sqlx::query("INSERT INTO t (guild_id) VALUES ($1)")
                .bind(guild)
                .execute(&mut conn)
                .await
                .expect("insert");
        }
        for count in [2, 3, 16] {
            for first in 0..count {
                let shards = Shards {
                    count,
                    first,
                    last: first,
                };
                let (sql, args) = Sql::new("SELECT guild_id FROM t WHERE ")
                    .servers("guild_id", Servers::ALL.on_shards(shards))
                    .push(" ORDER BY rowid")
                    .build()
                    .expect("built");
                let found: Vec<GuildId> = sqlx::query_scalar_with(sql, args)
                    .fetch_all(&mut conn)
                    .await
                    .expect("query");
                let discord: Vec<GuildId> = guilds
                    .iter()
                    .copied()
                    .filter(|&g| Shards::of(g, count) == first)
                    .collect();
                assert_eq!(found, discord, "shard {first} of {count}");
            }
        }
    }
}
