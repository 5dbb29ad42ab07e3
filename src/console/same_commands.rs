//! The console's commands against the slash commands: the same commands, with the same options in
//! the same order, the same values and choices, and the same names in every language.
//!
//! Each front end declares its commands its own way: poise builds the slash commands from the
//! command functions' parameters, and clap reads the console's from [`Command`]. Neither is built
//! from the other, since the console knows nothing of Discord; these tests are what keeps the two
//! one list. They read the slash commands as they are registered (the JSON Discord receives, from
//! [`discord::localized_commands`]) and ask the console to read the same things, in every
//! language of [`Lang::all`].
//!
//! A slash command with subcommands (options of type 1, `/tournament create`) is compared one
//! subcommand at a time, as a command of its own: the console reads the subcommand as the first
//! word after the command, and the catalogues name it, and its options, by its key
//! (`tournament-create`, see [`subcommand_key`]).
//!
//! What one front end has on purpose and the other has not is listed below, with the reason.

use std::collections::BTreeSet;

use clap::CommandFactory;
use serde_json::Value;

use super::commands::{Command, CommandLine};
use super::parse::{
    command_name, english_command, english_option, english_subcommand, option_name,
    parse_command_in, subcommand_key, subcommand_name,
};
use super::*;
use crate::discord;
use crate::game::TimeControl;

/// Slash commands the console does not have, and why.
const DISCORD_ONLY: &[(&str, &str)] = &[];

/// Whether `name` is a slash command of [`DISCORD_ONLY`].
fn discord_only(name: &str) -> bool {
    DISCORD_ONLY.iter().any(|(only, _)| *only == name)
}

/// Words the console reads that are no slash command, and why. They are words of a line of
/// their own, not commands after a member's name (`help` is both).
const CONSOLE_ONLY: &[(&str, &str)] = &[
    (
        "wait",
        "moves the console's clock forward; Discord's clock is the real one",
    ),
    (
        "quit",
        "leaves the console; there is nothing to leave on Discord",
    ),
];

/// Console options that no slash command has: (command, option, why).
const CONSOLE_ONLY_OPTIONS: &[(&str, &str, &str)] = &[(
    "resign",
    "confirm",
    "Discord asks to confirm with a button under the question",
)];

/// Discord's bounds on a number that the console does not refuse itself but leaves to the game:
/// (command, option, why).
const BOUNDS_LEFT_TO_THE_GAME: &[(&str, &str, &str)] = &[
    (
        "vacation",
        "days",
        "the game refuses fewer than 0 days and more than are left of the year's allowance",
    ),
    (
        "leaderboard",
        "page",
        "the game shows the first page for page 0",
    ),
    (
        "tournament-create",
        "rounds",
        "the game refuses a Swiss of fewer than 1 or more than 20 rounds, saying the bounds",
    ),
    (
        "tournament-create",
        "max_players",
        "the game refuses fewer than 3 players, or more than the format takes, saying the bounds",
    ),
    (
        "tournament-pairings",
        "round",
        "the game says there is no round 0",
    ),
];

/// Choices the console reads by a code, the same in every language, rather than by the label
/// Discord shows in each: (command, option, why). For these, the console must read Discord's
/// English labels.
const CHOICES_BY_CODE: &[(&str, &str, &str)] = &[
    (
        "challenge",
        "time",
        "the console takes a time control as 10m, 1h, 1d, 3d or 7d, as its help says, in every language",
    ),
    (
        "tournament-create",
        "time",
        "the console takes a time control as 10m, 1h, 1d, 3d or 7d, as its help says, in every language",
    ),
    (
        "team-game",
        "window",
        "the console takes a window as 10m, 1h or 1d, as its help says, in every language",
    ),
];

/// A value to try for a text option, which could hold anything: (option, value).
const TEXT_SAMPLES: &[(&str, &str)] = &[
    ("move", "e7-e6"),
    ("size", "7x7"),
    ("name", "Spring Cup"),
    ("starts_in", "1d"),
];

