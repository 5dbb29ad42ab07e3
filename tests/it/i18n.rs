//! The message catalogues: every id the code uses is in every catalogue and nothing else is,
//! each message takes the same variables in every language, the catalogues parse, plurals read
//! right, and the console speaks Spanish when asked.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use breakthrough_bot::discord::{self, locales};
use breakthrough_bot::game::text::Plain;
use breakthrough_bot::game::GameError;
use breakthrough_bot::i18n::{self, Arg, Lang};
use breakthrough_bot::rules::{BoardSize, MoveError, Position, SizeError};
use fluent_syntax::ast::{Entry, Expression, InlineExpression, Pattern, PatternElement};

/// Every id the code looks up: the string literal that opens each `tr!(lang, "id", …)`.
fn ids_in_code() -> BTreeSet<String> {
    fn visit(dir: &Path, ids: &mut BTreeSet<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                visit(&path, ids);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let source = std::fs::read_to_string(&path).unwrap();
                for (at, _) in source.match_indices("tr!(") {
                    // `tr!` itself, not a macro whose name ends the same (`include_str!`).
                    let before = source[..at].chars().next_back();
                    if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                        continue;
                    }
                    let rest = &source[at + 4..];
                    // `tr!(lang, "id"`: the id is the literal right after the language.
                    let Some(open) = rest.find('"') else { continue };
                    if !rest[..open].trim_end().ends_with(',') || rest[..open].contains(';') {
                        continue;
                    }
                    let literal = &rest[open + 1..];
                    let close = literal.find('"').unwrap();
                    ids.insert(literal[..close].to_string());
                }
            }
        }
    }
    let mut ids = BTreeSet::new();
    visit(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut ids);
    assert!(ids.len() > 50, "the scan found only {ids:?}");
    ids
}

/// Each message of a catalogue with the variables it uses.
fn messages(lang: Lang) -> BTreeMap<String, BTreeSet<String>> {
    fn inline(e: &InlineExpression<&str>, vars: &mut BTreeSet<String>) {
        match e {
            InlineExpression::VariableReference { id } => {
                vars.insert(id.name.to_string());
            }
            InlineExpression::Placeable { expression } => expression_vars(expression, vars),
            InlineExpression::FunctionReference { arguments, .. } => {
                for a in &arguments.positional {
                    inline(a, vars);
                }
                for a in &arguments.named {
                    inline(&a.value, vars);
                }
            }
            _ => {}
        }
    }
    fn expression_vars(e: &Expression<&str>, vars: &mut BTreeSet<String>) {
        match e {
            Expression::Select { selector, variants } => {
                inline(selector, vars);
                for v in variants {
                    pattern(&v.value, vars);
                }
            }
            Expression::Inline(i) => inline(i, vars),
        }
    }
    fn pattern(p: &Pattern<&str>, vars: &mut BTreeSet<String>) {
        for element in &p.elements {
            if let PatternElement::Placeable { expression } = element {
                expression_vars(expression, vars);
            }
        }
    }
    let resource = fluent_syntax::parser::parse(lang.source())
        .unwrap_or_else(|(_, errors)| panic!("{}.ftl: {errors:?}", lang.code()));
    let mut out = BTreeMap::new();
    for entry in &resource.body {
        match entry {
            Entry::Message(m) => {
                let mut vars = BTreeSet::new();
                let value = m
                    .value
                    .as_ref()
                    .unwrap_or_else(|| panic!("{}: `{}` has no value", lang.code(), m.id.name));
                pattern(value, &mut vars);
                let twice = out.insert(m.id.name.to_string(), vars);
                assert!(twice.is_none(), "{}: `{}` twice", lang.code(), m.id.name);
            }
            Entry::Junk { content } => panic!("{}.ftl cannot read: {content}", lang.code()),
            _ => {}
        }
    }
    out
}

#[test]
fn every_catalogue_parses_without_error() {
    for lang in Lang::all() {
        assert!(!messages(lang).is_empty(), "{}", lang.code());
    }
    assert_eq!(i18n::catalogue_errors(), Vec::<String>::new());
}

