//! The message catalogues: every id the code uses is in every catalogue and nothing else is,
//! each message takes the same variables in every language, the catalogues parse, plurals read
//! right, and the English catalogue names the commands as the code does. The console and the
//! bot speaking Spanish are in `i18n/console_in_spanish.rs` and `i18n/discord_in_spanish.rs`,
//! their settings in `i18n/settings_in_spanish.rs`.

mod console_in_spanish;
mod discord_in_spanish;
mod settings_in_spanish;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use breakthrough_bot::game::{ChallengeRefusal, Error, PlayRefusal};
use breakthrough_bot::i18n::{self, Arg, Lang};
use breakthrough_bot::rules::{BoardSize, MoveError, Position, SizeError};
use breakthrough_bot::text::{AnyError, Plain, Refusal};
use breakthrough_bot::{discord_commands, locales};
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
    used.extend(locales::ids(&discord_commands()));
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
    let card = |games, wins, losses| {
        es(
            "rating-card",
            &[
                ("name", "ana".into()),
                ("size", "8x8".into()),
                ("value", "1500?".into()),
                ("deviation", "290".into()),
                ("games", Arg::Number(games)),
                ("wins", Arg::Number(wins)),
                ("losses", Arg::Number(losses)),
            ],
        )
    };
    assert_eq!(
        card(1, 1, 0),
        "ana en 8x8: 1500? (desviación 290) · 1 partida, 1 victoria, 0 derrotas"
    );
    assert_eq!(
        card(3, 2, 1),
        "ana en 8x8: 1500? (desviación 290) · 3 partidas, 2 victorias, 1 derrota"
    );
    let refusal = |n| ChallengeRefusal::TooManyAiGames(n).localized(Lang::Es, &Plain);
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
        Error::Refused(ChallengeRefusal::TooManyAiGames(1)).to_string(),
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
        assert_eq!(
            Error::Refused(PlayRefusal::Move(e.clone())).to_string(),
            e.to_string()
        );
        let spanish = PlayRefusal::Move(e.clone()).localized(Lang::Es, &Plain);
        assert_ne!(spanish, e.to_string(), "not in Spanish: {spanish}");
    }
    for e in ["12x8".parse::<BoardSize>(), "big".parse::<BoardSize>()] {
        let e: SizeError = e.unwrap_err();
        assert_eq!(AnyError::refused(e.clone()).to_string(), e.to_string());
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

/// The English catalogue names each command, option and choice as the code does, so a command is
/// registered, dispatched and written about under one English name.
#[test]
fn the_english_catalogue_names_the_commands_as_the_code_does() {
    use breakthrough_bot::i18n::commands::{choice_id, command_id, option_id, Part};
    let en = |id: &str| i18n::lookup(Lang::En, id, &[]).unwrap_or_else(|e| panic!("{e}"));
    for c in discord_commands() {
        assert_eq!(en(&command_id(&c.name, Part::Name)), c.name);
        for p in &c.parameters {
            assert_eq!(en(&option_id(&c.name, &p.name, Part::Name)), p.name);
            for choice in p.choices.iter() {
                assert_eq!(en(&choice_id(&c.name, &p.name, &choice.name)), choice.name);
            }
        }
    }
}
