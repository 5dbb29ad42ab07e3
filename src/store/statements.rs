//! Every statement the store runs, registered where it is written, so that one test can prepare
//! each on SQLite and on PostgreSQL, the ones no other test happens to run included, and fail
//! naming the statement, where it is written and the database's error.
//!
//! A fixed statement is written `statement!("SELECT …")`, which registers it and is its text. A
//! statement built in parts (kept to some servers, or grouped for a batch of moves) registers
//! how to build it, with every part it can have, by `built_statement!`; the text of such a
//! statement depends on which parts it has, not on their values.

#[cfg(feature = "test-support")]
use super::Servers;
#[cfg(feature = "test-support")]
use crate::domain::{GuildId, Shards};

/// Which databases run a statement.
#[cfg(feature = "test-support")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum On {
    Both,
    Sqlite,
    Postgres,
}

/// A statement's text: as written, or built.
#[cfg(feature = "test-support")]
#[derive(Clone, Copy, Debug)]
pub enum Text {
    Fixed(&'static str),
    /// Built with each set of parts it can have.
    Built(fn() -> Vec<String>),
}

/// One registered statement.
#[cfg(feature = "test-support")]
#[derive(Debug)]
pub struct Statement {
    /// The file and line where it is written.
    pub at: &'static str,
    pub on: On,
    pub text: Text,
}

#[cfg(feature = "test-support")]
impl Statement {
    /// Its texts: the one it is written as, or each it can be built as.
    pub fn texts(&self) -> Vec<String> {
        match self.text {
            Text::Fixed(text) => vec![text.to_string()],
            Text::Built(build) => build(),
        }
    }
}

#[cfg(feature = "test-support")]
#[allow(unsafe_code)]
#[linkme::distributed_slice]
pub static STATEMENTS: [Statement];

/// Registers a fixed statement, and is its text: on both databases, or on the one named first
/// (`statement!(Postgres, "…")`).
macro_rules! statement {
    ($on:ident, $text:expr) => {{
        #[cfg(feature = "test-support")]
        #[allow(unsafe_code)]
        #[linkme::distributed_slice($crate::store::statements::STATEMENTS)]
        static STATEMENT: $crate::store::statements::Statement =
            $crate::store::statements::Statement {
                at: concat!(file!(), ":", line!()),
                on: $crate::store::statements::On::$on,
                text: $crate::store::statements::Text::Fixed($text),
            };
        $text
    }};
    ($text:expr) => {{
        #[cfg(feature = "test-support")]
        #[allow(unsafe_code)]
        #[linkme::distributed_slice($crate::store::statements::STATEMENTS)]
        static STATEMENT: $crate::store::statements::Statement =
            $crate::store::statements::Statement {
                at: concat!(file!(), ":", line!()),
                on: $crate::store::statements::On::Both,
                text: $crate::store::statements::Text::Fixed($text),
            };
        $text
    }};
}

/// Registers a statement built in parts, on the databases `on`, by `build`: a block that builds
/// its texts, with each set of parts it can have.
macro_rules! built_statement {
    ($on:ident, $build:block) => {
        #[cfg(feature = "test-support")]
        const _: () = {
            fn build() -> Vec<String> $build
            #[allow(unsafe_code)]
            #[linkme::distributed_slice($crate::store::statements::STATEMENTS)]
            static STATEMENT: $crate::store::statements::Statement =
                $crate::store::statements::Statement {
                    at: concat!(file!(), ":", line!()),
                    on: $crate::store::statements::On::$on,
                    text: $crate::store::statements::Text::Built(build),
                };
        };
    };
}

pub(super) use {built_statement, statement};

/// Each kind of [`Servers`] a statement kept to some servers is built for: every server (no
/// condition), one server, and every server but one, each also of some shards.
#[cfg(feature = "test-support")]
fn kinds_of_servers() -> Vec<Servers> {
    let guild = GuildId::new(7);
    let some = Shards {
        count: 4,
        first: 1,
        last: 2,
    };
    [Servers::ALL, Servers::one(guild), Servers::all_but(guild)]
        .into_iter()
        .flat_map(|s| [s, s.on_shards(some)])
        .collect()
}

/// The texts of a statement kept to some servers, built by `build` for each kind of them.
#[cfg(feature = "test-support")]
pub(super) fn for_each_kind_of_servers(build: impl Fn(Servers) -> super::Sql) -> Vec<String> {
    kinds_of_servers()
        .into_iter()
        .map(|servers| build(servers).text().to_string())
        .collect()
}

/// Every registered statement.
#[cfg(feature = "test-support")]
pub fn all() -> &'static [Statement] {
    &STATEMENTS
}
