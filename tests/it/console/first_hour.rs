//! What a newcomer meets first: the README's example played as written, `/rating` reading its
//! options as the slash command does, and the console's own words (no Discord markdown, no
//! buttons, its `yes` and `no`, boards on lines of their own, plurals, names as long as
//! Discord's).

use super::run_script;

/// The lines of the README's first example: the first `text` block after "Two commands".
fn readme_example() -> Vec<&'static str> {
    let readme = include_str!("../../../README.md");
    let from = readme
        .find("## Two commands")
        .expect("the README has its two commands");
    let block = readme[from..]
        .split("```text\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a text block of console lines under Two commands");
    block.lines().filter(|l| !l.trim().is_empty()).collect()
}

fn plain(script: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("first.db").display());
    run_script(&db, script, true)
}

#[test]
fn the_readmes_first_example_plays_as_written() {
    let lines = readme_example();
    assert!(lines.len() >= 4, "{lines:?}");
    let out = plain(&(lines.join("\n") + "\n"));
    // Every line is a member's command, and every move in it is played.
    let mut moves = 0;
    for line in &lines {
        assert!(line.starts_with('@'), "{line}");
        if let Some((_, played)) = line.split_once("/move ") {
            assert!(
                out.contains(&format!("Last move: {played}\n")),
                "{played} not played:\n{out}"
            );
            moves += 1;
        }
    }
    assert!(moves >= 2, "{lines:?}");
    // The colours are named, so that the first mover is the one the example says.
    let challenge = lines[0];
    let color = challenge
        .split_whitespace()
        .find_map(|w| w.strip_prefix("color:"))
        .expect("the example's challenge names the challenger's colour");
    assert!(out.contains(&format!("alice plays {color}")), "{out}");
    // The private board, on lines of its own, and the leaderboard.
    assert!(out.contains("(to @alice only)\n 1  "), "{out}");
    assert!(out.contains("Leaderboard 7x7 · page 1/1\n"), "{out}");
    // Nothing was refused: a refusal is one private line, and the only private answer is the board.
    assert_eq!(out.matches("only)").count(), 1, "{out}");
}

/// A rated game on 7x7 that alice (Black) wins.
const PLAYED_7X7: &str = "\
@alice /challenge @bob 7x7 black 1h
@bob /accept
@alice /move e6-e5
@bob /move d2-d3
@bob /resign confirm:yes
";

/// A rated game on 5x5 that alice (Black) wins.
const PLAYED_5X5: &str = "\
@alice /challenge @bob 5x5 black 1h
@bob /accept
@alice /move a4-a3
@bob /move b2-b3
@bob /resign confirm:yes
";

#[test]
fn rating_reads_a_size_as_the_size_and_refuses_a_name_that_is_no_member() {
    let out = plain(&format!(
        "{PLAYED_7X7}@alice /rating 7x7\n@alice /rating @bob\n@alice /rating bob 7x7\n\
         @alice /rating carol\n@alice /rating user:@carol\n@alice /games carol\n"
    ));
    // alice's own 7x7 card, not a member called 7x7.
    assert!(out.contains("alice on 7x7: "), "{out}");
    assert!(!out.contains("7x7 on "), "{out}");
    assert_eq!(out.matches("bob on 7x7: ").count(), 2, "{out}");
    assert_eq!(
        out.matches(
            "(to @alice only) there is no member called carol here: a member is one who has \
             played, challenged or been challenged here"
        )
        .count(),
        3,
        "{out}"
    );
    assert!(!out.contains("carol on"), "{out}");
}

