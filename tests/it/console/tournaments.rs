//! `/tournament` in the console: a 3-player round robin created, joined, started and played to
//! its end by resignations, with the standings as they move and the final standings posted.

use super::run_script;

/// The players of each game of a round robin's pairings: (game number, black, white).
fn pairings(out: &str) -> Vec<(u32, String, String)> {
    out.lines()
        .filter_map(|line| {
            let (id, rest) = line.strip_prefix('#')?.split_once(' ')?;
            let (black, rest) = rest.split_once(" (Black) vs ")?;
            let (white, _) = rest.split_once(" (White): ")?;
            Some((id.parse().ok()?, black.to_string(), white.to_string()))
        })
        .collect()
}

#[test]
fn a_round_robin_is_created_joined_started_played_and_its_winner_posted() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("t.db").display());
    let out = run_script(
        &db,
        "@alice /tournament create \"Spring Cup\" round-robin time:1d\n\
         @alice /tournament join\n@bob /tournament join #1\n@carol /tournament join tournament:1\n\
         @dave /tournament join\n@dave /tournament leave\n\
         @bob /tournament start\n\
         @alice /tournament pairings\n",
        true,
    );
    assert!(
        out.contains("\nSpring Cup (#1) · open for entries\nRound robin · 8x8 · 1 day per move"),
        "the sign-up is posted: {out}"
    );
    assert!(
        out.contains("(to @bob only) You are in Spring Cup (#1) (2 entrants)."),
        "{out}"
    );
    assert!(
        out.contains("(to @dave only) You left Spring Cup (#1) (3 entrants)."),
        "{out}"
    );
    assert!(
        out.contains("Spring Cup (#1) has started: 3 games, all at once."),
        "the start is announced: {out}"
    );
    let (_, after_pairings) = out
        .split_once("Spring Cup (#1) · all games")
        .unwrap_or_else(|| panic!("the pairings are shown: {out}"));
    let games = pairings(after_pairings);
    assert_eq!(games.len(), 3, "every pair plays once: {out}");
    for (a, b) in [("alice", "bob"), ("alice", "carol"), ("bob", "carol")] {
        let once = games
            .iter()
            .filter(|(_, x, y)| (x == a && y == b) || (x == b && y == a))
            .count();
        assert_eq!(once, 1, "{a} and {b} meet once: {games:?}");
    }

    // alice beats both, bob beats carol: each loser resigns.
    let loser = |(_, black, white): &(u32, String, String)| {
        let pair = [black.as_str(), white.as_str()];
        if pair.contains(&"alice") {
            pair.into_iter()
                .find(|p| *p != "alice")
                .unwrap()
                .to_string()
        } else {
            "carol".to_string()
        }
    };
    let mut script = String::new();
    for (i, game) in games.iter().enumerate() {
        script.push_str(&format!(
            "@{} /resign game:{} confirm:yes\n",
            loser(game),
            game.0
        ));
        if i == 0 {
            script.push_str("@carol /tournament standings\n");
        }
    }
    script.push_str("@carol /tournament standings 1\n");
    let out = run_script(&db, &script, true);
    let (first, rest) = out
        .split_once("Standings · Spring Cup (#1)")
        .unwrap_or_else(|| panic!("the standings are shown: {out}"));
    assert!(!first.contains("is over"), "{out}");
    let (middle, end) = rest
        .split_once("Spring Cup (#1) is over. The winner: alice!")
        .unwrap_or_else(|| panic!("the final standings are posted, with the winner: {out}"));
    assert!(
        middle.contains("1 played, 1 left"),
        "after the first result, the table counts it: {out}"
    );
    assert!(
        end.contains("1. alice 2 pts · 2 played")
            && end.contains("2. bob 1 pt · 2 played")
            && end.contains("3. carol 0 pts · 2 played"),
        "{out}"
    );
    // Asked for afterwards, the standings are the final ones.
    let last = end
        .rsplit("Standings · Spring Cup (#1)")
        .next()
        .unwrap_or("");
    assert!(last.contains("1. alice 2 pts"), "{out}");
}
