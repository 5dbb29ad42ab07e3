//! The commands as members of other languages see them: each command's, option's and choice's
//! name and description in every Discord locale the catalogues speak (ids as in
//! [`crate::i18n::commands`]), added to the commands before they are registered.

use std::borrow::Cow;

use crate::i18n::commands::{choice_id, command_id, option_id, Part};

/// Every catalogue id the commands' texts use, in order.
pub fn ids<U, E>(commands: &[poise::Command<U, E>]) -> Vec<String> {
    let mut ids = Vec::new();
    for c in commands {
        push_ids(&mut ids, c, &c.name);
    }
    ids
}

/// The ids of command `c`, known as `command` in the ids: its own name, or a subcommand's
/// names joined by `-` (`tournament-create`), and those of its subcommands.
fn push_ids<U, E>(ids: &mut Vec<String>, c: &poise::Command<U, E>, command: &str) {
    ids.push(command_id(command, Part::Name));
    ids.push(command_id(command, Part::Description));
    for p in &c.parameters {
        ids.push(option_id(command, &p.name, Part::Name));
        ids.push(option_id(command, &p.name, Part::Description));
        for choice in p.choices.iter() {
            ids.push(choice_id(command, &p.name, &choice.name));
        }
    }
    for sub in &c.subcommands {
        push_ids(ids, sub, &format!("{command}-{}", sub.name));
    }
}

/// Sets each command's and option's description to `text(default, id)` (the catalogue's, not
/// the code's), and adds, for each Discord locale in `locales`, the names, descriptions and
/// choice labels that `text(locale, id)` finds. A text it does not find is left as it was, or
/// out (Discord then shows the default one); the catalogue tests make sure none is missing.
pub fn localize<U, E>(
    commands: &mut [poise::Command<U, E>],
    default: &str,
    locales: &[&'static str],
    text: impl Fn(&str, &str) -> Option<String>,
) {
    let found = |id: &str| -> Vec<(Cow<'static, str>, Cow<'static, str>)> {
        locales
            .iter()
            .filter_map(|&l| text(l, id).map(|t| (Cow::Borrowed(l), Cow::Owned(t))))
            .collect()
    };
    for c in commands.iter_mut() {
        let command = c.name.to_string();
        localize_one(c, &command, default, &text, &found);
    }
}

/// [`localize`] for command `c`, known as `command` in the ids (see [`push_ids`]), and its
/// subcommands.
fn localize_one<U, E>(
    c: &mut poise::Command<U, E>,
    command: &str,
    default: &str,
    text: &impl Fn(&str, &str) -> Option<String>,
    found: &impl Fn(&str) -> Vec<(Cow<'static, str>, Cow<'static, str>)>,
) {
    let description = command_id(command, Part::Description);
    if let Some(d) = text(default, &description) {
        c.description = Some(d.into());
    }
    c.name_localizations = found(&command_id(command, Part::Name)).into();
    c.description_localizations = found(&description).into();
    for p in c.parameters.iter_mut() {
        let option = p.name.to_string();
        let description = option_id(command, &option, Part::Description);
        if let Some(d) = text(default, &description) {
            p.description = Some(d.into());
        }
        p.name_localizations = found(&option_id(command, &option, Part::Name)).into();
        p.description_localizations = found(&description).into();
        for choice in p.choices.to_mut().iter_mut() {
            choice.localizations = found(&choice_id(command, &option, &choice.name)).into();
        }
    }
    for sub in c.subcommands.iter_mut() {
        let name = format!("{command}-{}", sub.name);
        localize_one(sub, &name, default, text, found);
    }
}
