//! Members' and servers' settings: the defaults, a change that leaves the rest as it was, one
//! member's or server's choices apart from the others', kept across a restart, and a server's
//! settings refused in a direct message.

use breakthrough_bot::game::{
    BoardStyle, GuildId, Limits, MemberSettings, MemberSettingsChange, ServerSettings,
    ServerSettingsChange, Services, SettingsRefusal,
};
use breakthrough_bot::i18n::Lang;
use breakthrough_bot::store::Store;
use breakthrough_bot::text::Plain;

use super::{alice, bob, refused, world, A_DM, OTHER_SERVER, PLACE};
use crate::common::db::Backend;

const IMAGE: MemberSettingsChange = MemberSettingsChange {
    board: Some(BoardStyle::Image),
};

/// Boards as emoji and no threads until someone chooses otherwise; each change leaves what it
/// does not name as it was, for one member or one server only.
pub(super) async fn settings_default_to_emoji_and_no_threads_and_change_one_choice_at_a_time(
    b: Backend,
) {
    let w = world(b).await;
    let g = &w.games;
    let (me, other) = (alice().id, bob().id);
    let (here, elsewhere) = (PLACE.guild, OTHER_SERVER.guild);
    let emoji = MemberSettings {
        board: BoardStyle::Emoji,
    };
    assert_eq!(g.settings.member_settings(me).await.unwrap(), emoji);
    let defaults = ServerSettings {
        board: BoardStyle::Emoji,
        threads: false,
    };
    assert_eq!(g.settings.server_settings(here).await.unwrap(), defaults);

    // A member's choice is theirs alone, and asking with nothing to change changes nothing.
    let mine = g.settings.set_member_settings(me, IMAGE).await.unwrap();
    assert_eq!(mine.board, BoardStyle::Image);
    assert_eq!(g.settings.member_settings(me).await.unwrap(), mine);
    assert_eq!(g.settings.member_settings(other).await.unwrap(), emoji);
    let unchanged = g
        .settings
        .set_member_settings(me, MemberSettingsChange::default())
        .await
        .unwrap();
    assert_eq!(unchanged, mine);

    // One option at a time: threads on keeps the board, the board keeps threads on.
    let on = ServerSettingsChange {
        threads: Some(true),
        ..Default::default()
    };
    let after = g.settings.set_server_settings(here, on).await.unwrap();
    assert_eq!((after.board, after.threads), (BoardStyle::Emoji, true));
    let image = ServerSettingsChange {
        board: Some(BoardStyle::Image),
        ..Default::default()
    };
    let after = g.settings.set_server_settings(here, image).await.unwrap();
    assert_eq!((after.board, after.threads), (BoardStyle::Image, true));
    assert_eq!(g.settings.server_settings(here).await.unwrap(), after);
    assert_eq!(
        g.settings.server_settings(elsewhere).await.unwrap(),
        defaults
    );
    // The server's pictures are not the member's, nor the other way round.
    assert_eq!(g.settings.member_settings(other).await.unwrap(), emoji);

    // Back to the defaults, both at once.
    let both = ServerSettingsChange {
        board: Some(BoardStyle::Emoji),
        threads: Some(false),
    };
    assert_eq!(
        g.settings.set_server_settings(here, both).await.unwrap(),
        defaults
    );
    assert_eq!(g.settings.server_settings(here).await.unwrap(), defaults);
}

/// A member's board choice and their turn notifications share a row, and neither setting
/// undoes the other.
pub(super) async fn a_members_board_and_turn_notifications_are_kept_apart(b: Backend) {
    let w = world(b).await;
    let g = &w.games;
    let me = alice().id;
    g.settings.set_turn_dms(me, true, Lang::Es).await.unwrap();
    g.settings.set_member_settings(me, IMAGE).await.unwrap();
    assert!(g.settings.turn_dms(me).await.unwrap());
    g.settings.set_turn_dms(me, false, Lang::Es).await.unwrap();
    assert_eq!(
        g.settings.member_settings(me).await.unwrap().board,
        BoardStyle::Image
    );
    assert!(!g.settings.turn_dms(me).await.unwrap());
}

/// What was chosen is still there once the database is opened again, as after a restart.
pub(super) async fn settings_are_kept_across_a_restart(b: Backend) {
    let w = world(b).await;
    let me = alice().id;
    w.games
        .settings
        .set_member_settings(me, IMAGE)
        .await
        .unwrap();
    let threads = ServerSettingsChange {
        threads: Some(true),
        ..Default::default()
    };
    w.games
        .settings
        .set_server_settings(PLACE.guild, threads)
        .await
        .unwrap();
    w.store.close().await;
    let store = Store::open(&w.url).await.unwrap();
    let games = Services::new(store.clone(), w.clock.clone(), Limits::default());
    assert_eq!(
        games.settings.member_settings(me).await.unwrap().board,
        BoardStyle::Image
    );
    let server = games.settings.server_settings(PLACE.guild).await.unwrap();
    assert_eq!((server.board, server.threads), (BoardStyle::Emoji, true));
    store.close().await;
}

/// A direct message is in no server: its settings cannot be changed, said in words in every
/// language, and nothing is stored; reading them gives the defaults.
pub(super) async fn a_servers_settings_are_refused_in_a_direct_message(b: Backend) {
    let w = world(b).await;
    let change = ServerSettingsChange {
        board: Some(BoardStyle::Image),
        threads: Some(true),
    };
    assert_eq!(A_DM.guild, GuildId::DIRECT);
    refused!(
        w.games
            .settings
            .set_server_settings(A_DM.guild, change)
            .await,
        SettingsRefusal::ServerSettingsInDirect
    );
    let e = w
        .games
        .settings
        .set_server_settings(A_DM.guild, change)
        .await
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "a server's settings are changed in one of its channels, not in a direct message"
    );
    assert_eq!(
        e.localized(Lang::Es, &Plain),
        "los ajustes de un servidor se cambian en uno de sus canales, no por mensaje directo"
    );
    assert_eq!(
        w.games.settings.server_settings(A_DM.guild).await.unwrap(),
        ServerSettings::default()
    );
}
