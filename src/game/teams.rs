//! Vote games: a channel plays one side against the AI, its members voting on each move.
//!
//! The channel is a player of an ordinary game row (a member whose id is the channel's), so the
//! board, the history and `/analyze` work as for any game; its time per move is its turn's
//! window, and the deadline is when the window closes. While it is open, members of the channel
//! vote (and change their vote); a vote is written only while the game is still at the ply voted
//! on and before its deadline, in one statement, so none lands after the close. When the clock's
//! sweep finds the deadline passed, the move with the most votes is played (a tie: the move that
//! reached that count first), with the ply check of any move: however many processes close the
//! same window, and whenever one is killed half-way, the move is played once. A window that
//! closes empty is extended once; a second empty window loses the game. The end is told with the
//! voters' credits. Vote games are never rated.

use crate::engine::Level;
use crate::rules::{BoardSize, Color, Move, MoveText, Position};
use crate::store::{GameRow, NewGame, VoteCast};

use super::ai::Told;
use super::error::{MovedOn, TeamError, TeamRefusal};
use super::policy::color_or_drawn;
use super::rows::{position_of, told_in};
use super::tally::{read_votes, tally, Tally};
use super::vacation::turn_deadline;
use super::{
    Announcement, ChannelId, EndReason, Error, Game, GameId, Member, Place, Play, Result, Teams,
    TimeControl, Timestamp,
};

/// At most this many vote games run at once in a server.
pub const TEAM_GAMES_PER_SERVER: usize = 3;

/// The windows a vote game's turns may have: from 10 minutes to a day.
pub const TEAM_WINDOWS: [TimeControl; 3] = [
    TimeControl::TenMinutes,
    TimeControl::OneHour,
    TimeControl::OneDay,
];

/// A vote game to start: the channel of `place` plays `color` (drawn when `None`) against the AI
/// or another channel of its server.
#[derive(Clone, Debug)]
pub struct TeamRequest {
    pub place: Place,
    /// The channel as the game's player: its id and its name as the front end shows it.
    pub team: Member,
    pub by: Member,
    pub against: Against,
    pub size: BoardSize,
    pub color: Option<Color>,
    pub window: TimeControl,
}

/// Who a channel plays in a vote game.
#[derive(Clone, Debug)]
pub enum Against {
    /// The AI as a member, at a level.
    Ai(Member, Level),
    /// Another channel of the same server, as its player (its id and name), voting too.
    Channel(Member),
}

/// A member's vote, counted, and where the vote of their side stands.
#[derive(Clone, Debug, PartialEq)]
pub struct Voted {
    pub game: Game,
    pub mv: Move,
    /// Whether it replaced an earlier vote of theirs in this window.
    pub changed: bool,
    pub tally: Tally,
}

/// What closing one window did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Closed {
    /// The leading move was played, with its count of the window's voters; `tell`: its
    /// announcement, when it is to be queued with the AI's answer (the game goes on).
    Played {
        game: GameId,
        mv: Move,
        votes: u32,
        tell: Option<Announcement>,
    },
    /// No vote: the window was extended once, to the given moment.
    Extended { game: GameId, until: Timestamp },
    /// A second empty window: the channel lost.
    Lost { game: GameId },
}

/// One voter's part in a finished vote game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Credit {
    pub member: Member,
    pub votes: u32,
    /// How many of their votes were the move played.
    pub played: u32,
}

