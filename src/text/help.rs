//! The help, the board's legend, and the turn-notification setting: what a member reads to
//! find their way, for a front end with buttons (Discord) or without (the console).

use crate::i18n::{tr, Lang};

use super::Markup;

/// Rules, notation and commands, short, for a front end with or without buttons.
pub fn help(lang: Lang, m: &dyn Markup) -> String {
    tr!(
        lang,
        "help",
        buttons = if m.has_buttons() { "yes" } else { "no" }
    )
}

/// The turn-notification setting, and how to change it.
pub fn notify_setting(lang: Lang, m: &dyn Markup, on: bool) -> String {
    let (yes, no) = (m.yes_or_no(lang, true), m.yes_or_no(lang, false));
    if on {
        tr!(lang, "notify-on", off = no)
    } else {
        tr!(lang, "notify-off", on = yes)
    }
}

/// What a board's pieces and marks mean, under an emoji board.
pub fn board_legend(lang: Lang) -> String {
    tr!(lang, "board-legend")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::Plain;

    #[test]
    fn the_english_help_reads_word_for_word() {
        let before = "\
Breakthrough: move one piece one square forward, straight or diagonally, onto an empty square; \
capture diagonally forward only. Reach the far row, or take every enemy piece, to win. Black moves first.
Moves: e7-e6, or d4xe5 for a capture (e7e6 and e7 e6 work too; e6 alone when only one piece can go there).
Commands:
/challenge [opponent] [size] [color] [time] [rated] · challenge a member, or anyone here without opponent
/challenge opponent:<the bot> [level] · play the built-in AI at once (level 1 beginner to 5 strong, default 3; never rated; works in DMs too)
/accept [challenger] · /decline [challenger] · /cancel · /rematch [game] (or the Rematch button under a finished game: colours swapped)
/move move:<e7-e6> [game] · /board [game] [flip] · /resign [game] · /abort [game]
/vacation days:<0-21> · /notify [dm] · /games [user] · /leaderboard [size] [page] · /rating [user] [size] · /history [game] · /help
/analyze [game] · the engine's look back at a finished game (or one against the AI): the worst moves and where it was decided
/team-game [size] [color] [level] [window] · this channel plays the AI, voting on each move with /move
/puzzle [size or daily] · a puzzle the engine proved, answered with /move
/settings [board] · /server-settings [board] [threads] · boards as emoji or pictures, for you or for the server, and a thread for each game
/tournament create · join · leave · start · standings · pairings · withdraw · cancel · tournaments: \
a member with Manage Server creates one (round-robin: every pair plays once, all games at once; \
swiss: rounds paired by score, no rematch, colours alternating, a bye worth 1 point); members join \
with its button. A win scores 1. Tie-breaks: round robin: direct encounter, Sonneborn-Berger, \
fewer games lost on time; Swiss: Buchholz cut-1, Sonneborn-Berger, direct encounter";
        assert_eq!(help(Lang::En, &WithButtons), before);
        let es = help(Lang::Es, &WithButtons);
        assert!(es.starts_with("Breakthrough: mueve una pieza"));
        assert!(es.contains("/torneo crear · unirse · salir · empezar"));
        assert!(es.contains("/problema [tamaño o diario]"));
        assert!(es.contains("el botón Revancha"));
        // It is a message's content, which Discord takes up to 2000 characters.
        for lang in Lang::all() {
            let help = help(lang, &WithButtons);
            assert!(
                help.chars().count() <= 2000,
                "{} {}",
                lang.code(),
                help.chars().count()
            );
        }
    }

    #[test]
    fn the_help_without_buttons_points_to_commands_instead() {
        let en = help(Lang::En, &Plain);
        assert!(en.contains("/rematch [game] (colours swapped)\n"), "{en}");
        assert!(en.contains("any member creates one ("), "{en}");
        assert!(en.contains("members join with /tournament join."), "{en}");
        let es = help(Lang::Es, &Plain);
        assert!(es.contains("(con los colores cambiados)\n"), "{es}");
        assert!(es.contains("con /torneo unirse."), "{es}");
        for help in [en, es] {
            assert!(
                !help.contains("button") && !help.contains("botón"),
                "{help}"
            );
            assert!(
                !help.contains("Manage Server") && !help.contains("gestionar"),
                "{help}"
            );
        }
    }

    #[test]
    fn the_notification_setting_names_the_values_each_front_end_reads() {
        assert!(notify_setting(Lang::En, &WithButtons, true)
            .ends_with("/notify dm:False turns them off."));
        assert!(notify_setting(Lang::En, &WithButtons, false)
            .ends_with("/notify dm:True turns them on."));
        assert!(notify_setting(Lang::En, &Plain, true).ends_with("/notify dm:no turns them off."));
        assert!(notify_setting(Lang::En, &Plain, false).ends_with("/notify dm:yes turns them on."));
        assert!(notify_setting(Lang::Es, &Plain, false).contains(":sí los activa."));
    }

    /// A front end with buttons and Discord's words for a yes or no, as the help is shown there.
    struct WithButtons;

    impl Markup for WithButtons {
        fn name(&self, name: &crate::game::Name) -> String {
            name.as_str().to_string()
        }
        fn channel(&self, _lang: Lang, channel: crate::game::ChannelId) -> String {
            format!("<#{channel}>")
        }
        fn strong(&self, text: &str) -> String {
            format!("**{text}**")
        }
        fn yes_or_no(&self, _lang: Lang, value: bool) -> String {
            if value { "True" } else { "False" }.to_string()
        }
        fn has_buttons(&self) -> bool {
            true
        }
    }

    #[test]
    fn the_english_legend_reads_word_for_word_as_before() {
        assert_eq!(
            board_legend(Lang::En),
            "⚫ black · ⚪ white · 🖤/🤍 the piece that just moved · arrow: where it came from"
        );
    }
}
