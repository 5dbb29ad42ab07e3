//! Announcements owed to a channel, kept in the store's outbox until a front end has posted them.
//!
//! Each is written in the same transaction as the change it announces (a challenge expiring, a
//! game ending on time, a reminder taken, a move of the AI), as a typed value; the front end
//! reads it back, renders it as it stands then, posts it and removes it.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::i18n::Lang;
use crate::store::{NewOutbox, OutboxRow};

use super::error::corrupt;
use super::types::{
    Challenge, ChallengeId, Game, GameId, MemberId, MessageId, OutboxId, Place, Played,
    RoundNumber, Timestamp, TournamentId,
};
use super::{
    Challenges, Credit, Error, Outbox, Result, RoundGames, Table, Teams, Tournament, Tournaments,
};

/// What an announcement was about is gone (a game, a challenge, a tournament, as the refusal
/// that said so): there is nothing to say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gone(pub String);

fn gone<R: std::fmt::Debug>(e: Error<R>) -> Error<Gone> {
    match e {
        Error::Refused(why) => Error::Refused(Gone(format!("{why:?}"))),
        Error::Failed(f) => Error::Failed(f),
    }
}

/// Something to tell a channel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Announcement {
    /// A challenge expired unanswered.
    ChallengeExpired { challenge: ChallengeId },
    /// A game ended on time: lost by the side to move, or aborted before both sides had moved.
    TimedOut { game: GameId },
    /// `member` is to move in `game` and has until `deadline`.
    Reminder {
        game: GameId,
        member: MemberId,
        #[serde(with = "crate::domain::unix_seconds")]
        deadline: Timestamp,
    },
    /// The AI moved in `game`, reaching ply `ply`: a reply a restart had left waiting.
    AiMoved { game: GameId, ply: u32 },
    /// It became `member`'s turn in `game` at ply `ply` (or, with `reminder`, their time is
    /// running short): for the member, by direct message, who asked for it.
    YourTurn {
        game: GameId,
        member: MemberId,
        ply: u32,
        reminder: bool,
    },
    /// `member`, a player of `game`, went on vacation until `until`: for their opponent.
    Vacation {
        game: GameId,
        member: MemberId,
        #[serde(with = "crate::domain::unix_seconds")]
        until: Timestamp,
    },
    /// The board of `game` at ply `ply`: the public post of a change that a front end could not
    /// deliver as its reply (Discord refused or lost it), posted unless the game has moved on.
    Board { game: GameId, ply: u32 },
    /// `game` started in a channel of a server whose games get threads: the thread to open for
    /// it, on the message that shows its board, for the game to move into.
    OpenThread { game: GameId },
    /// `game`, played in a thread of its own, is over: its result and a link to the thread, for
    /// the channel it started in; the thread is then archived.
    ThreadEnded { game: GameId },
    /// Round `round` of `tournament` was made (round 1: it started): its games, for its channel.
    TournamentRound {
        tournament: TournamentId,
        round: RoundNumber,
    },
    /// `member`'s games in round `round` of `tournament`: for the member, by direct message, who
    /// asked for turn notifications.
    TournamentGames {
        tournament: TournamentId,
        round: RoundNumber,
        member: MemberId,
    },
    /// `tournament` is over: its final standings, with the winner.
    TournamentEnded { tournament: TournamentId },
    /// `tournament` reached its start time with fewer than 3 entrants, and was cancelled.
    TournamentCancelled { tournament: TournamentId },
    /// The window of a vote game closed and its channel's move `mv` was played, reaching ply
    /// `ply`, with `votes` of the window's `voters`.
    TeamMoved {
        game: GameId,
        ply: u32,
        mv: String,
        votes: u32,
        voters: u32,
    },
    /// The window of a vote game at ply `ply` closed with no vote, and was extended once, to
    /// `until`.
    TeamWindowExtended {
        game: GameId,
        ply: u32,
        #[serde(with = "crate::domain::unix_seconds")]
        until: Timestamp,
    },
    /// A vote game is over: its result, and its voters' credits.
    TeamCredits { game: GameId },
    /// A vote game between two channels started: for the channel that did not start it.
    TeamGameStarted { game: GameId },
}

/// The longest a turn told by direct message, or a thread to open on the board's message, waits
/// for that message: the command that made the change posts the board and records its message
/// ([`Outbox::board_posted`]), which makes them due at once. A board that never gets a known
/// message (its post failed for longer than this) lets the turn be told without the link, and
/// leaves the game in its channel.
const BOARD_WAIT_LIMIT: Duration = Duration::from_secs(60);

