//! Puzzles through the game service on both backends: a right line solved against the stubborn
//! replies the prover picks, a wrong first move failed with the solution shown, the ratings moved
//! as Glicko-2 says, streaks, a repeat that moves nothing, two moves at once, the daily puzzle,
//! and the pools loaded once.

use breakthrough_bot::engine::{prove, Proof, PROOF_NODES};
use breakthrough_bot::game::{
    DailyYours, Member, MessageId, Pool, PuzzleRatingChange, PuzzleRefusal, PuzzleState,
    PuzzleStep, PuzzleView, RatingValue,
};
use breakthrough_bot::i18n::Lang;
use breakthrough_bot::rules::{BoardSize, Move, Position};
use breakthrough_bot::text;
use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

use super::{alice, bob, carol, refused, world, World, A_DM, OTHER_SERVER, PLACE};
use crate::common::db::Backend;
use crate::common::secs;

/// Puzzles of 6x6 and 8x8 made for these tests, each proven (see `every_test_puzzle_is_proven`).
const SIX: &str = "# test puzzles\n\
b5/b5/1w4/6/6/2w3 b a5xb4 7\n\
1b3b/6/3w2/b4w/4w1/6 w d4-d5 3\n\
3bb1/3w2/6/b1b3/2w3/2w3 b e6xd5 5\n";
const EIGHT: &str = "8/4bb2/8/8/8/b7/1w6/w7 b a3-a2 3\n\
8/8/w3bw2/4b3/1b6/b3w3/8/1w6 b a3-b2 3\n\
7b/8/7w/6b1/8/w7/2b1w3/3w4 w d1xc2 5\n";

fn pools() -> Vec<(Pool, &'static str)> {
    vec![
        (Pool::parse(size("6x6"), SIX).unwrap(), SIX),
        (Pool::parse(size("8x8"), EIGHT).unwrap(), EIGHT),
    ]
}

fn size(s: &str) -> BoardSize {
    s.parse().unwrap()
}

async fn loaded(b: Backend) -> World {
    let w = world(b).await;
    assert_eq!(w.games.puzzles.load_pools(&pools()).await.unwrap(), 6);
    w
}

/// The defender's most stubborn reply as the prover sees it: the longest proven win for the
/// attacker after it, the first in move order of equals.
fn stubborn(after: &Position, left: u32) -> Move {
    let mut best: Option<(u32, Move)> = None;
    for reply in after.legal_moves() {
        let next = after.play(reply).unwrap();
        let length = match prove(&next, left, PROOF_NODES) {
            Proof::Win { plies, .. } => plies,
            other => panic!("{reply} from {after}: {other:?}"),
        };
        if best.is_none_or(|(longest, _)| length > longest) {
            best = Some((length, reply));
        }
    }
    best.unwrap().1
}

/// Plays the puzzle `view` to its end with the prover's winning moves (the stored `first`
/// first), checking each reply is the stubborn one; the last step.
async fn solve(w: &World, who: &Member, view: &PuzzleView, first: &str, plies: u32) -> PuzzleStep {
    let mut position = view.position;
    let mut left = plies;
    let mut mv = position.parse_move(first).unwrap();
    loop {
        let step = w
            .games
            .puzzles
            .puzzle_move(who, &mv.to_string())
            .await
            .unwrap();
        assert_eq!(step.played, mv);
        let after = position.play(mv).unwrap();
        match &step.state {
            PuzzleState::GoOn { moves_left } => {
                let reply = step.reply.expect("a reply");
                assert_eq!(reply, stubborn(&after, left - 2), "the stubborn reply");
                position = after.play(reply).unwrap();
                assert_eq!(step.position, position);
                left -= 2;
                assert_eq!(*moves_left, left.div_ceil(2));
                mv = match prove(&position, left, PROOF_NODES) {
                    Proof::Win { best, plies } if plies <= left => best,
                    other => panic!("no win left in {position}: {other:?}"),
                };
            }
            PuzzleState::Solved(_) => {
                assert!(after.outcome().is_some(), "solved by winning the game");
                return step;
            }
            PuzzleState::Failed { .. } => panic!("a winning move failed: {step:?}"),
        }
    }
}

fn glicko(v: RatingValue) -> Glicko2Rating {
    Glicko2Rating {
        rating: v.rating,
        deviation: v.deviation,
        volatility: v.volatility,
    }
}

/// Both ratings after `member` met `puzzle`, as skillratings computes them.
fn expected(member: RatingValue, puzzle: RatingValue, solved: bool) -> (f64, f64) {
    let outcome = if solved {
        Outcomes::WIN
    } else {
        Outcomes::LOSS
    };
    let (m, p) = glicko2(
        &glicko(member),
        &glicko(puzzle),
        &outcome,
        &Glicko2Config::new(),
    );
    (m.rating, p.rating)
}