/// Each fixed choice of an option as the console's own words write it, in the order Discord
/// offers them.
fn console_choices(command: &str, option: &str) -> Vec<String> {
    match (command, option) {
        ("challenge" | "team-game", "color") => {
            ["black", "white", "random"].map(String::from).to_vec()
        }
        ("team-game", "window") => ["10m", "1h", "1d"].map(String::from).to_vec(),
        ("challenge" | "tournament-create", "time") => {
            TimeControl::ALL.iter().map(ToString::to_string).collect()
        }
        ("settings" | "server-settings", "board") => ["emoji", "image"].map(String::from).to_vec(),
        ("server-settings", "threads") => ["on", "off"].map(String::from).to_vec(),
        ("tournament-create", "format") => ["round-robin", "swiss"].map(String::from).to_vec(),
        ("puzzle", "size") => ["6x6", "7x7", "8x8", "daily"].map(String::from).to_vec(),
        _ => panic!("/{command} {option}: Discord offers choices; list how the console reads them"),
    }
}

/// Discord's option types (`CommandOptionType`), as registered.
const SUB_COMMAND: u64 = 1;
const STRING: u64 = 3;
const INTEGER: u64 = 4;
const BOOLEAN: u64 = 5;
const USER: u64 = 6;
const CHANNEL: u64 = 7;

/// The slash commands as Discord receives them.
fn slash_commands() -> Vec<Value> {
    discord::localized_commands()
        .iter()
        .map(|c| {
            let c = c.create_as_slash_command().expect("a slash command");
            serde_json::to_value(c).expect("a command as JSON")
        })
        .collect()
}

fn text<'v>(v: &'v Value, key: &str) -> &'v str {
    v[key].as_str().unwrap_or_default()
}

fn options(command: &Value) -> &[Value] {
    command["options"].as_array().map_or(&[], Vec::as_slice)
}

/// A command as a member types it: a slash command, or one subcommand of one.
struct Leaf<'v> {
    command: &'v Value,
    sub: Option<&'v Value>,
}

impl Leaf<'_> {
    fn name(&self) -> &str {
        text(self.command, "name")
    }

    /// The catalogues' key: `challenge`, `tournament-create`.
    fn key(&self) -> String {
        match self.sub {
            Some(sub) => subcommand_key(self.name(), text(sub, "name")),
            None => self.name().to_string(),
        }
    }

    /// `/challenge`, `/tournament create`, for the failures.
    fn label(&self) -> String {
        match self.sub {
            Some(sub) => format!("/{} {}", self.name(), text(sub, "name")),
            None => format!("/{}", self.name()),
        }
    }

    fn options(&self) -> &[Value] {
        options(self.sub.unwrap_or(self.command))
    }
}

/// Each command a member can type: the slash commands without subcommands, and each subcommand
/// of the others.
fn leaves(commands: &[Value]) -> Vec<Leaf<'_>> {
    let mut out = Vec::new();
    for command in commands {
        let subs: Vec<&Value> = options(command)
            .iter()
            .filter(|o| o["type"].as_u64() == Some(SUB_COMMAND))
            .collect();
        if subs.is_empty() {
            out.push(Leaf { command, sub: None });
        }
        out.extend(subs.into_iter().map(|sub| Leaf {
            command,
            sub: Some(sub),
        }));
    }
    out
}

/// The console's commands a member can type, each with its catalogue key: the commands without
/// subcommands, and each subcommand of the others.
fn console_leaves(line: &clap::Command) -> Vec<(String, &clap::Command)> {
    let mut out = Vec::new();
    for c in line.get_subcommands() {
        if c.has_subcommands() {
            out.extend(
                c.get_subcommands()
                    .map(|sub| (subcommand_key(c.get_name(), sub.get_name()), sub)),
            );
        } else {
            out.push((c.get_name().to_string(), c));
        }
    }
    out
}

/// The command of `line` a leaf's key names.
fn console_leaf<'c>(line: &'c clap::Command, key: &str) -> &'c clap::Command {
    console_leaves(line)
        .into_iter()
        .find(|(k, _)| k == key)
        .map(|(_, c)| c)
        .unwrap_or_else(|| panic!("the console has no {key}"))
}

/// An option's fixed choices; none for an option that takes any value of its type.
fn choices(option: &Value) -> &[Value] {
    option["choices"].as_array().map_or(&[], Vec::as_slice)
}