#[test]
fn every_id_the_code_uses_is_in_every_catalogue_and_no_other() {
    let mut used = ids_in_code();
    // The slash commands' texts, whose ids follow the commands' English names.
    used.extend(locales::ids(&discord::commands()));
    for lang in Lang::all() {
        let defined: BTreeSet<String> = messages(lang).into_keys().collect();
        let missing: Vec<_> = used.difference(&defined).collect();
        let unused: Vec<_> = defined.difference(&used).collect();
        assert!(missing.is_empty(), "{}.ftl lacks {missing:?}", lang.code());
        assert!(
            unused.is_empty(),
            "{}.ftl has unused {unused:?}",
            lang.code()
        );
    }
}

#[test]
fn every_message_takes_the_same_variables_in_every_language() {
    let english = messages(Lang::En);
    for lang in Lang::all() {
        for (id, vars) in messages(lang) {
            assert_eq!(
                Some(&vars),
                english.get(&id),
                "`{id}` in {}.ftl takes other variables than in en.ftl",
                lang.code()
            );
        }
    }
}

#[test]
fn spanish_plurals_agree_with_their_number() {
    let es = |id: &str, args: &[(&str, Arg)]| i18n::lookup(Lang::Es, id, args).unwrap();
    assert_eq!(
        es("leaderboard-provisional", &[("count", Arg::Number(1))]),
        "1 jugador provisional no aparece"
    );
    assert_eq!(
        es("leaderboard-provisional", &[("count", Arg::Number(2))]),
        "2 jugadores provisionales no aparecen"
    );
    let refusal = |n| GameError::TooManyAiGames(n).localized(Lang::Es, &Plain);
    assert!(
        refusal(1).starts_with("ya tienes 1 partida en curso"),
        "{}",
        refusal(1)
    );
    assert!(
        refusal(3).starts_with("ya tienes 3 partidas en curso"),
        "{}",
        refusal(3)
    );
    let card = |games: i64, wins: i64, losses: i64| {
        es(
            "rating-card",
            &[
                ("name", Arg::from("ana")),
                ("size", Arg::from("8x8")),
                ("value", Arg::from("1500?")),
                ("deviation", Arg::from("350")),
                ("games", Arg::Number(games)),
                ("wins", Arg::Number(wins)),
                ("losses", Arg::Number(losses)),
            ],
        )
    };
    assert_eq!(
        card(1, 1, 0),
        "ana en 8x8: 1500? (desviación 350) · 1 partida, 1 victoria, 0 derrotas"
    );
    assert_eq!(
        card(2, 0, 2),
        "ana en 8x8: 1500? (desviación 350) · 2 partidas, 0 victorias, 2 derrotas"
    );
    // English keeps its words of today, number or not.
    assert_eq!(
        GameError::TooManyAiGames(1).to_string(),
        "you already have 1 game against the AI in progress, the most allowed: finish or resign \
         one first"
    );
}

#[test]
fn the_rules_refusals_read_the_same_from_the_english_catalogue() {
    let start = Position::new(BoardSize::new(5, 5).unwrap());
    let mut errors: Vec<MoveError> = [
        "hello", "e9-e8", "a1-a2", "c3-c2", "a4-a2", "a4-a5", "a4xa3", "a5-a4", "c3",
    ]
    .into_iter()
    .filter_map(|m| start.parse_move(m).err())
    .collect();
    let after = start.play(start.parse_move("b4-b3").unwrap()).unwrap();
    errors.extend(
        ["a2-a3", "a2xa3", "b3", "c4"]
            .into_iter()
            .filter_map(|m| after.parse_move(m).err()),
    );
    assert!(errors.len() >= 8, "{errors:?}");
    for e in errors {
        assert_eq!(GameError::Move(e.clone()).to_string(), e.to_string());
        let spanish = GameError::Move(e.clone()).localized(Lang::Es, &Plain);
        assert_ne!(spanish, e.to_string(), "not in Spanish: {spanish}");
    }
    for e in ["12x8".parse::<BoardSize>(), "big".parse::<BoardSize>()] {
        let e: SizeError = e.unwrap_err();
        assert_eq!(GameError::Size(e.clone()).to_string(), e.to_string());
    }
}

