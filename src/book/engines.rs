//! The engines page: a comparison of implementations ([`Comparison`]) with each disagreement
//! once, drawn at the position where it arises, with the clauses it touches and every
//! engine's outcome and triage. The book links it into its pages; `compare --html` writes
//! it as one standalone page (style inlined, no links out, nothing fetched).

use maud::{html, Markup, PreEscaped, DOCTYPE};

use crate::conformance::compare::{
    applicable_text, axes_text, count_text, observes_text, Comparison, Row, LEVELS, SUMMARY_NOTE,
};
use crate::scenario::Suite;
use crate::spec::Spec;

use super::pages::{clause_href, head_meta, layout, scenario_path};
use super::scenario_page::picture;
use super::walk::walk;

/// How many moves before the position drawn carry their numbers.
const NUMBERED_MOVES: usize = 10;

/// The engines page as the book links it (`root`: the way back to the book's top folder).
pub fn book_page(c: &Comparison, suite: &Suite, spec: &Spec) -> String {
    layout(
        "",
        "Engines checked against the suite",
        body(c, suite, spec, Some("")),
    )
}

/// The book's engines page when no engines were run for it: what to run to include them.
pub fn book_page_without_engines() -> String {
    let body = html! {
        h1 { "Engines checked against the suite" }
        p {
            "This book was built without engines. "
            code { "goconform book DIR --engine reference --engine gnugo ..." }
            " runs the suite through each engine named (as " code { "goconform compare" }
            " does, with " code { "--expectations-dir" } " for their triage) and draws every "
            "disagreement here."
        }
    };
    layout("", "Engines checked against the suite", body)
}

/// The comparison as one standalone HTML page (`goconform compare --html`).
pub fn standalone(c: &Comparison, suite: &Suite, spec: &Spec) -> String {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                (head_meta())
                title { "goconform: comparison of " (c.engines.len()) " implementations" }
                style { (PreEscaped(super::STYLE)) }
            }
            body { main { (body(c, suite, spec, None)) } }
        }
    }
    .into_string()
}

/// The page's content; `root` is `Some` inside the book (scenarios and clauses are linked).
fn body(c: &Comparison, suite: &Suite, spec: &Spec, root: Option<&str>) -> Markup {
    html! {
        h1 { "Comparison of " (c.engines.len()) " implementations" }
        p {
            "Suite " (c.suite_version) ", report format " (c.format_version) ", interpretation "
            (c.interpretation_version) ": " (c.trials) " trials, " (c.disagreements)
            " disagreements, " (c.untriaged) " of them not triaged (a failure no expectations file lists)."
        }
        h2 { "Implementations" }
        table {
            tr { th { "Implementation" } th { "Version" } th { "Tier" } th { "Observes" } th { "Restricted axes" } }
            @for e in &c.engines {
                tr {
                    td { (e.engine.name) } td { (e.engine.version) } td { (e.tier.word()) }
                    td { (observes_text(&e.capabilities)) } td { (axes_text(&e.capabilities)) }
                }
            }
        }
        h2 { "Summary" }
        p { "Trials passed over trials that applied, by the level of the clauses they cite. " (SUMMARY_NOTE) }
        table {
            tr {
                th { "Implementation" }
                @for level in LEVELS { th { (level.word()) } }
                th { "Applicable" } th { "Tally" }
            }
            @for e in &c.engines {
                tr {
                    td { (Comparison::engine_label(e)) }
                    @for count in &e.by_level { td { (count_text(count)) } }
                    td { (applicable_text(e)) } td { (e.tally.to_string()) }
                }
            }
        }
        h2 { "Disagreements" }
        @if c.rows.is_empty() {
            p { "None: every trial passed everywhere or applied nowhere." }
        } @else {
            p {
                "Each trial on which some engine did not pass, once, drawn at the first event an "
                "engine answered differently (the reference's play under the trial's run), with "
                "the clauses it is listed under and every engine's outcome; a listed failure "
                "shows its triage first."
            }
        }
        @for row in &c.rows {
            (disagreement(c, suite, spec, row, root))
        }
    }
}

