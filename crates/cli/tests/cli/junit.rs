//! `dojo compare --junit FILE`: the comparison as a JUnit XML report for
//! CI systems. Well-formed, one test case, its verdict element as the
//! verdict says (a failure for NEW worse: `compare.rs` checks it on a
//! real H0, and no element on a real H1), written where asked beside the
//! other outputs; a path that cannot be written is refused before any
//! game; the commands without a test verdict do not offer the flag.

use dojo_testkit::cli::{GENEROUS, dojo};
use dojo_testkit::json::read_json;
use predicates::prelude::*;
use predicates::str::contains;

/// Checks that `xml` is well-formed XML (its declaration, then one root
/// element; every tag closed in order, attributes quoted, `&` only in the
/// five entities and character references) and returns every element's
/// start tag, as `name attr="value" ...`, in document order.
pub fn well_formed(xml: &str) -> Vec<String> {
    let rest = xml
        .strip_prefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>")
        .unwrap_or_else(|| panic!("no XML declaration: {xml}"));
    let mut open: Vec<String> = Vec::new();
    let mut starts = Vec::new();
    let mut roots = 0;
    let mut at = rest;
    while !at.is_empty() {
        let lt = at.find('<').unwrap_or(at.len());
        let text = &at[..lt];
        assert!(
            !open.is_empty() || text.trim().is_empty(),
            "text outside the root element: {text:?}"
        );
        check_entities(text);
        at = &at[lt..];
        if at.is_empty() {
            break;
        }
        let gt = at.find('>').unwrap_or_else(|| panic!("unclosed tag: {at}"));
        let tag = &at[1..gt];
        at = &at[gt + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            let top = open
                .pop()
                .unwrap_or_else(|| panic!("</{name}> closes nothing"));
            assert_eq!(top, name, "</{name}> closes <{top}>");
            continue;
        }
        let (tag, empty) = match tag.strip_suffix('/') {
            Some(tag) => (tag, true),
            None => (tag, false),
        };
        let name = tag
            .split_whitespace()
            .next()
            .expect("a tag name")
            .to_owned();
        assert!(
            name.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)),
            "tag name {name:?}"
        );
        check_attributes(&tag[name.len()..]);
        if open.is_empty() {
            roots += 1;
        }
        starts.push(tag.trim().to_owned());
        if !empty {
            open.push(name);
        }
    }
    assert!(open.is_empty(), "never closed: {open:?}");
    assert_eq!(roots, 1, "one root element");
    starts
}

/// Attributes: `name="value"` each, values with no `<` and valid
/// entities.
fn check_attributes(mut attrs: &str) {
    loop {
        attrs = attrs.trim_start();
        if attrs.is_empty() {
            return;
        }
        let eq = attrs
            .find("=\"")
            .unwrap_or_else(|| panic!("attribute: {attrs}"));
        let name = &attrs[..eq];
        assert!(
            !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
            "attribute name {name:?}"
        );
        let value_end = attrs[eq + 2..].find('"').expect("a closing quote") + eq + 2;
        let value = &attrs[eq + 2..value_end];
        assert!(!value.contains('<'), "{value}");
        check_entities(value);
        attrs = &attrs[value_end + 1..];
    }
}

/// Every `&` starts one of the five entities or a character reference.
fn check_entities(text: &str) {
    for (i, _) in text.match_indices('&') {
        let entity = &text[i..text[i..].find(';').map_or(text.len(), |e| i + e + 1)];
        assert!(
            ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"].contains(&entity)
                || entity.starts_with("&#"),
            "a bare & in {text:?}"
        );
    }
}

/// The start tag of the first element named `name`.
pub fn element<'a>(starts: &'a [String], name: &str) -> Option<&'a str> {
    starts
        .iter()
        .find(|s| s.split_whitespace().next() == Some(name))
        .map(String::as_str)
}

#[test]
fn the_checker_refuses_what_is_not_well_formed() {
    let ok =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a x=\"1 &amp; 2\"><b/><c>t &lt;</c></a>\n";
    assert_eq!(well_formed(ok), ["a x=\"1 &amp; 2\"", "b", "c"]);
    for bad in [
        "<a></a>",
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><a><b></a></b>",
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><a>x & y</a>",
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><a x=1></a>",
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><a></a><b></b>",
    ] {
        let refused = std::panic::catch_unwind(|| well_formed(bad)).is_err();
        assert!(refused, "{bad}");
    }
}

