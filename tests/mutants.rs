//! The suite catches every deliberately broken executor (`conformance::mutants`): a mutant
//! that passes every trial is a gap in the suite, to be closed with a new scenario.

mod common;

use goconform::conformance::mutants::{kill_table, kills, mutants, Mutant};
use goconform::scenario::{find_files, Suite};
use goconform::spec::Spec;

fn suite() -> Suite {
    let spec = Spec::load(common::root()).unwrap();
    let files = find_files(&common::root().join("conformance")).unwrap();
    Suite::load(&files, &spec).unwrap()
}

#[test]
fn no_mutant_survives_the_suite() {
    let suite = suite();
    let table = kill_table(&suite, 0).unwrap();
    assert_eq!(table.len(), mutants().len());
    let survivors: Vec<&str> = table
        .iter()
        .filter(|k| k.survived())
        .map(|k| k.mutant)
        .collect();
    assert!(survivors.is_empty(), "surviving mutants: {survivors:?}");
}

#[test]
fn the_flawless_control_survives_so_kills_are_the_flaws_doing() {
    let table = kills(&suite(), 0, vec![Mutant::control()]).unwrap();
    assert!(table[0].survived(), "{:?}", table[0].killed_by);
}

#[test]
fn goconform_mutants_prints_the_kill_table() {
    let out = common::goconform(&["mutants"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("killed no-superko"), "{text}");
    assert!(
        text.contains("  basic-ko") || text.contains("  triple-ko"),
        "{text}"
    );
    let total = mutants().len();
    assert!(
        text.contains(&format!("{total} mutants: {total} killed, 0 survived")),
        "{text}"
    );
}
