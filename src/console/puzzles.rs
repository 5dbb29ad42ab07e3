//! The console's puzzles: `/puzzle [size]`, `/puzzle daily`, and `/move` answering the member's
//! puzzle when no game of theirs here waits for their move.

use crate::game::{DailyYours, GameError, Member, PuzzleState};
use crate::i18n::tr;
use crate::render;
use crate::rules::{BoardSize, Color, Move, Position};
use crate::text;

use super::commands::BadValue;
use super::parse::is_word;
use super::{Console, Reply, CONSOLE_PLACE};

/// What `/puzzle` asks for: a puzzle of a size (or the default), or the server's daily one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum PuzzleAsk {
    Size(BoardSize),
    Daily,
}

/// `daily` (in any language the console speaks) or a board size.
pub(super) fn puzzle_ask(v: &str) -> Result<PuzzleAsk, BadValue> {
    if is_word(v, |l| tr!(l, "console-value-daily")) {
        return Ok(PuzzleAsk::Daily);
    }
    v.trim()
        .parse::<BoardSize>()
        .map(PuzzleAsk::Size)
        .map_err(|_| BadValue::PuzzleSize(v.to_string()))
}

impl Console {
    /// A puzzle's board, the attacker at the bottom, with the bot's last move marked.
    fn puzzle_board(&self, position: &Position, last: Option<Move>, attacker: Color) -> String {
        if self.plain {
            render::text_board_facing(position, last, attacker)
        } else {
            render::emoji_board_facing(position, last, attacker)
        }
    }

    pub(super) async fn puzzle(
        &self,
        who: &Member,
        ask: Option<PuzzleAsk>,
    ) -> Result<Reply, GameError> {
        let g = &self.games;
        let size = match ask {
            Some(PuzzleAsk::Daily) => return self.daily(who).await,
            Some(PuzzleAsk::Size(size)) => Some(size),
            None => None,
        };
        let view = g.puzzle(who, CONSOLE_PLACE, size).await?;
        Ok(Reply::private(format!(
            "{}\n{}",
            self.puzzle_board(&view.position, view.last, view.attacker),
            text::puzzle_view(self.lang, &view)
        )))
    }

    /// The daily puzzle: its post for the channel (the board and the count, never the answer),
    /// and the member's side of it for them alone.
    async fn daily(&self, who: &Member) -> Result<Reply, GameError> {
        let daily = self.games.puzzle_daily(who, CONSOLE_PLACE).await?;
        let mut reply = Reply::public(format!(
            "{}\n{}",
            self.puzzle_board(&daily.start, None, daily.attacker),
            text::daily_post(self.lang, &daily)
        ));
        let board = match &daily.yours {
            DailyYours::Playing(view) | DailyYours::Busy(view) => {
                self.puzzle_board(&view.position, view.last, view.attacker)
            }
            DailyYours::Tried { end, line, .. } => {
                self.puzzle_board(end, line.last().copied(), daily.attacker)
            }
        };
        reply.private.push(format!(
            "{board}\n{}",
            text::daily_puzzle(self.lang, &daily)
        ));
        Ok(reply)
    }

    /// `/move` in the member's puzzle: the board after the bot's reply, or after the win, or at
    /// the end of the winning line when the move was wrong; a daily puzzle's new count for the
    /// channel.
    pub(super) async fn puzzle_move(&self, who: &Member, words: &str) -> Result<Reply, GameError> {
        let step = self.games.puzzle_move(who, words).await?;
        let last = match &step.state {
            PuzzleState::Failed { line, .. } => line.last().copied(),
            _ => step.reply.or(Some(step.played)),
        };
        let mut reply = Reply::private(format!(
            "{}\n{}",
            self.puzzle_board(&step.position, last, step.attacker),
            text::puzzle_step(self.lang, &step)
        ));
        if let PuzzleState::Solved(result) | PuzzleState::Failed { result, .. } = &step.state {
            if let Some(count) = &result.daily {
                reply.public.push(text::daily_count(self.lang, count));
            }
        }
        Ok(reply)
    }
}
