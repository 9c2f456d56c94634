//! The output flags (`--json`, `--html`, `--junit`), declared once
//! (`crate::outputs::Format` in the binary): each command that writes a
//! result offers exactly the formats it has, each flag with the same help
//! wherever it is offered, and those it does not offer are usage errors.

use dojo_testkit::cli::{dojo, stdout_of};

/// Each flag's help, the same in every command.
const HELP: [(&str, &str); 3] = [
    ("--json", "Write the result as JSON to FILE (`-`: stdout)"),
    (
        "--html",
        "Write the result as one self-contained HTML page (data, style and scripts inside; it works offline) to FILE",
    ),
    ("--junit", "Write the result as a JUnit XML report to FILE"),
];

#[test]
fn every_command_offers_the_output_flags_of_its_result_with_one_help_each() {
    let offered: [(&[&str], &[&str]); 8] = [
        (&["match", "cardjitsu"], &["--json", "--html"]),
        (&["match", "royale"], &["--json", "--html"]),
        (&["compare"], &["--json", "--html", "--junit"]),
        (&["league"], &["--html"]),
        (&["merge"], &["--html"]),
        (&["report"], &["--html"]),
        (&["replay"], &["--html"]),
        (&["check"], &[]),
    ];
    for (command, flags) in offered {
        let out = dojo().args(command).arg("--help").output().unwrap();
        assert!(out.status.success(), "{command:?}");
        // One line per paragraph, however clap wraps them.
        let help = stdout_of(&out)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        for (flag, text) in HELP {
            let shown = help.contains(&format!("{flag} <FILE>"));
            assert_eq!(shown, flags.contains(&flag), "dojo {command:?} {flag}");
            if shown {
                assert!(help.contains(text), "dojo {command:?} {flag}: {help}");
            }
        }
    }
}