impl Teams {
    /// Starts a vote game: the channel of `req.place` plays against the AI, its first window
    /// opening at once when it has Black (else after the AI's first move, made here).
    ///
    /// # Errors
    ///
    /// [`TeamRefusal::InDirect`], [`TeamRefusal::Window`], [`TeamRefusal::Limit`] (this many run
    /// in the server), [`TeamRefusal::ChannelBusy`]; a [`Failure`](super::Failure).
    pub async fn start(&self, req: TeamRequest) -> Result<Game, TeamError> {
        if req.place.is_direct() {
            return Err(TeamRefusal::InDirect.into());
        }
        if !TEAM_WINDOWS.contains(&req.window) {
            return Err(TeamRefusal::Window.into());
        }
        let now = self.now();
        let mut tx = self.store.begin().await?;
        let (in_server, in_channel) = tx
            .count_team_games(req.place.guild, req.place.channel)
            .await?;
        if in_server >= TEAM_GAMES_PER_SERVER as i64 {
            return Err(TeamRefusal::Limit(TEAM_GAMES_PER_SERVER).into());
        }
        if in_channel > 0 {
            return Err(TeamRefusal::ChannelBusy.into());
        }
        let guild = req.place.guild;
        let other = match &req.against {
            Against::Ai(..) => None,
            Against::Channel(other) => {
                if other.id == req.team.id {
                    return Err(TeamRefusal::SameChannel.into());
                }
                let channel = ChannelId::new(other.id.get());
                if tx.count_team_games(guild, channel).await?.1 > 0 {
                    return Err(TeamRefusal::ChannelBusy.into());
                }
                tx.upsert_member(guild, other.id, other.name.as_str(), now)
                    .await?;
                Some(channel)
            }
        };
        tx.upsert_member(guild, req.by.id, req.by.name.as_str(), now)
            .await?;
        tx.upsert_member(guild, req.team.id, req.team.name.as_str(), now)
            .await?;
        let (opponent, level) = match &req.against {
            Against::Ai(ai, level) => {
                tx.upsert_bot(guild, ai.id, ai.name.as_str(), now).await?;
                (ai.id, Some(*level))
            }
            Against::Channel(other) => (other.id, None),
        };
        let color = color_or_drawn(req.color);
        let mut players = crate::rules::ByColor::new(opponent, opponent);
        players[color] = req.team.id;
        let id = tx
            .insert_game(&NewGame {
                guild_id: guild,
                channel_id: req.place.channel,
                players,
                size: req.size,
                time_limit: req.window,
                rated: false,
                position: Position::new(req.size),
                deadline: turn_deadline(now, req.window, None),
                created_at: now,
                ai_level: level,
                ai_auto: false,
                answers_only: false,
            })
            .await?;
        tx.insert_team(
            id,
            color,
            (guild, ChannelId::new(req.team.id.get())),
            req.by.id,
        )
        .await?;
        if let Some(channel) = other {
            tx.insert_team(id, color.opposite(), (guild, channel), req.by.id)
                .await?;
            // The other channel hears of it as the first channel does, in the command's answer.
            let told = Announcement::TeamGameStarted { game: id };
            tx.insert_outbox(&told.row(Place { guild, channel }, now)?)
                .await?;
        }
        tx.commit().await?;
        if color == Color::White && other.is_none() {
            // The AI opens; a full queue leaves it to the sweep of games waiting for the AI.
            if let Err(e) = Play::of(&self.core).ai_reply(id).await {
                tracing::warn!(game = %id, error = ?e, "the AI could not open a vote game yet");
            }
        }
        Ok(self.game_known(id).await?)
    }

    /// The vote game channel `channel` plays in, if any.
    ///
    /// # Errors
    ///
    /// A [`Failure`](super::Failure) when the database fails.
    pub async fn game_in(&self, channel: ChannelId) -> Result<Option<Game>> {
        match self.store.team_game_in(channel).await? {
            Some(id) => Ok(Some(self.game_known(id).await?)),
            None => Ok(None),
        }
    }

