//! What each button does, carried in its custom id: one type, written by the views and read back
//! by the click handler, so the two cannot drift apart. The text form is the one messages
//! already posted carry (`challenge:accept:12`), so their buttons go on working after an upgrade.
//! Discord allows 100 characters; the longest is well under 40.

use std::fmt;
use std::str::FromStr;

use crate::game::{ChallengeId, GameId, PuzzleId, TournamentId};
use crate::rules::BoardSize;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Button {
    Accept(ChallengeId),
    Decline(ChallengeId),
    Cancel(ChallengeId),
    /// Yes, resign this game.
    Resign(GameId),
    /// No, keep playing it.
    KeepPlaying(GameId),
    /// Play this finished game again, colours swapped.
    Rematch(GameId),
    /// A page of a server's leaderboard on one board.
    Leaderboard {
        size: BoardSize,
        page: usize,
    },
    /// Enter this tournament, from its sign-up message.
    Join(TournamentId),
    /// Leave this tournament before its start, from its sign-up message.
    Leave(TournamentId),
    /// Play a move in this game by taps: opens its menus, for the member who taps alone.
    Move(GameId),
    /// Back to the menu of the pieces that can move, from the menu of one piece's targets.
    Pieces(GameId),
    /// The menu of the pieces that can move in this game at this ply (its value: a square).
    Piece {
        game: GameId,
        ply: u32,
    },
    /// The menu of the moves to play in this game at this ply (its value: a move).
    Target {
        game: GameId,
        ply: u32,
    },
    /// Answer the puzzle one is solving by taps: opens its menus.
    PuzzleMove,
    /// Back to the pieces that can move in one's puzzle.
    PuzzlePieces,
    /// The menu of the pieces that can move in this puzzle with this many own moves left.
    PuzzlePiece {
        puzzle: PuzzleId,
        left: u32,
    },
    /// The menu of the moves to play in this puzzle with this many own moves left.
    PuzzleTarget {
        puzzle: PuzzleId,
        left: u32,
    },
}

impl Button {
    /// What the button does, without its arguments: how its taps are counted.
    pub fn kind(&self) -> &'static str {
        match self {
            Button::Accept(_) => "challenge:accept",
            Button::Decline(_) => "challenge:decline",
            Button::Cancel(_) => "challenge:cancel",
            Button::Resign(_) => "resign:yes",
            Button::KeepPlaying(_) => "resign:no",
            Button::Rematch(_) => "game:rematch",
            Button::Leaderboard { .. } => "leaderboard",
            Button::Join(_) => "tournament:join",
            Button::Leave(_) => "tournament:leave",
            Button::Move(_) => "game:move",
            Button::Pieces(_) => "move:pieces",
            Button::Piece { .. } => "move:piece",
            Button::Target { .. } => "move:to",
            Button::PuzzleMove => "puzzle:move",
            Button::PuzzlePieces => "puzzle:pieces",
            Button::PuzzlePiece { .. } => "puzzle:piece",
            Button::PuzzleTarget { .. } => "puzzle:to",
        }
    }
}

impl fmt::Display for Button {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Button::Accept(id) => write!(f, "challenge:accept:{id}"),
            Button::Decline(id) => write!(f, "challenge:decline:{id}"),
            Button::Cancel(id) => write!(f, "challenge:cancel:{id}"),
            Button::Resign(id) => write!(f, "resign:yes:{id}"),
            Button::KeepPlaying(id) => write!(f, "resign:no:{id}"),
            Button::Rematch(id) => write!(f, "game:rematch:{id}"),
            Button::Leaderboard { size, page } => write!(f, "leaderboard:{size}:{page}"),
            Button::Join(id) => write!(f, "tournament:join:{id}"),
            Button::Leave(id) => write!(f, "tournament:leave:{id}"),
            Button::Move(id) => write!(f, "game:move:{id}"),
            Button::Pieces(id) => write!(f, "move:pieces:{id}"),
            Button::Piece { game, ply } => write!(f, "move:piece:{game}:{ply}"),
            Button::Target { game, ply } => write!(f, "move:to:{game}:{ply}"),
            Button::PuzzleMove => write!(f, "puzzle:move"),
            Button::PuzzlePieces => write!(f, "puzzle:pieces"),
            Button::PuzzlePiece { puzzle, left } => write!(f, "puzzle:piece:{puzzle}:{left}"),
            Button::PuzzleTarget { puzzle, left } => write!(f, "puzzle:to:{puzzle}:{left}"),
        }
    }
}

/// A custom id that is not one of ours (or no longer is).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnknownButton;

/// A challenge's, a game's or a tournament's number in a button.
fn id<T: FromStr>(n: &str) -> Result<T, UnknownButton> {
    n.parse().map_err(|_| UnknownButton)
}

