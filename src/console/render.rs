//! What the console shows: boards with what is said under them, and announcements, in the
//! console's words.

use crate::game::Timestamp;
use crate::game::{self, Announced, Member, MemberId, Played};
use crate::i18n::tr;
use crate::render;
use crate::rules::Color;
use crate::text::{self, Markup, Plain};

use super::{Console, Reply};

/// The name `member` plays under in `game`.
fn name_in(game: &game::Game, member: MemberId) -> &str {
    game.color_of(member)
        .map_or("", |side| game.player(side).name.as_str())
}

impl Console {
    pub(super) fn board(&self, game: &game::Game) -> String {
        self.board_facing(game, Color::White)
    }

    /// A board with `bottom`'s pieces at the bottom, and what is said under it.
    pub(super) fn board_facing(&self, game: &game::Game, bottom: Color) -> String {
        let mut out = if self.plain {
            render::text_board_facing(&game.position, game.last_move, bottom)
        } else {
            render::emoji_board_facing(&game.position, game.last_move, bottom)
        };
        let now = self.games.now();
        out.push('\n');
        out.push_str(&text::title(self.lang, game));
        out.push('\n');
        out.push_str(&tr!(
            self.lang,
            "console-players",
            black_piece = render::BLACK_PIECE,
            black = Plain.name(&game.players.black.name),
            white_piece = render::WHITE_PIECE,
            white = Plain.name(&game.players.white.name)
        ));
        if let Some(mv) = game.last_move {
            out.push('\n');
            out.push_str(&tr!(self.lang, "console-last-move", move = mv.to_string()));
        }
        out.push('\n');
        out.push_str(&text::status(self.lang, &Plain, game, now));
        if game.is_active() {
            out.push_str(&format!(" (@{})", Plain.name(&game.to_move().name)));
        }
        if let Some(change) = &game.status.rating_change() {
            for line in text::rating_lines(&Plain, game, change) {
                out.push('\n');
                out.push_str(&line);
            }
        }
        if let Some(line) = self.board_picture(game, bottom) {
            out.push('\n');
            out.push_str(&line);
        }
        out
    }

    /// An announcement in the console's words; `None` for a thread to open, as the console has
    /// none: its games stay where they are.
    pub(super) fn announced(&self, what: &Announced) -> Option<String> {
        let now = self.games.now();
        Some(match what {
            Announced::OpenThread { .. } => return None,
            Announced::ThreadEnded(game) => text::thread_ended(self.lang, &Plain, game, now),
            Announced::ChallengeExpired(c) => text::challenge_expired(self.lang, &Plain, c),
            Announced::TournamentRound(round) => text::round_news(self.lang, &Plain, round, now),
            Announced::TournamentGames { round, member, .. } => {
                let name = round
                    .tournament
                    .entrants
                    .iter()
                    .find(|e| e.member.id == *member)
                    .map_or_else(|| member.to_string(), |e| Plain.name(&e.member.name));
                super::marked(tr!(
                    self.lang,
                    "console-dm",
                    name = name,
                    text =
                        super::own_lines(text::your_games(self.lang, &Plain, round, *member, now))
                ))
            }
            Announced::TournamentEnded(table) => text::final_standings(self.lang, &Plain, table),
            Announced::TournamentCancelled(t) => {
                text::tournament_cancelled(self.lang, t, text::CancelledBy::TooFewEntrants)
            }
            Announced::TimedOut(g) | Announced::Board(g) => self.board(g),
            Announced::Reminder { game, member } => format!(
                "@{}: {}",
                name_in(game, *member),
                text::reminder(self.lang, &Plain, game, now)
            ),
            Announced::AiMoved(played) => self.ai_board(played),
            Announced::TeamMoved {
                game,
                ply,
                mv,
                votes,
                voters,
            } => format!(
                "{}\n{}",
                text::team_moved(self.lang, &Plain, game, *ply, mv, *votes, *voters),
                self.board(game)
            ),
            Announced::TeamWindowExtended { game, until } => {
                text::window_extended(self.lang, &Plain, game, *until)
            }
            Announced::TeamGameStarted(game) => format!(
                "{}\n{}",
                text::team_game_started(self.lang, &Plain, game),
                self.board(game)
            ),
            Announced::TeamCredits { game, credits } => format!(
                "{}\n{}",
                self.board(game),
                text::team_credits(self.lang, &Plain, game, credits)
            ),
            Announced::YourTurn {
                game,
                member,
                reminder,
                ..
            } => super::marked(tr!(
                self.lang,
                "console-dm",
                name = name_in(game, *member),
                text = super::own_lines(text::your_turn(
                    self.lang, &Plain, game, *member, *reminder, now
                ))
            )),
            Announced::Vacation {
                game,
                member,
                until,
            } => {
                let said = text::vacation_told(self.lang, &Plain, game, *member, *until);
                match game.color_of(*member) {
                    Some(side) => format!(
                        "@{}: {said}",
                        Plain.name(&game.player(side.opposite()).name)
                    ),
                    None => said,
                }
            }
        })
    }

    /// A game against the AI just started by `who`: its board, and the AI's first move when it
    /// opens.
    pub(super) async fn ai_game_started(&self, who: &Member, game: &game::Game) -> Reply {
        let level = game.ai.map_or_else(String::new, |ai| ai.level.to_string());
        let mut reply = Reply::public(format!(
            "{}\n{}",
            tr!(
                self.lang,
                "console-ai-game",
                name = Plain.name(&who.name),
                level = level
            ),
            self.board(game)
        ));
        if game.ai_to_move() {
            reply.public.extend(self.ai_turn(game.id).await);
        }
        reply
    }

    /// A challenge just made, and who may answer it.
    pub(super) fn challenge_made(&self, c: &game::Challenge, now: Timestamp) -> Reply {
        let answer = match &c.opponent {
            Some(op) => tr!(self.lang, "console-answer", name = Plain.name(&op.name)),
            None => tr!(self.lang, "console-answer-open"),
        };
        Reply::public(format!(
            "{}\n{answer}",
            text::challenge(self.lang, &Plain, c, now)
        ))
    }

    pub(super) fn ai_board(&self, played: &Played) -> String {
        format!(
            "{}\n{}",
            text::ai_played(self.lang, played),
            self.board(&played.game)
        )
    }
}
