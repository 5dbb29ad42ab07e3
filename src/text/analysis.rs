//! The engine's look back at a game (`/analyze`) in words: the summary and the file with every
//! move's evaluation.

use crate::engine::analysis::{self, Analysis, Decided, Eval, Missed, PlyReview, Proven};
use crate::game::analysis::GameAnalysis;
use crate::i18n::tr;
use crate::i18n::Lang;
use crate::rules::Color;

use super::{Markup, Plain};

/// How many of each side's worst moves the summary names.
pub const WORST_PER_SIDE: usize = 3;

/// The move number players see for a ply (1-based): Black's and White's moves share one.
fn move_number(ply: u32) -> u32 {
    ply.saturating_sub(1) / 2 + 1
}

/// An evaluation as a player reads it, for the side it is for: a winning chance, or a proven
/// result. Unproven chances stay between 1% and 99%, so 0% and 100% always mean proven.
pub fn eval(lang: Lang, e: Eval) -> String {
    match e {
        Eval::Score(_) => {
            let percent = (e.win_chance() * 100.0).round().clamp(1.0, 99.0) as i64;
            tr!(lang, "analysis-chance", percent = percent)
        }
        Eval::Wins(0) => tr!(lang, "analysis-won"),
        Eval::Loses(0) => tr!(lang, "analysis-lost"),
        Eval::Wins(n) => tr!(lang, "analysis-wins-in", moves = n),
        Eval::Loses(n) => tr!(lang, "analysis-loses-in", moves = n),
    }
}

fn best_move(lang: Lang, review: &PlyReview) -> String {
    review
        .best
        .map_or_else(|| tr!(lang, "analysis-no-move"), |m| m.to_string())
}

/// Where the game was decided, in a sentence.
fn decided(lang: Lang, a: &Analysis) -> String {
    let Some(Decided { ply, winner, moves }) = a.decided else {
        return tr!(lang, "analysis-undecided");
    };
    let played = ply
        .checked_sub(1)
        .and_then(|i| a.plies.get(usize::try_from(i).ok()?));
    match played {
        Some(p) => tr!(
            lang,
            "analysis-decided",
            number = move_number(p.ply),
            move = p.played.to_string(),
            mover = p.side.name(),
            side = winner.name(),
            moves = moves
        ),
        None => tr!(
            lang,
            "analysis-decided-start",
            side = winner.name(),
            moves = moves
        ),
    }
}

/// A proven win, as marked on the move after which it holds: "Black wins in 4 moves from here".
pub fn proven(lang: Lang, p: Proven) -> String {
    tr!(
        lang,
        "analysis-proven",
        side = p.winner.name(),
        moves = p.moves
    )
}

/// A win let go, as marked on the move that let it go: "missed a win in 2 moves: a5-a4 wins".
pub fn missed(lang: Lang, m: Missed) -> String {
    tr!(
        lang,
        "analysis-missed",
        moves = m.moves,
        win = m.win.to_string()
    )
}

/// The marks of one move: the win it let go, then the win proven after it.
fn marks(lang: Lang, p: &PlyReview) -> Vec<String> {
    let let_go = p.missed.map(|m| missed(lang, m));
    let holds = p.proven.map(|w| proven(lang, w));
    let_go.into_iter().chain(holds).collect()
}

/// The wins let go, a heading and a line each; `None` when no player let one go.
fn missed_wins(lang: Lang, a: &Analysis) -> Option<String> {
    let mut lines = a.missed().peekable();
    lines.peek()?;
    let mut out = tr!(lang, "analysis-missed-title");
    for (p, m) in lines {
        out.push('\n');
        out.push_str(&tr!(
            lang,
            "analysis-missed-line",
            number = move_number(p.ply),
            move = p.played.to_string(),
            side = p.side.name(),
            missed = missed(lang, m)
        ));
    }
    Some(out)
}

/// One side's worst moves, a heading and a line each.
fn worst(lang: Lang, a: &Analysis, side: Color) -> String {
    let mut out = tr!(lang, "analysis-worst-title", side = side.name());
    let worst = a.worst(side, WORST_PER_SIDE);
    if worst.is_empty() {
        out.push('\n');
        let percent = (analysis::MISTAKE * 100.0).round() as i64;
        out.push_str(&tr!(lang, "analysis-no-mistakes", percent = percent));
    }
    for p in worst {
        out.push('\n');
        out.push_str(&tr!(
            lang,
            "analysis-worst",
            number = move_number(p.ply),
            move = p.played.to_string(),
            before = eval(lang, p.before),
            after = eval(lang, p.after),
            best = best_move(lang, &p)
        ));
    }
    out
}

/// The title of an analysis.
pub fn title(lang: Lang, a: &GameAnalysis) -> String {
    tr!(lang, "analysis-title", id = a.game.id.to_string())
}

/// The summary: who played, where the game was decided, the proven wins a player let go, each
/// side's worst moves, and how to read the chances.
pub fn summary(lang: Lang, m: &dyn Markup, a: &GameAnalysis) -> String {
    let g = &a.game;
    let plies = a.analysis.plies.len();
    if plies == 0 {
        return tr!(lang, "analysis-no-moves");
    }
    let players = tr!(
        lang,
        "analysis-players",
        black = m.name(&g.players.black.name),
        white = m.name(&g.players.white.name),
        size = g.size.to_string(),
        // Counted as the lists and boards number them: a move of each side is one move.
        moves = plies.div_ceil(2)
    );
    [
        Some(players),
        Some(decided(lang, &a.analysis)),
        missed_wins(lang, &a.analysis),
        Some(worst(lang, &a.analysis, Color::Black)),
        Some(worst(lang, &a.analysis, Color::White)),
        Some(tr!(lang, "analysis-scale")),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join("\n\n")
}

/// Every move's evaluation as a text file: the summary, then one line per move (ply, side, move,
/// the chances of the side that moved before and after it, the engine's move, and the proven
/// results: a win let go, a win proven from there). Plain text: names as they are, whatever the
/// front end.
pub fn export(lang: Lang, a: &GameAnalysis) -> String {
    let mut out = format!(
        "{}\n\n{}\n\n{} · {}\n",
        title(lang, a),
        summary(lang, &Plain, a),
        tr!(lang, "analysis-file-header"),
        tr!(lang, "analysis-file-proofs")
    );
    for p in &a.analysis.plies {
        out.push_str(&tr!(
            lang,
            "analysis-file-line",
            ply = p.ply,
            side = p.side.name(),
            move = p.played.to_string(),
            before = eval(lang, p.before),
            after = eval(lang, p.after),
            best = best_move(lang, p)
        ));
        let marks = marks(lang, p);
        if !marks.is_empty() {
            out.push_str(" · ");
            out.push_str(&marks.join("; "));
        }
        out.push('\n');
    }
    out
}
