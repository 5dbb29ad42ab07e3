//! `/settings` and `/server-settings` in Spanish: registered under the names, options and
//! choices a Spanish speaker sees, answered in the member's language, and typed by those names
//! in the console.

use serde_json::json;

use crate::common::fake_discord::{InteractionBuilder, TestUser, GUILD_ID};

/// On Discord: `/ajustes` and `/ajustes-servidor`, with their options and choices in Spanish,
/// and the private answers in the member's language.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discord_shows_the_settings_in_spanish() {
    let bot = crate::discord::start_with(true, &[]).await;
    let commands = bot.fake.commands(Some(GUILD_ID));
    let server = commands
        .iter()
        .find(|c| c["name"] == "server-settings")
        .expect("/server-settings registered");
    assert_eq!(server["name_localizations"]["es-ES"], "ajustes-servidor");
    let options = server["options"].as_array().unwrap();
    assert_eq!(options[0]["name_localizations"]["es-419"], "tablero");
    assert_eq!(options[1]["name_localizations"]["es-ES"], "hilos");
    let labels: Vec<_> = options[1]["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name_localizations"]["es-ES"].clone())
        .collect();
    assert_eq!(labels, [json!("sí"), json!("no")]);
    let own = commands.iter().find(|c| c["name"] == "settings").unwrap();
    assert_eq!(own["name_localizations"]["es-ES"], "ajustes");
    let images: Vec<_> = own["options"][0]["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name_localizations"]["es-ES"].clone())
        .collect();
    assert_eq!(images, [json!("emoji"), json!("imagen")]);

    let ana = TestUser::new(320_000_000_000_000_001, "ana");
    let saved = bot
        .slash(
            InteractionBuilder::slash("settings")
                .by(&ana)
                .integer("board", 1)
                .locale("es-ES"),
        )
        .await;
    assert_eq!(
        saved["data"]["content"],
        "Guardado.\n\
         Tus ajustes, para lo que solo ves tú (tableros privados y mensajes directos):\n\
         tablero: imagen\n\
         Cámbialos con /ajustes tablero:emoji o tablero:imagen."
    );
    let server = bot
        .slash(
            InteractionBuilder::slash("server-settings")
                .by(&ana)
                .locale("es-419"),
        )
        .await;
    assert_eq!(
        server["data"]["content"],
        "Los ajustes de este servidor, para lo que ven todos aquí:\n\
         tablero: emoji\n\
         hilos: no (un hilo público para cada partida que empiece en un canal)\n\
         Quien puede gestionar el servidor los cambia con \
         /ajustes-servidor tablero:emoji|imagen hilos:sí|no."
    );
    bot.finish();
}

/// In the console: the Spanish names and values, accents or not, and its refusals in Spanish.
#[test]
fn the_spanish_console_takes_the_settings_by_their_spanish_names() {
    let out = super::console_in_spanish::console(
        &["--lang", "es"],
        &[],
        "@ana /ajustes tablero:imagen\n@ana /ajustes-servidor hilos:si\n\
         @ana /ajustes-servidor tablero:dibujo\n",
    );
    for want in [
        "(solo para @ana)\nGuardado.\nTus ajustes",
        "\ntablero: imagen\n",
        "\ntablero: emoji\nhilos: sí (un hilo público",
        "(solo para @ana) `dibujo` no es una forma de mostrar los tableros: elige emoji o imagen",
    ] {
        assert!(out.contains(want), "no {want:?} in:\n{out}");
    }
}