fn change(step: &PuzzleStep) -> Option<PuzzleRatingChange> {
    match &step.state {
        PuzzleState::Solved(r) | PuzzleState::Failed { result: r, .. } => r.rating,
        PuzzleState::GoOn { .. } => None,
    }
}

pub(super) async fn every_test_puzzle_is_proven(_b: Backend) {
    for (pool, _) in pools() {
        for p in pool.puzzles {
            let after = p.setup.play(p.solution).unwrap();
            assert!(
                matches!(prove(&after, p.plies - 1, PROOF_NODES), Proof::Loss { plies } if plies == p.plies - 1)
                    || (p.plies == 1 && after.outcome().is_some()),
                "{} {}",
                p.setup,
                p.solution
            );
            match prove(&p.setup, p.plies, PROOF_NODES) {
                Proof::Win { plies, .. } => assert_eq!(plies, p.plies, "{}", p.setup),
                other => panic!("{}: {other:?}", p.setup),
            }
            for other in p.setup.legal_moves() {
                if other == p.solution {
                    continue;
                }
                let after = p.setup.play(other).unwrap();
                let wins = after.outcome().is_some()
                    || matches!(prove(&after, p.plies - 1, PROOF_NODES), Proof::Loss { .. });
                assert!(!wins, "{} also wins with {other}", p.setup);
            }
        }
    }
}

pub(super) async fn a_right_line_solves_a_puzzle_and_rates_both_as_glicko2_says(b: Backend) {
    let w = loaded(b).await;
    let view = w
        .games
        .puzzles
        .puzzle(&alice(), PLACE, Some(size("6x6")))
        .await
        .unwrap();
    // All are rated alike: the first of the file.
    assert_eq!(view.position.to_string(), "b5/b5/1w4/6/6/2w3 b");
    assert_eq!(view.moves_left, 4);
    assert!(!view.resumed);
    let said = text::puzzle_view(Lang::En, &view);
    assert!(said.contains("Black to move and win in 4 moves."), "{said}");
    // Asking again shows the same puzzle again.
    let again = w.games.puzzles.puzzle(&alice(), PLACE, None).await.unwrap();
    assert!(again.resumed);
    assert_eq!(again.id, view.id);
    let puzzle_before = w.store.puzzle(view.id).await.unwrap().unwrap().value;
    let last = solve(&w, &alice(), &view, "a5xb4", 7).await;
    let (mine, its) = expected(RatingValue::START, puzzle_before, true);
    let c = change(&last).expect("a first attempt is rated");
    assert_eq!(c.before, RatingValue::START);
    assert_eq!(c.after.rating, mine);
    let card = w.games.puzzles.puzzle_rating(&alice()).await.unwrap();
    assert_eq!(card.rating.rating, mine);
    assert_eq!(
        (card.solved, card.failed, card.streak, card.best_streak),
        (1, 0, 1, 1)
    );
    let row = w.store.puzzle(view.id).await.unwrap().unwrap();
    assert_eq!(row.value.rating, its);
    assert_eq!((row.attempts, row.solves), (1, 1));
    // Solved, the puzzle is no longer in progress.
    refused!(
        w.games.puzzles.puzzle_move(&alice(), "a1-a2").await,
        PuzzleRefusal::NoPuzzle
    );
}

