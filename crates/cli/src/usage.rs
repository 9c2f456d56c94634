//! A flag a command does not take, said as such. For a command with a
//! positional argument clap guesses the flag was meant as its value and
//! tips `to pass '--json' as a value, use '-- --json'`, which for `dojo
//! report DIR --json` sends the reader the wrong way: the command has no
//! such flag. This says which commands have it instead.

use clap::CommandFactory;
use clap::error::{ContextKind, ContextValue, ErrorKind};

use crate::args::Cli;

/// The message for `err` when it is an unknown flag clap would tip to
/// pass as a value (`--json` given to a command without it): the command,
/// that it has no such flag, and which commands take it, then the usage;
/// `None` for every other error, which clap says well (a misspelt flag
/// gets its tip of the similar one).
pub fn unknown_flag(err: &clap::Error) -> Option<String> {
    if err.kind() != ErrorKind::UnknownArgument {
        return None;
    }
    let Some(ContextValue::String(given)) = err.get(ContextKind::InvalidArg) else {
        return None;
    };
    if !err.to_string().contains(&format!("use '-- {given}'")) {
        return None;
    }
    let name = given.strip_prefix("--")?;
    let Some(ContextValue::StyledStr(usage)) = err.get(ContextKind::Usage) else {
        return None;
    };
    let usage = usage.to_string();
    let path = command_path(&usage);
    let command = path.join(" ");
    let mut text = format!("unexpected argument '{given}' found: `{command}` has no flag {given}");
    let others = commands_with(name);
    if !others.is_empty() {
        let have = if others.len() == 1 { "has" } else { "have" };
        text += &format!(" ({} {have} it)", list(&others));
    }
    // A league's results are already JSON: its report.json.
    let league = path
        .get(1)
        .is_some_and(|c| ["league", "merge", "report"].contains(&c.as_str()));
    if name == "json" && league {
        text += "; a league directory's report is its report.json";
    }
    Some(format!(
        "{text}\n\n{}\n\nFor more information, try '--help'.",
        usage.trim_end()
    ))
}

/// The command a usage line is of: `Usage: dojo report [OPTIONS] <DIR>`
/// gives `["dojo", "report"]`.
fn command_path(usage: &str) -> Vec<String> {
    let line = (usage.lines())
        .find(|l| l.contains("Usage:"))
        .unwrap_or(usage);
    let after = line.split("Usage:").nth(1).unwrap_or(line);
    after
        .split_whitespace()
        .take_while(|w| !w.starts_with(['<', '[', '-']))
        .map(str::to_owned)
        .collect()
}

/// Every command (`dojo match royale`, `dojo compare`) that takes
/// `--name`, global flags aside.
fn commands_with(name: &str) -> Vec<String> {
    fn walk(cmd: &clap::Command, path: &str, name: &str, out: &mut Vec<String>) {
        for sub in cmd.get_subcommands() {
            let here = format!("{path} {}", sub.get_name());
            let has =
                (sub.get_arguments()).any(|a| !a.is_global_set() && a.get_long() == Some(name));
            if has {
                out.push(format!("`{here}`"));
            }
            walk(sub, &here, name, out);
        }
    }
    let mut out = Vec::new();
    walk(&Cli::command(), "dojo", name, &mut out);
    out
}

/// `a`, `a and b`, `a, b and c`.
fn list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// The message's first paragraph (the usage follows).
    fn message(args: &[&str]) -> Option<String> {
        let err = Cli::try_parse_from(args).expect_err("a usage error");
        unknown_flag(&err).map(|m| m.split("\n\n").next().unwrap().to_owned())
    }

    #[test]
    fn an_unknown_flag_names_the_commands_that_have_it() {
        assert_eq!(
            message(&["dojo", "report", "x", "--json"]).as_deref(),
            Some(
                "unexpected argument '--json' found: `dojo report` has no flag --json (`dojo match cardjitsu`, `dojo match royale` and `dojo compare` have it); a league directory's report is its report.json"
            )
        );
        assert_eq!(
            message(&["dojo", "check", "royale", "b", "--junit=x"]).as_deref(),
            Some(
                "unexpected argument '--junit' found: `dojo check` has no flag --junit (`dojo compare` has it)"
            )
        );
        assert_eq!(
            message(&["dojo", "report", "x", "--bogus"]).as_deref(),
            Some("unexpected argument '--bogus' found: `dojo report` has no flag --bogus")
        );
        // Not an unknown flag, or a misspelt one: clap's own message.
        assert_eq!(message(&["dojo", "report", "--html"]), None);
        assert_eq!(
            message(&["dojo", "match", "cardjitsu", "a", "b", "--sede", "1"]),
            None
        );
    }
}
