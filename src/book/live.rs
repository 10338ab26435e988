//! The live rule book: the reference compiled to WebAssembly (the `wasm` feature, built by
//! `js/build.sh` into `js/pkg/web/` with wasm-bindgen's `no-modules` output), inlined as
//! base64 in one script of the book, `live.js`, which every scenario page and the free board
//! (`play.html`) load. The pages still open from the disk with nothing fetched: the module
//! is compiled from the script's own bytes. `live.js` (the page side) decides no rule: it
//! sends each click to one `Game` per ruleset and shows their answers.

use std::path::Path;

use base64::Engine as _;
use serde_json::json;

use super::pages::clause_href;
use crate::engines::protocol::encode_rules;
use crate::spec::Spec;

/// The page side: the board, the buttons, the verdicts table, "copy as scenario".
const LIVE_SCRIPT: &str = include_str!("live.js");

/// The topics of the clauses a refusal for each reason links to, in order: the first topic on
/// which the ruleset (or, failing it, the ruleset it extends) adopts clauses. A ruleset whose
/// ko rule is a superko adopts its ko clauses under that topic.
const REASON_TOPICS: [(&str, &[&str]); 9] = [
    ("ko", &["ko", "superko"]),
    ("superko", &["superko", "ko"]),
    ("suicide", &["suicide"]),
    ("occupied", &["play"]),
    ("out-of-turn", &["play"]),
    ("game-over", &["ending"]),
    ("game-paused", &["ending"]),
    ("not-paused", &["ending"]),
    ("no-resumption", &["ending"]),
];

/// The WebAssembly module and wasm-bindgen's JavaScript for it (`--target no-modules`).
#[derive(Clone, Debug)]
pub struct LiveModule {
    /// `goconform.js`: defines the `wasm_bindgen` global.
    pub glue: String,
    /// `goconform_bg.wasm`.
    pub wasm: Vec<u8>,
}

impl LiveModule {
    /// Reads the module from wasm-bindgen's output folder (`js/pkg/web`).
    pub fn read(dir: &Path) -> Result<LiveModule, String> {
        let glue_path = dir.join("goconform.js");
        let wasm_path = dir.join("goconform_bg.wasm");
        let glue = std::fs::read_to_string(&glue_path)
            .map_err(|e| format!("cannot read {}: {e}", glue_path.display()))?;
        let wasm = std::fs::read(&wasm_path)
            .map_err(|e| format!("cannot read {}: {e}", wasm_path.display()))?;
        if !wasm.starts_with(b"\0asm") {
            return Err(format!("{} is not WebAssembly", wasm_path.display()));
        }
        if !glue.contains("wasm_bindgen") {
            return Err(format!(
                "{} is not wasm-bindgen's no-modules output",
                glue_path.display()
            ));
        }
        Ok(LiveModule { glue, wasm })
    }

    /// The book's `live.js`: the glue, every ruleset with the clauses a refusal for each
    /// reason links to, the module in base64, and the page side.
    pub fn script(&self, spec: &Spec) -> String {
        let rulesets: Vec<_> = spec
            .rulesets()
            .map(|r| {
                // The ruleset and those it extends, nearest first.
                let mut chain = Vec::new();
                let mut at = Some(r);
                while let Some(def) = at.filter(|_| chain.len() < 16) {
                    chain.push(def);
                    at = def.extends.as_deref().and_then(|p| spec.ruleset(p));
                }
                let mut reasons = serde_json::Map::new();
                for (reason, topics) in REASON_TOPICS {
                    // The first ruleset of the chain, and the first topic, with clauses.
                    let found = chain.iter().find_map(|def| {
                        topics.iter().find_map(|topic| {
                            let ids: Vec<_> = def
                                .clauses
                                .iter()
                                .filter(|id| spec.clause(id).is_some_and(|c| c.topic == *topic))
                                .map(|id| json!([id, clause_href("", spec, id)]))
                                .collect();
                            (!ids.is_empty()).then_some(ids)
                        })
                    });
                    reasons.insert(reason.to_string(), json!(found.unwrap_or_default()));
                }
                json!({
                    "name": r.name,
                    "title": r.title,
                    "rules": spec.rules(&r.name).ok().map(|rules| encode_rules(&rules)),
                    "reasons": reasons,
                    "page": format!("rulesets.html#ruleset-{}", r.name),
                })
            })
            .collect();
        let data = json!({ "rulesets": rulesets });
        let wasm = base64::engine::general_purpose::STANDARD.encode(&self.wasm);
        format!(
            "{glue}\nwindow.GOCONFORM_LIVE = {data};\nwindow.GOCONFORM_WASM = \"{wasm}\";\n{LIVE_SCRIPT}",
            glue = self.glue,
        )
    }
}
