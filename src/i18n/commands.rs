//! The catalogue ids of the slash commands' texts, shared by the front ends: Discord registers
//! each command's name, description and choices in every language with them, and the console
//! reads a command or option typed in its language back to the English one.
//!
//! The ids are derived from the English names, so a new command or option needs only its lines
//! in each catalogue:
//!
//! - `cmd-<command>-name`, `cmd-<command>-description`;
//! - `cmd-<command>-<option>-name`, `cmd-<command>-<option>-description`;
//! - `cmd-<command>-<option>-<choice>` for a fixed choice: the words of its English label, in
//!   lowercase, joined by `-` (`black (moves first)` → `cmd-challenge-color-black-moves-first`).

/// What a text of a command is: its name or its description.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Name,
    Description,
}

impl Part {
    const fn suffix(self) -> &'static str {
        match self {
            Part::Name => "name",
            Part::Description => "description",
        }
    }
}

/// The catalogue id of a command's name or description.
pub fn command_id(command: &str, part: Part) -> String {
    format!("cmd-{command}-{}", part.suffix())
}

/// The catalogue id of an option's name or description.
pub fn option_id(command: &str, option: &str, part: Part) -> String {
    format!("cmd-{command}-{option}-{}", part.suffix())
}

/// The catalogue id of a fixed choice's label.
pub fn choice_id(command: &str, option: &str, label: &str) -> String {
    let words: Vec<String> = label
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let slug = words.join("-");
    format!("cmd-{command}-{option}-{slug}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_follow_the_english_names() {
        assert_eq!(command_id("move", Part::Name), "cmd-move-name");
        assert_eq!(
            option_id("challenge", "time", Part::Description),
            "cmd-challenge-time-description"
        );
        assert_eq!(
            choice_id("challenge", "time", "10 minutes"),
            "cmd-challenge-time-10-minutes"
        );
        assert_eq!(
            choice_id("challenge", "color", "black (moves first)"),
            "cmd-challenge-color-black-moves-first"
        );
    }
}