fn disagreement(
    c: &Comparison,
    suite: &Suite,
    spec: &Spec,
    row: &Row,
    root: Option<&str>,
) -> Markup {
    let scenario = suite.scenarios.get(row.scenario);
    let walked = scenario.and_then(|s| walk(s, row.run).ok());
    let after = row
        .first_difference
        .or_else(|| scenario.map(|s| s.events.len()))
        .unwrap_or(0);
    let figure = walked
        .as_ref()
        .and_then(|w| picture(w, after, after.saturating_sub(NUMBERED_MOVES)));
    let by_word = |wanted: &str| -> Vec<String> {
        c.engines
            .iter()
            .zip(&row.cells)
            .filter(|(_, cell)| cell.word == wanted)
            .map(|(e, _)| e.engine.name.clone())
            .collect()
    };
    let (passed, not_applicable) = (by_word("pass"), by_word("not-applicable"));
    html! {
        article.disagreement id=(format!("trial-{}", row.trial.replace(['[', ']'], "-"))) {
            h3 {
                @match (root, scenario) {
                    (Some(root), Some(s)) => a href=(format!("{root}{}", scenario_path(&s.id))) { code { (row.trial) } },
                    _ => code { (row.trial) },
                }
                @if row.unanimous { " " span.level { "every engine that played it agrees" } }
            }
            div.body {
                @if let Some((diagram, verdict)) = &figure {
                    figure.diagram data-event=(after) {
                        (diagram.svg())
                        figcaption {
                            @if after == 0 { "The start" } @else {
                                "Event " (after)
                                @if let Some(e) = scenario.and_then(|s| s.events.get(after - 1)) { " (" code { (e) } ")" }
                            }
                            @if !verdict.is_empty() { ", the reference: " strong { (verdict) } }
                        }
                    }
                }
                div {
                    p.meta { code { (row.scenario_file.display()) } }
                    p { "Clauses: "
                        @for (i, id) in row.clauses.iter().enumerate() {
                            @if i > 0 { ", " }
                            @match root {
                                Some(root) if spec.clause(id).is_some() => a href=(clause_href(root, spec, id)) { code { (id) } },
                                _ => code { (id) },
                            }
                        }
                    }
                    ul.outcomes {
                        @for (e, cell) in c.engines.iter().zip(&row.cells) {
                            @if cell.word != "pass" && cell.word != "not-applicable" {
                                li class=(format!("o-{}", cell.word)) {
                                    (e.engine.name) ": " span.word { (cell.word) }
                                    @if !cell.projected.is_empty() { span.why { (cell.projected) } }
                                    @if !cell.summary.is_empty() { span.why { (cell.summary) } }
                                }
                            }
                        }
                        @if !passed.is_empty() {
                            li.o-pass { "pass: " (passed.join(", ")) }
                        }
                        @if !not_applicable.is_empty() {
                            li.o-not-applicable { "not applicable: " (not_applicable.join(", ")) }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::compare::compare;
    use crate::conformance::fixtures;
    use crate::conformance::{Outcome, RunReport};

    /// Every trial passes, but `failing`, which fails on its captures after move 1.
    fn report(name: &str, trials: &[(usize, usize)], failing: Option<(usize, usize)>) -> RunReport {
        let outcome = |t: (usize, usize)| {
            if Some(t) == failing {
                fixtures::captures_failure()
            } else {
                Outcome::Pass
            }
        };
        fixtures::report(name, trials.iter().map(|&t| (t, outcome(t))).collect())
    }

    #[test]
    fn the_standalone_page_draws_each_disagreement_once_and_escapes_everything() {
        let (spec, suite) = fixtures::two_scenarios();
        let (capture, _) = fixtures::capture_and_suicide(&suite);
        let trials: Vec<(usize, usize)> = (0..suite.scenarios.len())
            .flat_map(|s| (0..suite.scenarios[s].runs.len()).map(move |r| (s, r)))
            .collect();
        let reports = [
            report("alpha", &trials, None),
            report("beta <b>", &trials, Some((capture, 1))),
        ];
        let c = compare(&suite, &spec, &reports).unwrap();
        assert_eq!(c.disagreements, 1);
        // The failing scenario cites several clauses; the page lists the trial once.
        assert!(c.clauses.len() > 1);
        let page = standalone(&c, &suite, &spec);
        assert!(page.starts_with("<!DOCTYPE html>"));
        assert_eq!(page.matches("<article class=\"disagreement\"").count(), 1);
        assert!(page.contains("beta &lt;b&gt;"), "{page}");
        assert!(!page.contains("<b>"));
        assert!(page.contains("got a|b &lt;none&gt;"), "{page}");
        assert!(page.contains("<li class=\"o-fail\">"), "{page}");
        assert!(page.contains("pass: alpha"), "{page}");
        // The position of the first difference (event 1) is drawn.
        assert!(page.contains("<figure class=\"diagram\" data-event=\"1\"><svg "));
        for external in ["<script", "<link", "src=", "href=", "@import"] {
            assert!(
                !page.contains(external),
                "{external} in the standalone page"
            );
        }
        assert_eq!(page, standalone(&c, &suite, &spec));
        // In the book, the trial and its clauses are links.
        let linked = book_page(&c, &suite, &spec);
        let id = &suite.scenarios[capture].id;
        assert!(
            linked.contains(&format!("href=\"scenarios/{id}.html\"")),
            "{linked}"
        );
        let clause = &c.rows[0].clauses[0];
        assert!(linked.contains(&format!("#{clause}\"")), "{linked}");
    }
}
