//! `/tournament` in the console: its subcommands and their options, as on Discord, and what
//! each does. The console's members all manage its one local server, so any of them may create,
//! start or cancel a tournament there.

use std::time::Duration;

use clap::Subcommand;

use crate::game::{
    Member, RoundNumber, TimeControl, TournamentFormat, TournamentId, TournamentRef,
    TournamentRequest,
};
use crate::rules::BoardSize;
use crate::text::{self, AnyError, Plain};

use super::values::{format_of, number, starts_in, tournament_number, yes_or_no};
use super::{Console, Reply, CONSOLE_PLACE};

/// The subcommands of `/tournament`: `@alice /tournament create "Spring Cup" swiss rounds:3`.
/// Their options are read as the other commands' are, by name or bare and in this order.
#[derive(Debug, PartialEq, Subcommand)]
pub(super) enum TournamentCommand {
    /// Open a tournament for entries, organized by you.
    Create {
        #[arg(long, value_name = "Spring Cup", required = true)]
        name: String,
        #[arg(long, value_parser = format_of, value_name = "swiss", required = true)]
        format: TournamentFormat,
        #[arg(long)]
        size: Option<BoardSize>,
        #[arg(long)]
        time: Option<TimeControl>,
        #[arg(long, value_parser = yes_or_no)]
        rated: Option<bool>,
        #[arg(long, value_parser = number)]
        rounds: Option<u32>,
        #[arg(long = "max_players", value_parser = number)]
        max_players: Option<u32>,
        #[arg(long = "starts_in", value_parser = starts_in)]
        starts_in: Option<Duration>,
    },
    /// Enter a tournament before its start.
    Join {
        #[arg(long, value_parser = tournament_number)]
        tournament: Option<TournamentId>,
    },
    /// Leave a tournament before its start.
    Leave {
        #[arg(long, value_parser = tournament_number)]
        tournament: Option<TournamentId>,
    },
    /// Start a tournament now (3 entrants or more).
    Start {
        #[arg(long, value_parser = tournament_number)]
        tournament: Option<TournamentId>,
    },
    /// A tournament's standings.
    Standings {
        #[arg(long, value_parser = tournament_number)]
        tournament: Option<TournamentId>,
    },
    /// The games of a round (by default the one being played).
    Pairings {
        #[arg(long, value_parser = tournament_number)]
        tournament: Option<TournamentId>,
        #[arg(long, value_parser = number)]
        round: Option<u32>,
    },
    /// Leave a running tournament: your games in progress are lost.
    Withdraw {
        #[arg(long, value_parser = tournament_number)]
        tournament: Option<TournamentId>,
    },
    /// End a tournament: its games in progress go on as ordinary games.
    Cancel {
        #[arg(long, value_parser = tournament_number)]
        tournament: Option<TournamentId>,
    },
}

