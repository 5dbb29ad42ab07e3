//! A typed line read as a command: words split, each command's and option's name read in the
//! console's language, bare values given to the options in order, and clap's refusals said in
//! one short line.

use std::any::TypeId;
use std::collections::HashSet;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{ArgAction, CommandFactory, Parser};

use crate::engine::LevelError;
use crate::game::{Member, TimeControlError};
use crate::i18n::commands::{command_id, option_id, Part};
use crate::i18n::tr;
use crate::i18n::{self, Lang};
use crate::rules::SizeError;
use crate::text::{Plain, Refusal};

use super::commands::{Command, CommandLine};
use super::values::fold;
use super::values::BadValue;
use super::{Console, Reply};

/// Why clap refused a value, in `lang`: the console's own refusals and the game's.
fn value_error(lang: Lang, why: &(dyn std::error::Error + 'static)) -> String {
    if let Some(e) = why.downcast_ref::<BadValue>() {
        e.localized(lang)
    } else if let Some(e) = why.downcast_ref::<SizeError>() {
        e.localized(lang, &Plain)
    } else if let Some(e) = why.downcast_ref::<TimeControlError>() {
        e.localized(lang, &Plain)
    } else if why.downcast_ref::<LevelError>().is_some() {
        LevelError.localized(lang, &Plain)
    } else {
        why.to_string()
    }
}

/// Splits a line into words, keeping "quoted phrases" together.
pub(super) fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            c if c.is_whitespace() && !quoted => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// [`parse_command_in`] in English.
#[cfg(test)]
fn parse_command(command: &str, args: &[String]) -> Result<Command, String> {
    parse_command_in(Lang::En, command, args)
}

/// Reads `command` and its words (`name:value` options and bare values), or says what is wrong
/// with them in one line, in `lang`. A command with subcommands (`tournament`) takes the
/// subcommand as its first word (`create`), then that subcommand's options.
pub(super) fn parse_command_in(
    lang: Lang,
    command: &str,
    args: &[String],
) -> Result<Command, String> {
    let line = CommandLine::command();
    let command = english_command(&line, lang, command);
    let mut args = args.to_vec();
    let mut key = command.clone();
    let mut leaf = line.find_subcommand(&command);
    if let Some(sub) = leaf.filter(|c| c.has_subcommands()) {
        leaf = None;
        if let Some(first) = args.first_mut() {
            *first = english_subcommand(sub, lang, first);
            key = subcommand_key(&command, first);
            leaf = sub.find_subcommand(first.as_str());
        }
    }
    if let Some(leaf) = leaf {
        for word in &mut args {
            *word = english_option(leaf, lang, &key, word);
        }
    }
    CommandLine::try_parse_from(clap_words(&command, &args))
        .map(|line| line.command)
        .map_err(|e| usage_error(lang, &command, &args, &e))
}

/// The catalogue key of a subcommand, for its name and its options' (`tournament-create`), as
/// [`command_id`] and [`option_id`] take a command's.
pub(super) fn subcommand_key(command: &str, subcommand: &str) -> String {
    format!("{command}-{subcommand}")
}

/// A subcommand's name in `lang`, as Discord shows it (`create` → `crear`).
pub(super) fn subcommand_name(lang: Lang, command: &str, subcommand: &str) -> String {
    i18n::lookup(
        lang,
        &command_id(&subcommand_key(command, subcommand), Part::Name),
        &[],
    )
    .unwrap_or_else(|_| subcommand.to_string())
}

/// The console's own (English) name of a subcommand of `command` typed in `lang`, as Discord
/// shows it to a member of that language (`crear` → `create`); any other word as it is.
pub(super) fn english_subcommand(command: &clap::Command, lang: Lang, typed: &str) -> String {
    let typed_folded = fold(typed);
    command
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .find(|name| fold(&subcommand_name(lang, command.get_name(), name)) == typed_folded)
        .unwrap_or_else(|| typed.to_string())
}

/// The console's own (English) name of a command typed in `lang`, as Discord shows it to a
/// member of that language (`desafiar` → `challenge`); any other word as it is. The English
/// names are understood whatever the language.
pub(super) fn english_command(line: &clap::Command, lang: Lang, typed: &str) -> String {
    let typed_folded = fold(typed);
    line.get_subcommands()
        .map(|c| c.get_name().to_string())
        .find(|name| fold(&command_name(lang, name)) == typed_folded)
        .unwrap_or_else(|| typed.to_string())
}

/// A command's name in `lang`, as Discord shows it (`challenge` → `desafiar`).
pub(super) fn command_name(lang: Lang, command: &str) -> String {
    i18n::lookup(lang, &command_id(command, Part::Name), &[])
        .unwrap_or_else(|_| command.to_string())
}

/// An option's name in `lang`, as Discord shows it (`size` → `tamaño`); the console's own
/// `confirm` has a name of its own.
pub(super) fn option_name(lang: Lang, command: &str, option: &str) -> String {
    if option == "confirm" {
        return tr!(lang, "console-opt-confirm");
    }
    i18n::lookup(lang, &option_id(command, option, Part::Name), &[])
        .unwrap_or_else(|_| option.to_string())
}

/// A `name:value` word for the command `sub` (whose catalogue key is `key`) with the option's
/// name, typed in `lang`, made the console's own (`tamaño:7x7` → `size:7x7`); any other word as
/// it is.
pub(super) fn english_option(sub: &clap::Command, lang: Lang, key: &str, word: &str) -> String {
    let Some((name, value)) = word.split_once(':') else {
        return word.to_string();
    };
    let name_folded = fold(name);
    sub.get_arguments()
        .filter_map(clap::Arg::get_long)
        .find(|long| fold(&option_name(lang, key, long)) == name_folded)
        .map_or_else(|| word.to_string(), |long| format!("{long}:{value}"))
}

/// Whether a word is a `name:value` option (rather than a bare value with a colon in it): its
/// name is letters, one of the command's options or at least three letters long, so that an
/// unknown name is refused rather than taken as a value.
fn named<'w>(options: &[&clap::Arg], word: &'w str) -> Option<(String, &'w str)> {
    let (name, value) = word.split_once(':')?;
    let name = name.to_ascii_lowercase();
    let known = options.iter().any(|o| o.get_long() == Some(name.as_str()));
    let looks_like_one = name.len() > 2 && name.chars().all(|c| c.is_ascii_alphabetic());
    (known || looks_like_one).then_some((name, value))
}