#[test]
fn locales_choose_spanish_for_every_spanish_variant() {
    for locale in ["es", "es-ES", "es-419", "es-MX"] {
        assert_eq!(Lang::from_locale(locale), Lang::Es, "{locale}");
    }
    for locale in ["en-US", "en-GB", "fr", "pt-BR", ""] {
        assert_eq!(Lang::from_locale(locale), Lang::En, "{locale}");
    }
}

fn console(args: &[&str], env: &[(&str, &str)], script: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("c.db").display());
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_breakthrough-bot"));
    cmd.env_remove("DATABASE_URL")
        .env_remove("LC_ALL")
        .env_remove("LANG")
        .env("RUST_LOG", "warn")
        .args(["console", "--db", &db, "--plain"])
        .args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

const GAME: &str = "\
@alice /challenge opponent:@bob size:3x5 color:black time:1h
@bob /accept
@alice /move a4-a3
@bob /move c2 c3
@bob /move c3-c4
@alice /move a3xb2
@bob /move c3-b4
@alice /move b2xa1
@carol /challenge size:12x8
@carol /board x
@carol /frobnicate
";

#[test]
fn the_console_speaks_spanish_with_moves_in_algebraic_notation() {
    let out = console(&["--lang", "es"], &[], GAME);
    // The console runs on the system clock: on a busy machine a second may pass between the
    // challenge and its text, so an hour left may read one minute less.
    let offer = "Desafío #1: alice desafía a bob · 3x5 · alice juega con negras · 1 hora por \
                 jugada · puntuable · caduca en ";
    let turn = "Jugada 1 · juegan las negras: alice · quedan ";
    for line in [offer, turn] {
        let (hour, less) = (format!("{line}1 h 0 min"), format!("{line}59 min"));
        assert!(
            out.contains(&hour) || out.contains(&less),
            "no {hour:?} nor {less:?} in:\n{out}"
        );
    }
    for want in [
        "Partida #1 · 3x5 · puntuable · 1 hora por jugada",
        "juegan las blancas: bob",
        "no es tu turno: le toca mover a alice",
        "Ganan las negras (alice): una pieza llegó a la última fila",
        "(solo para @carol) 12x8 no es un tablero admitido: los tableros tienen de 3 a 10 \
         columnas y de 5 a 10 filas",
        "(solo para @carol) `x` no es un número de partida: escríbelo como 12 o #12",
        "(solo para @carol) comando desconocido /frobnicate: escribe ayuda",
    ] {
        assert!(out.contains(want), "no {want:?} in:\n{out}");
    }
    for notation in ["a4-a3", "c2-c3", "a3xb2", "b2xa1"] {
        assert!(out.contains(notation), "no {notation} in:\n{out}");
    }
}

/// The commands and options under the names a Spanish speaker sees on Discord, and the English
/// ones beside them: the same game, the same words.
#[test]
fn the_spanish_console_takes_the_commands_by_their_spanish_names_too() {
    let spanish = GAME
        .replace(
            "/challenge opponent:@bob size:3x5 color:black time:1h",
            "/desafiar rival:@bob tamaño:3x5 color:black tiempo:1h",
        )
        .replace("@bob /accept", "@bob /aceptar")
        .replace("@alice /move", "@alice /mover")
        .replace("@carol /board x", "@carol /tablero partida:x");
    assert_ne!(spanish, GAME);
    let out = console(&["--lang", "es"], &[], &spanish);
    for want in [
        "Desafío #1: alice desafía a bob · 3x5 · alice juega con negras · 1 hora por jugada · \
         puntuable · caduca en 1 h 0 min",
        "Ganan las negras (alice): una pieza llegó a la última fila",
        "(solo para @carol) `x` no es un número de partida: escríbelo como 12 o #12",
    ] {
        assert!(out.contains(want), "no {want:?} in:\n{out}");
    }
    let help = console(&["--lang", "es"], &[], "@carol /ayuda\n");
    assert!(
        help.contains("/desafiar [rival] [tamaño] [color] [tiempo] [puntuable]"),
        "{help}"
    );
    assert!(help.contains("/mover jugada:<e7-e6> [partida]"), "{help}");
}

