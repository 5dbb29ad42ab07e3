//! Words for puzzles: a puzzle given, a move's answer, a member's puzzle rating, the daily
//! puzzle and its public post, and every refusal.

use crate::game::{
    DailyCount, DailyPuzzle, DailyYours, PuzzleCard, PuzzleRefusal, PuzzleResult, PuzzleState,
    PuzzleStep, PuzzleView, Timestamp,
};
use crate::i18n::tr;
use crate::i18n::Lang;
use crate::rules::Move;

use super::Markup;

/// A day as `2026-11-25`.
fn day(date: time::Date) -> String {
    format!(
        "{:04}-{:02}-{:02}",
        date.year(),
        u8::from(date.month()),
        date.day()
    )
}

/// A line of moves, as played: `c3-c4 d6-d5 c4-c5`.
fn puzzle_line(line: &[Move]) -> String {
    line.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// What a member is told with a puzzle's board: `Puzzle #12 (rating 1500): White to move and
/// win in 3 moves.`, whether it is shown again or is the daily one, and how to answer.
pub fn puzzle_view(lang: Lang, view: &PuzzleView) -> String {
    let mut out = Vec::new();
    if let Some(date) = view.daily {
        out.push(tr!(lang, "puzzle-daily-title", day = day(date)));
    }
    out.push(tr!(
        lang,
        "puzzle-title",
        id = view.id.to_string(),
        rating = view.rating.to_string(),
        side = view.attacker.name(),
        moves = view.moves_left
    ));
    if let Some(last) = view.last {
        out.push(tr!(lang, "puzzle-last-reply", reply = last.to_string()));
    }
    if view.resumed {
        out.push(tr!(lang, "puzzle-resumed"));
    }
    out.push(tr!(lang, "puzzle-answer-how"));
    out.join("\n")
}

/// What a member is told after a puzzle move: the bot's reply and what is left, or the result
/// with the solution when the move was wrong, the rating change and the streak.
pub fn puzzle_step(lang: Lang, step: &PuzzleStep) -> String {
    let played = step.played.to_string();
    let id = step.id.to_string();
    match &step.state {
        PuzzleState::GoOn { moves_left } => tr!(
            lang,
            "puzzle-right",
            played = played,
            reply = step.reply.map(|r| r.to_string()).unwrap_or_default(),
            side = step.attacker.name(),
            moves = *moves_left
        ),
        PuzzleState::Solved(result) => {
            let mut out = vec![tr!(lang, "puzzle-solved", played = played, id = id)];
            out.extend(result_lines(lang, result));
            out.join("\n")
        }
        PuzzleState::Failed { result, line, .. } => {
            let mut out = vec![
                tr!(lang, "puzzle-failed", played = played, id = id),
                tr!(lang, "puzzle-solution", line = puzzle_line(line)),
            ];
            out.extend(result_lines(lang, result));
            out.join("\n")
        }
    }
}

fn result_lines(lang: Lang, result: &PuzzleResult) -> Vec<String> {
    let mut out = Vec::new();
    match result.rating {
        Some(change) => out.push(tr!(
            lang,
            "puzzle-rating-change",
            before = change.before.to_string(),
            after = change.after.to_string(),
            change = format!("{:+.0}", change.after.rating - change.before.rating)
        )),
        None => out.push(tr!(lang, "puzzle-not-rated")),
    }
    out.push(tr!(
        lang,
        "puzzle-streak",
        streak = result.streak,
        best = result.best_streak
    ));
    if let Some(count) = &result.daily {
        out.push(daily_count(lang, count));
    }
    out
}

/// `3 members solved today's puzzle, out of 5 who tried.`
pub fn daily_count(lang: Lang, count: &DailyCount) -> String {
    tr!(
        lang,
        "puzzle-daily-count",
        solved = count.solved,
        tried = count.tried
    )
}

/// A member's puzzle rating: rating, deviation, solved and failed, and streaks.
pub fn puzzle_card(lang: Lang, m: &dyn Markup, card: &PuzzleCard) -> String {
    tr!(
        lang,
        "puzzle-card",
        name = m.name(&card.member.name),
        value = card.rating.to_string(),
        deviation = format!("{:.0}", card.rating.deviation),
        solved = card.solved,
        attempted = card.solved + card.failed,
        streak = card.streak,
        best = card.best_streak
    )
}

/// What a member is told when they ask for the daily puzzle: the puzzle to solve, the one they
/// must finish first, or their result and the solution once they tried it; with the day's count.
pub fn daily_puzzle(lang: Lang, m: &dyn Markup, daily: &DailyPuzzle, now: Timestamp) -> String {
    let mut out = Vec::new();
    match &daily.yours {
        DailyYours::Playing(view) => out.push(puzzle_view(lang, view)),
        DailyYours::Busy(view) => {
            out.push(tr!(lang, "puzzle-daily-busy"));
            out.push(puzzle_view(lang, view));
        }
        DailyYours::Tried { solved, line, .. } => {
            out.push(tr!(lang, "puzzle-daily-title", day = day(daily.count.day)));
            out.push(tr!(
                lang,
                "puzzle-daily-tried",
                solved = if *solved { "yes" } else { "no" }
            ));
            out.push(tr!(lang, "puzzle-solution", line = puzzle_line(line)));
            // Done for the day: when the next one comes, at midnight UTC.
            if let Some(next) = daily.count.day.next_day() {
                let at =
                    Timestamp::from_unix_seconds(next.midnight().assume_utc().unix_timestamp());
                out.push(tr!(lang, "puzzle-daily-next", at = m.within(lang, now, at)));
            }
        }
    }
    out.push(daily_count(lang, &daily.count));
    out.join("\n")
}

/// The server's public post of the day, under the puzzle's board: never its answer.
pub fn daily_post(lang: Lang, daily: &DailyPuzzle) -> String {
    [
        tr!(lang, "puzzle-daily-title", day = day(daily.count.day)),
        tr!(
            lang,
            "puzzle-daily-post",
            side = daily.attacker.name(),
            moves = daily.moves_to_win
        ),
        daily_count(lang, &daily.count),
    ]
    .join("\n")
}

/// Why a puzzle command is refused.
pub fn puzzle_refusal(lang: Lang, why: &PuzzleRefusal) -> String {
    match why {
        PuzzleRefusal::NoPuzzles { size, sizes } if sizes.is_empty() => {
            tr!(lang, "puzzle-error-none", size = size.to_string())
        }
        PuzzleRefusal::NoPuzzles { size, sizes } => tr!(
            lang,
            "puzzle-error-no-size",
            size = size.to_string(),
            sizes = sizes
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        PuzzleRefusal::NoPuzzle => tr!(lang, "puzzle-error-no-puzzle"),
        PuzzleRefusal::DailyInDirect => tr!(lang, "puzzle-error-daily-direct"),
        PuzzleRefusal::Changed => tr!(lang, "puzzle-error-changed"),
        PuzzleRefusal::Move(e) => super::errors::move_error(lang, e),
    }
}