/// The words clap parses for `command`: each `name:value` becomes `--name=value`, and each bare
/// value goes to an option not named, as Discord's typed options would take it: a bare `#12` is
/// the game; any other to the first option left, in the order [`Command`] declares them, whose
/// value it reads as (a board size to `size`, `black` to `color`), else to the first left that
/// takes any text (a member, the move, a name), else to the first left, for it to refuse. An
/// option that takes several values (the move) stays open for more. Bare values no option is
/// left for go after `--`, for clap to refuse. A command with subcommands takes the first word
/// as the subcommand, and the rest as its options.
pub(super) fn clap_words(command: &str, args: &[String]) -> Vec<String> {
    let mut out = vec![command.to_string()];
    let line = CommandLine::command();
    let Some(mut sub) = line.find_subcommand(command) else {
        return out;
    };
    let mut args = args;
    if sub.has_subcommands() {
        let Some((first, rest)) = args.split_first() else {
            return out;
        };
        out.push(first.clone());
        match sub.find_subcommand(first.as_str()) {
            Some(leaf) => sub = leaf,
            None => {
                out.extend(rest.iter().cloned());
                return out;
            }
        }
        args = rest;
    }
    let leaf = out.clone();
    let options: Vec<&clap::Arg> = sub
        .get_arguments()
        .filter(|a| a.get_long().is_some())
        .collect();
    let mut given = HashSet::new();
    let mut bare = Vec::new();
    for word in args {
        match named(&options, word) {
            Some((name, value)) => {
                out.push(format!("--{name}={value}"));
                given.insert(name);
            }
            None => bare.push(word.as_str()),
        }
    }
    let game_free = options.iter().any(|o| o.get_long() == Some("game")) && !given.contains("game");
    if game_free {
        if let Some(i) = bare.iter().position(|w| w.starts_with('#')) {
            out.push(format!("--game={}", bare.remove(i)));
            given.insert("game".to_string());
        }
    }
    let mut bare = bare.into_iter();
    while let Some(word) = bare.next() {
        let free: Vec<&clap::Arg> = options
            .iter()
            .copied()
            .filter(|o| o.get_long().is_some_and(|name| !given.contains(name)))
            .collect();
        let typed = free
            .iter()
            .find(|o| !takes_any_text(o) && reads(&leaf, o, word));
        let chosen = typed
            .or_else(|| free.iter().find(|o| takes_any_text(o)))
            .or_else(|| free.first());
        let Some(name) = chosen.and_then(|o| o.get_long()) else {
            out.push("--".to_string());
            out.push(word.to_string());
            out.extend(bare.map(String::from));
            break;
        };
        out.push(format!("--{name}={word}"));
        if chosen.is_some_and(|o| !matches!(o.get_action(), ArgAction::Append)) {
            given.insert(name.to_string());
        }
    }
    out
}

