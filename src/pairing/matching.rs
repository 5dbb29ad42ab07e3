//! Perfect matchings in a general graph (Edmonds' blossom algorithm): whether the players still to
//! pair can all be paired along the allowed edges, and one such pairing.
//!
//! Vertices are `0..n`; the graph is an `n × n` table of allowed edges and a set of vertices still
//! in play. Each search takes O(n³) at worst; starting from a previous matching, few vertices are
//! left to match and it is much faster.

/// The allowed edges between `n` vertices, symmetric.
#[derive(Clone, Debug)]
pub(crate) struct Graph {
    n: usize,
    edges: Vec<bool>,
}

impl Graph {
    /// `n` vertices and no edges.
    pub(crate) fn new(n: usize) -> Graph {
        Graph {
            n,
            edges: vec![false; n * n],
        }
    }

    pub(crate) fn has(&self, a: usize, b: usize) -> bool {
        a < self.n && b < self.n && self.edges[a * self.n + b]
    }

    pub(crate) fn set(&mut self, a: usize, b: usize, allowed: bool) {
        if a < self.n && b < self.n && a != b {
            self.edges[a * self.n + b] = allowed;
            self.edges[b * self.n + a] = allowed;
        }
    }

    /// A matching of every vertex in `alive` along the edges, starting from the pairs of `hint`
    /// that are still possible; `None` when there is none. The answer gives each vertex its mate
    /// (vertices not alive have none).
    pub(crate) fn perfect_matching(
        &self,
        alive: &[bool],
        hint: &[Option<usize>],
    ) -> Option<Vec<Option<usize>>> {
        let n = self.n;
        let is_alive = |v: usize| alive.get(v).copied().unwrap_or(false);
        let adj: Vec<Vec<usize>> = (0..n)
            .map(|v| {
                if is_alive(v) {
                    (0..n).filter(|&w| is_alive(w) && self.has(v, w)).collect()
                } else {
                    Vec::new()
                }
            })
            .collect();
        let mut mate: Vec<Option<usize>> = vec![None; n];
        for v in 0..n {
            if let Some(Some(w)) = hint.get(v) {
                let w = *w;
                if mate[v].is_none()
                    && mate.get(w) == Some(&None)
                    && hint.get(w) == Some(&Some(v))
                    && adj[v].contains(&w)
                {
                    mate[v] = Some(w);
                    mate[w] = Some(v);
                }
            }
        }
        for v in 0..n {
            if mate[v].is_none() {
                if let Some(&w) = adj[v].iter().find(|&&w| mate[w].is_none()) {
                    mate[v] = Some(w);
                    mate[w] = Some(v);
                }
            }
        }
        let mut search = Search::new(n);
        for root in 0..n {
            if is_alive(root) && mate[root].is_none() {
                // A vertex with no augmenting path now never gets one: no perfect matching.
                let end = search.find_path(root, &adj, &mate)?;
                search.augment(end, &mut mate);
            }
        }
        Some(mate)
    }
}

/// The work space of one search for an augmenting path.
struct Search {
    /// The vertex each vertex was reached from, on the alternating tree.
    parent: Vec<Option<usize>>,
    /// The base of the blossom each vertex belongs to (itself when none).
    base: Vec<usize>,
    /// Vertices reached at an even distance from the root (outer vertices).
    used: Vec<bool>,
    in_blossom: Vec<bool>,
    on_path: Vec<bool>,
    queue: std::collections::VecDeque<usize>,
}

impl Search {
    fn new(n: usize) -> Search {
        Search {
            parent: vec![None; n],
            base: (0..n).collect(),
            used: vec![false; n],
            in_blossom: vec![false; n],
            on_path: vec![false; n],
            queue: std::collections::VecDeque::with_capacity(n),
        }
    }

    /// The lowest common ancestor of `a` and `b` on the tree, as blossom bases.
    fn lca(&mut self, mut a: usize, mut b: usize, mate: &[Option<usize>]) -> usize {
        self.on_path.fill(false);
        loop {
            a = self.base[a];
            self.on_path[a] = true;
            match mate[a].and_then(|m| self.parent[m]) {
                Some(next) => a = next,
                None => break,
            }
        }
        loop {
            b = self.base[b];
            if self.on_path[b] {
                return b;
            }
            match mate[b].and_then(|m| self.parent[m]) {
                Some(next) => b = next,
                // Unreachable on a well-formed tree: b's path reaches the root, which is on a's.
                None => return b,
            }
        }
    }

