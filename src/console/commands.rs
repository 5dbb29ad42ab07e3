//! The console's commands: each with the options it takes and the values they read, as clap
//! reads them, and what each does ([`Console::run`]).

use clap::{Parser, Subcommand};

use crate::engine::Level;
use crate::game::{
    Against, AiLevel, BoardStyle, ChallengeAsk, ChallengeRef, Decision, GameId, GameRef, Member,
    MemberSettingsChange, Moved, Opponent, Reach, Rematch, ServerSettingsChange, TeamRequest,
    TimeControl,
};
use crate::i18n::tr;
use crate::rules::BoardSize;
use crate::text::{self, AnyError, Markup, Plain};

use super::tournaments::TournamentCommand;
use super::values::{
    ai_level, board_style, game_number, member, member_name, on_or_off, page_number, puzzle_ask,
    side, yes_or_no, PuzzleAsk, Side,
};
use super::{is_ai, Console, Reply, AI_NAME, CONSOLE_PLACE};

/// The console's channel as the player of its vote games.
const CONSOLE_TEAM: &str = "#console";

/// The console's commands, typed after a member's name: `@alice /challenge opponent:@bob 7x7`.
///
/// Each field is an option, given by name (`size:7x7`) or as a bare value: bare values go to the
/// options not named, in the order they are declared here (see [`clap_words`](super::parse::clap_words)). Adding a command
/// is adding a variant, and its arm in [`Console::run`].
#[derive(Debug, PartialEq, Subcommand)]
pub(super) enum Command {
    /// Challenge a member, anyone here (without opponent), or the AI (`opponent:@bot`).
    Challenge {
        #[arg(long, value_parser = member_name)]
        opponent: Option<Member>,
        #[arg(long)]
        size: Option<BoardSize>,
        #[arg(long, value_parser = side)]
        color: Option<Side>,
        #[arg(long)]
        time: Option<TimeControl>,
        #[arg(long, value_parser = yes_or_no)]
        rated: Option<bool>,
        #[arg(long, value_parser = ai_level)]
        level: Option<AiLevel>,
    },
    /// Accept a challenge: the one for you here, or the one from `challenger`.
    Accept {
        #[arg(long, value_parser = member_name)]
        challenger: Option<Member>,
    },
    /// Decline a challenge made to you.
    Decline {
        #[arg(long, value_parser = member_name)]
        challenger: Option<Member>,
    },
    /// Cancel your pending challenges here.
    Cancel,
    /// Play a move: `e7-e6`, or in two words, `e7 e6`.
    Move {
        #[arg(long = "move", value_name = "e7-e6", required = true)]
        words: Vec<String>,
        #[arg(long, value_parser = game_number)]
        game: Option<GameId>,
    },
    /// Show a board: to its players from their own side, privately.
    Board {
        #[arg(long, value_parser = game_number)]
        game: Option<GameId>,
        #[arg(long, value_parser = yes_or_no)]
        flip: Option<bool>,
    },
    /// Resign, once confirmed.
    Resign {
        #[arg(long, value_parser = game_number)]
        game: Option<GameId>,
        #[arg(long, value_parser = yes_or_no)]
        confirm: Option<bool>,
    },
    /// Play a finished game again, colours swapped (by default your game here that ended last).
    Rematch {
        #[arg(long, value_parser = game_number)]
        game: Option<GameId>,
    },
    /// Abort a game before both sides have moved.
    Abort {
        #[arg(long, value_parser = game_number)]
        game: Option<GameId>,
    },
    /// Games in progress, yours or `user`'s.
    Games {
        #[arg(long, value_parser = member_name)]
        user: Option<Member>,
    },
    /// The server's ratings on one board size.
    Leaderboard {
        #[arg(long)]
        size: Option<BoardSize>,
        #[arg(long, value_parser = page_number)]
        page: Option<usize>,
    },
    /// A rating card, yours or `user`'s.
    Rating {
        #[arg(long, value_parser = member_name)]
        user: Option<Member>,
        #[arg(long)]
        size: Option<BoardSize>,
    },
    /// A game's move list.
    History {
        #[arg(long, value_parser = game_number, value_name = "12")]
        game: Option<GameId>,
    },
    /// Be told by direct message when it is your turn (`dm:yes`/`dm:no`; left out, the setting).
    Notify {
        #[arg(long, value_parser = yes_or_no)]
        dm: Option<bool>,
    },
    /// Your own settings, for what only you see (`board:emoji`/`board:image`; left out, the
    /// settings).
    Settings {
        #[arg(long, value_parser = board_style)]
        board: Option<BoardStyle>,
    },
    /// The local server's settings (`board:…`, `threads:on`/`threads:off`; left out, the
    /// settings).
    ServerSettings {
        #[arg(long, value_parser = board_style)]
        board: Option<BoardStyle>,
        #[arg(long, value_parser = on_or_off)]
        threads: Option<bool>,
    },
    /// Pause your clocks in all your games for some days (0 ends your vacation).
    Vacation {
        #[arg(long, value_name = "3", required = true)]
        days: i64,
    },
    /// A vote game: the console's channel plays the AI, its members voting with `/move`; `wait`
    /// closes each window.
    TeamGame {
        /// Another channel to play: the console has one, so it refuses, saying so.
        #[arg(long)]
        opponent: Option<String>,
        #[arg(long)]
        size: Option<BoardSize>,
        #[arg(long, value_parser = side)]
        color: Option<Side>,
        #[arg(long)]
        level: Option<Level>,
        #[arg(long)]
        window: Option<TimeControl>,
    },
    /// The engine's look back at a game: the summary, then every move's evaluation.
    Analyze {
        #[arg(long, value_parser = game_number, value_name = "12")]
        game: Option<GameId>,
    },
    /// Round robins and Swiss events: create, join, leave, start, standings, pairings,
    /// withdraw, cancel.
    Tournament {
        #[command(subcommand)]
        command: TournamentCommand,
    },
    /// A puzzle to solve, of a board size (`size:7x7`), or the server's daily one (`daily`);
    /// answer it with `/move`.
    Puzzle {
        #[arg(long, value_parser = puzzle_ask)]
        size: Option<PuzzleAsk>,
    },
    /// Rules, notation and commands.
    Help,
}

