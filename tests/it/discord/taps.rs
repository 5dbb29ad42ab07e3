//! Moves by taps: the Move button on a board, the menus it opens for the member to move alone,
//! and the move played from them, announced as a typed one.

use breakthrough_bot::game::GameId;
use breakthrough_bot::rules::{BoardSize, Position};
use serde_json::Value;

use super::{alice, bob, embed_text, is_ephemeral, start, start_with, the_bot, Bot};
use crate::common::fake_discord::{InteractionBuilder, SentInteraction, TestUser, CHANNEL_ID};

/// The select menu a message carries: its custom id and its options as (label, value).
pub(super) fn select_of(message: &Value) -> (String, Vec<(String, String)>) {
    let menu = message["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().into_iter().flatten())
        .find(|c| c["type"] == 3)
        .unwrap_or_else(|| panic!("no select menu in {message}"));
    let options = menu["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            (
                o["label"].as_str().unwrap().to_string(),
                o["value"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    (menu["custom_id"].as_str().unwrap().to_string(), options)
}

impl Bot {
    /// Chooses `value` in the select `custom_id` of the message that carries it; returns the
    /// callback and the interaction.
    pub(crate) async fn choose(
        &self,
        who: &TestUser,
        custom_id: &str,
        value: &str,
    ) -> (Value, SentInteraction) {
        let message = self
            .fake
            .message_with_component(custom_id)
            .unwrap_or_else(|| panic!("no message with menu {custom_id}"));
        let sent = self
            .fake
            .send_interaction(
                InteractionBuilder::select(custom_id, &[value])
                    .by(who)
                    .on_message(&message),
            )
            .await;
        (self.fake.callback_for(sent.id).await, sent)
    }

    /// The moves game `id` has stored, in order.
    async fn moves_of(&self, id: i64) -> Vec<String> {
        let store = self.store().await;
        let moves = store
            .moves(GameId::new(id))
            .await
            .unwrap()
            .into_iter()
            .map(|m| m.notation)
            .collect();
        store.close().await;
        moves
    }
}

/// The legal moves of the position after `moves` on `size`, as the menus write them.
fn legal_after(size: &str, moves: &[String]) -> Vec<String> {
    let mut position = Position::new(size.parse::<BoardSize>().unwrap());
    for m in moves {
        position = position.play(position.parse_move(m).unwrap()).unwrap();
    }
    position
        .legal_moves()
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// On 5x5 every legal move fits in one menu: each move is two taps (Move, then the move), by
/// each player in turn from the latest board, until the game is won. Each menu holds exactly the
/// legal moves; each move's board is posted in the channel and pings the next to move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_is_played_by_taps_alone() {
    // A whole game in a few seconds is far faster than members tap: the rate limit stands aside.
    let bot = start_with(true, &[("RATE_LIMIT_COMMANDS", "1000")]).await;
    bot.start_game(&alice(), &bob(), "5x5").await;
    let players = [alice(), bob()];
    let mut played: Vec<String> = Vec::new();
    let mut over = false;
    let mut tap_to_board = Vec::new();
    for ply in 0..100 {
        let who = &players[ply % 2];
        let (menu, _) = bot.click(who, "game:move:1").await;
        assert_eq!(menu["type"], 4, "{menu}");
        assert!(is_ephemeral(&menu), "the menu is for the mover alone");
        let (id, options) = select_of(&menu["data"]);
        assert_eq!(id, format!("move:to:1:{ply}"));
        let mut offered: Vec<String> = options.iter().map(|(_, v)| v.clone()).collect();
        let mut legal = legal_after("5x5", &played);
        offered.sort();
        legal.sort();
        assert_eq!(offered, legal, "the menu offers exactly the legal moves");
        assert!(options.len() <= 25);
        // A capture when there is one, so the game ends soon.
        let (label, value) = options
            .iter()
            .find(|(_, v)| v.contains('x'))
            .unwrap_or(&options[0])
            .clone();
        assert!(
            label.contains(" takes ") == value.contains('x'),
            "{label} / {value}"
        );
        let tapped = std::time::Instant::now();
        let (answer, sent) = bot.choose(who, &id, &value).await;
        assert_eq!(answer["type"], 7, "the menu is replaced: {answer}");
        let said = answer["data"]["content"].as_str().unwrap();
        assert_eq!(said, format!("You played {value} in game #1."));
        assert_eq!(answer["data"]["components"], serde_json::json!([]));
        let board = bot.fake.wait_followups(&sent.token, 1).await.remove(0);
        tap_to_board.push(tapped.elapsed());
        let board = board.body.expect("a board");
        assert!(!is_ephemeral(&serde_json::json!({ "data": board })));
        let text = embed_text(&board);
        assert!(text.contains(&format!("Last move: {value}")), "{text}");
        played.push(value);
        if board.to_string().contains("game:rematch:1") {
            over = true;
            break;
        }
        let next = &players[(ply + 1) % 2];
        assert!(
            board["content"]
                .as_str()
                .unwrap()
                .starts_with(&next.mention()),
            "the board pings the next to move: {board}"
        );
        assert_eq!(
            board["allowed_mentions"]["users"],
            serde_json::json!([next.id.to_string()])
        );
    }
    assert!(over, "the game ended");
    // From the tap on a move to its board in the channel, as this machine measures it: printed
    // for the record (`--nocapture`), never asserted.
    tap_to_board.sort();
    let at = |q: f64| tap_to_board[((tap_to_board.len() - 1) as f64 * q).round() as usize];
    eprintln!(
        "tap to board over {} moves: p50 {:?}, p99 {:?}",
        tap_to_board.len(),
        at(0.5),
        at(0.99)
    );
    assert_eq!(bot.moves_of(1).await, played, "every tap's move, in order");
    // An earlier board's Move button, once the game is over: refused privately, nothing played.
    let (late, _) = bot.click(&alice(), "game:move:1").await;
    assert!(is_ephemeral(&late), "{late}");
    assert!(
        late["data"]["content"]
            .as_str()
            .unwrap()
            .contains("game #1 is over"),
        "{late}"
    );
    assert_eq!(bot.moves_of(1).await, played);
    bot.finish();
}

/// On 10x10 the opening's 28 moves do not fit in one menu: the piece first, then its target,
/// three taps in all; "Another piece" goes back to the pieces. Labels are in the member's
/// language.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_piece_then_its_target_on_a_wide_board() {
    let bot = start().await;
    bot.start_game(&alice(), &bob(), "10x10").await;
    let (menu, _) = bot.click(&alice(), "game:move:1").await;
    let (id, pieces) = select_of(&menu["data"]);
    assert_eq!(id, "move:piece:1:0");
    assert_eq!(
        pieces.len(),
        10,
        "the ten pieces of the front row: {pieces:?}"
    );
    assert_eq!(pieces[0], ("a9 → a8, b8".to_string(), "a9".to_string()));
    assert_eq!(pieces[1].0, "b9 → a8, b8, c8");

    let (targets, _) = bot.choose(&alice(), &id, "b9").await;
    assert_eq!(targets["type"], 7, "{targets}");
    let (to, options) = select_of(&targets["data"]);
    assert_eq!(to, "move:to:1:0");
    let values: Vec<&str> = options.iter().map(|(_, v)| v.as_str()).collect();
    assert_eq!(values, ["b9-a8", "b9-b8", "b9-c8"]);
    assert_eq!(options[0].0, "b9 to a8");

    // Back to the pieces, then another one.
    let (back, _) = bot.click(&alice(), "move:pieces:1").await;
    assert_eq!(back["type"], 7);
    assert_eq!(select_of(&back["data"]).0, "move:piece:1:0");
    bot.choose(&alice(), "move:piece:1:0", "j9").await;
    let (done, _) = bot.choose(&alice(), "move:to:1:0", "j9-i8").await;
    assert_eq!(
        done["data"]["content"], "You played j9-i8 in game #1.",
        "{done}"
    );
    assert_eq!(bot.moves_of(1).await, ["j9-i8"]);

    // On 8x8 the opening's 22 moves fit in one menu: two taps.
    bot.start_game(&alice(), &super::carol(), "8x8").await;
    let (menu, _) = bot.click(&alice(), "game:move:2").await;
    let (id, options) = select_of(&menu["data"]);
    assert_eq!(id, "move:to:2:0");
    assert_eq!(options.len(), 22);

    // bob's menu in Spanish.
    let message = bot.fake.message_with_component("game:move:1").unwrap();
    let sent = bot
        .fake
        .send_interaction(
            InteractionBuilder::button("game:move:1")
                .by(&bob())
                .on_message(&message)
                .locale("es-ES"),
        )
        .await;
    let menu = bot.fake.callback_for(sent.id).await;
    assert_eq!(menu["data"]["content"], "Elige la pieza que mueves.");
    bot.finish();
}

/// A member not to move is refused privately; a menu of a position gone gets the fresh one;
/// a double tap, and two devices at once, play the move once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn taps_out_of_turn_stale_or_doubled_play_nothing_twice() {
    let bot = start().await;
    bot.start_game(&alice(), &bob(), "5x5").await;

    // bob is not to move.
    let (refused, _) = bot.click(&bob(), "game:move:1").await;
    assert_eq!(refused["type"], 4);
    assert!(is_ephemeral(&refused));
    assert!(
        refused["data"]["content"]
            .as_str()
            .unwrap()
            .contains("alice"),
        "{refused}"
    );

    // alice opens a menu, then both play by typing: her menu is two plies old.
    let (menu, _) = bot.click(&alice(), "game:move:1").await;
    let stale = bot.fake.message_with_component("move:to:1:0").unwrap();
    assert_eq!(select_of(&menu["data"]).0, "move:to:1:0");
    bot.play(&alice(), "a4-a3").await;
    bot.play(&bob(), "a2-b3").await;
    let sent = bot
        .fake
        .send_interaction(
            InteractionBuilder::select("move:to:1:0", &["b4-b3"])
                .by(&alice())
                .on_message(&stale),
        )
        .await;
    let fresh = bot.fake.callback_for(sent.id).await;
    assert_eq!(fresh["type"], 7, "{fresh}");
    assert!(
        fresh["data"]["content"]
            .as_str()
            .unwrap()
            .starts_with("The game moved on since this menu opened"),
        "{fresh}"
    );
    assert_eq!(select_of(&fresh["data"]).0, "move:to:1:2");
    assert_eq!(bot.moves_of(1).await, ["a4-a3", "a2-b3"]);

    // Two taps on the same choice at once: one move.
    let fresh_message = bot.fake.message_with_component("move:to:1:2").unwrap();
    let tap = || {
        InteractionBuilder::select("move:to:1:2", &["a3xb2"])
            .by(&alice())
            .on_message(&fresh_message)
    };
    let (one, two) = tokio::join!(
        bot.fake.send_interaction(tap()),
        bot.fake.send_interaction(tap())
    );
    let answers = [
        bot.fake.callback_for(one.id).await,
        bot.fake.callback_for(two.id).await,
    ];
    let played = answers
        .iter()
        .filter(|a| a["data"]["content"] == "You played a3xb2 in game #1.")
        .count();
    assert_eq!(played, 1, "{answers:?}");
    assert_eq!(bot.moves_of(1).await, ["a4-a3", "a2-b3", "a3xb2"]);
    // And again, once the first went through: it is bob's turn now.
    let sent = bot.fake.send_interaction(tap()).await;
    let late = bot.fake.callback_for(sent.id).await;
    assert!(
        late["data"]["content"].as_str().unwrap().contains("bob"),
        "{late}"
    );
    assert_eq!(bot.moves_of(1).await.len(), 3);
    // A value no menu offered (sent by hand): refused with the rules' words, nothing played.
    bot.click(&bob(), "game:move:1").await;
    let menu = bot.fake.message_with_component("move:to:1:3").unwrap();
    let sent = bot
        .fake
        .send_interaction(
            InteractionBuilder::select("move:to:1:3", &["hello"])
                .by(&bob())
                .on_message(&menu),
        )
        .await;
    let refused = bot.fake.callback_for(sent.id).await;
    assert!(
        refused["data"]["content"]
            .as_str()
            .unwrap()
            .starts_with("cannot read `hello` as a move"),
        "{refused}"
    );
    assert_eq!(bot.moves_of(1).await.len(), 3);
    bot.finish();
}

/// From the turn's direct message: the menu opens there, and the move's board goes to the
/// game's channel through the outbox, pinging the opponent, as a typed move's would.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_tapped_in_the_turn_message_posts_its_board_in_the_game_channel() {
    use std::time::Duration;
    let bot = start().await;
    bot.slash(
        InteractionBuilder::slash("notify")
            .by(&alice())
            .boolean("dm", true),
    )
    .await;
    bot.start_game(&alice(), &bob(), "5x5").await;
    let fake = &bot.fake;
    let opened = fake
        .wait_for("a direct message channel", Duration::from_secs(10), |r| {
            r.method == "POST" && r.path == "/users/@me/channels"
        })
        .await;
    let dm: u64 = opened.response.as_ref().unwrap()["id"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    fake.wait_channel_message(dm).await;
    let told = fake.messages_in(dm).pop().expect("the turn's message");
    assert!(told.to_string().contains("game:move:1"), "{told}");

    let sent = fake
        .send_interaction(
            InteractionBuilder::button("game:move:1")
                .by(&alice())
                .dm(dm)
                .on_message(&told),
        )
        .await;
    let menu = fake.callback_for(sent.id).await;
    assert_eq!(menu["type"], 4, "{menu}");
    let (id, options) = select_of(&menu["data"]);
    assert_eq!(id, "move:to:1:0");
    assert!(options.iter().any(|(_, v)| v == "a4-a3"), "{options:?}");
    let menu_message = fake.message_with_component("move:to:1:0").unwrap();
    let sent = fake
        .send_interaction(
            InteractionBuilder::select("move:to:1:0", &["a4-a3"])
                .by(&alice())
                .dm(dm)
                .on_message(&menu_message),
        )
        .await;
    let done = fake.callback_for(sent.id).await;
    assert_eq!(done["data"]["content"], "You played a4-a3 in game #1.");
    let posted = fake.wait_channel_message(CHANNEL_ID).await;
    let body = posted.body.as_ref().unwrap();
    assert!(embed_text(body).contains("Last move: a4-a3"), "{body}");
    assert!(
        body["content"]
            .as_str()
            .unwrap()
            .starts_with(&bob().mention()),
        "{body}"
    );
    assert!(
        fake.followups_for(&sent.token).is_empty(),
        "nothing posted in the DM"
    );
    assert_eq!(bot.moves_of(1).await, ["a4-a3"]);
    bot.finish();
}

/// Against the AI: the move chosen by taps, then the AI's reply, in the follow-up board that
/// asks for the member's next move with its own Move button.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn against_the_ai_the_board_after_its_reply_follows_the_tapped_move() {
    let bot = start().await;
    bot.slash(
        InteractionBuilder::slash("challenge")
            .by(&alice())
            .user("opponent", &the_bot())
            .string("size", "5x5")
            .integer("color", 0)
            .integer("level", 1),
    )
    .await;
    let (menu, _) = bot.click(&alice(), "game:move:1").await;
    let (id, _) = select_of(&menu["data"]);
    let (done, sent) = bot.choose(&alice(), &id, "a4-a3").await;
    assert_eq!(done["data"]["content"], "You played a4-a3 in game #1.");
    let board = bot.fake.wait_followups(&sent.token, 1).await.remove(0);
    let board = board.body.expect("a board");
    let content = board["content"].as_str().unwrap();
    assert!(
        content.starts_with(&alice().mention()) && content.contains("The AI (level 1) played "),
        "{content}"
    );
    assert!(board.to_string().contains("game:move:1"), "{board}");
    assert_eq!(bot.moves_of(1).await.len(), 2, "her move and the AI's");
    bot.finish();
}