/// What Discord shows a member speaking `lang` for `item` (a command, an option or a choice):
/// its translation for that language's locales, the same in each, or its English name.
fn shown(item: &Value, lang: Lang) -> String {
    let english = text(item, "name").to_string();
    if lang == Lang::En {
        return english;
    }
    let names: BTreeSet<&str> = item["name_localizations"]
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(locale, _)| Lang::from_locale(locale) == lang)
        .filter_map(|(_, name)| name.as_str())
        .collect();
    assert!(
        names.len() <= 1,
        "`{english}` has several names in {}: {names:?}",
        lang.code()
    );
    names.into_iter().next().map_or(english, String::from)
}

fn is_listed(list: &[(&str, &str, &str)], command: &str, option: &str) -> bool {
    list.iter().any(|&(c, o, _)| c == command && o == option)
}

/// The console's options of `command` (a leaf's key), in the order it declares them.
fn console_options(command: &str) -> Vec<(String, bool)> {
    let line = CommandLine::command();
    console_leaf(&line, command)
        .get_arguments()
        .filter_map(|a| Some((a.get_long()?.to_string(), a.is_required_set())))
        .collect()
}

/// An integer option's lowest (`min_value`) or highest (`max_value`) value, if the command sets
/// one: poise registers them as floats, and gives every `i64` the limits of a JSON number,
/// ±(2^53 - 1).
fn bound(option: &Value, key: &str) -> Option<i64> {
    let n = &option[key];
    n.as_i64()
        .or_else(|| n.as_f64().map(|f| f as i64))
        .filter(|n| n.abs() != (1 << 53) - 1)
}

/// A value the console should read for `option`, as Discord would send it.
fn sample(option: &Value) -> String {
    let name = text(option, "name");
    if let Some(choice) = choices(option).first() {
        return text(choice, "name").to_string();
    }
    match option["type"].as_u64() {
        Some(USER) => "@bob".to_string(),
        Some(BOOLEAN) => "true".to_string(),
        Some(INTEGER) => bound(option, "min_value").unwrap_or(1).max(1).to_string(),
        _ => TEXT_SAMPLES
            .iter()
            .find(|(o, _)| *o == name)
            .unwrap_or_else(|| panic!("`{name}` takes text: give a value to try in TEXT_SAMPLES"))
            .1
            .to_string(),
    }
}

/// The console reading `command` with `option` set to `value`, typed by a member speaking `lang`
/// with the names Discord shows them, and every other required option given.
fn read(lang: Lang, command: &Leaf<'_>, option: &Value, value: &str) -> Result<Command, String> {
    let mut words: Vec<String> = command
        .sub
        .map(|sub| shown(sub, lang))
        .into_iter()
        .collect();
    words.extend(
        command
            .options()
            .iter()
            .filter(|o| o["required"].as_bool() == Some(true) && o["name"] != option["name"])
            .map(|o| format!("{}:{}", shown(o, lang), sample(o))),
    );
    words.push(format!("{}:{value}", shown(option, lang)));
    parse_command_in(lang, &shown(command.command, lang), &words)
}

/// Whether `command` (a slash command's or a console command's name) is one only a front end
/// has, on purpose.
fn is_one_sided(command: &str) -> bool {
    DISCORD_ONLY
        .iter()
        .chain(CONSOLE_ONLY)
        .any(|(only, _)| *only == command)
}

#[test]
fn the_console_has_every_slash_command_and_no_other() {
    let commands = slash_commands();
    let slash: BTreeSet<String> = leaves(&commands)
        .iter()
        .filter(|leaf| !is_one_sided(leaf.name()))
        .map(Leaf::key)
        .collect();
    let line = CommandLine::command();
    let console: BTreeSet<String> = line
        .get_subcommands()
        .filter(|c| !is_one_sided(c.get_name()))
        .flat_map(|c| {
            let subs: Vec<String> = c
                .get_subcommands()
                .map(|sub| subcommand_key(c.get_name(), sub.get_name()))
                .collect();
            if subs.is_empty() {
                vec![c.get_name().to_string()]
            } else {
                subs
            }
        })
        .collect();
    assert_eq!(
        console, slash,
        "the console's commands (and subcommands) and Discord's differ"
    );
    for (word, _) in CONSOLE_ONLY {
        assert!(
            !commands.iter().any(|c| c["name"] == *word),
            "`{word}` is listed as the console's own, yet Discord has it"
        );
    }
}

