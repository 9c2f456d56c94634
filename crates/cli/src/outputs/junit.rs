//! `--junit FILE`: a comparison as a JUnit XML report, the format CI
//! systems (GitHub Actions' test reporters, GitLab, Jenkins) read to show
//! test results. The comparison is one test case, named after NEW and
//! BASE: it passes when NEW passes (H1), fails when NEW is worse (H0), is
//! skipped when the test was inconclusive at the game limit, and is an
//! error when there is no verdict (a broken bot, an interruption). The
//! terminal's summary goes into its `system-out`, the settings and
//! figures into the suite's properties.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use dojo_league::compare::Conclusion;

use super::Output;
use super::compare::{Compared, summary};

/// `--junit`: the comparison's JUnit report to this file.
pub struct Junit {
    path: PathBuf,
    /// When the comparison started (the test case's time).
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

impl Output<Compared> for Junit {
    fn finish(&mut self, result: &Compared) -> Result<()> {
        let xml = report(result, self.started.elapsed().as_secs_f64());
        match crate::output::write_file(&self.path, xml.as_bytes()) {
            // A reader of `--junit -` that went away is no error, and
            // must not change the verdict's status.
            Err(e) if crate::output::is_broken_pipe(&e) => Ok(()),
            written => {
                written?;
                super::say_written("junit report", &self.path);
                Ok(())
            }
        }
    }
}

/// What the test case's verdict element is, if any: its tag, `type` and
/// message.
fn outcome(result: &Compared) -> Option<(&'static str, &'static str, String)> {
    let r = &result.report;
    let p = &r.settings.sprt;
    match r.verdict {
        Conclusion::H1 => None,
        Conclusion::H0 => Some((
            "failure",
            "H0",
            format!(
                "NEW is worse: H0 accepted (the data favour {} Elo over {}; Elo difference {})",
                p.elo0,
                p.elo1,
                super::compare::signed(r.elo.elo, 1)
            ),
        )),
        Conclusion::Inconclusive => Some((
            "skipped",
            "inconclusive",
            format!(
                "inconclusive: the game limit ({}) was reached before the test decided",
                u64::from(r.settings.games_per_block()) * r.settings.max_blocks()
            ),
        )),
        Conclusion::Cancelled => Some((
            "error",
            "interrupted",
            "no verdict: the comparison was interrupted".to_owned(),
        )),
        Conclusion::Broken => Some((
            "error",
            "broken",
            match &r.broken {
                Some(b) => format!(
                    "no verdict: {} is broken: {}",
                    b.role.to_uppercase(),
                    b.reason
                ),
                None => "no verdict: a bot is broken".to_owned(),
            },
        )),
    }
}

/// The whole report.
fn report(result: &Compared, secs: f64) -> String {
    let r = &result.report;
    let game = r.settings.game.name();
    let (new, base) = (&result.run.new.name, &result.run.base.name);
    let verdict = outcome(result);
    let count = |tag: &str| u8::from(verdict.as_ref().is_some_and(|(t, _, _)| *t == tag));
    let (failures, errors, skipped) = (count("failure"), count("error"), count("skipped"));
    let time = format!("{secs:.3}");
    let suite = format!("dojo compare {game}");
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        xml,
        "<testsuites name=\"{}\" tests=\"1\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"{skipped}\" time=\"{time}\">",
        escape(&suite)
    );
    let _ = writeln!(
        xml,
        "  <testsuite name=\"{}\" tests=\"1\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"{skipped}\" time=\"{time}\">",
        escape(&suite)
    );
    xml.push_str("    <properties>\n");
    let mut properties: Vec<(&str, String)> = vec![
        ("new", new.clone()),
        ("base", base.clone()),
        ("sprt", r.settings.sprt.to_string()),
        ("seed", r.settings.seed.to_string()),
        ("games_played", r.games_played.to_string()),
        ("llr", format!("{:.3}", r.llr)),
        (
            "elo",
            format!(
                "{} [{}, {}]",
                super::compare::signed(r.elo.elo, 1),
                super::compare::signed(r.elo.lo, 1),
                super::compare::signed(r.elo.hi, 1)
            ),
        ),
        ("verdict", format!("{:?}", r.verdict).to_lowercase()),
    ];
    if let Some(third) = &result.run.third {
        properties.insert(2, ("third", third.name.clone()));
    }
    for (name, value) in properties {
        let _ = writeln!(
            xml,
            "      <property name=\"{}\" value=\"{}\"/>",
            escape(name),
            escape(&value)
        );
    }
    xml.push_str("    </properties>\n");
    let _ = writeln!(
        xml,
        "    <testcase classname=\"dojo.compare.{}\" name=\"{}\" time=\"{time}\">",
        escape(game),
        escape(&format!("NEW {new} is not worse than BASE {base}"))
    );
    let text = summary(r);
    if let Some((tag, kind, message)) = &verdict {
        let _ = writeln!(
            xml,
            "      <{tag} type=\"{kind}\" message=\"{}\">{}</{tag}>",
            escape(message),
            escape(&text)
        );
    }
    let _ = writeln!(xml, "      <system-out>{}</system-out>", escape(&text));
    xml.push_str("    </testcase>\n  </testsuite>\n</testsuites>\n");
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
}
