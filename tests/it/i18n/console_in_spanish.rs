//! The console in Spanish: moves in algebraic notation, the commands, options, words and
//! values by their Spanish names, and the language taken from the environment.

use std::process::Command;

use crate::console::output_of;

pub(super) fn console(args: &[&str], env: &[(&str, &str)], script: &str) -> String {
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
    output_of(&mut cmd, script)
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