/// Whether an option takes any text (a member's name, the move's words, a tournament's name)
/// rather than a value of its own kind.
fn takes_any_text(option: &clap::Arg) -> bool {
    let kind = option.get_value_parser().type_id();
    kind == TypeId::of::<String>() || kind == TypeId::of::<Member>()
}

/// Whether `option` of the command `leaf` (its words so far: the command, and its subcommand)
/// reads `word` as a value: clap is asked, and only a refusal of the value itself counts.
fn reads(leaf: &[String], option: &clap::Arg, word: &str) -> bool {
    let Some(name) = option.get_long() else {
        return false;
    };
    let mut trial = leaf.to_vec();
    trial.push(format!("--{name}={word}"));
    match CommandLine::try_parse_from(trial) {
        Ok(_) => true,
        Err(e) => !matches!(
            e.kind(),
            ErrorKind::ValueValidation | ErrorKind::InvalidValue
        ),
    }
}

/// One short line for words clap would not take, in the console's terms (`size:7x7`, not
/// `--size`); never clap's help. `args` are the words after `command`, its subcommand first if
/// it has subcommands.
fn usage_error(lang: Lang, command: &str, args: &[String], e: &clap::Error) -> String {
    let line = CommandLine::command();
    let Some(mut sub) = line.find_subcommand(command) else {
        return tr!(lang, "console-unknown-command", command = command);
    };
    let mut key = command.to_string();
    // What the member reads names the command as they know it; `command` is the console's own.
    let mut shown = command_name(lang, command);
    if sub.has_subcommands() {
        let leaf = args
            .first()
            .and_then(|first| Some((first, sub.find_subcommand(first.as_str())?)));
        let Some((first, leaf)) = leaf else {
            let names: Vec<String> = sub
                .get_subcommands()
                .map(|c| subcommand_name(lang, command, c.get_name()))
                .collect();
            return tr!(
                lang,
                "console-which-subcommand",
                command = &shown,
                subcommands = names.join(", ")
            );
        };
        key = subcommand_key(command, first);
        shown = format!("{shown} {}", subcommand_name(lang, command, first));
        sub = leaf;
    }
    let command = key.as_str();
    let options: Vec<&str> = sub
        .get_arguments()
        .filter_map(clap::Arg::get_long)
        .collect();
    let takes = if options.is_empty() {
        tr!(lang, "console-no-options")
    } else {
        let names: Vec<String> = options
            .iter()
            .map(|o| option_name(lang, command, o))
            .collect();
        names.join(", ")
    };
    let invalid = match e.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(s)) => Some(s.as_str()),
        Some(ContextValue::Strings(v)) => v.first().map(String::as_str),
        _ => None,
    };
    // `--size=9x99` or `--game <12>` as clap writes it: `size`, `game`.
    let long_name = |arg: &str| -> Option<String> {
        let name = arg.strip_prefix("--")?;
        Some(name.split(['=', ' ']).next().unwrap_or(name).to_string())
    };
    match (e.kind(), invalid) {
        (ErrorKind::UnknownArgument, Some(arg)) => match long_name(arg) {
            Some(name) => tr!(
                lang,
                "console-unknown-option",
                name = name,
                command = &shown,
                takes = takes
            ),
            None => tr!(
                lang,
                "console-too-many-values",
                command = &shown,
                value = arg,
                takes = takes
            ),
        },
        (ErrorKind::MissingRequiredArgument, Some(arg)) => {
            let name = long_name(arg).unwrap_or_else(|| arg.to_string());
            let example = sub
                .get_arguments()
                .find(|a| a.get_long() == Some(name.as_str()))
                .and_then(|a| a.get_value_names()?.first().map(ToString::to_string))
                .unwrap_or_else(|| "…".to_string());
            let example = if options.first() == Some(&name.as_str()) {
                example
            } else {
                format!("{}:{example}", option_name(lang, command, &name))
            };
            tr!(
                lang,
                "console-needs-value",
                command = &shown,
                name = option_name(lang, command, &name),
                example = example
            )
        }
        (ErrorKind::ValueValidation, _) => match std::error::Error::source(e) {
            Some(why) => value_error(lang, why),
            None => tr!(lang, "console-unreadable", command = &shown, takes = takes),
        },
        _ => tr!(lang, "console-unreadable", command = &shown, takes = takes),
    }
}

