//! A move, a resignation or an abort sent without a game number from a channel where the member
//! has no game in progress: the refusal points to the channels of the same server where their
//! games are, and from a direct message or another server it names no channel at all. On the
//! game service (both backends) and through the real bot on the fake Discord.

use std::sync::Arc;

use breakthrough_bot::game::{
    AccessRefusal, ChallengeRef, ChallengeRequest, ChannelId, GameId, GameRef, Limits, ManualClock,
    Member, Place, PlayError, Services, TimeControl, Timestamp,
};
use breakthrough_bot::i18n::Lang;
use breakthrough_bot::rules::Color;
use breakthrough_bot::store::Store;
use breakthrough_bot::text::Plain;

use crate::common::db::{on_both_backends, Backend, TestDb};
use crate::common::fake_discord::{InteractionBuilder, TestUser, CHANNEL_ID};

const T0: Timestamp = Timestamp::from_unix_seconds(1_800_000_000);
/// The game's channel, two other channels of its server, another server, and a direct message.
const HERE: Place = Place::new(10, 20);
const NEXT: Place = Place::new(10, 21);
const THIRD: Place = Place::new(10, 22);
const OTHER_SERVER: Place = Place::new(11, 30);
const A_DM: Place = Place::new(0, 40);

fn member(id: u64, name: &str) -> Member {
    Member::new(id, name)
}

/// `black` against `white` on 3x5 in `place`, started.
async fn started(games: &Services, place: Place, black: &Member, white: &Member) -> GameId {
    let c = games
        .challenges
        .challenge(ChallengeRequest {
            place,
            challenger: black.clone(),
            opponent: Some(white.clone()),
            size: "3x5".parse().unwrap(),
            color: Some(Color::Black),
            time: TimeControl::OneHour,
            rated: false,
        })
        .await
        .unwrap();
    games
        .challenges
        .accept(white, ChallengeRef::Id(c.place, c.id))
        .await
        .unwrap()
        .game
        .id
}

/// What `who` is told for a move, a resignation (asked and confirmed) and an abort sent from
/// `at` without a game number; all four must be the same refusal.
async fn refusals(games: &Services, who: &Member, at: Place) -> PlayError {
    let errors = [
        games.play.play(who, at, GameRef::Only, "a4-a3").await.err(),
        games.play.resignable(who.id, at, GameRef::Only).await.err(),
        games.play.resign(who, at, GameRef::Only).await.err(),
        games.play.abort(who, at, GameRef::Only).await.err(),
    ];
    let said: Vec<String> = errors
        .iter()
        .map(|e| e.as_ref().expect("refused").to_string())
        .collect();
    assert!(said.iter().all(|s| *s == said[0]), "{said:?}");
    errors.into_iter().next().flatten().expect("refused")
}

async fn the_wrong_channel_points_to_the_games_channels_of_its_server(b: Backend) {
    let db = TestDb::new(b).await;
    let store = Store::open(&db.url).await.unwrap();
    let games = Services::new(
        store.clone(),
        Arc::new(ManualClock::new(T0)),
        Limits::default(),
    );
    let (alice, bob, carol, dave) = (
        member(1001, "alice"),
        member(1002, "bob"),
        member(1003, "carol"),
        member(1004, "dave"),
    );
    let first = started(&games, HERE, &alice, &bob).await;

    let e = refusals(&games, &alice, NEXT).await;
    assert!(
        crate::is_refusal!(e, AccessRefusal::GamesElsewhere { count: 1, channels } if channels == [ChannelId::new(20)]),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "you have no game in progress in this channel; yours is in channel 20"
    );
    // From a direct message or another server, no channel of the server is named.
    for at in [A_DM, OTHER_SERVER] {
        let e = refusals(&games, &alice, at).await;
        assert!(crate::is_refusal!(e, AccessRefusal::NoActiveGame), "{e:?}");
    }
    // Someone with no game anywhere is told so, as before.
    let e = refusals(&games, &carol, NEXT).await;
    assert!(crate::is_refusal!(e, AccessRefusal::NoActiveGame), "{e:?}");

    // Three games in two channels: each channel once, and how many games.
    started(&games, THIRD, &carol, &alice).await;
    started(&games, HERE, &alice, &dave).await;
    let e = refusals(&games, &alice, NEXT).await;
    assert_eq!(
        e.to_string(),
        "you have no game in progress in this channel; your 3 games are in channel 20, channel 22"
    );
    assert_eq!(
        e.localized(Lang::Es, &Plain),
        "no tienes ninguna partida en curso en este canal; tus 3 partidas están en el canal 20, \
         el canal 22"
    );
    // Nothing was played, resigned or aborted.
    let game = store.game(first).await.unwrap().unwrap();
    assert_eq!(game.ply, 0);
    assert!(games.play.game(first).await.unwrap().is_active());
}

