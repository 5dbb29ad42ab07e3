//! `/puzzle` against the fake Discord, with the shipped pools the bot loads at start-up: a 6x6
//! puzzle asked for and shown to the member alone, `/move` autocompleted with its legal moves
//! and played to the win with the prover's moves, a wrong move answered with the solution, the
//! puzzle rating beside the game rating in `/rating`, and the daily puzzle: private answers, and
//! one public post for the server whose count each attempt brings up to date.

use std::time::{Duration, Instant};

use serde_json::Value;

use breakthrough_bot::engine::{prove, Proof, PROOF_NODES};
use breakthrough_bot::game::{MemberId, PuzzleView, Services};
use breakthrough_bot::rules::Move;

use super::taps::select_of;
use super::{alice, bob, is_ephemeral, posted, service, start, unix_now, Bot};
use crate::common::fake_discord::{InteractionBuilder, TestUser, CHANNEL_ID};

/// Fixed choices travel as their index: `size:6x6`, `size:daily`.
const SIX: i64 = 0;
const DAILY: i64 = 3;

fn content(reply: &Value) -> &str {
    reply["data"]["content"].as_str().unwrap_or_default()
}

fn puzzle(who: &TestUser, size: i64) -> InteractionBuilder {
    InteractionBuilder::slash("puzzle")
        .by(who)
        .integer("size", size)
}

/// `who`'s puzzle in progress, read through the game service on the bot's database.
async fn in_progress(games: &Services, who: &TestUser) -> PuzzleView {
    games
        .puzzles
        .puzzle_in_progress(MemberId::new(who.id))
        .await
        .unwrap()
        .expect("a puzzle in progress")
}

/// The move that wins `view`'s puzzle within the moves it has left, as the prover finds it.
fn right_move(view: &PuzzleView) -> Move {
    match prove(&view.position, 2 * view.moves_left - 1, PROOF_NODES) {
        Proof::Win { best, .. } => best,
        other => panic!("{}: {other:?}", view.position),
    }
}

/// A legal move of `view`'s puzzle that does not win within the moves it has left.
fn wrong_move(view: &PuzzleView) -> Move {
    view.position
        .legal_moves()
        .iter()
        .copied()
        .find(|&mv| {
            let after = view.position.play(mv).unwrap();
            !matches!(
                prove(&after, 2 * view.moves_left - 2, PROOF_NODES),
                Proof::Loss { .. }
            )
        })
        .expect("a move that lets the win go")
}

/// A reply for the member alone, with the board in an embed (emoji: the default style).
fn private_board(reply: &Value) -> &str {
    assert_eq!(reply["type"], 4, "{reply}");
    assert!(is_ephemeral(reply), "{reply}");
    let board = reply["data"]["embeds"][0]["description"]
        .as_str()
        .unwrap_or_default();
    assert!(!board.is_empty(), "no board: {reply}");
    board
}