/// The console's own words and its options' values in Spanish (with or without accents), and its
/// refusals naming the commands and options as a Spanish speaker knows them.
#[test]
fn the_spanish_console_takes_its_words_and_values_in_spanish_and_answers_in_them() {
    let out = console(
        &["--lang", "es"],
        &[],
        "@alice /desafiar rival:@bob tamaño:3x5 color:blancas tiempo:1h
@bob /aceptar
@bob /mover a4-a3
@alice /abandonar partida:1 confirmar:sí
ayuda
esperar 2h
@carol /desafiar rival:@alice color:violeta
@carol /mover
@carol /tablero sabor:fresa
salir
@carol /frobnicate
",
    );
    for want in [
        // color:blancas: alice plays White, so bob moves first.
        "alice juega con blancas",
        "Ganan las negras (bob): alice ha abandonado",
        "`esperar 2h` adelanta el reloj; `salir` sale.",
        "(el reloj avanza 2 h 0 min)",
        "`violeta` no es un color: elige negras, blancas o azar",
        "(solo para @carol) /mover necesita jugada: escríbelo como /mover e7-e6",
        "opción desconocida `sabor` para /tablero; sus opciones: partida",
    ] {
        assert!(out.contains(want), "no {want:?} in:\n{out}");
    }
    // `salir` ended the session before the last line.
    assert!(
        !out.contains("frobnicate"),
        "a line read after quitting:\n{out}"
    );
    // `sí` and `si` are the same answer, and Spanish words are taken in an English console too.
    let en = console(
        &["--lang", "en"],
        &[],
        "@alice /challenge opponent:@bob size:3x5 color:negras
@bob /accept
@alice /resign game:1 confirm:si
",
    );
    assert!(en.contains("alice plays black"), "{en}");
    assert!(en.contains("resigned"), "{en}");
}

#[test]
fn the_console_takes_its_language_from_the_environment_unless_told() {
    let line = "@alice /challenge opponent:@bob\n";
    let spanish = console(&[], &[("LANG", "es_ES.UTF-8")], line);
    assert!(
        spanish.contains("Desafío #1: alice desafía a bob"),
        "{spanish}"
    );
    let told = console(&["--lang", "en"], &[("LC_ALL", "es_ES.UTF-8")], line);
    assert!(
        told.contains("Challenge #1: alice challenges bob"),
        "{told}"
    );
    let all = console(
        &[],
        &[("LC_ALL", "es_MX.UTF-8"), ("LANG", "en_US.UTF-8")],
        line,
    );
    assert!(all.contains("Desafío #1"), "{all}");
}

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
        .challenge(overdue::request(here, &zelda, &yusuf))
        .await
        .unwrap();
    games
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
        .challenge(overdue::request(here, &zelda, &yusuf))
        .await
        .unwrap();
    games
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
        text.contains("Partida #1 · 3x5 · contra la IA (nivel 3)"),
        "{text}"
    );
    assert!(text.contains("Anulada: sin resultado"), "{text}");
    let posted = bot.fake.wait_channel_message(CHANNEL_ID).await;
    let text = posted.body.as_ref().unwrap().to_string();
    assert!(text.contains("Anulada: sin resultado"), "{text}");
    bot.finish();
}

/// The English catalogue names each command, option and choice as the code does, so a command is
/// registered, dispatched and written about under one English name.
#[test]
fn the_english_catalogue_names_the_commands_as_the_code_does() {
    use breakthrough_bot::i18n::commands::{choice_id, command_id, option_id, Part};
    let en = |id: &str| i18n::lookup(Lang::En, id, &[]).unwrap_or_else(|e| panic!("{e}"));
    for c in discord::commands() {
        assert_eq!(en(&command_id(&c.name, Part::Name)), c.name);
        for p in &c.parameters {
            assert_eq!(en(&option_id(&c.name, &p.name, Part::Name)), p.name);
            for choice in p.choices.iter() {
                assert_eq!(en(&choice_id(&c.name, &p.name, &choice.name)), choice.name);
            }
        }
    }
}