#[test]
fn every_command_has_the_same_options_in_the_same_order() {
    let commands = slash_commands();
    for leaf in leaves(&commands) {
        if is_one_sided(leaf.name()) {
            continue;
        }
        let key = leaf.key();
        let slash: Vec<(String, bool)> = leaf
            .options()
            .iter()
            .map(|o| (text(o, "name").to_string(), o["required"] == true))
            .collect();
        let console: Vec<(String, bool)> = console_options(&key)
            .into_iter()
            .filter(|(option, _)| !is_listed(CONSOLE_ONLY_OPTIONS, &key, option))
            .collect();
        assert_eq!(
            console,
            slash,
            "{}: the console's options (and whether each is required) differ from Discord's",
            leaf.label()
        );
    }
    // Nothing is listed that is not there.
    for &(command, option, _) in CONSOLE_ONLY_OPTIONS {
        let own = console_options(command);
        assert!(own.iter().any(|(o, _)| o == option), "/{command} {option}");
    }
    for &(command, option, _) in BOUNDS_LEFT_TO_THE_GAME.iter().chain(CHOICES_BY_CODE) {
        let found = leaves(&commands)
            .iter()
            .filter(|leaf| leaf.key() == command)
            .flat_map(Leaf::options)
            .any(|o| o["name"] == option);
        assert!(found, "Discord has no {command} {option}");
    }
}

#[test]
fn every_command_and_option_has_the_same_name_in_every_language() {
    let commands = slash_commands();
    let line = CommandLine::command();
    for lang in Lang::all() {
        if lang != Lang::En {
            let spoken = commands.iter().any(|c| {
                c["name_localizations"]
                    .as_object()
                    .is_some_and(|l| l.keys().any(|locale| Lang::from_locale(locale) == lang))
            });
            assert!(spoken, "Discord has no locale for {}", lang.code());
        }
        for command in commands.iter().filter(|c| !discord_only(text(c, "name"))) {
            let name = text(command, "name");
            let shown_name = shown(command, lang);
            assert_eq!(
                command_name(lang, name),
                shown_name,
                "/{name} in {}",
                lang.code()
            );
            assert_eq!(
                english_command(&line, lang, &shown_name),
                name,
                "the console does not read /{shown_name} as /{name} in {}",
                lang.code()
            );
        }
        for leaf in leaves(&commands) {
            let Some(own) = line.find_subcommand(leaf.name()) else {
                continue;
            };
            let key = leaf.key();
            let label = leaf.label();
            let sub = match leaf.sub {
                Some(sub) => {
                    let sub_name = text(sub, "name");
                    let shown_sub = shown(sub, lang);
                    assert_eq!(
                        subcommand_name(lang, leaf.name(), sub_name),
                        shown_sub,
                        "{label} in {}",
                        lang.code()
                    );
                    assert_eq!(
                        english_subcommand(own, lang, &shown_sub),
                        sub_name,
                        "the console does not read {shown_sub} as {label} in {}",
                        lang.code()
                    );
                    console_leaf(&line, &key)
                }
                None => own,
            };
            for option in leaf.options() {
                let option_name_en = text(option, "name");
                let shown_option = shown(option, lang);
                assert_eq!(
                    option_name(lang, &key, option_name_en),
                    shown_option,
                    "{label} {option_name_en} in {}",
                    lang.code()
                );
                assert_eq!(
                    english_option(sub, lang, &key, &format!("{shown_option}:x")),
                    format!("{option_name_en}:x"),
                    "{label}: the console does not read {shown_option} as {option_name_en} in {}",
                    lang.code()
                );
            }
            for &(_, option, _) in CONSOLE_ONLY_OPTIONS.iter().filter(|(c, _, _)| *c == key) {
                let own = option_name(lang, &key, option);
                assert_eq!(
                    english_option(sub, lang, &key, &format!("{own}:x")),
                    format!("{option}:x"),
                    "{label}: the console does not read its own {own} as {option} in {}",
                    lang.code()
                );
            }
        }
    }
}