    /// Marks the blossom's vertices from `v` down to its base `b`, pointing the path at `child`.
    fn mark_path(&mut self, mut v: usize, b: usize, mut child: usize, mate: &[Option<usize>]) {
        while self.base[v] != b {
            let Some(m) = mate[v] else { return };
            self.in_blossom[self.base[v]] = true;
            self.in_blossom[self.base[m]] = true;
            self.parent[v] = Some(child);
            child = m;
            match self.parent[m] {
                Some(next) => v = next,
                None => return,
            }
        }
    }

    /// An unmatched vertex at the end of an augmenting path from `root`, if there is one.
    fn find_path(
        &mut self,
        root: usize,
        adj: &[Vec<usize>],
        mate: &[Option<usize>],
    ) -> Option<usize> {
        let n = adj.len();
        self.used.fill(false);
        self.parent.fill(None);
        for (i, b) in self.base.iter_mut().enumerate() {
            *b = i;
        }
        self.queue.clear();
        self.used[root] = true;
        self.queue.push_back(root);
        while let Some(v) = self.queue.pop_front() {
            for &to in &adj[v] {
                if self.base[v] == self.base[to] || mate[v] == Some(to) {
                    continue;
                }
                let to_is_outer = to == root || mate[to].is_some_and(|m| self.parent[m].is_some());
                if to_is_outer {
                    let cur = self.lca(v, to, mate);
                    self.in_blossom.fill(false);
                    self.mark_path(v, cur, to, mate);
                    self.mark_path(to, cur, v, mate);
                    for i in 0..n {
                        if self.in_blossom[self.base[i]] {
                            self.base[i] = cur;
                            if !self.used[i] {
                                self.used[i] = true;
                                self.queue.push_back(i);
                            }
                        }
                    }
                } else if self.parent[to].is_none() {
                    self.parent[to] = Some(v);
                    match mate[to] {
                        None => return Some(to),
                        Some(m) => {
                            self.used[m] = true;
                            self.queue.push_back(m);
                        }
                    }
                }
            }
        }
        None
    }

    /// Flips the matching along the path that ends at `end`.
    fn augment(&self, end: usize, mate: &mut [Option<usize>]) {
        let mut v = Some(end);
        while let Some(x) = v {
            let Some(p) = self.parent[x] else { return };
            let next = mate[p];
            mate[x] = Some(p);
            mate[p] = Some(x);
            v = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(n: usize, edges: &[(usize, usize)]) -> Graph {
        let mut g = Graph::new(n);
        for &(a, b) in edges {
            g.set(a, b, true);
        }
        g
    }

    /// Whether the alive vertices can all be paired, by trying every pairing.
    fn brute_force(g: &Graph, alive: &mut [bool]) -> bool {
        let Some(a) = alive.iter().position(|&x| x) else {
            return true;
        };
        alive[a] = false;
        for b in 0..g.n {
            if alive[b] && g.has(a, b) {
                alive[b] = false;
                let ok = brute_force(g, alive);
                alive[b] = true;
                if ok {
                    alive[a] = true;
                    return true;
                }
            }
        }
        alive[a] = true;
        false
    }

    #[test]
    fn agrees_with_trying_every_pairing() {
        // Odd cycles (blossoms) are common in these sparse random graphs.
        let mut seed: u64 = 7;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed >> 33
        };
        for case in 0..400 {
            let n = 2 + 2 * (case % 5);
            let mut g = Graph::new(n);
            for a in 0..n {
                for b in a + 1..n {
                    g.set(a, b, next() % 100 < 30);
                }
            }
            let mut alive = vec![true; n];
            let expected = brute_force(&g, &mut alive);
            let found = g.perfect_matching(&alive, &[]);
            assert_eq!(found.is_some(), expected, "case {case}");
            if let Some(m) = found {
                for v in 0..n {
                    let w = m[v].expect("everyone is matched");
                    assert!(g.has(v, w) && m[w] == Some(v), "case {case}");
                }
            }
        }
    }

    #[test]
    fn says_when_there_is_none() {
        // A star: the centre can take only one leaf.
        let g = graph(4, &[(0, 1), (0, 2), (0, 3)]);
        assert!(g.perfect_matching(&[true; 4], &[]).is_none());
        // Without two of the leaves it can.
        let alive = [true, true, false, false];
        assert!(g.perfect_matching(&alive, &[]).is_some());
    }
}