/// An inconclusive comparison is a skipped test case; the JUnit report
/// is written where asked beside `--json`, and `--junit -` puts it alone
/// on stdout (the summary then goes to stderr).
#[test]
fn an_inconclusive_comparison_is_a_skipped_test_case_written_where_asked() {
    let dir = tempfile::tempdir().unwrap();
    let junit = dir.path().join("reports/compare.xml");
    std::fs::create_dir(dir.path().join("reports")).unwrap();
    let json = dir.path().join("compare.json");
    dojo()
        .args(["compare", "cardjitsu", "random-py", "random-py"])
        .args(["--games", "2"])
        .args(GENEROUS)
        .arg("--junit")
        .arg(&junit)
        .arg("--json")
        .arg(&json)
        .assert()
        .code(2)
        .stdout(contains("verdict: inconclusive"))
        .stdout(contains(format!("junit report: {}", junit.display())));
    assert_eq!(read_json(&json)["verdict"], "inconclusive");
    let xml = std::fs::read_to_string(&junit).unwrap();
    let starts = well_formed(&xml);
    let suite = element(&starts, "testsuite").unwrap();
    assert!(suite.contains("tests=\"1\""), "{suite}");
    assert!(suite.contains("failures=\"0\""), "{suite}");
    assert!(suite.contains("skipped=\"1\""), "{suite}");
    let case = element(&starts, "testcase").unwrap();
    assert!(
        case.contains("classname=\"dojo.compare.cardjitsu\""),
        "{case}"
    );
    assert!(
        case.contains("name=\"NEW random-py is not worse than BASE random-py\""),
        "{case}"
    );
    let skipped = element(&starts, "skipped").unwrap();
    assert!(skipped.contains("type=\"inconclusive\""), "{skipped}");
    assert!(element(&starts, "failure").is_none(), "{xml}");
    assert!(xml.contains("<property name=\"verdict\" value=\"inconclusive\"/>"));
    // The summary is the test case's output.
    assert!(xml.contains("verdict: inconclusive"), "{xml}");

    let out = dojo()
        .args(["compare", "cardjitsu", "random-py", "random-py"])
        .args(["--games", "2", "--junit", "-"])
        .args(GENEROUS)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stdout = String::from_utf8(out.stdout).unwrap();
    well_formed(&stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("verdict: inconclusive"), "{stderr}");
}

/// A JUnit report that cannot be written is refused before any game,
/// naming the flag, with status 3 (a CI job must not mistake it for a
/// verdict); and the flag is the same file as another output's.
#[test]
fn a_junit_path_that_cannot_be_written_is_refused_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    // A file where its directory should be: no directory can be made.
    std::fs::write(dir.path().join("file"), "mine").unwrap();
    let missing = dir.path().join("file/dir/compare.xml");
    dojo()
        .args(["compare", "cardjitsu", "random-py", "random-py"])
        .arg("--junit")
        .arg(&missing)
        .assert()
        .code(3)
        .stderr(contains(format!("--junit {}", missing.display())))
        .stderr(contains("is not a directory"))
        .stderr(contains("compare:").not());
    let same = dir.path().join("r.out");
    dojo()
        .args(["compare", "cardjitsu", "random-py", "random-py"])
        .arg("--junit")
        .arg(&same)
        .arg("--json")
        .arg(&same)
        .assert()
        .code(3)
        .stderr(contains("--junit"))
        .stderr(contains("--json"));
    assert!(!same.exists());
    let directory = dir.path();
    dojo()
        .args(["compare", "cardjitsu", "random-py", "random-py"])
        .arg("--junit")
        .arg(directory)
        .assert()
        .code(3)
        .stderr(contains("--junit"))
        .stderr(contains("is a directory"));
}

/// Only `dojo compare` has a test verdict: the other commands do not
/// offer `--junit`, and clap says so (status 3) rather than ignore it.
#[test]
fn commands_without_a_verdict_do_not_offer_junit() {
    for args in [
        vec!["league", "cardjitsu", "random-py", "random-sh"],
        vec!["report", "results"],
        vec!["merge", "a", "--out", "b"],
        vec!["replay", "record.json"],
        vec!["match", "cardjitsu", "random-py", "random-sh"],
    ] {
        dojo()
            .args(&args)
            .args(["--junit", "r.xml"])
            .assert()
            .code(3)
            .stderr(contains("unexpected argument '--junit'"));
    }
    // Nor `--json` where there is no JSON result.
    for args in [
        vec!["report", "results"],
        vec!["merge", "a", "--out", "b"],
        vec!["replay", "record.json"],
        vec!["league", "cardjitsu", "random-py", "random-sh"],
    ] {
        dojo()
            .args(&args)
            .args(["--json", "r.json"])
            .assert()
            .code(3)
            .stderr(contains("unexpected argument '--json'"))
            // Said as a flag the command lacks, with who has it, not as
            // clap's tip to pass it as a value.
            .stderr(contains(format!("`dojo {}` has no flag --json (", args[0])))
            .stderr(contains("`dojo compare` have it)"))
            .stderr(contains("as a value").not());
    }
}
