//! Tournaments: their rows, entrants and byes, and the games they are played in.
//!
//! The reads a tournament's next step depends on are written once, for any executor, and taken
//! both from the reader pool (for the standings and pairings a member asks for) and inside a
//! write transaction (for the step itself, after [`WriteTx::lock_tournament`]).

use sqlx::{Any, Executor, FromRow};

use crate::domain::{
    ChannelId, GameId, GuildId, MemberId, MessageId, RoundNumber, TimeControl, Timestamp,
    TournamentFormat, TournamentId, TournamentState,
};
use crate::rules::BoardSize;

use super::codec::Flag;
use super::statements::{built_statement, statement};
use super::{GameRow, Result, Servers, Sql, Store, WriteTx};

/// A tournament as stored.
#[derive(Clone, Debug, PartialEq, FromRow)]
pub struct TournamentRow {
    pub id: TournamentId,
    pub guild_id: GuildId,
    pub channel_id: ChannelId,
    pub name: String,
    pub format: TournamentFormat,
    pub organizer_id: MemberId,
    pub size: BoardSize,
    pub time_limit: TimeControl,
    #[sqlx(try_from = "Flag")]
    pub rated: bool,
    pub rounds: Option<i64>,
    pub max_players: i64,
    pub starts_at: Option<Timestamp>,
    pub state: TournamentState,
    pub round: RoundNumber,
    pub message_id: Option<MessageId>,
    pub created_at: Timestamp,
    pub started_at: Option<Timestamp>,
    pub ended_at: Option<Timestamp>,
}

/// A tournament to insert.
#[derive(Clone, Debug)]
pub struct NewTournament {
    pub guild_id: GuildId,
    pub channel_id: ChannelId,
    pub name: String,
    pub format: TournamentFormat,
    pub organizer_id: MemberId,
    pub size: BoardSize,
    pub time_limit: TimeControl,
    pub rated: bool,
    pub rounds: Option<u32>,
    pub max_players: u32,
    pub starts_at: Option<Timestamp>,
    pub created_at: Timestamp,
}

/// An entrant, with their name in the tournament's server.
#[derive(Clone, Debug, PartialEq, FromRow)]
pub struct EntrantRow {
    pub member_id: MemberId,
    pub name: String,
    pub seed: i64,
    pub withdrawn_at: Option<Timestamp>,
}

/// A round sat out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, FromRow)]
pub struct ByeRow {
    pub round: RoundNumber,
    pub member_id: MemberId,
}

/// What a tournament's step reads: the tournament, its entrants (best seed first, then in the
/// order they entered), its games (by round, then id) and its byes.
#[derive(Clone, Debug)]
pub struct TournamentRead {
    pub tournament: TournamentRow,
    pub entrants: Vec<EntrantRow>,
    pub games: Vec<GameRow>,
    pub byes: Vec<ByeRow>,
}

const ENTRANTS: &str = statement!(
    "SELECT e.member_id, e.seed, e.withdrawn_at,
            COALESCE(n.name, 'member ' || e.member_id) AS name
     FROM tournament_entrants e
     JOIN tournaments t ON t.id = e.tournament_id
     LEFT JOIN member_names n ON n.guild_id = t.guild_id AND n.member_id = e.member_id
     WHERE e.tournament_id = $1
     ORDER BY e.seed, e.joined_at, e.member_id"
);

/// Reads a tournament whole on `conn`: a connection of the reader pool, or a transaction's.
async fn read_all<C>(conn: &mut C, id: TournamentId) -> Result<Option<TournamentRead>>
where
    for<'e> &'e mut C: Executor<'e, Database = Any>,
{
    let Some(tournament) =
        sqlx::query_as::<_, TournamentRow>(statement!("SELECT * FROM tournaments WHERE id = $1"))
            .bind(id)
            .fetch_optional(&mut *conn)
            .await?
    else {
        return Ok(None);
    };
    let entrants = sqlx::query_as(ENTRANTS)
        .bind(id)
        .fetch_all(&mut *conn)
        .await?;
    let games = sqlx::query_as(statement!(game_select!(
        "WHERE g.tournament_id = $1 ORDER BY g.tournament_round, g.id"
    )))
    .bind(id)
    .fetch_all(&mut *conn)
    .await?;
    let byes = sqlx::query_as(statement!(
        "SELECT round, member_id FROM tournament_byes WHERE tournament_id = $1 ORDER BY round"
    ))
    .bind(id)
    .fetch_all(&mut *conn)
    .await?;
    Ok(Some(TournamentRead {
        tournament,
        entrants,
        games,
        byes,
    }))
}

impl Store {
    /// A tournament with its entrants, games and byes.
    pub async fn tournament(&self, id: TournamentId) -> Result<Option<TournamentRead>> {
        let mut conn = self.read.get().acquire().await?;
        read_all(&mut *conn, id).await
    }

    /// The state of tournament `id`, if there is one.
    pub async fn tournament_state(&self, id: TournamentId) -> Result<Option<TournamentState>> {
        Ok(
            sqlx::query_scalar(statement!("SELECT state FROM tournaments WHERE id = $1"))
                .bind(id)
                .fetch_optional(self.read.get())
                .await?,
        )
    }

