//! Invariants of the rules on random games of every size, and notation that never panics.

use breakthrough_bot::rules::{self, BoardSize, Color, Move, MoveText, Position};
use proptest::prelude::*;

fn any_size() -> impl Strategy<Value = BoardSize> {
    (3u32..=10, 5u32..=10).prop_map(|(c, r)| BoardSize::new(c, r).expect("in range"))
}

/// Plays a game from the start, picking each move with the next choice (modulo the move count).
/// Returns every position (start first) and every move.
fn random_game(size: BoardSize, choices: &[usize]) -> (Vec<Position>, Vec<Move>) {
    let mut positions = vec![Position::new(size)];
    let mut moves = Vec::new();
    let mut i = 0;
    loop {
        let p = *positions.last().expect("never empty");
        let legal = p.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[choices[i % choices.len()] % legal.len()];
        i += 1;
        positions.push(p.play(mv).expect("generated moves are legal"));
        moves.push(mv);
    }
    (positions, moves)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Every ply advances one piece one row, so a game cannot outlast the rows its pieces can
    /// climb: at most 2 * (2 * cols) * (rows - 1) plies. It then has a winner.
    #[test]
    fn random_games_end_with_a_winner_in_bounded_plies(
        size in any_size(),
        choices in prop::collection::vec(any::<usize>(), 1..64),
    ) {
        let (positions, moves) = random_game(size, &choices);
        let bound = 4 * size.cols() as usize * (size.rows() as usize - 1);
        prop_assert!(moves.len() <= bound, "{} plies on {size}", moves.len());
        let end = positions.last().expect("never empty");
        let outcome = end.outcome();
        prop_assert!(outcome.is_some());
        // The winner is the side that made the last move.
        prop_assert_eq!(outcome.map(|o| o.winner), Some(end.turn().opposite()));
    }

    #[test]
    fn pieces_only_step_forward_and_captures_remove_exactly_one_piece(
        size in any_size(),
        choices in prop::collection::vec(any::<usize>(), 1..64),
    ) {
        let (positions, moves) = random_game(size, &choices);
        for (pair, mv) in positions.windows(2).zip(&moves) {
            let (before, after) = (pair[0], pair[1]);
            let mover = before.turn();
            let step = mv.to().row() as i32 - mv.from().row() as i32;
            prop_assert_eq!(step, if mover == Color::White { 1 } else { -1 });
            prop_assert!((mv.to().col() as i32 - mv.from().col() as i32).abs() <= 1);
            prop_assert_eq!(after.count(mover), before.count(mover));
            let taken = before.count(mover.opposite()) - after.count(mover.opposite());
            prop_assert_eq!(taken, u32::from(mv.is_capture()));
            prop_assert_eq!(before.piece_at(mv.from()), Some(mover));
            prop_assert_eq!(after.piece_at(mv.from()), None);
            prop_assert_eq!(after.piece_at(mv.to()), Some(mover));
            prop_assert_eq!(after.turn(), mover.opposite());
        }
    }

    #[test]
    fn replaying_the_move_list_gives_the_played_position(
        size in any_size(),
        choices in prop::collection::vec(any::<usize>(), 1..64),
        cut in any::<prop::sample::Index>(),
    ) {
        let (positions, moves) = random_game(size, &choices);
        let n = cut.index(moves.len() + 1);
        let texts: Vec<String> = moves[..n].iter().map(Move::to_string).collect();
        let (replayed, played) = rules::replay(size, texts.iter().map(String::as_str))
            .map_err(|(i, e)| TestCaseError::fail(format!("move {i}: {e}")))?;
        prop_assert_eq!(replayed, positions[n]);
        prop_assert_eq!(&played[..], &moves[..n]);
        // The written position reads back to the same position.
        prop_assert_eq!(replayed.to_string().parse::<Position>(), Ok(replayed));
    }

    /// Printing a legal move and reading it back gives the same move, in every spelling the
    /// notation accepts.
    #[test]
    fn printed_moves_read_back_to_the_same_move(
        size in any_size(),
        choices in prop::collection::vec(any::<usize>(), 1..64),
    ) {
        let (positions, _) = random_game(size, &choices);
        for p in &positions {
            for mv in p.legal_moves() {
                let canonical = mv.to_string();
                prop_assert_eq!(p.parse_move(&canonical), Ok(mv));
                prop_assert_eq!(p.parse_move(&canonical.to_uppercase()), Ok(mv));
                let bare = format!("{}{}", mv.from(), mv.to());
                prop_assert_eq!(p.parse_move(&bare), Ok(mv));
                let spaced = format!("  {} {} ", mv.from(), mv.to());
                prop_assert_eq!(p.parse_move(&spaced), Ok(mv));
            }
        }
    }

    #[test]
    fn reading_arbitrary_text_never_panics(text in ".{0,40}", size in any_size()) {
        let p = Position::new(size);
        if let Ok(t) = text.parse::<MoveText>() {
            let _ = t.resolve(&p);
        }
        let _ = p.parse_move(&text);
        let _ = text.parse::<BoardSize>();
        let _ = text.parse::<Position>();
    }

    #[test]
    fn reading_move_like_text_never_panics(
        text in "[a-zA-Z]{0,2}[0-9]{0,3}[ x×:-]{0,3}[a-zA-Z]{0,2}[0-9]{0,3}",
        size in any_size(),
    ) {
        let _ = Position::new(size).parse_move(&text);
    }

    #[test]
    fn reading_position_like_text_never_panics(text in "[bw0-9/]{0,60} [bwx]") {
        if let Ok(p) = text.parse::<Position>() {
            // Whatever is accepted is a real position: it prints and reads back as itself.
            prop_assert_eq!(p.to_string().parse::<Position>(), Ok(p));
        }
    }
}

#[test]
fn every_legal_move_of_the_start_of_every_size_round_trips() {
    for size in BoardSize::all() {
        let p = Position::new(size);
        let moves = p.legal_moves();
        assert_eq!(moves.len(), 3 * size.cols() as usize - 2, "{size}");
        for mv in moves {
            assert_eq!(p.parse_move(&mv.to_string()), Ok(mv));
        }
    }
}