on_both_backends!(
    #[tokio::test]
    the_wrong_channel_points_to_the_games_channels_of_its_server,
);

// ----- through the real bot ----------------------------------------------------------------------

fn alice() -> TestUser {
    TestUser::new(300_000_000_000_000_601, "alice")
}
fn bob() -> TestUser {
    TestUser::new(300_000_000_000_000_602, "bob")
}
fn carol() -> TestUser {
    TestUser::new(300_000_000_000_000_603, "carol")
}

/// A move, a resignation and an abort, each without a game number.
fn commands() -> [InteractionBuilder; 3] {
    [
        InteractionBuilder::slash("move").string("move", "a4-a3"),
        InteractionBuilder::slash("resign"),
        InteractionBuilder::slash("abort"),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_discord_the_wrong_channel_links_to_the_game_and_a_dm_names_none() {
    let bot = crate::discord::start_with(true, &[("RATE_LIMIT_COMMANDS", "100")]).await;
    let challenge = |from: &TestUser, to: &TestUser, channel: u64| {
        InteractionBuilder::slash("challenge")
            .by(from)
            .in_channel(channel)
            .user("opponent", to)
            .string("size", "3x5")
            .integer("color", 0)
    };
    bot.slash(challenge(&alice(), &bob(), CHANNEL_ID)).await;
    bot.slash(InteractionBuilder::slash("accept").by(&bob()))
        .await;

    let elsewhere = bot.fake.next_id();
    for command in commands() {
        let r = bot.slash(command.by(&alice()).in_channel(elsewhere)).await;
        assert_eq!(r["data"]["flags"].as_u64().unwrap_or(0) & (1 << 6), 1 << 6);
        assert_eq!(
            r["data"]["content"],
            format!("you have no game in progress in this channel; yours is in <#{CHANNEL_ID}>")
        );
    }
    // From a direct message and from another server: today's words, no channel.
    let other_server = bot.fake.next_id();
    for command in commands() {
        let r = bot.slash(command.by(&alice()).dm(bot.fake.next_id())).await;
        assert_eq!(
            r["data"]["content"],
            "you have no game in progress in this channel"
        );
    }
    for command in commands() {
        let r = bot
            .slash(
                command
                    .by(&alice())
                    .in_guild(other_server)
                    .in_channel(bot.fake.next_id()),
            )
            .await;
        assert_eq!(
            r["data"]["content"],
            "you have no game in progress in this channel"
        );
    }

    // A second game in another channel: both channels are named.
    let second = bot.fake.next_id();
    bot.slash(challenge(&carol(), &alice(), second)).await;
    bot.slash(
        InteractionBuilder::slash("accept")
            .by(&alice())
            .in_channel(second),
    )
    .await;
    let r = bot
        .slash(
            InteractionBuilder::slash("move")
                .by(&alice())
                .in_channel(bot.fake.next_id())
                .string("move", "a2-a3"),
        )
        .await;
    assert_eq!(
        r["data"]["content"],
        format!(
            "you have no game in progress in this channel; your 2 games are in <#{CHANNEL_ID}>, \
             <#{second}>"
        )
    );
    // In Spanish too.
    let r = bot
        .slash(
            InteractionBuilder::slash("abort")
                .by(&alice())
                .in_channel(bot.fake.next_id())
                .locale("es-ES"),
        )
        .await;
    assert_eq!(
        r["data"]["content"],
        format!(
            "no tienes ninguna partida en curso en este canal; tus 2 partidas están en \
             <#{CHANNEL_ID}>, <#{second}>"
        )
    );

    let store = Store::open(&bot.db).await.unwrap();
    for id in [1, 2] {
        let game = store.game(GameId::new(id)).await.unwrap().unwrap();
        assert_eq!(game.ply, 0, "game {id}");
    }
    bot.finish();
}