    /// The open and running tournaments of `guild`, newest first.
    pub async fn live_tournaments(&self, guild: GuildId) -> Result<Vec<TournamentRow>> {
        Ok(sqlx::query_as(statement!(
            "SELECT * FROM tournaments WHERE guild_id = $1 AND state IN ('open', 'running')
             ORDER BY id DESC"
        ))
        .bind(guild)
        .fetch_all(self.read.get())
        .await?)
    }

    /// The latest 25 tournaments of `guild`, whatever their state, newest first.
    pub async fn latest_tournaments(&self, guild: GuildId) -> Result<Vec<TournamentRow>> {
        Ok(sqlx::query_as(statement!(
            "SELECT * FROM tournaments WHERE guild_id = $1 ORDER BY id DESC LIMIT 25"
        ))
        .bind(guild)
        .fetch_all(self.read.get())
        .await?)
    }

    /// The tournaments of `servers` with work for the sweep: open ones whose start time has come,
    /// and running ones with no game in progress (a round owed, or the end).
    pub async fn tournaments_to_step(
        &self,
        now: Timestamp,
        servers: Servers,
    ) -> Result<Vec<TournamentId>> {
        let (sql, args) = to_step_sql(now, servers).build()?;
        Ok(sqlx::query_scalar_with(sql, args)
            .fetch_all(self.read.get())
            .await?)
    }

    /// Records the sign-up message of a tournament.
    pub async fn set_tournament_message(&self, id: TournamentId, message: MessageId) -> Result<()> {
        let mut held = self.write.lock().await?;
        sqlx::query(statement!(
            "UPDATE tournaments SET message_id = $1 WHERE id = $2"
        ))
        .bind(message)
        .bind(id)
        .execute(held.conn())
        .await?;
        Ok(())
    }
}

impl WriteTx {
    /// Takes the tournament's row for the rest of this transaction, so that two writers stepping
    /// the same tournament (two of its games ending at once) go one after the other, the second
    /// seeing what the first wrote; and reads it whole.
    pub async fn lock_tournament(&mut self, id: TournamentId) -> Result<Option<TournamentRead>> {
        if !self.hold_tournament(id).await? {
            return Ok(None);
        }
        read_all(self.tx.conn(), id).await
    }

    /// Takes the tournament's row for the rest of this transaction, as
    /// [`WriteTx::lock_tournament`] does, without reading it; false if there is no such
    /// tournament.
    pub async fn hold_tournament(&mut self, id: TournamentId) -> Result<bool> {
        let held: Option<TournamentId> = sqlx::query_scalar(statement!(
            "UPDATE tournaments SET round = round WHERE id = $1 RETURNING id"
        ))
        .bind(id)
        .fetch_optional(self.tx.conn())
        .await?;
        Ok(held.is_some())
    }

    /// Whether any game of the tournament is still being played.
    pub async fn tournament_in_play(&mut self, id: TournamentId) -> Result<bool> {
        let playing: Option<i64> = sqlx::query_scalar(statement!(
            "SELECT 1 FROM games WHERE tournament_id = $1 AND state = 'active' LIMIT 1"
        ))
        .bind(id)
        .fetch_optional(self.tx.conn())
        .await?;
        Ok(playing.is_some())
    }

    pub async fn insert_tournament(&mut self, t: &NewTournament) -> Result<TournamentId> {
        Ok(sqlx::query_scalar(statement!(
            "INSERT INTO tournaments (guild_id, channel_id, name, format, organizer_id, size,
                 time_limit, rated, rounds, max_players, starts_at, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id"
        ))
        .bind(t.guild_id)
        .bind(t.channel_id)
        .bind(t.name.as_str())
        .bind(t.format)
        .bind(t.organizer_id)
        .bind(t.size)
        .bind(t.time_limit)
        .bind(Flag(t.rated))
        .bind(t.rounds.map(i64::from))
        .bind(i64::from(t.max_players))
        .bind(t.starts_at)
        .bind(t.created_at)
        .fetch_one(self.tx.conn())
        .await?)
    }

    /// Tournaments open or running in `guild`, counted under a lock on the server (its settings
    /// row, written as it was, or with the defaults if it had none) held to the end of this
    /// transaction: on PostgreSQL two tournaments created at once would each count without the
    /// other and both be created past the server's limit. SQLite's writes are one at a time
    /// anyway.
    pub async fn count_live_tournaments(&mut self, guild: GuildId) -> Result<i64> {
        self.lock_server(guild).await?;
        Ok(sqlx::query_scalar(statement!(
            "SELECT count(*) FROM tournaments WHERE guild_id = $1 AND state IN ('open', 'running')"
        ))
        .bind(guild)
        .fetch_one(self.tx.conn())
        .await?)
    }