pub(super) async fn a_wrong_first_move_fails_shows_the_solution_and_a_repeat_moves_nothing(
    b: Backend,
) {
    let w = loaded(b).await;
    let view = w
        .games
        .puzzles
        .puzzle(&bob(), PLACE, Some(size("6x6")))
        .await
        .unwrap();
    // An illegal move changes nothing.
    refused!(
        w.games.puzzles.puzzle_move(&bob(), "a5-a3").await,
        PuzzleRefusal::Move(_)
    );
    assert_eq!(
        w.store
            .puzzle_progress(bob().id)
            .await
            .unwrap()
            .unwrap()
            .played,
        0
    );
    // a6-b5 is legal, but only a5xb4 wins.
    let step = w.games.puzzles.puzzle_move(&bob(), "a6-b5").await.unwrap();
    let PuzzleState::Failed { line, from, result } = &step.state else {
        panic!("not failed: {step:?}");
    };
    assert_eq!(*from, view.position);
    assert_eq!(line[0].to_string(), "a5xb4");
    assert_eq!(line.len(), 7, "the line runs to the win: {line:?}");
    let mut end = view.position;
    for mv in line {
        end = end.play(*mv).unwrap();
    }
    assert_eq!(step.position, end);
    assert!(end.outcome().is_some_and(|o| o.winner == view.attacker));
    let said = text::puzzle_step(Lang::En, &step);
    assert!(said.contains("The solution: a5xb4 "), "{said}");
    let (mine, its) = expected(RatingValue::START, RatingValue::START, false);
    assert_eq!(result.rating.unwrap().after.rating, mine);
    assert_eq!(
        w.store.puzzle(view.id).await.unwrap().unwrap().value.rating,
        its
    );
    assert_eq!((result.streak, result.best_streak), (0, 0));

    // Every other 6x6 puzzle attempted, the least recently attempted comes back, unrated.
    for _ in 0..2 {
        let other = w
            .games
            .puzzles
            .puzzle(&bob(), PLACE, Some(size("6x6")))
            .await
            .unwrap();
        assert_ne!(other.id, view.id);
        let row = w.store.puzzle(other.id).await.unwrap().unwrap();
        let plies = u32::try_from(row.plies).unwrap();
        solve(&w, &bob(), &other, &row.solution, plies).await;
    }
    let card = w.games.puzzles.puzzle_rating(&bob()).await.unwrap();
    assert_eq!(
        (card.solved, card.failed, card.streak, card.best_streak),
        (2, 1, 2, 2)
    );
    let repeat = w
        .games
        .puzzles
        .puzzle(&bob(), PLACE, Some(size("6x6")))
        .await
        .unwrap();
    assert_eq!(repeat.id, view.id);
    let puzzle_before = w.store.puzzle(view.id).await.unwrap().unwrap();
    let last = solve(&w, &bob(), &repeat, "a5xb4", 7).await;
    assert_eq!(change(&last), None, "a repeat is not rated");
    let said = text::puzzle_step(Lang::En, &last);
    assert!(
        said.contains("Not rated: you tried this puzzle before."),
        "{said}"
    );
    assert_eq!(w.games.puzzles.puzzle_rating(&bob()).await.unwrap(), card);
    assert_eq!(
        w.store.puzzle(view.id).await.unwrap().unwrap(),
        puzzle_before
    );
    // A failure after the streak ends it, keeping the best.
    let eight = w.games.puzzles.puzzle(&bob(), PLACE, None).await.unwrap();
    assert_eq!(eight.position.size(), size("8x8"));
    let solution = w.store.puzzle(eight.id).await.unwrap().unwrap().solution;
    let wrong = eight
        .position
        .legal_moves()
        .into_iter()
        .find(|m| m.to_string() != solution)
        .unwrap();
    let failed = w
        .games
        .puzzles
        .puzzle_move(&bob(), &wrong.to_string())
        .await
        .unwrap();
    assert!(matches!(failed.state, PuzzleState::Failed { .. }));
    let card = w.games.puzzles.puzzle_rating(&bob()).await.unwrap();
    assert_eq!(
        (card.solved, card.failed, card.streak, card.best_streak),
        (2, 2, 0, 2)
    );
}

pub(super) async fn two_moves_at_once_in_a_puzzle_apply_once(b: Backend) {
    let w = loaded(b).await;
    let view = w
        .games
        .puzzles
        .puzzle(&carol(), PLACE, Some(size("6x6")))
        .await
        .unwrap();
    assert_eq!(view.position.to_string(), "b5/b5/1w4/6/6/2w3 b");
    let carol = carol();
    let (one, two) = tokio::join!(
        w.games.puzzles.puzzle_move(&carol, "a5xb4"),
        w.games.puzzles.puzzle_move(&carol, "a5xb4")
    );
    let applied = [&one, &two].iter().filter(|r| r.is_ok()).count();
    assert_eq!(applied, 1, "{one:?} {two:?}");
    for r in [one, two] {
        if let Err(e) = r {
            // Refused as a move that came too late, or, read after the first, as no move.
            assert!(
                crate::is_refusal!(e, PuzzleRefusal::Changed)
                    || crate::is_refusal!(e, PuzzleRefusal::Move(_)),
                "{e:?}"
            );
        }
    }
    let progress = w.store.puzzle_progress(carol.id).await.unwrap().unwrap();
    assert_eq!(progress.played, 2);
    assert_eq!(progress.moves.split(' ').count(), 2);
    assert_eq!(
        w.games.puzzles.puzzle_rating(&carol).await.unwrap().solved,
        0
    );
}