/// Plays `who`'s puzzle to the win with the prover's moves; the last answer.
async fn solve(bot: &Bot, games: &Services, who: &TestUser) -> Value {
    loop {
        let view = in_progress(games, who).await;
        let mv = right_move(&view);
        let answer = bot.play(who, &mv.to_string()).await;
        private_board(&answer);
        let said = content(&answer);
        if said.contains("solved") {
            assert!(said.contains(&format!("{mv} wins")), "{said}");
            return answer;
        }
        assert!(said.contains(&format!("{mv} is right")), "{said}");
        assert!(said.contains("The bot replies"), "{said}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_puzzle_is_solved_and_another_failed_with_its_solution_shown() {
    let bot = start().await;
    let (_store, games) = service(&bot.db).await;

    // /puzzle 6x6: a puzzle of the shipped pool, for alice alone.
    let asked = bot.slash(puzzle(&alice(), SIX)).await;
    private_board(&asked);
    let view = in_progress(&games, &alice()).await;
    assert_eq!(view.position.size().to_string(), "6x6");
    let said = content(&asked);
    assert!(said.contains(&format!("Puzzle #{}", view.id)), "{said}");
    assert!(said.contains("to move and win in"), "{said}");

    // /move offers the puzzle's legal moves, as in a game.
    let sent = bot
        .fake
        .send_interaction(
            InteractionBuilder::autocomplete("move")
                .by(&alice())
                .focused("move", ""),
        )
        .await;
    let offered = bot.fake.callback_for(sent.id).await;
    assert_eq!(offered["type"], 8, "{offered}");
    let choices: Vec<String> = offered["data"]["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["value"].as_str().unwrap().to_string())
        .collect();
    let legal: Vec<String> = view
        .position
        .legal_moves()
        .iter()
        .take(25)
        .map(Move::to_string)
        .collect();
    assert_eq!(choices, legal);

    // The prover's line, to the win.
    let won = solve(&bot, &games, &alice()).await;
    assert!(content(&won).contains("Puzzle rating: 1500"), "{won}");

    // Another puzzle, and a move that lets the win go: the solution shown, the rating down.
    let again = bot.slash(puzzle(&alice(), SIX)).await;
    private_board(&again);
    let view = in_progress(&games, &alice()).await;
    let mv = wrong_move(&view);
    let failed = bot.play(&alice(), &mv.to_string()).await;
    private_board(&failed);
    let said = content(&failed);
    assert!(said.contains(&format!("{mv} lets the win go")), "{said}");
    let solution = right_move(&view).to_string();
    assert!(
        said.contains(&format!("The solution: {solution}")),
        "{said}"
    );
    assert!(said.contains("Puzzle rating:"), "{said}");
    assert!(
        games
            .puzzles
            .puzzle_in_progress(MemberId::new(alice().id))
            .await
            .unwrap()
            .is_none(),
        "the failed puzzle is over"
    );

    // /rating shows the puzzle card beside the game rating.
    let card = bot
        .slash(InteractionBuilder::slash("rating").by(&alice()))
        .await;
    let text = card["data"]["embeds"][0]["description"].to_string();
    assert!(
        text.contains("puzzle rating") && text.contains("solved 1 of 2"),
        "{card}"
    );
    bot.finish();
}

/// The messages the bot posted in the test channel.
fn posts(bot: &Bot) -> Vec<Value> {
    bot.fake
        .requests()
        .into_iter()
        .filter(|r| posted(r, CHANNEL_ID))
        .filter_map(|r| r.body)
        .collect()
}

/// What `found` finds once it finds anything (the bot posts after it answers), within 10 s.
async fn wait_for(bot: &Bot, found: impl Fn(&Bot) -> Vec<Value>) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let got = found(bot);
        if !got.is_empty() {
            return got;
        }
        assert!(
            Instant::now() < deadline,
            "nothing came:\n{}",
            bot.fake.report()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_daily_puzzle_is_posted_once_and_its_count_follows_the_attempts() {
    let bot = start().await;
    let (_store, games) = service(&bot.db).await;

    let asked = bot.slash(puzzle(&alice(), DAILY)).await;
    private_board(&asked);
    assert!(content(&asked).contains("Daily puzzle of"), "{asked}");
    let view = in_progress(&games, &alice()).await;
    assert!(view.daily.is_some());
    // The day's post: the board and the count, for everyone, and never the answer.
    let post = wait_for(&bot, posts).await;
    assert_eq!(post.len(), 1, "{post:?}");
    let words = format!("{}\n{}", post[0]["content"], post[0]["embeds"][0]);
    assert!(words.contains("0 members solved today's puzzle"), "{words}");
    assert!(words.contains("/puzzle daily"), "{words}");
    assert!(!words.contains(&right_move(&view).to_string()), "{words}");

    // bob asks too: no second post.
    let bobs = bot.slash(puzzle(&bob(), DAILY)).await;
    private_board(&bobs);
    assert_eq!(posts(&bot).len(), 1);

    // alice solves it: the post says so, and stays the only one.
    solve(&bot, &games, &alice()).await;
    let edits = wait_for(&bot, |bot| {
        bot.fake
            .requests_to("PATCH", &format!("/channels/{CHANNEL_ID}/messages/"))
            .into_iter()
            .filter_map(|r| r.body)
            .collect()
    })
    .await;
    let said = edits[0]["content"].as_str().unwrap_or_default();
    assert!(
        said.starts_with("1 member solved today's puzzle, out of 1 who tried"),
        "{said}"
    );
    assert_eq!(posts(&bot).len(), 1);
    // Asked again, done for the day: her result, and when the next one comes, as a Discord
    // timestamp each reader's client counts down (midnight UTC).
    let again = bot
        .slash(
            InteractionBuilder::slash("puzzle")
                .by(&alice())
                .integer("size", DAILY),
        )
        .await;
    let said = content(&again);
    assert!(said.contains("You solved today's puzzle."), "{said}");
    let next = (unix_now() / 86_400 + 1) * 86_400;
    assert!(
        said.contains(&format!("The next daily puzzle comes <t:{next}:R>.")),
        "{said}"
    );
    bot.finish();
}

/// A puzzle solved by taps alone: the Move button on its board opens the menu of its legal
/// moves (or its pieces first), the prover's move is chosen, and each answer replaces the menu,
/// with the Move button again until the puzzle is solved.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_puzzle_is_solved_by_taps() {
    let bot = super::start_with(true, &[("RATE_LIMIT_COMMANDS", "1000")]).await;
    let (_store, games) = service(&bot.db).await;
    let asked = bot.slash(puzzle(&alice(), SIX)).await;
    assert!(asked.to_string().contains("puzzle:move"), "{asked}");
    loop {
        let view = in_progress(&games, &alice()).await;
        let mv = right_move(&view).to_string();
        let (menu, _) = bot.click(&alice(), "puzzle:move").await;
        private_board(&menu);
        let (mut id, options) = select_of(&menu["data"]);
        if id.starts_with("puzzle:piece:") {
            let from = mv.split(['-', 'x']).next().unwrap();
            assert!(options.iter().any(|(_, v)| v == from), "{options:?}");
            let (targets, _) = bot.choose(&alice(), &id, from).await;
            assert_eq!(targets["type"], 7, "{targets}");
            id = select_of(&targets["data"]).0;
        } else {
            let mut offered: Vec<&str> = options.iter().map(|(_, v)| v.as_str()).collect();
            let legal: Vec<String> = view
                .position
                .legal_moves()
                .iter()
                .map(Move::to_string)
                .collect();
            let mut legal: Vec<&str> = legal.iter().map(String::as_str).collect();
            offered.sort_unstable();
            legal.sort_unstable();
            assert_eq!(offered, legal);
        }
        assert_eq!(id, format!("puzzle:to:{}:{}", view.id, view.moves_left));
        let (answer, _) = bot.choose(&alice(), &id, &mv).await;
        assert_eq!(answer["type"], 7, "the answer replaces the menu: {answer}");
        let said = content(&answer);
        if said.contains("solved") {
            assert!(said.contains(&format!("{mv} wins")), "{said}");
            assert!(!answer.to_string().contains("puzzle:move"), "{answer}");
            break;
        }
        assert!(said.contains(&format!("{mv} is right")), "{said}");
        assert!(answer.to_string().contains("puzzle:move"), "{answer}");
    }
    bot.finish();
}
