//! `/settings` and `/server-settings`: shown without options and saved with, privately; each
//! member's and each server's own; `/server-settings` registered for those who may manage the
//! server, and in servers only.

use serde_json::{json, Value};

use breakthrough_bot::game::{BoardStyle, GuildId, Limits, MemberId, Services, SystemClock};

use super::{alice, bob, is_ephemeral, start_with};
use crate::common::fake_discord::{InteractionBuilder, GUILD_ID};

/// Discord's Manage Server permission bit.
const MANAGE_GUILD: u64 = 1 << 5;
/// Discord's interaction context of a server (`contexts`: 0 a server, 1 the bot's DM).
const IN_A_SERVER: u64 = 0;
/// Fixed choices travel as their index.
const IMAGE: i64 = 1;
const ON: i64 = 0;

fn content(reply: &Value) -> &str {
    reply["data"]["content"].as_str().unwrap_or_default()
}

/// `/settings` shows a member's choices to them alone, then keeps what they choose, for them
/// alone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settings_show_the_defaults_then_keep_a_members_choice() {
    let bot = start_with(true, &[]).await;
    let shown = bot
        .slash(InteractionBuilder::slash("settings").by(&alice()))
        .await;
    assert!(is_ephemeral(&shown), "{shown}");
    assert_eq!(
        content(&shown),
        "Your settings, for what only you see (private boards and direct messages):\n\
         board: emoji\n\
         Change them with /settings board:emoji or board:image."
    );
    let saved = bot
        .slash(
            InteractionBuilder::slash("settings")
                .by(&alice())
                .integer("board", IMAGE),
        )
        .await;
    assert!(is_ephemeral(&saved), "{saved}");
    assert!(
        content(&saved).starts_with("Saved.\nYour settings,")
            && content(&saved).contains("\nboard: image\n"),
        "{saved}"
    );
    let again = bot
        .slash(InteractionBuilder::slash("settings").by(&alice()))
        .await;
    assert!(content(&again).contains("\nboard: image\n"), "{again}");
    let bobs = bot
        .slash(InteractionBuilder::slash("settings").by(&bob()))
        .await;
    assert!(content(&bobs).contains("\nboard: emoji\n"), "{bobs}");
    // What the game service reads when it posts: the member's choice, kept in the database.
    let games = Services::new(
        bot.store().await,
        std::sync::Arc::new(SystemClock),
        Limits::default(),
    );
    let member = |u: &crate::common::fake_discord::TestUser| MemberId::new(u.id);
    let mine = games
        .settings
        .member_settings(member(&alice()))
        .await
        .unwrap();
    assert_eq!(mine.board, BoardStyle::Image);
    let his = games
        .settings
        .member_settings(member(&bob()))
        .await
        .unwrap();
    assert_eq!(his.board, BoardStyle::Emoji);
    bot.finish();
}

/// `/server-settings` is registered for members who may manage the server and for servers only;
/// it shows the server's choices, saves one option without touching the other, and keeps each
/// server's apart. Sent from a direct message anyway, it is refused and changes nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_settings_are_saved_per_server_by_those_who_may_manage_it() {
    // Registered globally, as in production, where direct messages could reach a command.
    let bot = start_with(false, &[]).await;
    let commands = bot.fake.wait_for_commands(None).await;
    let command = |name: &str| {
        commands
            .iter()
            .find(|c| c["name"] == name)
            .cloned()
            .unwrap_or_else(|| panic!("no /{name} in {commands:?}"))
    };
    let server = command("server-settings");
    assert_eq!(
        server["default_member_permissions"],
        json!(MANAGE_GUILD.to_string())
    );
    assert_eq!(server["contexts"], json!([IN_A_SERVER]), "{server}");
    // A member's own settings are for everyone, everywhere.
    let own = command("settings");
    assert_eq!(own["default_member_permissions"], Value::Null, "{own}");
    assert_ne!(own["contexts"], json!([IN_A_SERVER]), "{own}");

    let shown = bot
        .slash(InteractionBuilder::slash("server-settings").by(&alice()))
        .await;
    assert!(is_ephemeral(&shown), "{shown}");
    assert_eq!(
        content(&shown),
        "This server's settings, for what everyone here sees:\n\
         board: emoji\n\
         threads: off (a public thread for each game started in a channel)\n\
         Members who may manage the server change them with \
         /server-settings board:emoji|image threads:on|off."
    );
    let threads = bot
        .slash(
            InteractionBuilder::slash("server-settings")
                .by(&alice())
                .integer("threads", ON),
        )
        .await;
    assert!(is_ephemeral(&threads), "{threads}");
    assert!(
        content(&threads).starts_with("Saved.\nThis server's settings")
            && content(&threads).contains("\nboard: emoji\nthreads: on "),
        "{threads}"
    );
    let board = bot
        .slash(
            InteractionBuilder::slash("server-settings")
                .by(&bob())
                .integer("board", IMAGE),
        )
        .await;
    assert!(
        content(&board).contains("\nboard: image\nthreads: on "),
        "{board}"
    );
    let elsewhere = bot
        .slash(
            InteractionBuilder::slash("server-settings")
                .by(&bob())
                .in_guild(GUILD_ID + 1),
        )
        .await;
    assert!(
        content(&elsewhere).contains("\nboard: emoji\nthreads: off "),
        "{elsewhere}"
    );
    let dm = bot
        .slash(
            InteractionBuilder::slash("server-settings")
                .by(&alice())
                .integer("threads", 1)
                .dm(800_000_000_000_000_001),
        )
        .await;
    assert!(is_ephemeral(&dm), "{dm}");
    assert_eq!(content(&dm), "this command cannot be used here");

    let games = Services::new(
        bot.store().await,
        std::sync::Arc::new(SystemClock),
        Limits::default(),
    );
    let here = games
        .settings
        .server_settings(GuildId::new(GUILD_ID))
        .await
        .unwrap();
    assert_eq!((here.board, here.threads), (BoardStyle::Image, true));
    bot.finish();
}