/// How long the news of a game that ended in its thread waits, for the command that ended it to
/// post the result in the thread before it is archived.
const AFTER_THE_RESULT: Duration = Duration::from_secs(2);

impl Announcement {
    /// The outbox row that queues this announcement for `place`: due at once, but a turn told by
    /// direct message after a move, or a thread to open, once the message of the board they
    /// link to or open on is recorded (see [`BOARD_WAIT_LIMIT`]), and a game's end told from its
    /// thread two seconds later (see [`AFTER_THE_RESULT`]). Rows due together go in the order
    /// they were queued: a round's games told to each player follow the round's news.
    pub(crate) fn row(&self, place: Place, now: Timestamp) -> Result<NewOutbox> {
        let announcement = serde_json::to_string(self)
            .map_err(|e| corrupt(format!("announcement {self:?}: {e}")))?;
        let (delay, waits_for_board) = match self {
            Announcement::YourTurn {
                game,
                reminder: false,
                ..
            }
            | Announcement::OpenThread { game } => (BOARD_WAIT_LIMIT, Some(*game)),
            Announcement::ThreadEnded { .. } => (AFTER_THE_RESULT, None),
            _ => (Duration::ZERO, None),
        };
        Ok(NewOutbox {
            guild_id: place.guild,
            channel_id: place.channel,
            announcement,
            created_at: now,
            first_attempt_at: now + delay,
            waits_for_board,
        })
    }
}

/// An announcement waiting in the outbox.
#[derive(Clone, Debug, PartialEq)]
pub struct Owed {
    /// The outbox row's id: what [`Outbox::announced`] and [`Outbox::announce_later`] take.
    pub id: OutboxId,
    pub place: Place,
    /// What it says; `Err` with the stored text when that cannot be read (to be dropped).
    pub announcement: std::result::Result<Announcement, String>,
    /// Failed posts so far.
    pub attempts: i64,
}

impl Owed {
    pub(super) fn from_row(row: OutboxRow) -> Owed {
        Owed {
            id: row.id,
            place: Place {
                guild: row.guild_id,
                channel: row.channel_id,
            },
            announcement: serde_json::from_str(&row.announcement).map_err(|_| row.announcement),
            attempts: row.attempts,
        }
    }
}

/// An announcement with what it is about, as things stand now: ready to be put into words.
#[derive(Clone, Debug, PartialEq)]
pub enum Announced {
    ChallengeExpired(Challenge),
    /// The game, over.
    TimedOut(Game),
    /// The game, still waiting for `member`'s move.
    Reminder {
        game: Game,
        member: MemberId,
    },
    /// The AI's move, and the game just after it.
    AiMoved(Played),
    /// `member`'s turn in the game, told by direct message in `lang`; `message`: the latest
    /// message known to show the game's board, to link to.
    YourTurn {
        game: Game,
        member: MemberId,
        reminder: bool,
        lang: Lang,
        message: Option<MessageId>,
    },
    /// A player of the game, on vacation until `until`.
    Vacation {
        game: Game,
        member: MemberId,
        until: Timestamp,
    },
    /// The game as it stands, still at the ply the post was owed for.
    Board(Game),
    /// A game just started, still in the channel it started in and going on: a thread to open
    /// for it on `message`, the latest message known to show its board (`None`: not known yet).
    OpenThread {
        game: Game,
        message: Option<MessageId>,
    },
    /// The game, over, in its thread (`place`), for the channel it started in (`thread_of`).
    ThreadEnded(Game),
    /// A tournament's round, just made.
    TournamentRound(RoundGames),
    /// A member's games in a tournament's round, told by direct message in `lang`.
    TournamentGames {
        round: RoundGames,
        member: MemberId,
        lang: Lang,
    },
    /// A tournament's final standings.
    TournamentEnded(Table),
    /// A tournament cancelled for want of entrants at its start time.
    TournamentCancelled(Tournament),
    /// A vote game's channel's move `mv`, played at its window's close with `votes` of
    /// `voters`, reaching ply `ply`; the game as it is now, with the AI's answer when it has
    /// made it (`game.ply` past `ply`).
    TeamMoved {
        game: Game,
        ply: u32,
        mv: String,
        votes: u32,
        voters: u32,
    },
    /// A vote game whose window closed with no vote, extended once to `until`.
    TeamWindowExtended {
        game: Game,
        until: Timestamp,
    },
    /// A vote game over, with its voters' credits.
    TeamCredits {
        game: Game,
        credits: Vec<Credit>,
    },
    /// A vote game between two channels, just started.
    TeamGameStarted(Game),
}

