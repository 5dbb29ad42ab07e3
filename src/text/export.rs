//! A game's history as a text file: PGN-like headers, then the numbered move list.

use crate::game::{GameStatus, History};
use crate::i18n::tr;
use crate::i18n::Lang;

use super::{end_reason, time_control, Markup, Plain};

/// The move list numbered in pairs: `1. e7-e6 d2-d3  2. …`, one move number per line.
pub fn move_list(moves: &[String]) -> String {
    moves
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| format!("{}. {}", i + 1, pair.join(" ")))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A game as a text file: headers, then the numbered move list. The values (the result, rated or
/// not, the time) are in `lang`; the tags stay as they are, so a program reads every file alike.
/// Each value is quoted as PGN quotes one, so no name breaks its line.
pub fn export(lang: Lang, h: &History) -> String {
    let g = &h.game;
    let result = match g.status {
        GameStatus::Finished { winner, reason, .. } => tr!(
            lang,
            "export-result-won",
            side = winner.name(),
            reason = end_reason(lang, reason)
        ),
        GameStatus::Aborted { .. } => tr!(lang, "export-aborted"),
        GameStatus::Active { .. } => tr!(lang, "export-in-progress"),
    };
    let rated = tr!(
        lang,
        "export-rated",
        rated = if g.rated { "yes" } else { "no" }
    );
    let headers: String = [
        ("Game", g.id.to_string()),
        ("Size", g.size.to_string()),
        ("Black", Plain.name(&g.players.black.name)),
        ("White", Plain.name(&g.players.white.name)),
        ("Time", time_control(lang, g.time)),
        ("Rated", rated),
        ("Result", result),
    ]
    .iter()
    .map(|(tag, value)| format!("[{tag} {}]\n", pgn_quoted(value)))
    .collect();
    format!("{headers}\n{}\n", move_list(&h.moves))
}

/// A header's value as PGN writes one: in double quotes, with `\` and `"` escaped by a
/// backslash, and each line break or other control character (which a header line cannot hold)
/// as a space.
fn pgn_quoted(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        match c {
            '\\' | '"' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_values_are_quoted_as_pgn_quotes_them() {
        assert_eq!(pgn_quoted("alice"), r#""alice""#);
        assert_eq!(
            pgn_quoted(r#"the "best" \ one"#),
            r#""the \"best\" \\ one""#
        );
        assert_eq!(
            pgn_quoted("two\nlines\r\tand a tab"),
            r#""two lines  and a tab""#
        );
        assert_eq!(pgn_quoted("\"]\n[Result \"1-0"), r#""\"] [Result \"1-0""#);
    }

    #[test]
    fn move_lists_pair_black_and_white() {
        let moves: Vec<String> = ["e7-e6", "d2-d3", "e6-e5"].map(String::from).to_vec();
        assert_eq!(move_list(&moves), "1. e7-e6 d2-d3\n2. e6-e5");
    }
}