    /// Enters `member`, last in the order of entry; false if they already were.
    pub async fn add_entrant(
        &mut self,
        id: TournamentId,
        member: MemberId,
        now: Timestamp,
    ) -> Result<bool> {
        Ok(sqlx::query(statement!(
            "INSERT INTO tournament_entrants (tournament_id, member_id, seed, joined_at)
             VALUES ($1, $2, 0, $3) ON CONFLICT (tournament_id, member_id) DO NOTHING"
        ))
        .bind(id)
        .bind(member)
        .bind(now)
        .execute(self.tx.conn())
        .await?
        .rows_affected()
            == 1)
    }

    /// Takes `member` off the entrants of a tournament not started; false if they were not on.
    pub async fn remove_entrant(&mut self, id: TournamentId, member: MemberId) -> Result<bool> {
        Ok(sqlx::query(statement!(
            "DELETE FROM tournament_entrants WHERE tournament_id = $1 AND member_id = $2"
        ))
        .bind(id)
        .bind(member)
        .execute(self.tx.conn())
        .await?
        .rows_affected()
            == 1)
    }

    /// Marks `member` withdrawn from a running tournament; false if they were not in it or had
    /// already withdrawn.
    pub async fn withdraw_entrant(
        &mut self,
        id: TournamentId,
        member: MemberId,
        now: Timestamp,
    ) -> Result<bool> {
        Ok(sqlx::query(statement!(
            "UPDATE tournament_entrants SET withdrawn_at = $3
             WHERE tournament_id = $1 AND member_id = $2 AND withdrawn_at IS NULL"
        ))
        .bind(id)
        .bind(member)
        .bind(now)
        .execute(self.tx.conn())
        .await?
        .rows_affected()
            == 1)
    }

    /// Gives each entrant their place in the seeding: `order`, best first.
    pub async fn seed_entrants(&mut self, id: TournamentId, order: &[MemberId]) -> Result<()> {
        for (seed, member) in order.iter().enumerate() {
            sqlx::query(statement!(
                "UPDATE tournament_entrants SET seed = $3
                 WHERE tournament_id = $1 AND member_id = $2"
            ))
            .bind(id)
            .bind(*member)
            .bind(i64::try_from(seed).unwrap_or(i64::MAX))
            .execute(self.tx.conn())
            .await?;
        }
        Ok(())
    }

    /// Moves the tournament from round `from` (as read after [`WriteTx::lock_tournament`]) to
    /// `to`, in `state`, with its number of rounds if given; the start and end times follow the
    /// state. False, changing nothing, if it is no longer at `from` in a live state.
    pub async fn step_tournament(
        &mut self,
        id: TournamentId,
        from: RoundNumber,
        to: RoundNumber,
        state: TournamentState,
        rounds: Option<u32>,
        now: Timestamp,
    ) -> Result<bool> {
        Ok(sqlx::query(statement!(
            "UPDATE tournaments SET round = $3, state = $4, rounds = COALESCE($5, rounds),
                 started_at = CASE WHEN state = 'open' AND $4 = 'running' THEN $6
                                   ELSE started_at END,
                 ended_at = CASE WHEN $4 IN ('finished', 'cancelled') THEN $6 ELSE ended_at END
             WHERE id = $1 AND round = $2 AND state IN ('open', 'running')"
        ))
        .bind(id)
        .bind(from)
        .bind(to)
        .bind(state)
        .bind(rounds.map(i64::from))
        .bind(now)
        .execute(self.tx.conn())
        .await?
        .rows_affected()
            == 1)
    }

    /// Tags game `game`, just inserted, as the tournament's in `round`.
    pub async fn tag_tournament_game(
        &mut self,
        game: GameId,
        id: TournamentId,
        round: RoundNumber,
    ) -> Result<()> {
        sqlx::query(statement!(
            "UPDATE games SET tournament_id = $1, tournament_round = $2 WHERE id = $3"
        ))
        .bind(id)
        .bind(round)
        .bind(game)
        .execute(self.tx.conn())
        .await?;
        self.touched.game(game);
        Ok(())
    }

    pub async fn insert_bye(
        &mut self,
        id: TournamentId,
        round: RoundNumber,
        member: MemberId,
    ) -> Result<()> {
        sqlx::query(statement!(
            "INSERT INTO tournament_byes (tournament_id, round, member_id) VALUES ($1, $2, $3)"
        ))
        .bind(id)
        .bind(round)
        .bind(member)
        .execute(self.tx.conn())
        .await?;
        Ok(())
    }
}

fn to_step_sql(now: Timestamp, servers: Servers) -> Sql {
    Sql::new(
        "SELECT t.id FROM tournaments t
         WHERE ((t.state = 'open' AND t.starts_at <= $1)
             OR (t.state = 'running' AND NOT EXISTS
                 (SELECT 1 FROM games g WHERE g.tournament_id = t.id AND g.state = 'active')))
           AND ",
    )
    .arg(now)
    .servers("t.guild_id", servers)
    .push(" ORDER BY t.id")
}

built_statement!(Both, {
    super::statements::for_each_kind_of_servers(|servers| {
        to_step_sql(Timestamp::from_unix_seconds(0), servers)
    })
});