impl Console {
    /// Reads a member's command line and runs it: its answer, or why it cannot be read.
    pub(super) async fn command(&self, who: &Member, command: &str, args: &[String]) -> Reply {
        let command = match parse_command_in(self.lang, command, args) {
            Ok(command) => command,
            Err(msg) => return Reply::private(msg),
        };
        match self.run(who, command).await {
            Ok(reply) => reply,
            Err(e) => Reply::private(self.apology(e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::values::Side;
    use super::*;
    use crate::engine::Level;
    use crate::game::{AiLevel, GameId, TimeControl};
    use crate::rules::BoardSize;

    #[test]
    fn options_by_name_and_in_order() {
        let w = words("opponent:@bob 7x7 time:1h");
        let Ok(Command::Challenge {
            opponent,
            size,
            time,
            ..
        }) = parse_command("challenge", &w)
        else {
            panic!("{:?}", parse_command("challenge", &w));
        };
        assert_eq!(opponent.map(|m| m.name), Some("bob".into()));
        assert_eq!(size, Some(BoardSize::new(7, 7).unwrap()));
        assert_eq!(time, Some(TimeControl::OneHour));
        assert_eq!(
            parse_command("move", &words("e7 e6 #3")),
            Ok(Command::Move {
                words: vec!["e7".into(), "e6".into()],
                game: Some(GameId::new(3))
            })
        );
        assert!(parse_command("move", &words("colour:black")).is_err());
        assert!(parse_command("frobnicate", &[]).is_err());
        assert!(parse_command("accept", &words("@a @b")).is_err());
    }

    #[test]
    fn the_commands_are_a_valid_clap_definition() {
        CommandLine::command().debug_assert();
    }

    #[test]
    fn named_options_become_flags_and_bare_values_fill_the_rest_in_order() {
        let clap = |command: &str, line: &str| clap_words(command, &words(line)).join(" ");
        assert_eq!(
            clap("challenge", "@bob time:1h 7x7 black"),
            "challenge --time=1h --opponent=@bob --size=7x7 --color=black"
        );
        assert_eq!(
            clap("challenge", "Size:5x5 level:2"),
            "challenge --size=5x5 --level=2"
        );
        // The move takes every bare value; `#3` is the game wherever it stands.
        assert_eq!(
            clap("move", "e7 e6 #3"),
            "move --game=#3 --move=e7 --move=e6"
        );
        assert_eq!(clap("move", "#3 e7-e6"), "move --game=#3 --move=e7-e6");
        // A colon in a value is not an option; a word like one is, to be refused.
        assert_eq!(clap("move", "e7:e6"), "move --move=e7:e6");
        assert_eq!(clap("move", "colour:black"), "move --colour=black");
        // What no option is left for is handed on as is, and refused.
        assert_eq!(clap("accept", "@a @b"), "accept --challenger=@a -- @b");
        assert_eq!(clap("frobnicate", "x:y z"), "frobnicate");
    }

    #[test]
    fn values_are_read_with_the_words_members_see_today() {
        let refusal = |command: &str, line: &str| parse_command(command, &words(line)).unwrap_err();
        assert_eq!(
            refusal("challenge", "@bob 7x7 purple"),
            "`purple` is not a side: choose black, white or random"
        );
        assert_eq!(
            refusal("challenge", "@bob time:2h"),
            "`2h` is not a time control: choose 10m, 1h, 1d, 3d or 7d"
        );
        assert_eq!(
            refusal("challenge", "@bob level:9"),
            "the level must be auto, or a number from 1 to 5"
        );
        assert_eq!(refusal("resign", "#2 maybe"), "`maybe`: say yes or no");
        assert_eq!(refusal("leaderboard", "8x8 x"), "`x` is not a page number");
        assert_eq!(
            refusal("board", "x"),
            "`x` is not a game number: write it like 12 or #12"
        );
        assert_eq!(
            refusal("cancel", "@a"),
            "too many values for /cancel: `@a` (it takes no options)"
        );
        assert_eq!(
            parse_command("challenge", &words("@bot 6x6 random 1h no")),
            Ok(Command::Challenge {
                opponent: Some(super::super::values::member("bot")),
                size: Some(BoardSize::new(6, 6).unwrap()),
                color: Some(Side(None)),
                time: Some(TimeControl::OneHour),
                rated: Some(false),
                level: None,
            })
        );
        // Given twice, the last one counts.
        assert_eq!(
            parse_command("board", &words("game:1 game:2")),
            Ok(Command::Board {
                game: Some(GameId::new(2)),
                flip: None
            })
        );
        assert_eq!(parse_command("help", &[]), Ok(Command::Help));
        // The AI's level: named, or `auto`.
        for (typed, level) in [
            ("@bot level:auto", AiLevel::Auto),
            ("@bot level:4", AiLevel::Fixed(Level::new(4).unwrap())),
        ] {
            match parse_command("challenge", &words(typed)) {
                Ok(Command::Challenge { level: asked, .. }) => assert_eq!(asked, Some(level)),
                other => panic!("{typed}: {other:?}"),
            }
        }
    }
}
