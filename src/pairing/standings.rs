//! The table: points, games, and the tie-breaks of each format.

use std::collections::BTreeMap;

use super::{Bye, Entrant, PlayedGame};

/// How a tournament is played, which decides its tie-breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    RoundRobin,
    Swiss,
}

/// One tie-break value, in the order the format applies them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TieBreak {
    /// Points scored in the games between the players tied with this one (on points in a round
    /// robin; on points, Buchholz cut-1 and Sonneborn-Berger in a Swiss). More is better.
    DirectEncounter(u32),
    /// The sum of the points of the opponents this player beat. More is better.
    SonnebornBerger(u32),
    /// Games this player lost on time. Fewer is better.
    LostOnTime(u32),
    /// The sum of the points of this player's opponents, less the lowest of them (a bye counts
    /// as no opponent). More is better.
    BuchholzCut1(u32),
}

/// One line of the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// The place, from 1; every player has their own.
    pub rank: u32,
    pub entrant: Entrant,
    /// 1 a win, 1 a bye, 0 a loss.
    pub points: u32,
    /// Games finished.
    pub played: u32,
    /// Games still to finish, in a round robin; `None` in a Swiss, whose rounds are paired one at
    /// a time.
    pub left: Option<u32>,
    /// The tie-breaks, in the order they apply.
    pub tie_breaks: Vec<TieBreak>,
}

/// What one player did.
#[derive(Clone, Debug, Default)]
struct Line {
    points: u32,
    played: u32,
    lost_on_time: u32,
    /// Each game's opponent, and whether this player won it.
    games: Vec<(usize, bool)>,
}

/// The table of a tournament among `entrants` (in their seeding order) after `games` and `byes`
/// (games and byes of players not among the entrants are left out).
///
/// A win scores 1, a loss 0, a bye 1. Players are ranked by points, then:
///
/// - round robin: the direct encounter (points scored in the games among the players tied on
///   points), then Sonneborn-Berger (the sum of the points of the opponents they beat), then
///   fewer games lost on time;
/// - Swiss: Buchholz cut-1 (the sum of their opponents' points, less the lowest), then
///   Sonneborn-Berger, then the direct encounter among the players still tied.
///
/// Players equal on all of these are listed in their seeding order.
pub fn standings(
    format: Format,
    entrants: &[Entrant],
    games: &[PlayedGame],
    byes: &[Bye],
) -> Vec<Standing> {
    let mut index = BTreeMap::new();
    for (i, &e) in entrants.iter().enumerate() {
        index.entry(e).or_insert(i);
    }
    let n = entrants.len();
    let mut lines = vec![Line::default(); n];
    for g in games {
        let (Some(&w), Some(&l)) = (index.get(&g.winner()), index.get(&g.loser())) else {
            continue;
        };
        if w == l {
            continue;
        }
        lines[w].points += 1;
        lines[w].played += 1;
        lines[w].games.push((l, true));
        lines[l].played += 1;
        lines[l].lost_on_time += u32::from(g.on_time);
        lines[l].games.push((w, false));
    }
    for b in byes {
        if let Some(&i) = index.get(&b.entrant) {
            lines[i].points += 1;
        }
    }
    let sb: Vec<u32> = lines
        .iter()
        .map(|l| {
            l.games
                .iter()
                .filter(|g| g.1)
                .map(|g| lines[g.0].points)
                .sum()
        })
        .collect();
    let buchholz: Vec<u32> = lines
        .iter()
        .map(|l| {
            let scores = l.games.iter().map(|g| lines[g.0].points);
            let lowest = scores.clone().min().unwrap_or(0);
            scores.sum::<u32>() - lowest
        })
        .collect();

    // Each player, by seed, with the criteria before the direct encounter (higher is better).
    let before_direct = |i: usize| match format {
        Format::RoundRobin => vec![lines[i].points],
        Format::Swiss => vec![lines[i].points, buchholz[i], sb[i]],
    };
    let mut order: Vec<usize> = (0..n)
        .filter(|&i| index.get(&entrants[i]) == Some(&i))
        .collect();
    order.sort_by(|&a, &b| before_direct(b).cmp(&before_direct(a)).then(a.cmp(&b)));
    let mut direct = vec![0u32; n];
    let mut start = 0;
    while start < order.len() {
        let key = before_direct(order[start]);
        let end = order[start..]
            .iter()
            .position(|&i| before_direct(i) != key)
            .map_or(order.len(), |p| start + p);
        let tied = &order[start..end];
        for &i in tied {
            direct[i] = lines[i]
                .games
                .iter()
                .filter(|g| g.1 && tied.contains(&g.0))
                .count()
                .try_into()
                .unwrap_or(u32::MAX);
        }
        start = end;
    }

    let tie_breaks = |i: usize| match format {
        Format::RoundRobin => vec![
            TieBreak::DirectEncounter(direct[i]),
            TieBreak::SonnebornBerger(sb[i]),
            TieBreak::LostOnTime(lines[i].lost_on_time),
        ],
        Format::Swiss => vec![
            TieBreak::BuchholzCut1(buchholz[i]),
            TieBreak::SonnebornBerger(sb[i]),
            TieBreak::DirectEncounter(direct[i]),
        ],
    };
    // The whole key, higher is better: lost on time counts down.
    let key = |i: usize| -> Vec<i64> {
        let mut k = vec![i64::from(lines[i].points)];
        for t in tie_breaks(i) {
            k.push(match t {
                TieBreak::LostOnTime(v) => -i64::from(v),
                TieBreak::DirectEncounter(v)
                | TieBreak::SonnebornBerger(v)
                | TieBreak::BuchholzCut1(v) => i64::from(v),
            });
        }
        k
    };
    order.sort_by(|&a, &b| key(b).cmp(&key(a)).then(a.cmp(&b)));
    let games_each = u32::try_from(order.len().saturating_sub(1)).unwrap_or(u32::MAX);
    order
        .iter()
        .enumerate()
        .map(|(place, &i)| Standing {
            rank: u32::try_from(place + 1).unwrap_or(u32::MAX),
            entrant: entrants[i],
            points: lines[i].points,
            played: lines[i].played,
            left: match format {
                Format::RoundRobin => Some(games_each.saturating_sub(lines[i].played)),
                Format::Swiss => None,
            },
            tie_breaks: tie_breaks(i),
        })
        .collect()
}
