//! `/puzzle` in the console: a puzzle of the shipped 6x6 pool given, failed with its solution
//! shown, the next one answered with its winning first move, and the puzzle rating on `/rating`.

use breakthrough_bot::game::Pool;

use super::run_script;

#[test]
fn a_puzzle_is_given_failed_with_its_solution_and_the_next_answered() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("t.db").display());
    let pools = Pool::shipped().unwrap();
    let six = &pools
        .iter()
        .find(|(p, _)| p.size.to_string() == "6x6")
        .unwrap()
        .0;
    // All rated alike at first: the first two of the file come first.
    let (first, second) = (six.puzzles[0], six.puzzles[1]);
    let wrong = first
        .setup
        .legal_moves()
        .into_iter()
        .find(|m| *m != first.solution)
        .unwrap();
    let out = run_script(
        &db,
        &format!(
            "@alice /puzzle 6x6\n@alice /move {wrong}\n@alice /puzzle size:6x6\n\
             @alice /move {}\n@alice /rating\n@bob /move e2-e3\n@bob /puzzle 5x5\n",
            second.solution
        ),
        true,
    );
    // The puzzle's board, to alice alone, from the line after the marker.
    assert!(out.contains("(to @alice only)\n 6  "), "{out}");
    assert!(
        out.contains(&format!(
            "{} to move and win in {} moves.",
            if first.setup.turn().name() == "black" {
                "Black"
            } else {
                "White"
            },
            first.plies.div_ceil(2)
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!("{wrong} lets the win go: puzzle #1 failed.")),
        "{out}"
    );
    assert!(
        out.contains(&format!("The solution: {} ", first.solution)),
        "{out}"
    );
    assert!(out.contains("Puzzle rating: 1500? → "), "{out}");
    let answered = format!("{} is right. The bot replies ", second.solution);
    let won = format!("{} wins: puzzle #2 solved!", second.solution);
    assert!(out.contains(&answered) || out.contains(&won), "{out}");
    assert!(out.contains("alice's puzzle rating: "), "{out}");
    assert!(out.contains("solved 0 of 1"), "{out}");
    assert!(
        out.contains("you have no game in progress in this channel"),
        "a move without game nor puzzle is a game's refusal: {out}"
    );
    assert!(
        out.contains("there are no puzzles on 5x5; there are on 6x6, 7x7, 8x8"),
        "{out}"
    );
}