pub(super) async fn the_daily_puzzle_is_the_servers_for_the_day_and_hides_its_answer(b: Backend) {
    let w = loaded(b).await;
    refused!(
        w.games.puzzles.puzzle_daily(&alice(), A_DM).await,
        PuzzleRefusal::DailyInDirect
    );
    let a = w.games.puzzles.puzzle_daily(&alice(), PLACE).await.unwrap();
    let b_ = w.games.puzzles.puzzle_daily(&bob(), PLACE).await.unwrap();
    assert_eq!(a.id, b_.id, "one puzzle for the server");
    assert_eq!(a.start.size(), size("8x8"));
    let solution = w.store.puzzle(a.id).await.unwrap().unwrap().solution;
    for daily in [&a, &b_] {
        let DailyYours::Playing(view) = &daily.yours else {
            panic!("not given: {daily:?}");
        };
        assert!(view.daily.is_some());
        let said = text::daily_puzzle(Lang::En, &text::Plain, daily, w.games.now());
        assert!(
            !said.contains(&solution),
            "the answer shown before trying: {said}"
        );
        let post = text::daily_post(Lang::En, daily);
        assert!(!post.contains(&solution), "{post}");
        assert!(
            post.contains("0 members solved today's puzzle, out of 0 who tried."),
            "{post}"
        );
    }
    // Alice fails it; Bob solves it.
    let wrong = a
        .start
        .legal_moves()
        .into_iter()
        .find(|m| m.to_string() != solution)
        .unwrap();
    let failed = w
        .games
        .puzzles
        .puzzle_move(&alice(), &wrong.to_string())
        .await
        .unwrap();
    let PuzzleState::Failed { result, .. } = &failed.state else {
        panic!("{failed:?}");
    };
    let count = result.daily.expect("the daily count");
    assert_eq!((count.solved, count.tried), (0, 1));
    let row = w.store.puzzle(a.id).await.unwrap().unwrap();
    let DailyYours::Playing(view) = &b_.yours else {
        unreachable!()
    };
    let last = solve(
        &w,
        &bob(),
        view,
        &solution,
        u32::try_from(row.plies).unwrap(),
    )
    .await;
    let PuzzleState::Solved(result) = &last.state else {
        unreachable!()
    };
    assert!(result.rating.is_some(), "a daily first attempt is rated");
    let count = result.daily.expect("the daily count");
    assert_eq!((count.solved, count.tried), (1, 2));
    // Once tried, the member sees their result and the solution.
    let again = w.games.puzzles.puzzle_daily(&alice(), PLACE).await.unwrap();
    let DailyYours::Tried { solved, line, .. } = &again.yours else {
        panic!("{again:?}");
    };
    assert!(!solved);
    assert_eq!(line[0].to_string(), solution);
    let said = text::daily_puzzle(Lang::En, &text::Plain, &again, w.games.now());
    assert!(said.contains(&solution), "{said}");
    // Done for the day: when the next one comes, in plain words.
    assert!(said.contains("The next daily puzzle comes in "), "{said}");
    // The post is stored, and every count carries it.
    w.games
        .puzzles
        .set_daily_post(
            PLACE.guild,
            again.count.day,
            PLACE.channel,
            MessageId::new(77),
        )
        .await
        .unwrap();
    let counted = w
        .games
        .puzzles
        .daily_count(PLACE.guild, again.count.day)
        .await
        .unwrap();
    assert_eq!(counted.post, Some((PLACE.channel, MessageId::new(77))));
    assert_eq!((counted.solved, counted.tried), (1, 2));
    // Another server has its own; the next day brings another puzzle.
    let elsewhere = w
        .games
        .puzzles
        .puzzle_daily(&carol(), OTHER_SERVER)
        .await
        .unwrap();
    assert_eq!((elsewhere.count.solved, elsewhere.count.tried), (0, 0));
    w.clock.advance(secs(86_400));
    let next = w.games.puzzles.puzzle_daily(&alice(), PLACE).await.unwrap();
    assert_ne!(next.id, a.id, "a puzzle not used before");
    assert_eq!((next.count.solved, next.count.tried), (0, 0));
}

pub(super) async fn pools_load_once_and_a_new_line_adds_one_puzzle(b: Backend) {
    let w = loaded(b).await;
    assert_eq!(
        w.games.puzzles.load_pools(&pools()).await.unwrap(),
        0,
        "nothing twice"
    );
    let more = format!("{SIX}6/6/3wb1/b5/4w1/2w3 b a3-a2 3\n");
    let pool = Pool::parse(size("6x6"), &more).unwrap();
    assert_eq!(
        w.games
            .puzzles
            .load_pools(&[(pool, more.as_str())])
            .await
            .unwrap(),
        1
    );
    assert_eq!(w.store.puzzle_count(size("6x6")).await.unwrap(), 4);
    // The shipped pools load too, once.
    let shipped = w.games.puzzles.load_puzzles().await.unwrap();
    assert!(shipped > 0);
    assert_eq!(w.games.puzzles.load_puzzles().await.unwrap(), 0);
    // A size without puzzles is refused, naming those with some.
    refused!(
        w.games.puzzles.puzzle(&alice(), PLACE, Some(size("5x5"))).await,
        PuzzleRefusal::NoPuzzles { ref sizes, .. } if !sizes.is_empty()
    );
}
