//! What the fake found: requests that do not fit Discord's OpenAPI description, its own
//! problems, and the report printed when a wait times out.

use super::{FakeDiscord, SpecViolation};

impl FakeDiscord {
    // ----- checks ---------------------------------------------------------------------------

    /// Requests that did not fit Discord's OpenAPI description (unknown routes and bodies that
    /// do not validate; the latter were answered 400 `Invalid Form Body`).
    pub fn spec_violations(&self) -> Vec<SpecViolation> {
        self.shared.violations.lock().unwrap().clone()
    }

    /// Panics listing the spec violations, if any.
    pub fn assert_spec_ok(&self) {
        let v = self.spec_violations();
        if !v.is_empty() {
            let list: Vec<String> = v.iter().map(|v| format!("  {v}")).collect();
            panic!(
                "fake_discord: {} request(s) do not fit Discord's OpenAPI spec:\n{}",
                v.len(),
                list.join("\n")
            );
        }
    }

    /// Problems on the fake's side: payloads serenity would not read, unexpected routes, ...
    pub fn problems(&self) -> Vec<String> {
        self.shared.problems.lock().unwrap().clone()
    }

    /// Panics listing the fake's problems, if any.
    pub fn assert_no_problems(&self) {
        let p = self.problems();
        assert!(
            p.is_empty(),
            "fake_discord: problems:\n  {}",
            p.join("\n  ")
        );
    }

    /// A readable account of everything recorded, as printed when a wait times out.
    pub fn report(&self) -> String {
        let mut out = String::new();
        let requests = self.requests();
        out.push_str(&format!("recorded requests ({}):\n", requests.len()));
        for r in &requests {
            out.push_str(&format!("  {}\n", r.summary()));
        }
        {
            let count = self.shard_count();
            let g = self.shared.gateway.lock().unwrap();
            let live: Vec<String> = (0..count)
                .map(|shard| match g.live(shard) {
                    None => "no".to_string(),
                    Some(s) => match &s.label {
                        Some(l) => format!("yes (via {l})"),
                        None => "yes".to_string(),
                    },
                })
                .collect();
            let live = if count == 1 {
                live[0].clone()
            } else {
                let per: Vec<String> = live
                    .iter()
                    .enumerate()
                    .map(|(i, l)| format!("shard {i}: {l}"))
                    .collect();
                per.join(", ")
            };
            out.push_str(&format!(
                "gateway: {} connection(s), {} READY, {} RESUMED, {} heartbeat(s), live session: {}\n",
                g.connections, g.readies, g.resumes, g.heartbeats, live
            ));
        }
        let violations = self.spec_violations();
        if !violations.is_empty() {
            out.push_str(&format!("spec violations ({}):\n", violations.len()));
            for v in &violations {
                out.push_str(&format!("  {v}\n"));
            }
        }
        let problems = self.problems();
        if !problems.is_empty() {
            out.push_str(&format!("fake problems ({}):\n", problems.len()));
            for p in &problems {
                out.push_str(&format!("  {p}\n"));
            }
        }
        if let Some(log) = self
            .shared
            .bot
            .lock()
            .unwrap()
            .as_ref()
            .map(|b| b.log.clone())
        {
            let text = std::fs::read_to_string(&log).unwrap_or_default();
            let lines: Vec<&str> = text.lines().collect();
            let tail = &lines[lines.len().saturating_sub(40)..];
            out.push_str(&format!(
                "bot log ({}, last {} lines):\n",
                log.display(),
                tail.len()
            ));
            for l in tail {
                out.push_str(&format!("  | {l}\n"));
            }
        }
        out
    }
}
