//! The bot in Spanish on Discord: a member answered in their language and the channel in the
//! server's, a whole game in Spanish, and the posts that answer no command in the language of
//! their server or the one their channel last showed, after a restart too.

/// On Discord: what only the member sees follows their language, what the channel sees follows
/// the server's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discord_answers_a_member_in_theirs_and_the_channel_in_the_servers_language() {
    use crate::common::fake_discord::{InteractionBuilder, TestUser};
    use serde_json::json;

    let bot = crate::discord::start_with(true, &[]).await;
    let alice = TestUser::new(310_000_000_000_000_001, "alice");
    let bob = TestUser::new(310_000_000_000_000_002, "bob");

    // A Spanish server: the challenge everyone sees is in Spanish, whatever alice's language.
    let reply = bot
        .slash(
            InteractionBuilder::slash("challenge")
                .by(&alice)
                .user("opponent", &bob)
                .string("size", "6x6")
                .integer("color", 0)
                .locale("en-US")
                .set("guild_locale", json!("es-ES")),
        )
        .await;
    let content = reply["data"]["content"].as_str().unwrap();
    assert!(
        content.ends_with("alice te desafía a una partida de Breakthrough."),
        "{reply}"
    );
    let embed = &reply["data"]["embeds"][0];
    assert_eq!(embed["title"], "Desafío #1");
    let description = embed["description"].as_str().unwrap();
    assert!(
        description.starts_with("Desafío #1: alice desafía a bob · 6x6 · alice juega con negras"),
        "{description}"
    );

    // An English server: bob, who reads Discord in Spanish, is refused in Spanish, privately.
    let refusal = bot
        .slash(
            InteractionBuilder::slash("move")
                .by(&bob)
                .string("move", "e2-e3")
                .locale("es-419"),
        )
        .await;
    assert_eq!(
        refusal["data"]["content"],
        "no tienes ninguna partida en curso en este canal"
    );
    assert_ne!(refusal["data"]["flags"].as_u64().unwrap_or(0) & (1 << 6), 0);
    bot.finish();
}

/// Every word of `v` a member reads: content, embeds (title, description, fields, footer) and
/// button labels.
fn words_read(v: &serde_json::Value) -> String {
    let mut s = v["content"].as_str().unwrap_or_default().to_string();
    for e in v["embeds"].as_array().into_iter().flatten() {
        for key in ["title", "description"] {
            s.push('\n');
            s.push_str(e[key].as_str().unwrap_or_default());
        }
        for f in e["fields"].as_array().into_iter().flatten() {
            s.push_str(&format!(
                "\n{}: {}",
                f["name"].as_str().unwrap_or_default(),
                f["value"].as_str().unwrap_or_default()
            ));
        }
        s.push('\n');
        s.push_str(e["footer"]["text"].as_str().unwrap_or_default());
    }
    for row in v["components"].as_array().into_iter().flatten() {
        for c in row["components"].as_array().into_iter().flatten() {
            s.push_str(&format!("\n[{}]", c["label"].as_str().unwrap_or_default()));
        }
    }
    s
}