/// A whole game played from the turns' direct messages alone: each player taps Move in the
/// message that tells them it is their turn; each move's board goes to the game's channel, and
/// the next turn's message to the other player.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_is_played_from_the_turns_direct_messages() {
    use std::time::Duration;
    let bot = start_with(true, &[("RATE_LIMIT_COMMANDS", "1000")]).await;
    let fake = &bot.fake;
    for who in [alice(), bob()] {
        bot.slash(
            InteractionBuilder::slash("notify")
                .by(&who)
                .boolean("dm", true),
        )
        .await;
    }
    bot.start_game(&alice(), &bob(), "3x5").await;
    // Each player's direct message channel, as the bot opens it.
    let dm_of = |who: &TestUser| {
        let id = who.id.to_string();
        fake.requests_to("POST", "/users/@me/channels")
            .into_iter()
            .find(|r| r.body.as_ref().unwrap()["recipient_id"] == id)
            .and_then(|r| {
                r.response.as_ref().unwrap()["id"]
                    .as_str()
                    .map(str::to_string)
            })
            .map(|id| id.parse::<u64>().unwrap())
    };
    let players = [alice(), bob()];
    let mut told = [0usize, 0usize];
    let mut over = false;
    for ply in 0..60 {
        let side = ply % 2;
        let who = &players[side];
        // The turn's message: the next one in the mover's direct messages.
        told[side] += 1;
        let dm = loop {
            if let Some(dm) = dm_of(who) {
                break dm;
            }
            fake.wait_for("a direct message channel", Duration::from_secs(10), |r| {
                r.method == "POST" && r.path == "/users/@me/channels"
            })
            .await;
        };
        fake.wait_channel_messages(dm, told[side]).await;
        let turn = fake.messages_in(dm).pop().expect("the turn's message");
        let sent = fake
            .send_interaction(
                InteractionBuilder::button("game:move:1")
                    .by(who)
                    .dm(dm)
                    .on_message(&turn),
            )
            .await;
        let menu = fake.callback_for(sent.id).await;
        let (id, options) = select_of(&menu["data"]);
        assert_eq!(id, format!("move:to:1:{ply}"), "{menu}");
        let value = options
            .iter()
            .map(|(_, v)| v.clone())
            .find(|v| v.contains('x'))
            .unwrap_or_else(|| options[0].1.clone());
        let menu_message = fake.message_with_component(&id).unwrap();
        let sent = fake
            .send_interaction(
                InteractionBuilder::select(&id, &[value.as_str()])
                    .by(who)
                    .dm(dm)
                    .on_message(&menu_message),
            )
            .await;
        let done = fake.callback_for(sent.id).await;
        assert_eq!(
            done["data"]["content"],
            format!("You played {value} in game #1.")
        );
        // The board in the game's channel, through the outbox.
        let boards = fake.wait_channel_messages(CHANNEL_ID, ply + 1).await;
        let board = boards[ply].body.as_ref().unwrap();
        assert!(
            embed_text(board).contains(&format!("Last move: {value}")),
            "{board}"
        );
        if board.to_string().contains("game:rematch:1") {
            over = true;
            break;
        }
    }
    assert!(over, "the game ended");
    bot.finish();
}