#[test]
fn rating_without_a_size_shows_the_sizes_played() {
    let out = plain(&format!(
        "{PLAYED_7X7}@alice /rating\n@carol /rating\n{PLAYED_5X5}{PLAYED_5X5}@bob /rating\n"
    ));
    let alice = out.split("alice on 7x7: ").nth(1).unwrap_or("");
    assert!(alice.contains("1 game, 1 win, 0 losses"), "{out}");
    assert!(!out.contains("alice on 8x8"), "{out}");
    // Nothing played yet: the default board.
    assert!(
        out.contains("carol on 8x8: 1500? (deviation 350) · 0 games"),
        "{out}"
    );
    // Two sizes played: both cards, the most played first, then the puzzle rating.
    let at = |text: &str| {
        out.find(text)
            .unwrap_or_else(|| panic!("no {text:?} in:\n{out}"))
    };
    let five = at("bob on 5x5: ");
    assert!(out[five..].contains("2 games, 0 wins, 2 losses"), "{out}");
    assert!(five < at("bob on 7x7: "), "{out}");
    assert!(at("bob on 7x7: ") < at("bob's puzzle rating"), "{out}");
}

#[test]
fn the_console_speaks_its_own_language() {
    let out = plain(
        "@alice /notify\n@alice /notify dm:yes\n\
         @alice /tournament create \"Spring Cup\" round-robin time:1d\n@bob /tournament join\n\
         @carol /tournament join\n@alice /challenge @bob 5x5 black 1h\n@bob /accept\n\
         @alice /move a4-a3\n@bob /move b2-b3\n@alice /board\nhelp\n",
    );
    assert!(out.contains("/notify dm:yes turns them on."), "{out}");
    assert!(out.contains("/notify dm:no turns them off."), "{out}");
    assert!(
        !out.contains("dm:True") && !out.contains("dm:False"),
        "{out}"
    );
    // No Discord markdown, plurals right.
    assert!(
        out.contains("\nSpring Cup (#1) · open for entries\n"),
        "{out}"
    );
    assert!(!out.contains("**"), "{out}");
    assert!(
        out.contains("You are in Spring Cup (#1) (1 entrant)."),
        "{out}"
    );
    assert!(
        out.contains("You are in Spring Cup (#1) (2 entrants)."),
        "{out}"
    );
    // A private board starts on a line of its own; a one-line message stays on its marker's.
    assert!(out.contains("(to @alice only)\n 1  "), "{out}");
    assert!(
        out.contains(
            "(direct message to @alice) Your move in game #1 against bob: bob played b2-b3."
        ),
        "{out}"
    );
    assert!(!out.contains(" \n"), "a line ends in a space:\n{out}");
    // The help names no button the console has not got.
    assert!(out.contains("/rematch [game] (colours swapped)"), "{out}");
    assert!(out.contains("members join with /tournament join."), "{out}");
    assert!(!out.contains("button"), "{out}");
}

#[test]
fn history_and_analyze_pick_the_members_game_here() {
    let out = plain(&format!(
        "@carol /history\n{PLAYED_7X7}@alice /history\n@bob /analyze\n\
         @alice /challenge @bob 5x5 black 1h\n@bob /accept\n@alice /move a4-a3\n@bob /history\n"
    ));
    assert!(
        out.contains(
            "(to @carol only) you have no game here: say which game with its number (game:12)"
        ),
        "{out}"
    );
    // After the game: the game that ended last; with one in progress, that one.
    assert!(out.contains("[Game \"1\"]\n[Size \"7x7\"]"), "{out}");
    assert!(out.contains("Analysis of game #1"), "{out}");
    assert!(out.contains("[Game \"2\"]\n[Size \"5x5\"]"), "{out}");
}

#[test]
fn member_names_are_at_most_32_characters_as_on_discord() {
    let long = "a".repeat(33);
    let fits = "b".repeat(32);
    let out = plain(&format!(
        "@{long} /board\n@alice /challenge @{long} 5x5\n@{fits} /challenge @alice 5x5\n"
    ));
    assert_eq!(
        out.matches(&format!(
            "`@{long}` is not a member's name: a name has 1 to 32 characters"
        ))
        .count(),
        2,
        "{out}"
    );
    assert!(
        out.contains(&format!("Challenge #1: {fits} challenges alice")),
        "{out}"
    );
    assert!(!out.contains("Challenge #2"), "{out}");
}