/// A command and its options as clap reads them: see [`clap_words`](super::parse::clap_words).
#[derive(Debug, Parser)]
#[command(
    no_binary_name = true,
    disable_help_flag = true,
    disable_help_subcommand = true,
    args_override_self = true,
    color = clap::ColorChoice::Never
)]
pub(super) struct CommandLine {
    #[command(subcommand)]
    pub(super) command: Command,
}

impl Console {
    /// The refusal of a command about `whom` when nobody of that name has taken part in
    /// anything here: on Discord, a member option only takes a member.
    async fn no_member(&self, who: &Member, whom: &Member) -> Result<Option<Reply>, AnyError> {
        if whom.id == who.id
            || self
                .games
                .standings
                .is_member(CONSOLE_PLACE.guild, whom.id)
                .await?
        {
            return Ok(None);
        }
        Ok(Some(Reply::private(tr!(
            self.lang,
            "console-no-member",
            name = Plain.name(&whom.name)
        ))))
    }

    pub(super) async fn run(&self, who: &Member, command: Command) -> Result<Reply, AnyError> {
        let g = &self.games;
        let game_ref = |game: Option<GameId>| game.map_or(GameRef::Only, GameRef::Id);
        let whom = |user: Option<Member>| user.unwrap_or_else(|| who.clone());
        let now = g.now();
        Ok(match command {
            Command::Help => Reply::private(text::help(self.lang, &Plain)),
            Command::Challenge {
                opponent,
                size,
                color,
                time,
                rated,
                level,
            } => {
                let opponent = match opponent {
                    Some(m) if is_ai(&m) => Opponent::Ai(member(AI_NAME)),
                    Some(m) => Opponent::Member(m),
                    None => Opponent::Open,
                };
                let ask = ChallengeAsk {
                    place: CONSOLE_PLACE,
                    challenger: who.clone(),
                    opponent,
                    size: size.unwrap_or(BoardSize::DEFAULT),
                    color: color.and_then(|Side(c)| c),
                    time: time.unwrap_or_default(),
                    rated,
                    level,
                    reach: Reach::Posts,
                };
                match ask.decide().map_err(AnyError::refused)? {
                    Decision::PlayAi(request) => {
                        let game = g.challenges.challenge_ai(request).await?;
                        self.ai_game_started(who, &game).await
                    }
                    Decision::Challenge(request) => {
                        self.challenge_made(&g.challenges.challenge(request).await?, now)
                    }
                }
            }
            Command::TeamGame {
                opponent: Some(_), ..
            } => Reply::private(tr!(self.lang, "console-team-channels")),
            Command::TeamGame {
                opponent: None,
                size,
                color,
                level,
                window,
            } => {
                let request = TeamRequest {
                    place: CONSOLE_PLACE,
                    team: Member::new(CONSOLE_PLACE.channel.get(), CONSOLE_TEAM),
                    by: who.clone(),
                    against: Against::Ai(member(AI_NAME), level.unwrap_or(Level::DEFAULT)),
                    size: size.unwrap_or(BoardSize::DEFAULT),
                    color: color.and_then(|Side(c)| c),
                    window: window.unwrap_or(TimeControl::OneHour),
                };
                let game = g.teams.start(request).await?;
                Reply::public(format!(
                    "{}\n{}",
                    text::team_game_started(self.lang, &Plain, &game),
                    self.board(&game)
                ))
            }
            Command::Vacation { days } => {
                let change = g.play.vacation(who, days).await?;
                let reply = Reply::private(if change.started {
                    tr!(
                        self.lang,
                        "vacation-started",
                        until = text::utc_time(change.until),
                        games = change.games.len(),
                        left = change.days_left
                    )
                } else {
                    tr!(self.lang, "vacation-ended", left = change.days_left)
                });
                // Each opponent is told through the outbox.
                reply
            }
            Command::Rematch { game } => match g
                .challenges
                .rematch(who, CONSOLE_PLACE, game_ref(game))
                .await?
            {
                Rematch::Challenge(c) => self.challenge_made(&c, now),
                Rematch::AiGame(game, slot) => {
                    // The console's AI answers in a turn of its own, which takes the place.
                    drop(slot);
                    self.ai_game_started(who, &game).await
                }
            },
            Command::Accept { challenger } => {
                let from = challenger.map(|m| m.id);
                let started = g
                    .challenges
                    .accept(who, ChallengeRef::Find(CONSOLE_PLACE, from))
                    .await?;
                Reply::public(format!(
                    "{}\n{}",
                    tr!(self.lang, "console-accepted", name = Plain.name(&who.name)),
                    self.board(&started.game)
                ))
            }
            Command::Decline { challenger } => {
                let from = challenger.map(|m| m.id);
                let c = g
                    .challenges
                    .decline(who, ChallengeRef::Find(CONSOLE_PLACE, from))
                    .await?;
                Reply::public(tr!(
                    self.lang,
                    "console-declined",
                    name = Plain.name(&who.name),
                    id = c.id.to_string(),
                    challenger = Plain.name(&c.challenger.name)
                ))
            }
            Command::Cancel => {
                let cancelled = g
                    .challenges
                    .cancel(who, ChallengeRef::Find(CONSOLE_PLACE, None))
                    .await?;
                let ids: Vec<String> = cancelled.iter().map(|c| format!("#{}", c.id)).collect();
                Reply::public(tr!(
                    self.lang,
                    "console-cancelled",
                    name = Plain.name(&who.name),
                    count = ids.len(),
                    ids = ids.join(", ")
                ))
            }
            Command::Move { words, game } => {
                let text = words.join(" ");
                match g
                    .play
                    .move_or_puzzle(who, CONSOLE_PLACE, game_ref(game), &text)
                    .await?
                {
                    Moved::Game(played, slot) => {
                        // The console answers for the AI in its own turn below, which takes
                        // the AI's place in the queue afresh.
                        drop(slot);
                        let mut reply = Reply::public(self.board(&played.game));
                        if played.game.ai_to_move() {
                            reply.public.extend(self.ai_turn(played.game.id).await);
                        }
                        reply
                    }
                    Moved::Puzzle(step) => self.puzzle_step(&step),
                    Moved::Vote(voted) => {
                        Reply::private(text::voted(self.lang, &Plain, &voted, g.now()))
                    }
                }
            }
            Command::Notify { dm } => {
                let on = match dm {
                    Some(on) => {
                        g.settings.set_turn_dms(who.id, on, self.lang).await?;
                        on
                    }
                    None => g.settings.turn_dms(who.id).await?,
                };
                Reply::private(text::notify_setting(self.lang, &Plain, on))
            }
            Command::Settings { board } => {
                let change = MemberSettingsChange { board };
                let now = g.settings.set_member_settings(who.id, change).await?;
                let shown = text::member_settings(self.lang, &now);
                Reply::private(text::settings_answer(self.lang, shown, !change.is_empty()))
            }
            Command::ServerSettings { board, threads } => {
                let change = ServerSettingsChange { board, threads };
                let now = g
                    .settings
                    .set_server_settings(CONSOLE_PLACE.guild, change)
                    .await?;
                let trouble = g.threads.thread_trouble(CONSOLE_PLACE.guild).await?;
                let shown = text::server_settings(self.lang, &Plain, &now, trouble.as_ref());
                Reply::private(text::settings_answer(self.lang, shown, !change.is_empty()))
            }
            Command::Board { game, flip } => {
                let game = g
                    .play
                    .find_game(who.id, CONSOLE_PLACE, game_ref(game))
                    .await?;
                let seen = game.sight(who.id, flip.unwrap_or(false));
                let board = self.board_facing(&game, seen.bottom);
                if seen.private {
                    Reply::private(board)
                } else {
                    Reply::public(board)
                }
            }
            Command::Resign { game, confirm } => {
                let which = game_ref(game);
                if confirm != Some(true) {
                    let game = g.play.resignable(who.id, CONSOLE_PLACE, which).await?;
                    return Ok(Reply::private(tr!(
                        self.lang,
                        "console-confirm-resign",
                        id = game.id.to_string()
                    )));
                }
                let game = g.play.resign(who, CONSOLE_PLACE, which).await?;
                Reply::public(self.board(&game))
            }
            Command::Abort { game } => {
                let game = g.play.abort(who, CONSOLE_PLACE, game_ref(game)).await?;
                Reply::public(tr!(
                    self.lang,
                    "console-aborted",
                    id = game.id.to_string(),
                    name = Plain.name(&who.name)
                ))
            }
            Command::Games { user } => {
                let whom = whom(user);
                if let Some(refusal) = self.no_member(who, &whom).await? {
                    return Ok(refusal);
                }
                let games = g
                    .standings
                    .games_of(whom.id, Some(CONSOLE_PLACE.guild))
                    .await?;
                let list = text::games_list(self.lang, &Plain, &whom, &games, now);
                if games.is_empty() {
                    Reply::public(list)
                } else {
                    Reply::public(format!(
                        "{}\n{list}",
                        tr!(self.lang, "console-games-of", name = Plain.name(&whom.name))
                    ))
                }
            }
            Command::Leaderboard { size, page } => {
                let size = size.unwrap_or(BoardSize::DEFAULT);
                let board = g
                    .standings
                    .leaderboard(CONSOLE_PLACE.guild, size, page.unwrap_or(1))
                    .await?;
                Reply::public(text::leaderboard(self.lang, &Plain, &board))
            }
            Command::Rating { user, size } => {
                let whom = whom(user);
                if let Some(refusal) = self.no_member(who, &whom).await? {
                    return Ok(refusal);
                }
                let ratings = g
                    .standings
                    .ratings(CONSOLE_PLACE.guild, &whom, size)
                    .await?;
                let puzzles = g.puzzles.puzzle_rating(&whom).await?;
                Reply::public(format!(
                    "{}\n{}",
                    text::ratings(self.lang, &Plain, &ratings),
                    text::puzzle_card(self.lang, &Plain, &puzzles)
                ))
            }
            Command::History { game } => {
                let game = g.threads.game_meant(who.id, CONSOLE_PLACE, game).await?;
                let h = g.standings.history(CONSOLE_PLACE, game).await?;
                let mut reply = Reply::public(text::export(self.lang, &h));
                reply.public.extend(self.replay_picture(&h));
                reply
            }
            Command::Tournament { command } => self.tournament(who, command).await?,
            Command::Puzzle { size } => self.puzzle(who, size).await?,
            Command::Analyze { game } => {
                let game = g.threads.game_meant(who.id, CONSOLE_PLACE, game).await?;
                let done = g.standings.analyze(who.id, CONSOLE_PLACE, game).await?;
                Reply::public(text::analysis::export(self.lang, &done))
            }
        })
    }
}