    /// `who`'s vote for `text` in the vote game of channel `place`, at ply `ply` when given (a
    /// menu's), else the game's present ply. Replaces their earlier vote in this window.
    ///
    /// # Errors
    ///
    /// [`TeamRefusal::NoTeamGame`], [`TeamRefusal::NotYourTurn`] (the AI is to move),
    /// [`TeamRefusal::WindowClosed`] (it closed, or the game moved on, before the vote),
    /// [`TeamRefusal::OtherSide`], [`TeamRefusal::Move`]; a [`Failure`](super::Failure).
    pub async fn vote(
        &self,
        who: &Member,
        place: Place,
        ply: Option<u32>,
        text: &str,
    ) -> Result<Voted, TeamError> {
        let syntax: MoveText = text.parse().map_err(crate::rules::MoveError::Parse)?;
        let Some(id) = self.store.team_game_in(place.channel).await? else {
            return Err(TeamRefusal::NoTeamGame.into());
        };
        let game = self.game_known(id).await?;
        if ply.is_some_and(|p| p != game.ply) {
            return Err(TeamRefusal::WindowClosed(id).into());
        }
        let team = ChannelId::new(place.channel.get());
        let to_move = game.players[game.position.turn()].id;
        if to_move.get() != team.get() {
            return Err(TeamRefusal::NotYourTurn(id).into());
        }
        let mv = syntax
            .resolve(&game.position)
            .map_err(crate::rules::MoveError::from)?;
        let now = self.now();
        let earlier = self.store.votes(id, game.ply).await?;
        let changed = earlier.iter().any(|v| v.member_id == who.id);
        let mut tx = self.store.begin().await?;
        tx.upsert_member(place.guild, who.id, who.name.as_str(), now)
            .await?;
        tx.commit().await?;
        match self
            .store
            .cast_vote(id, game.ply, who.id, &mv.to_string(), now)
            .await?
        {
            VoteCast::Cast => {}
            VoteCast::Closed => return Err(TeamRefusal::WindowClosed(id).into()),
            VoteCast::OtherSide => return Err(TeamRefusal::OtherSide(id).into()),
        }
        let rows = self.store.votes(id, game.ply).await?;
        let tally = tally(&read_votes(&game.position, &rows));
        Ok(Voted {
            game,
            mv,
            changed,
            tally,
        })
    }

    /// The latest message known to show the board of vote game `game`: the post its window's
    /// votes are counted on.
    ///
    /// # Errors
    ///
    /// A [`Failure`](super::Failure) when the database fails.
    pub async fn board_message(&self, game: GameId) -> Result<Option<super::MessageId>> {
        Ok(self.store.game_message(game).await?)
    }

    /// The votes so far in the open window of `game`.
    ///
    /// # Errors
    ///
    /// A [`Failure`](super::Failure) when the database fails.
    pub async fn tally_of(&self, game: &Game) -> Result<Tally> {
        let rows = self.store.votes(game.id, game.ply).await?;
        Ok(tally(&read_votes(&game.position, &rows)))
    }

    /// Closes every window of this service's servers that closed by `now`, one after the other,
    /// each followed by the AI's answer when a move was played. For each window closed, how long
    /// after the call began it was done, the AI's answer included: how long its players waited
    /// beyond the window. A window that cannot be closed is logged and left for the next sweep.
    ///
    /// # Errors
    ///
    /// A [`Failure`](super::Failure) when the database cannot list the windows.
    pub async fn close_windows(&self, now: Timestamp) -> Result<Vec<std::time::Duration>> {
        let started = std::time::Instant::now();
        let play = Play::of(&self.core);
        let mut done = Vec::new();
        for row in self.store.closed_windows(now, self.servers).await? {
            match self.close_window(&row, now).await {
                Ok(Some(closed)) => {
                    if let Closed::Played {
                        game,
                        tell: Some(tell),
                        ..
                    } = closed
                    {
                        // The AI answers at once, its move written with the post of the
                        // channel's; else that post goes alone, and the sweep of games waiting
                        // for the AI tells its answer in a post of its own.
                        let answered = play.ai_move(game, Told::In(tell.clone())).await;
                        if !matches!(answered, Ok(Some(_))) {
                            if let Err(e) = &answered {
                                tracing::warn!(game = %game, error = ?e, "the AI could not answer a vote game yet");
                            }
                            self.tell_alone(&row, &tell, now).await?;
                        }
                    }
                    done.push(started.elapsed());
                }
                Ok(None) => {}
                Err(e) => {
                    tracing::error!(game = %row.id, error = ?e, "could not close a vote game's window");
                }
            }
        }
        Ok(done)
    }