impl Announced {
    /// The member this is told to, by direct message; `None`: it goes to the game's channel. Of a
    /// game played where the bot only answers (see [`Reach`](super::Reach)), everything goes to
    /// its player by direct message: nothing is posted in its channel.
    pub fn direct_to(&self) -> Option<MemberId> {
        match self {
            Announced::YourTurn { member, .. } | Announced::TournamentGames { member, .. } => {
                Some(*member)
            }
            _ => self.game().filter(|g| g.answers_only).map(Game::member),
        }
    }

    /// The game this is about, if it is about one.
    pub fn game(&self) -> Option<&Game> {
        match self {
            Announced::ChallengeExpired(_)
            | Announced::TournamentRound(_)
            | Announced::TournamentGames { .. }
            | Announced::TournamentEnded(_)
            | Announced::TournamentCancelled(_) => None,
            Announced::TimedOut(game) | Announced::Board(game) | Announced::ThreadEnded(game) => {
                Some(game)
            }
            Announced::AiMoved(played) => Some(&played.game),
            Announced::TeamMoved { game, .. }
            | Announced::TeamWindowExtended { game, .. }
            | Announced::TeamCredits { game, .. }
            | Announced::TeamGameStarted(game) => Some(game),
            Announced::Reminder { game, .. }
            | Announced::YourTurn { game, .. }
            | Announced::Vacation { game, .. }
            | Announced::OpenThread { game, .. } => Some(game),
        }
    }

    /// The game whose board this post shows in its channel: the message turn notifications of
    /// that game link to, once posted.
    pub fn board_of(&self) -> Option<GameId> {
        match self {
            Announced::TimedOut(g) | Announced::Board(g) => Some(g.id),
            Announced::AiMoved(p) => Some(p.game.id),
            Announced::TeamMoved { game, .. } | Announced::TeamCredits { game, .. } => {
                Some(game.id)
            }
            _ => None,
        }
    }
}

impl Outbox {
    /// What an announcement taken from the outbox says now, for a front end to render and post.
    /// `None` when there is nothing to say: it cannot be read, it no longer holds (a reminder for
    /// a move already made), or what it was about is gone; such an announcement is only to be
    /// removed, and the unusual cases are logged here.
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails: keep the
    /// announcement for a later try.
    pub async fn to_say(&self, owed: &Owed) -> Result<Option<Announced>> {
        let announcement = match &owed.announcement {
            Ok(a) => a,
            Err(text) => {
                tracing::warn!(outbox = %owed.id, %text, "dropping an announcement that cannot be read");
                return Ok(None);
            }
        };
        match self.announcement(announcement).await {
            Ok(said) => Ok(said),
            Err(Error::Refused(Gone(what))) => {
                tracing::warn!(outbox = %owed.id, %what, "dropping an announcement about something gone");
                Ok(None)
            }
            Err(Error::Failed(f)) => Err(f),
        }
    }

