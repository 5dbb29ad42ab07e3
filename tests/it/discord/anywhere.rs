//! The bot installed by a member to their own account and used where it is no member: in a
//! group DM (interaction context 2), it can only answer its member's commands and taps.

use breakthrough_bot::rules::Position;
use serde_json::{json, Value};

use super::{alice, bob, embed_text, is_ephemeral, start_with, the_bot};
use crate::common::fake_discord::InteractionBuilder;

/// Registered for all of Discord, each command says where it is offered: a server's features
/// where a server added the bot, the rest also to members' own installs, everywhere.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_are_offered_to_members_own_installs_except_a_servers_features() {
    let bot = start_with(false, &[]).await;
    let commands = bot.fake.commands(None);
    let offered = |name: &str| -> (Value, Value) {
        let c = commands
            .iter()
            .find(|c| c["name"] == name)
            .unwrap_or_else(|| panic!("no /{name}"));
        (c["integration_types"].clone(), c["contexts"].clone())
    };
    for name in [
        "challenge",
        "move",
        "board",
        "resign",
        "puzzle",
        "rating",
        "history",
        "analyze",
        "settings",
        "help",
        "games",
    ] {
        assert_eq!(offered(name), (json!([0, 1]), json!([0, 1, 2])), "/{name}");
    }
    for name in ["server-settings", "tournament", "leaderboard", "team-game"] {
        assert_eq!(offered(name), (json!([0]), json!([0])), "/{name}");
    }
    bot.finish();
}

/// `who`'s command in the group DM `channel`, where only their own install of the bot reaches.
fn in_group_dm(
    b: InteractionBuilder,
    channel: u64,
    who: &crate::common::fake_discord::TestUser,
) -> InteractionBuilder {
    b.by(who)
        .dm(channel)
        .set("context", json!(2))
        .set(
            "authorizing_integration_owners",
            json!({"1": who.id.to_string()}),
        )
        .set(
            "channel",
            json!({"id": channel.to_string(), "type": 3, "recipients": [who.user_json()]}),
        )
}

/// In a group DM the bot is no member of: a game against the AI is played to its end through
/// the answers to its member's commands, and nothing is ever posted in that channel; a challenge
/// between members is refused there, with why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_group_dm_a_game_against_the_ai_lives_in_the_answers_alone() {
    let bot = start_with(true, &[("RATE_LIMIT_COMMANDS", "1000")]).await;
    let group = bot.fake.next_id();
    let fake = &bot.fake;
    // Discord's answer to a post there: the bot has no access.
    fake.stub(
        "POST",
        &format!("/channels/{group}/messages"),
        403,
        Some(json!({"message": "Missing Access", "code": 50001})),
    );

    let refused = bot
        .slash(in_group_dm(
            InteractionBuilder::slash("challenge").user("opponent", &bob()),
            group,
            &alice(),
        ))
        .await;
    assert!(is_ephemeral(&refused), "{refused}");
    assert!(
        refused["data"]["content"]
            .as_str()
            .unwrap()
            .starts_with("here I can only answer your own commands"),
        "{refused}"
    );

    let started = bot
        .slash(in_group_dm(
            InteractionBuilder::slash("challenge")
                .user("opponent", &the_bot())
                .string("size", "3x5")
                .integer("color", 0)
                .integer("level", 1),
            group,
            &alice(),
        ))
        .await;
    assert_eq!(started["type"], 4, "{started}");
    assert!(embed_text(&started["data"]).contains("Game #1 · 3x5 · vs AI"));
    let mut position = Position::new("3x5".parse().unwrap());
    let mut over = false;
    for _ in 0..40 {
        let mv = position.legal_moves()[0].to_string();
        let sent = fake
            .send_interaction(in_group_dm(
                InteractionBuilder::slash("move").string("move", &mv),
                group,
                &alice(),
            ))
            .await;
        let first = fake.callback_for(sent.id).await;
        // Deferred while the AI thinks, then completed; or the board at once when the move won.
        let body = if first["type"] == 5 {
            fake.wait_original_edit(&sent.token)
                .await
                .body
                .expect("a board")
        } else {
            first["data"].clone()
        };
        let text = embed_text(&body);
        assert!(text.contains("Game #1"), "{body}");
        let store = bot.store().await;
        let game = store
            .game(breakthrough_bot::game::GameId::new(1))
            .await
            .unwrap()
            .unwrap();
        store.close().await;
        if game.state != breakthrough_bot::game::GameState::Active {
            over = true;
            break;
        }
        position = game.position.parse().unwrap();
    }
    assert!(over, "the game ended");
    assert!(
        fake.requests_to("POST", &format!("/channels/{group}/"))
            .is_empty(),
        "the bot posted where it is no member"
    );
    bot.finish();
}
