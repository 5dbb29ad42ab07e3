//! The console's puzzles: `/puzzle [size]`, `/puzzle daily`, and `/move` answering the member's
//! puzzle when no game of theirs here waits for their move.

use crate::game::{DailyYours, Member, PuzzleState, PuzzleStep};
use crate::render;
use crate::rules::{Color, Move, Position};
use crate::text::{self, AnyError, Plain};

use super::values::PuzzleAsk;
use super::{Console, Reply, CONSOLE_PLACE};

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
    ) -> Result<Reply, AnyError> {
        let g = &self.games;
        let size = match ask {
            Some(PuzzleAsk::Daily) => return self.daily(who).await,
            Some(PuzzleAsk::Size(size)) => Some(size),
            None => None,
        };
        let view = g.puzzles.puzzle(who, CONSOLE_PLACE, size).await?;
        Ok(Reply::private(format!(
            "{}\n{}",
            self.puzzle_board(&view.position, view.last, view.attacker),
            text::puzzle_view(self.lang, &view)
        )))
    }

    /// The daily puzzle: its post for the channel (the board and the count, never the answer),
    /// and the member's side of it for them alone.
    async fn daily(&self, who: &Member) -> Result<Reply, AnyError> {
        let daily = self.games.puzzles.puzzle_daily(who, CONSOLE_PLACE).await?;
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
            text::daily_puzzle(self.lang, &Plain, &daily, self.games.now())
        ));
        Ok(reply)
    }

    /// A move's answer in a puzzle: the board after it, what it did, and the daily puzzle's
    /// count when it ended one.
    pub(super) fn puzzle_step(&self, step: &PuzzleStep) -> Reply {
        let last = match &step.state {
            PuzzleState::Failed { line, .. } => line.last().copied(),
            _ => step.reply.or(Some(step.played)),
        };
        let mut reply = Reply::private(format!(
            "{}\n{}",
            self.puzzle_board(&step.position, last, step.attacker),
            text::puzzle_step(self.lang, step)
        ));
        if let PuzzleState::Solved(result) | PuzzleState::Failed { result, .. } = &step.state {
            if let Some(count) = &result.daily {
                reply.public.push(text::daily_count(self.lang, count));
            }
        }
        reply
    }
}