    /// Closes the window of the overdue vote game of `row` at `now`: plays its leading move,
    /// extends it once when empty, or loses the game on a second empty window. `None` when
    /// another process (or a move) got there first. The AI's answer is left to the caller.
    async fn close_window(&self, row: &GameRow, now: Timestamp) -> Result<Option<Closed>> {
        let id = row.id;
        let ply = row.ply;
        let position = position_of(row)?;
        let votes = self.store.votes(id, ply).await?;
        let tally = tally(&read_votes(&position, &votes));
        let play = Play::of(&self.core);
        if let Some((mv, count)) = tally.leader() {
            let announce = Announcement::TeamMoved {
                game: id,
                ply: ply + 1,
                mv: mv.to_string(),
                votes: count,
                voters: tally.voters,
            };
            // A move that ends the game, or of a game between channels, is told with it; any
            // other, with the AI's answer.
            let ends = position.play(mv).is_ok_and(|p| p.outcome().is_some());
            let (with_move, tell) = if ends || row.ai_level.is_none() {
                (Some(announce), None)
            } else {
                (None, Some(announce))
            };
            return match play.apply(row.clone(), &position, mv, now, with_move).await {
                Ok(_) => Ok(Some(Closed::Played {
                    game: id,
                    mv,
                    votes: count,
                    tell,
                })),
                Err(Error::Refused(_)) => Ok(None),
                Err(Error::Failed(f)) => Err(f),
            };
        }
        let extended = self
            .store
            .teams(id)
            .await?
            .iter()
            .any(|t| t.extended_ply == Some(i64::from(ply)));
        if !extended {
            let until = now + row.time_limit.duration();
            if !self
                .store
                .extend_window(id, ply, row.deadline, until)
                .await?
            {
                return Ok(None);
            }
            let mut tx = self.store.begin().await?;
            let a = Announcement::TeamWindowExtended {
                game: id,
                ply,
                until,
            };
            for place in told_in(row) {
                tx.insert_outbox(&a.row(place, now)?).await?;
            }
            tx.commit().await?;
            return Ok(Some(Closed::Extended { game: id, until }));
        }
        let winner = position.turn().opposite();
        let announce = Some(Announcement::TimedOut { game: id });
        match play
            .end(
                row,
                Some(ply),
                None,
                Some(winner),
                EndReason::Timeout,
                now,
                announce,
            )
            .await
        {
            Ok(_) => Ok(Some(Closed::Lost { game: id })),
            Err(Error::Refused(MovedOn)) => Ok(None),
            Err(Error::Failed(f)) => Err(f),
        }
    }

    /// Queues `a` about the game of `row` on its own.
    async fn tell_alone(&self, row: &GameRow, a: &Announcement, now: Timestamp) -> Result<()> {
        let place = Place {
            guild: row.guild_id,
            channel: row.channel_id,
        };
        let mut tx = self.store.begin().await?;
        tx.insert_outbox(&a.row(place, now)?).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Tells the end of every vote game over and not yet told, with its voters' credits: once
    /// each, whatever process gets there first. How many it told.
    ///
    /// # Errors
    ///
    /// A [`Failure`](super::Failure) when the database fails.
    pub async fn credit_ended(&self, now: Timestamp) -> Result<usize> {
        let mut told = 0;
        for id in self.store.uncredited_team_games().await? {
            let Some(row) = self.store.game(id).await? else {
                continue;
            };
            let mut tx = self.store.begin().await?;
            if tx.credit_team_game(id).await? {
                let a = Announcement::TeamCredits { game: id };
                for place in told_in(&row) {
                    tx.insert_outbox(&a.row(place, now)?).await?;
                }
                told += 1;
            }
            tx.commit().await?;
        }
        Ok(told)
    }

    /// Each voter of `game`, with how many of their votes were played, most first.
    ///
    /// # Errors
    ///
    /// A [`Failure`](super::Failure) when the database fails.
    pub async fn credits(&self, game: &Game) -> Result<Vec<Credit>> {
        let mut credits = Vec::new();
        for row in self.store.credits(game.id).await? {
            let name = self
                .store
                .member_name(game.place.guild, row.member_id)
                .await?
                .unwrap_or_else(|| row.member_id.to_string());
            credits.push(Credit {
                member: Member::new(row.member_id, name),
                votes: u32::try_from(row.votes).unwrap_or(0),
                played: u32::try_from(row.played).unwrap_or(0),
            });
        }
        Ok(credits)
    }
}