impl FromStr for Button {
    type Err = UnknownButton;

    fn from_str(s: &str) -> Result<Button, UnknownButton> {
        let parts: Vec<&str> = s.split(':').collect();
        Ok(match parts.as_slice() {
            ["challenge", "accept", n] => Button::Accept(id(n)?),
            ["challenge", "decline", n] => Button::Decline(id(n)?),
            ["challenge", "cancel", n] => Button::Cancel(id(n)?),
            ["resign", "yes", n] => Button::Resign(id(n)?),
            ["resign", "no", n] => Button::KeepPlaying(id(n)?),
            ["game", "rematch", n] => Button::Rematch(id(n)?),
            ["leaderboard", size, page] => Button::Leaderboard {
                size: size.parse().map_err(|_| UnknownButton)?,
                page: page.parse().map_err(|_| UnknownButton)?,
            },
            ["tournament", "join", n] => Button::Join(id(n)?),
            ["tournament", "leave", n] => Button::Leave(id(n)?),
            ["game", "move", n] => Button::Move(id(n)?),
            ["move", "pieces", n] => Button::Pieces(id(n)?),
            ["move", "piece", n, ply] => Button::Piece {
                game: id(n)?,
                ply: id(ply)?,
            },
            ["move", "to", n, ply] => Button::Target {
                game: id(n)?,
                ply: id(ply)?,
            },
            ["puzzle", "move"] => Button::PuzzleMove,
            ["puzzle", "pieces"] => Button::PuzzlePieces,
            ["puzzle", "piece", n, left] => Button::PuzzlePiece {
                puzzle: id(n)?,
                left: id(left)?,
            },
            ["puzzle", "to", n, left] => Button::PuzzleTarget {
                puzzle: id(n)?,
                left: id(left)?,
            },
            _ => return Err(UnknownButton),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_button_reads_back_as_itself_and_keeps_the_posted_form() {
        let size: BoardSize = "7x7".parse().expect("a size");
        let all = [
            (Button::Accept(ChallengeId::new(12)), "challenge:accept:12"),
            (
                Button::Decline(ChallengeId::new(12)),
                "challenge:decline:12",
            ),
            (Button::Cancel(ChallengeId::new(12)), "challenge:cancel:12"),
            (Button::Resign(GameId::new(7)), "resign:yes:7"),
            (Button::KeepPlaying(GameId::new(7)), "resign:no:7"),
            (Button::Rematch(GameId::new(7)), "game:rematch:7"),
            (Button::Leaderboard { size, page: 3 }, "leaderboard:7x7:3"),
            (Button::Join(TournamentId::new(4)), "tournament:join:4"),
            (Button::Leave(TournamentId::new(4)), "tournament:leave:4"),
            (Button::Move(GameId::new(7)), "game:move:7"),
            (Button::Pieces(GameId::new(7)), "move:pieces:7"),
            (
                Button::Piece {
                    game: GameId::new(7),
                    ply: 12,
                },
                "move:piece:7:12",
            ),
            (
                Button::Target {
                    game: GameId::new(7),
                    ply: 0,
                },
                "move:to:7:0",
            ),
            (Button::PuzzleMove, "puzzle:move"),
            (Button::PuzzlePieces, "puzzle:pieces"),
            (
                Button::PuzzlePiece {
                    puzzle: PuzzleId::new(3),
                    left: 2,
                },
                "puzzle:piece:3:2",
            ),
            (
                Button::PuzzleTarget {
                    puzzle: PuzzleId::new(3),
                    left: 1,
                },
                "puzzle:to:3:1",
            ),
        ];
        for (button, text) in all {
            assert_eq!(button.to_string(), text);
            assert_eq!(text.parse::<Button>(), Ok(button));
            // Its kind is its form without the arguments.
            let kind = button.kind();
            assert!(
                text == kind || text.starts_with(&format!("{kind}:")),
                "{text} is not of kind {kind}"
            );
        }
    }

    #[test]
    fn anything_else_is_unknown() {
        for text in [
            "",
            "challenge",
            "challenge:accept",
            "challenge:accept:x",
            "challenge:accept:1:2",
            "challenge:eat:1",
            "resign:maybe:1",
            "game:rematch:",
            "game:again:1",
            "leaderboard:99x99:1",
            "leaderboard:8x8:-1",
            "tournament:join:x",
            "tournament:enter:1",
            "move:to:7",
            "move:to:7:-1",
            "move:piece:x:1",
            "other:1",
        ] {
            assert_eq!(text.parse::<Button>(), Err(UnknownButton), "{text}");
        }
    }
}