    /// What an announcement is about, as it stands now. `None` when it no longer needs saying:
    /// a reminder for a move already made, or an AI move the game has gone past.
    ///
    /// # Errors
    ///
    /// [`Failure::Internal`](crate::game::Failure::Internal) when the database fails.
    pub async fn announcement(&self, a: &Announcement) -> Result<Option<Announced>, Error<Gone>> {
        let tournaments = Tournaments::of(&self.core);
        Ok(match *a {
            Announcement::ChallengeExpired { challenge } => Some(Announced::ChallengeExpired(
                Challenges::of(&self.core)
                    .challenge_view(challenge)
                    .await
                    .map_err(gone)?,
            )),
            Announcement::TimedOut { game } => {
                Some(Announced::TimedOut(self.game(game).await.map_err(gone)?))
            }
            Announcement::Reminder {
                game,
                member,
                deadline,
            } => {
                let game = self.game(game).await.map_err(gone)?;
                (game.status.deadline() == Some(deadline) && game.to_move().id == member)
                    .then_some(Announced::Reminder { game, member })
            }
            Announcement::YourTurn {
                game,
                member,
                ply,
                reminder,
            } => {
                let game = self.game(game).await.map_err(gone)?;
                let (on, lang) = self.store.dm_setting(member).await?;
                // Nothing to say once the move is made, or to a member who turned it off.
                if !on || !game.is_active() || game.ply != ply || game.to_move().id != member {
                    return Ok(None);
                }
                let lang = lang.and_then(|code| code.parse().ok()).unwrap_or_default();
                let message = self.store.game_message(game.id).await?;
                Some(Announced::YourTurn {
                    game,
                    member,
                    reminder,
                    lang,
                    message,
                })
            }
            Announcement::Vacation {
                game,
                member,
                until,
            } => {
                let game = self.game(game).await.map_err(gone)?;
                // Nothing to say once the game is over or the vacation ended.
                (game.is_active()
                    && game
                        .color_of(member)
                        .is_some_and(|c| game.away_until(c, self.now()).is_some()))
                .then_some(Announced::Vacation {
                    game,
                    member,
                    until,
                })
            }
            Announcement::Board { game, ply } => {
                let game = self.game(game).await.map_err(gone)?;
                (game.ply == ply).then_some(Announced::Board(game))
            }
            Announcement::OpenThread { game } => {
                let game = self.game(game).await.map_err(gone)?;
                // Not for a game over, already in a thread, or started in a game's thread (a
                // rematch): a thread has no threads.
                if !game.is_active()
                    || game.thread_of.is_some()
                    || game.place.is_direct()
                    || self.store.is_game_thread(game.place.channel).await?
                {
                    return Ok(None);
                }
                let message = self.store.game_message(game.id).await?;
                Some(Announced::OpenThread { game, message })
            }
            Announcement::ThreadEnded { game } => {
                let game = self.game(game).await.map_err(gone)?;
                (!game.is_active() && game.thread_of.is_some())
                    .then_some(Announced::ThreadEnded(game))
            }
            Announcement::TournamentRound { tournament, round } => {
                Some(Announced::TournamentRound(
                    tournaments
                        .round_games(tournament, round)
                        .await
                        .map_err(gone)?,
                ))
            }
            Announcement::TournamentGames {
                tournament,
                round,
                member,
            } => {
                let (on, lang) = self.store.dm_setting(member).await?;
                let round = tournaments
                    .round_games(tournament, round)
                    .await
                    .map_err(gone)?;
                // Nothing to say to a member who turned them off, or whose games are all over.
                if !on || !round.games_of(member).any(Game::is_active) {
                    return Ok(None);
                }
                let lang = lang.and_then(|code| code.parse().ok()).unwrap_or_default();
                Some(Announced::TournamentGames {
                    round,
                    member,
                    lang,
                })
            }
            Announcement::TournamentEnded { tournament } => Some(Announced::TournamentEnded(
                tournaments.table(tournament).await.map_err(gone)?,
            )),
            Announcement::TournamentCancelled { tournament } => {
                Some(Announced::TournamentCancelled(
                    tournaments.tournament(tournament).await.map_err(gone)?,
                ))
            }
            Announcement::AiMoved { game, ply } => {
                let game = self.game(game).await.map_err(gone)?;
                match game.last_move {
                    Some(mv) if game.ply == ply => Some(Announced::AiMoved(Played {
                        mv,
                        game,
                        notified: None,
                    })),
                    _ => None,
                }
            }
            Announcement::TeamMoved {
                game,
                ply,
                ref mv,
                votes,
                voters,
            } => Some(Announced::TeamMoved {
                game: self.game(game).await.map_err(gone)?,
                ply,
                mv: mv.clone(),
                votes,
                voters,
            }),
            Announcement::TeamWindowExtended { game, ply, until } => {
                let game = self.game(game).await.map_err(gone)?;
                (game.is_active() && game.ply == ply)
                    .then_some(Announced::TeamWindowExtended { game, until })
            }
            Announcement::TeamGameStarted { game } => Some(Announced::TeamGameStarted(
                self.game(game).await.map_err(gone)?,
            )),
            Announcement::TeamCredits { game } => {
                let game = self.game(game).await.map_err(gone)?;
                let credits = Teams::of(&self.core).credits(&game).await?;
                Some(Announced::TeamCredits { game, credits })
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Announcements already in an outbox were written with their moments as unix seconds, and
    /// read back the same.
    #[test]
    fn stored_announcements_keep_their_moments_in_unix_seconds() {
        let stored = [
            (
                r#"{"kind":"reminder","game":12,"member":7,"deadline":1800003600}"#,
                Announcement::Reminder {
                    game: GameId::new(12),
                    member: MemberId::new(7),
                    deadline: Timestamp::from_unix_seconds(1_800_003_600),
                },
            ),
            (
                r#"{"kind":"vacation","game":12,"member":7,"until":1800259200}"#,
                Announcement::Vacation {
                    game: GameId::new(12),
                    member: MemberId::new(7),
                    until: Timestamp::from_unix_seconds(1_800_259_200),
                },
            ),
        ];
        for (json, announcement) in stored {
            assert_eq!(serde_json::to_string(&announcement).unwrap(), json);
            assert_eq!(
                serde_json::from_str::<Announcement>(json).unwrap(),
                announcement
            );
        }
    }
}
