//! Plain UCT: Monte-Carlo tree search with UCB1 selection (exploration constant √2), one node
//! added per simulation, uniformly random play-outs to the end of the game, and the most visited
//! move played. No knowledge of the game beyond its rules: the yardstick for the AI's strength.

use super::board::{splitmix, Board, Step, Steps};
use crate::rules::{Geometry, Move, Position};

struct Node {
    board: Board,
    /// The move that led here.
    step: Step,
    parent: usize,
    children: Vec<usize>,
    untried: Steps,
    visits: u32,
    /// Wins for the side that made `step` (the side not to move here).
    wins: f64,
    /// The side that made `step` has already won.
    terminal: bool,
}

/// The move UCT chooses after `simulations` play-outs from `position`; `None` once it is over.
pub fn uct_move(position: &Position, simulations: u32, seed: u64) -> Option<Move> {
    if position.outcome().is_some() {
        return None;
    }
    let geo = position.size().geometry();
    let root_board = Board::from_position(position);
    let mut rng = seed ^ 0x00c7_0ba5_e11e;
    let mut untried = Steps::new();
    root_board.moves(geo, &mut untried);
    let mut nodes = vec![Node {
        board: root_board,
        step: Step::default(),
        parent: usize::MAX,
        children: Vec::new(),
        untried,
        visits: 0,
        wins: 0.0,
        terminal: false,
    }];
    for _ in 0..simulations.max(1) {
        // Selection.
        let mut n = 0;
        while nodes[n].untried.is_empty() && !nodes[n].children.is_empty() && !nodes[n].terminal {
            let log = (nodes[n].visits as f64).ln();
            let mut best = f64::MIN;
            let mut pick = nodes[n].children[0];
            for &c in &nodes[n].children {
                let child = &nodes[c];
                let v = f64::from(child.visits);
                let ucb = child.wins / v + std::f64::consts::SQRT_2 * (log / v).sqrt();
                if ucb > best {
                    best = ucb;
                    pick = c;
                }
            }
            n = pick;
        }
        // Expansion.
        if !nodes[n].terminal && !nodes[n].untried.is_empty() {
            let i = (splitmix(&mut rng) % nodes[n].untried.len() as u64) as usize;
            let step = nodes[n].untried.swap_remove(i);
            let board = nodes[n].board;
            let terminal = board.wins(geo, step);
            let next = board.play(step);
            let mut untried = Steps::new();
            if !terminal {
                next.moves(geo, &mut untried);
            }
            nodes.push(Node {
                board: next,
                step,
                parent: n,
                children: Vec::new(),
                untried,
                visits: 0,
                wins: 0.0,
                terminal,
            });
            let id = nodes.len() - 1;
            nodes[n].children.push(id);
            n = id;
        }
        // Play-out: the winner's index.
        let winner = if nodes[n].terminal {
            nodes[n].board.stm ^ 1
        } else {
            playout(nodes[n].board, geo, &mut rng)
        };
        // Back-propagation.
        let mut at = n;
        while at != usize::MAX {
            let node = &mut nodes[at];
            node.visits += 1;
            if node.board.stm ^ 1 == winner {
                node.wins += 1.0;
            }
            at = node.parent;
        }
    }
    let root = &nodes[0];
    let best = root
        .children
        .iter()
        .max_by_key(|&&c| nodes[c].visits)
        .map(|&c| nodes[c].step)?;
    Some(root_board.move_of(geo, best))
}

fn playout(mut board: Board, geo: &Geometry, rng: &mut u64) -> usize {
    let mut steps = Steps::new();
    loop {
        board.moves(geo, &mut steps);
        if steps.is_empty() {
            // No move: the side to move loses.
            return board.stm ^ 1;
        }
        let step = steps[(splitmix(rng) % steps.len() as u64) as usize];
        if board.wins(geo, step) {
            return board.stm;
        }
        board = board.play(step);
    }
}