impl Console {
    pub(super) async fn tournament(
        &self,
        who: &Member,
        command: TournamentCommand,
    ) -> Result<Reply, AnyError> {
        use TournamentCommand as T;
        let g = &self.games;
        let which = |t: Option<TournamentId>| t.map_or(TournamentRef::Only, TournamentRef::Id);
        // The console's members all manage its one local server.
        let manages_server = true;
        Ok(match command {
            T::Create {
                name,
                format,
                size,
                time,
                rated,
                rounds,
                max_players,
                starts_in,
            } => {
                let t = g
                    .tournaments
                    .create_tournament(TournamentRequest {
                        place: CONSOLE_PLACE,
                        organizer: who.clone(),
                        manages_server,
                        name,
                        format,
                        size: size.unwrap_or(BoardSize::DEFAULT),
                        time: time.unwrap_or_default(),
                        rated: rated.unwrap_or(true),
                        rounds,
                        max_players,
                        starts_in,
                    })
                    .await?;
                Reply::public(text::signup(self.lang, &Plain, &t, who))
            }
            T::Join { tournament } => {
                let t = g
                    .tournaments
                    .join_tournament(who, CONSOLE_PLACE, which(tournament))
                    .await?;
                Reply::private(text::entry_answer(self.lang, &t, text::Entry::Join))
            }
            T::Leave { tournament } => {
                let t = g
                    .tournaments
                    .leave_tournament(who, CONSOLE_PLACE, which(tournament))
                    .await?;
                Reply::private(text::entry_answer(self.lang, &t, text::Entry::Leave))
            }
            T::Start { tournament } => {
                g.tournaments
                    .start_tournament(who, manages_server, CONSOLE_PLACE, which(tournament))
                    .await?;
                // The round's news, its boards and each player's games follow from the outbox.
                Reply::default()
            }
            T::Standings { tournament } => {
                let table = g
                    .tournaments
                    .tournament_standings(CONSOLE_PLACE, which(tournament))
                    .await?;
                Reply::public(text::table(self.lang, &Plain, &table))
            }
            T::Pairings { tournament, round } => {
                let games = g
                    .tournaments
                    .tournament_pairings(
                        CONSOLE_PLACE,
                        which(tournament),
                        round.map(RoundNumber::new),
                    )
                    .await?;
                Reply::public(text::round_games(self.lang, &Plain, &games, g.now()))
            }
            T::Withdraw { tournament } => {
                let (t, lost) = g
                    .tournaments
                    .withdraw(who, CONSOLE_PLACE, which(tournament))
                    .await?;
                Reply::public(text::withdrawn(self.lang, &Plain, &t, &lost, who))
            }
            T::Cancel { tournament } => {
                let t = g
                    .tournaments
                    .cancel_tournament(who, manages_server, CONSOLE_PLACE, which(tournament))
                    .await?;
                Reply::public(text::tournament_cancelled(
                    self.lang,
                    &t,
                    text::CancelledBy::Organizer,
                ))
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::super::commands::Command;
    use super::super::parse::{parse_command_in, words};
    use super::*;
    use crate::i18n::Lang;

    fn parse(line: &str) -> Result<Command, String> {
        let w = words(line);
        parse_command_in(Lang::En, &w[0], &w[1..])
    }

    fn tournament(line: &str) -> TournamentCommand {
        match parse(line) {
            Ok(Command::Tournament { command }) => command,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn every_subcommand_is_read_with_its_options_by_name_or_in_order() {
        assert_eq!(
            tournament(r#"tournament create "Spring Cup" swiss 7x7 1d no 3 16 12h"#),
            TournamentCommand::Create {
                name: "Spring Cup".into(),
                format: TournamentFormat::Swiss,
                size: Some(BoardSize::new(7, 7).unwrap()),
                time: Some(TimeControl::OneDay),
                rated: Some(false),
                rounds: Some(3),
                max_players: Some(16),
                starts_in: Some(Duration::from_secs(12 * 3_600)),
            }
        );
        assert_eq!(
            tournament("tournament create name:Cup format:round-robin max_players:5 starts_in:1d"),
            TournamentCommand::Create {
                name: "Cup".into(),
                format: TournamentFormat::RoundRobin,
                size: None,
                time: None,
                rated: None,
                rounds: None,
                max_players: Some(5),
                starts_in: Some(Duration::from_secs(86_400)),
            }
        );
        let id = Some(TournamentId::new(3));
        assert_eq!(
            tournament("tournament join #3"),
            TournamentCommand::Join { tournament: id }
        );
        assert_eq!(
            tournament("tournament leave tournament:3"),
            TournamentCommand::Leave { tournament: id }
        );
        assert_eq!(
            tournament("tournament start"),
            TournamentCommand::Start { tournament: None }
        );
        assert_eq!(
            tournament("tournament standings 3"),
            TournamentCommand::Standings { tournament: id }
        );
        assert_eq!(
            tournament("tournament pairings #3 2"),
            TournamentCommand::Pairings {
                tournament: id,
                round: Some(2)
            }
        );
        assert_eq!(
            tournament("tournament pairings round:1"),
            TournamentCommand::Pairings {
                tournament: None,
                round: Some(1)
            }
        );
        assert_eq!(
            tournament("tournament withdraw #3"),
            TournamentCommand::Withdraw { tournament: id }
        );
        assert_eq!(
            tournament("tournament cancel"),
            TournamentCommand::Cancel { tournament: None }
        );
    }

    #[test]
    fn what_cannot_be_read_is_said_in_one_line() {
        let refusal = |line: &str| parse(line).unwrap_err();
        let which = "/tournament takes one of: create, join, leave, start, standings, \
                     pairings, withdraw, cancel";
        assert_eq!(refusal("tournament"), which);
        assert_eq!(refusal("tournament frobnicate #3"), which);
        assert_eq!(
            refusal("tournament create Cup"),
            "/tournament create needs format: write it like /tournament create format:swiss"
        );
        assert_eq!(
            refusal("tournament create Cup knockout"),
            "`knockout` is not a tournament format: choose round-robin or swiss"
        );
        assert_eq!(
            refusal("tournament create Cup swiss starts_in:soon"),
            "`soon` is not a time to start in: write it like 30m, 12h or 1d"
        );
        assert_eq!(
            refusal("tournament create Cup swiss rounds:many"),
            "`many` is not a number"
        );
        assert_eq!(
            refusal("tournament join #0"),
            "`#0` is not a tournament number: write it like 3 or #3"
        );
        assert_eq!(
            refusal("tournament standings 3 4"),
            "too many values for /tournament standings: `4` (it takes tournament)"
        );
        assert_eq!(
            refusal("tournament join colour:black"),
            "unknown option `colour` for /tournament join: it takes tournament"
        );
    }

    #[test]
    fn a_format_is_read_by_its_code_or_its_name_in_any_language() {
        assert_eq!(format_of("rr").ok(), Some(TournamentFormat::RoundRobin));
        assert_eq!(
            format_of("Round_Robin").ok(),
            Some(TournamentFormat::RoundRobin)
        );
        assert_eq!(format_of("suizo").ok(), Some(TournamentFormat::Swiss));
        assert_eq!(
            format_of("todos-contra-todos").ok(),
            Some(TournamentFormat::RoundRobin)
        );
        assert!(format_of("knockout").is_err());
    }
}