/// A whole game on Discord in a Spanish server between two members who read Discord in Spanish:
/// every message, public or private, is in Spanish, and the moves are algebraic notation. A
/// member of the same server who reads Discord in English is refused in English.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discord_plays_a_whole_game_in_spanish() {
    use crate::common::fake_discord::{InteractionBuilder, TestUser};
    use serde_json::json;

    let bot = crate::discord::start_with(true, &[]).await;
    let alice = TestUser::new(320_000_000_000_000_001, "alice");
    let bob = TestUser::new(320_000_000_000_000_002, "bob");
    let carol = TestUser::new(320_000_000_000_000_003, "carol");
    let es = |b: InteractionBuilder| b.locale("es-ES").set("guild_locale", json!("es-ES"));
    let en = |b: InteractionBuilder| b.locale("en-US").set("guild_locale", json!("es-ES"));
    let mut read = Vec::new();

    let challenge = bot
        .slash(es(InteractionBuilder::slash("challenge")
            .by(&alice)
            .user("opponent", &bob)
            .string("size", "3x5")
            .integer("color", 0)))
        .await;
    let text = words_read(&challenge["data"]);
    assert!(
        text.contains("alice te desafía a una partida de Breakthrough."),
        "{text}"
    );
    assert!(text.contains("Desafío #1: alice desafía a bob · 3x5 · alice juega con negras · 1 día por jugada · puntuable"), "{text}");
    assert!(
        text.contains("[Aceptar]") && text.contains("[Rechazar]") && text.contains("[Cancelar]"),
        "{text}"
    );
    read.push(text);

    // carol reads Discord in English: her refusal is in English, and private.
    let refused = bot
        .slash(en(InteractionBuilder::slash("accept").by(&carol)))
        .await;
    assert_eq!(
        refused["data"]["content"],
        "there is no pending challenge for you here"
    );
    assert_ne!(refused["data"]["flags"].as_u64().unwrap_or(0) & (1 << 6), 0);

    // bob accepts with the button: the board everyone sees is in Spanish.
    let message = bot
        .fake
        .message_with_component("challenge:accept:1")
        .unwrap();
    let sent = bot
        .fake
        .send_interaction(es(InteractionBuilder::button("challenge:accept:1")
            .by(&bob)
            .on_message(&message)))
        .await;
    bot.fake.callback_for(sent.id).await;
    let board = &bot.fake.wait_followups(&sent.token, 1).await[0];
    let text = words_read(board.body.as_ref().unwrap());
    assert!(
        text.contains("Partida #1 · 3x5 · puntuable · 1 día por jugada"),
        "{text}"
    );
    assert!(text.contains("te toca mover"), "{text}");
    read.push(text);

    let play =
        |who: &TestUser, mv: &str| es(InteractionBuilder::slash("move").by(who).string("move", mv));
    for (mv, by) in [("a4-a3", &alice), ("c2-c3", &bob), ("a3xb2", &alice)] {
        let r = bot.slash(play(by, mv)).await;
        let text = words_read(&r["data"]);
        assert!(text.contains(&format!("Última jugada: {mv}")), "{text}");
        read.push(text);
    }
    // A move against the rules, refused in Spanish with the rule's reason.
    let r = bot.slash(play(&bob, "c3-c5")).await;
    assert_eq!(
        r["data"]["content"],
        "una pieza avanza una sola casilla cada vez"
    );
    // carol, in English, is refused in English in the same channel.
    let r = bot
        .slash(en(InteractionBuilder::slash("move")
            .by(&carol)
            .string("move", "c3-c4")))
        .await;
    assert_eq!(
        r["data"]["content"],
        "you have no game in progress in this channel"
    );

    let r = bot.slash(play(&bob, "c3xb4")).await;
    read.push(words_read(&r["data"]));
    let last = bot.slash(play(&alice, "b2xa1")).await;
    let text = words_read(&last["data"]);
    assert!(
        text.contains("Ganan las negras (alice): una pieza llegó a la última fila"),
        "{text}"
    );
    assert!(text.contains("alice: 1500? → 1662? (+162)"), "{text}");
    read.push(text);

    let card = bot
        .slash(es(InteractionBuilder::slash("rating")
            .by(&bob)
            .string("size", "3x5")))
        .await;
    let text = words_read(&card["data"]);
    assert!(
        text.contains("bob en 3x5: 1338? (desviación 290) · 1 partida, 0 victorias, 1 derrota"),
        "{text}"
    );
    read.push(text);
    let help = bot
        .slash(es(InteractionBuilder::slash("help").by(&bob)))
        .await;
    let text = words_read(&help["data"]);
    assert!(
        text.contains("/desafiar [rival] [tamaño] [color] [tiempo] [puntuable]"),
        "{text}"
    );
    read.push(text);

    for text in &read {
        for english in [
            "Game #",
            "Challenge #",
            " wins",
            "Last move",
            "rated",
            "per move",
            "Black",
            "White",
            "your move",
            "challenges you",
        ] {
            assert!(
                !text.contains(english),
                "{english:?} in a Spanish message:\n{text}"
            );
        }
    }
    bot.finish();
}

