//! `--junit FILE`: a result as a JUnit XML report, the format CI systems
//! (GitHub Actions' test reporters, GitLab, Jenkins) read to show test
//! results. This module writes the XML of a [`Suite`] and knows no kind of
//! run: a run that has a JUnit form says what its suite is
//! ([`AsJunit`], beside the run: a comparison is one test case, named
//! after NEW and BASE, that passes when NEW passes, fails when NEW is
//! worse, is skipped when inconclusive and is an error when there is no
//! verdict; see `outputs/compare.rs`).

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;

use super::{Output, Run};

/// A run's JUnit form: one test suite.
pub trait AsJunit {
    fn suite(&self) -> Suite;
}

/// One test suite: its name, its properties (settings and figures, in
/// order) and its test cases.
#[derive(Debug, Clone, PartialEq)]
pub struct Suite {
    pub name: String,
    pub properties: Vec<(String, String)>,
    pub cases: Vec<Case>,
}

/// One test case: passed unless it has a verdict element; `system_out`
/// is the text a reader sees beside it (and inside its verdict element).
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    pub classname: String,
    pub name: String,
    pub verdict: Option<Verdict>,
    pub system_out: String,
}

/// Why a test case did not pass.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    pub kind: VerdictKind,
    /// The element's `type` attribute: a short machine-readable reason.
    pub reason: &'static str,
    pub message: String,
}

/// JUnit's three ways not to pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VerdictKind {
    /// The test ran and its assertion failed.
    Failure,
    /// The test could not run to a verdict.
    Error,
    /// The test ran but decided nothing.
    Skipped,
}

impl VerdictKind {
    fn tag(self) -> &'static str {
        match self {
            VerdictKind::Failure => "failure",
            VerdictKind::Error => "error",
            VerdictKind::Skipped => "skipped",
        }
    }
}

/// `--junit`: the run's JUnit report to this file.
pub struct Junit {
    path: PathBuf,
    /// When the run started (the suite's and each case's time).
    started: Instant,
}

impl Junit {
    /// The report to `path`, timed from now.
    pub fn new(path: PathBuf) -> Junit {
        Junit {
            path,
            started: Instant::now(),
        }
    }
}

impl<R: Run + AsJunit> Output<R> for Junit {
    fn finish(&mut self, result: &R) -> Result<()> {
        let xml = xml(&result.suite(), self.started.elapsed().as_secs_f64());
        match crate::output::write_file(&self.path, xml.as_bytes()) {
            // A reader of `--junit -` that went away is no error, and
            // must not change the run's exit status.
            Err(e) if crate::output::is_broken_pipe(&e) => Ok(()),
            written => {
                written?;
                super::say_written("junit report", &self.path);
                Ok(())
            }
        }
    }
}

/// The whole report: `suite` inside a `testsuites` of its own, every case
/// timed `secs`.
pub fn xml(suite: &Suite, secs: f64) -> String {
    let count = |kind: VerdictKind| {
        (suite.cases.iter())
            .filter(|c| c.verdict.as_ref().is_some_and(|v| v.kind == kind))
            .count()
    };
    let counts = format!(
        "tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{secs:.3}\"",
        suite.cases.len(),
        count(VerdictKind::Failure),
        count(VerdictKind::Error),
        count(VerdictKind::Skipped),
    );
    let name = escape(&suite.name);
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(xml, "<testsuites name=\"{name}\" {counts}>");
    let _ = writeln!(xml, "  <testsuite name=\"{name}\" {counts}>");
    xml.push_str("    <properties>\n");
    for (name, value) in &suite.properties {
        let _ = writeln!(
            xml,
            "      <property name=\"{}\" value=\"{}\"/>",
            escape(name),
            escape(value)
        );
    }
    xml.push_str("    </properties>\n");
    for case in &suite.cases {
        let _ = writeln!(
            xml,
            "    <testcase classname=\"{}\" name=\"{}\" time=\"{secs:.3}\">",
            escape(&case.classname),
            escape(&case.name)
        );
        let text = escape(&case.system_out);
        if let Some(v) = &case.verdict {
            let tag = v.kind.tag();
            let _ = writeln!(
                xml,
                "      <{tag} type=\"{}\" message=\"{}\">{text}</{tag}>",
                escape(v.reason),
                escape(&v.message)
            );
        }
        let _ = writeln!(xml, "      <system-out>{text}</system-out>");
        xml.push_str("    </testcase>\n");
    }
    xml.push_str("  </testsuite>\n</testsuites>\n");
    xml
}

/// `text` safe in XML content and attribute values: the five special
/// characters escaped, and a character XML 1.0 does not allow (most
/// control characters, as a bot's stderr quoted in a reason may hold)
/// replaced by U+FFFD.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if c < ' ' || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_characters_xml_forbids_are_replaced() {
        assert_eq!(
            escape("a<b & \"c\" 'd'>\u{1}\u{1b}[0m\tx\n"),
            "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;\u{FFFD}\u{FFFD}[0m\tx\n"
        );
        assert_eq!(escape("ünïcode ✓"), "ünïcode ✓");
    }

    fn case(name: &str, verdict: Option<VerdictKind>) -> Case {
        Case {
            classname: "dojo.t".into(),
            name: name.into(),
            verdict: verdict.map(|kind| Verdict {
                kind,
                reason: "why",
                message: "said <here>".into(),
            }),
            system_out: "text & more".into(),
        }
    }

    #[test]
    fn a_suite_counts_its_cases_by_verdict_and_writes_each_verdict_element() {
        let suite = Suite {
            name: "s".into(),
            properties: vec![("seed".into(), "7".into())],
            cases: vec![
                case("passes", None),
                case("fails", Some(VerdictKind::Failure)),
                case("skips", Some(VerdictKind::Skipped)),
                case("breaks", Some(VerdictKind::Error)),
                case("fails too", Some(VerdictKind::Failure)),
            ],
        };
        let xml = xml(&suite, 1.5);
        assert!(
            xml.contains(
                r#"<testsuite name="s" tests="5" failures="2" errors="1" skipped="1" time="1.500">"#
            ),
            "{xml}"
        );
        assert!(
            xml.contains(r#"<property name="seed" value="7"/>"#),
            "{xml}"
        );
        assert_eq!(xml.matches("<testcase ").count(), 5);
        assert_eq!(xml.matches("<failure ").count(), 2);
        assert!(
            xml.contains(
                r#"<error type="why" message="said &lt;here&gt;">text &amp; more</error>"#
            )
        );
        // The passing case has its text and no verdict element.
        let passing =
            &xml[xml.find(r#"name="passes""#).unwrap()..xml.find(r#"name="fails""#).unwrap()];
        assert!(!passing.contains("type="), "{passing}");
        assert!(passing.contains("<system-out>text &amp; more</system-out>"));
    }
}
