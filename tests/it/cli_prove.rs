//! `prove` and the proof `bestmove --verbose` prints, through the real binary.

use super::cli::{run, stderr, stdout};

/// A 3x5 game after Black's third move: White wins in 3 plies, and only with a3-a4.
const WHITE_WINS_IN_3: [&str; 7] = ["prove", "--size", "3x5", "a4-a3", "b2xa3", "b4-c3", "b1-b2"];

fn proved(args: &[&str]) -> String {
    let o = run(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

#[test]
fn prove_prints_the_win_the_loss_or_unknown() {
    let mut args = WHITE_WINS_IN_3.to_vec();
    args.push("b5-b4");
    assert_eq!(proved(&args), "win 3 a3-a4\n");
    // One ply short of it, nothing is proven.
    let mut short = args.clone();
    short.splice(1..1, ["--plies", "2"]);
    assert_eq!(proved(&short), "unknown\n");
    // White took on a4 instead of letting Black win: Black, to move, loses in 2 plies.
    args.extend(["c2-b3", "a5-a4", "b3xa4"]);
    assert_eq!(proved(&args), "loss 2\n");
    // The winning move does win: after it, the game is over in White's favour.
    let mut won = args.clone();
    won[0] = "moves";
    won.extend(["b4xa3", "a4-a5"]);
    assert_eq!(
        proved(&won),
        "winner: white (a piece reached the far row)\n"
    );
    // A finished game is lost for the side to move, in 0 plies.
    let mut over = args.clone();
    over.extend(["b4xa3", "a4-a5"]);
    assert_eq!(proved(&over), "loss 0\n");
    // The start of 8x8 is decided in no 3 plies.
    assert_eq!(proved(&["prove", "--plies", "3"]), "unknown\n");
}

#[test]
fn prove_refuses_bad_input_as_bestmove_does() {
    for args in [
        &["prove", "e7-e6", "e2-e4"][..],
        &["prove", "--size", "11x11"],
        &["prove", "--plies", "many"],
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty(), "{args:?}");
        assert!(!stderr(&o).contains("panicked"), "{args:?}");
    }
    let err = stderr(&run(&["prove", "e7-e6", "e2-e4"]));
    assert!(err.contains("move 2 (e2-e4)"), "{err}");
    assert!(err.contains("one square at a time"), "{err}");
}

#[test]
fn bestmove_verbose_prints_the_proof() {
    let mut args = vec!["bestmove", "--verbose", "--size", "3x5"];
    args.extend(&WHITE_WINS_IN_3[3..]);
    args.push("b5-b4");
    let o = run(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("proof: win 3 (a3-a4)\n"),
        "{}",
        stderr(&o)
    );
    // Without --verbose, only the move.
    let quiet: Vec<&str> = args.iter().copied().filter(|a| *a != "--verbose").collect();
    assert!(run(&quiet).stderr.is_empty());
    // The start of 3x5 is lost for Black, but not within 9 plies.
    let o = run(&["bestmove", "--verbose", "--size", "3x5"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("proof: none within 9 plies\n"),
        "{}",
        stderr(&o)
    );
}