/// The clock's posts, which answer no interaction, speak the server's language as the gateway
/// told it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discord_posts_the_clocks_news_in_the_servers_language() {
    use crate::common::fake_discord::{CHANNEL_ID, GUILD_ID};
    use crate::common::overdue;
    use breakthrough_bot::game::{ChallengeRef, Member, Place};
    use breakthrough_bot::store::Store;
    use serde_json::json;

    let bot = crate::discord::start_with(true, &[("SWEEP_INTERVAL_SECS", "1")]).await;
    let (fake, db) = (&bot.fake, &bot.db);
    let guild = GUILD_ID.to_string();
    fake.wait_ready().await;
    fake.dispatch(
        "GUILD_CREATE",
        json!({
            "id": guild, "name": "Servidor", "owner_id": "310000000000000009",
            "verification_level": 0, "default_message_notifications": 0,
            "explicit_content_filter": 0, "roles": [], "emojis": [], "features": [],
            "mfa_level": 0, "system_channel_flags": 0, "premium_tier": 0,
            "preferred_locale": "es-ES", "nsfw_level": 0, "stickers": [],
            "premium_progress_bar_enabled": false, "joined_at": "2026-01-01T00:00:00.000000+00:00",
            "large": false, "member_count": 2, "voice_states": [], "members": [],
            "channels": [], "threads": [], "presences": [], "stage_instances": [],
            "guild_scheduled_events": []
        }),
    )
    .await;
    // Time for the bot to read it before the sweep finds anything to post.
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    // A game whose clock ran out before either side moved: the sweep aborts it and posts that.
    let store = Store::open(db).await.unwrap();
    let games = overdue::games_back_then(&store);
    let here = Place::new(GUILD_ID, CHANNEL_ID);
    let (zelda, yusuf) = (Member::new(9101, "zelda"), Member::new(9102, "yusuf"));
    let c = games
        .challenges
        .challenge(overdue::request(here, &zelda, &yusuf))
        .await
        .unwrap();
    games
        .challenges
        .accept(&yusuf, ChallengeRef::Id(c.place, c.id))
        .await
        .unwrap();
    store.close().await;
    let posted = fake.wait_channel_message(CHANNEL_ID).await;
    let text = posted.body.as_ref().unwrap().to_string();
    assert!(text.contains("Anulada: sin resultado"), "{text}");
    assert!(text.contains("Partida #1"), "{text}");
    bot.finish();
}

/// The posts that answer no command keep the language their channel's last command showed,
/// after a restart too: in a direct message the member's, and in a server the gateway has not
/// mentioned since start-up the server's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discord_posts_in_the_language_a_channel_last_showed_even_after_a_restart() {
    use crate::common::fake_discord::{
        InteractionBuilder, TestUser, BOT_USERNAME, BOT_USER_ID, CHANNEL_ID, GUILD_ID,
    };
    use crate::common::overdue;
    use breakthrough_bot::game::{ChallengeRef, Member, Place};
    use breakthrough_bot::store::Store;
    use serde_json::json;

    let mut bot = crate::discord::start_with(true, &[]).await;
    let alice = TestUser::new(330_000_000_000_000_001, "alice");
    let bob = TestUser::new(330_000_000_000_000_002, "bob");
    let ai = TestUser::new(BOT_USER_ID, BOT_USERNAME);
    // alice reads Discord in Spanish and plays the AI in a direct message; the AI, with Black,
    // opens, and it is alice's turn.
    let dm = bot.fake.next_id();
    let sent = bot
        .fake
        .send_interaction(
            InteractionBuilder::slash("challenge")
                .by(&alice)
                .dm(dm)
                .user("opponent", &ai)
                .string("size", "3x5")
                .integer("color", 1)
                .locale("es-ES"),
        )
        .await;
    bot.fake.callback_for(sent.id).await;
    bot.fake.wait_original_edit(&sent.token).await;
    // A Spanish server's channel has heard one command, from a member who reads English.
    bot.slash(
        InteractionBuilder::slash("help")
            .by(&bob)
            .locale("en-US")
            .set("guild_locale", json!("es-ES")),
    )
    .await;
    bot.kill();

    // While the bot is down: alice's clock runs out (before her first move: the game is
    // aborted), and a game in the server is made whose
    // clock ran out before either side moved.
    let store = Store::open(&bot.db).await.unwrap();
    let games = overdue::games_back_then(&store);
    let here = Place::new(GUILD_ID, CHANNEL_ID);
    let (zelda, yusuf) = (Member::new(9201, "zelda"), Member::new(9202, "yusuf"));
    let c = games
        .challenges
        .challenge(overdue::request(here, &zelda, &yusuf))
        .await
        .unwrap();
    games
        .challenges
        .accept(&yusuf, ChallengeRef::Id(c.place, c.id))
        .await
        .unwrap();
    store.close().await;
    let pool = sqlx::sqlite::SqlitePool::connect(&bot.db).await.unwrap();
    sqlx::query("UPDATE games SET deadline = strftime('%s', 'now') - 60 WHERE id = 1")
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;

    bot.start_again(&[("SWEEP_INTERVAL_SECS", "1")]).await;
    let posted = bot.fake.wait_channel_message(dm).await;
    let text = posted.body.as_ref().unwrap().to_string();
    assert!(
        text.contains("Partida #1 · 3x5 · contra la IA (nivel 2)"),
        "{text}"
    );
    assert!(text.contains("Anulada: sin resultado"), "{text}");
    let posted = bot.fake.wait_channel_message(CHANNEL_ID).await;
    let text = posted.body.as_ref().unwrap().to_string();
    assert!(text.contains("Anulada: sin resultado"), "{text}");
    bot.finish();
}