#[test]
fn the_console_reads_every_value_discord_can_send() {
    let commands = slash_commands();
    for lang in Lang::all() {
        for leaf in leaves(&commands) {
            let command = &leaf;
            let name = leaf.key();
            let name = name.as_str();
            for option in leaf.options() {
                let o = text(option, "name");
                let at = format!("{} {o} in {}", leaf.label(), lang.code());
                match option["type"].as_u64() {
                    Some(BOOLEAN) => {
                        let yes = read(lang, command, option, "true");
                        let no = read(lang, command, option, "false");
                        assert!(
                            yes.is_ok() && no.is_ok() && yes != no,
                            "{at}: {yes:?}, {no:?}"
                        );
                        let said_yes = tr!(lang, "console-value-yes");
                        let said_no = tr!(lang, "console-value-no");
                        assert_eq!(read(lang, command, option, &said_yes), yes, "{at}");
                        assert_eq!(read(lang, command, option, &said_no), no, "{at}");
                    }
                    Some(INTEGER) if !choices(option).is_empty() => {}
                    Some(INTEGER) => {
                        let (min, max) = (bound(option, "min_value"), bound(option, "max_value"));
                        for n in [min, max].into_iter().flatten() {
                            let got = read(lang, command, option, &n.to_string());
                            assert!(got.is_ok(), "{at}: {n}: {got:?}");
                        }
                        if is_listed(BOUNDS_LEFT_TO_THE_GAME, name, o) {
                            continue;
                        }
                        let beyond = [min.map(|n| n - 1), max.map(|n| n + 1)];
                        for n in beyond.into_iter().flatten() {
                            let got = read(lang, command, option, &n.to_string());
                            assert!(
                                got.is_err(),
                                "{at}: Discord refuses {n}, the console read {got:?}"
                            );
                        }
                    }
                    Some(CHANNEL) => {
                        let got = read(lang, command, option, "#east");
                        assert!(got.is_ok(), "{at}: #east: {got:?}");
                    }
                    Some(USER | STRING) => {
                        let value = sample(option);
                        let got = read(lang, command, option, &value);
                        assert!(got.is_ok(), "{at}: {value}: {got:?}");
                    }
                    other => {
                        panic!("{at}: an option of type {other:?} the console has no test for")
                    }
                }
            }
        }
    }
}

#[test]
fn every_choice_reads_as_the_same_value_in_every_language() {
    let commands = slash_commands();
    for leaf in leaves(&commands) {
        let command = &leaf;
        let name = leaf.key();
        let name = name.as_str();
        for option in leaf.options() {
            let choices = choices(option);
            if choices.is_empty() {
                continue;
            }
            let o = text(option, "name");
            let console = console_choices(name, o);
            assert_eq!(
                choices.len(),
                console.len(),
                "/{name} {o}: Discord offers {choices:?}, the console reads {console:?}"
            );
            for lang in Lang::all() {
                let by_code = is_listed(CHOICES_BY_CODE, name, o);
                let mut seen = Vec::new();
                for (choice, value) in choices.iter().zip(&console) {
                    let expected = read(lang, command, option, value);
                    assert!(expected.is_ok(), "/{name} {o}:{value}: {expected:?}");
                    // The label as Discord shows it, or one of its words (`black (moves first)`).
                    let label = if by_code {
                        text(choice, "name").to_string()
                    } else {
                        shown(choice, lang)
                    };
                    let words = label
                        .split(|c: char| !c.is_alphanumeric())
                        .filter(|w| !w.is_empty());
                    let got = std::iter::once(label.as_str())
                        .chain(words)
                        .map(|w| read(lang, command, option, w))
                        .find(Result::is_ok);
                    assert_eq!(
                        got.as_ref(),
                        Some(&expected),
                        "/{name} {o}: Discord's `{label}` in {} is not the console's {value}",
                        lang.code()
                    );
                    assert!(!seen.contains(&expected), "/{name} {o}: {value} twice");
                    seen.push(expected);
                }
            }
        }
    }
}
