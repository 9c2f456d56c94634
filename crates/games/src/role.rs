//! Seat roles: the labels some games give their seats (royale's teams R,
//! P, S), declared by the game in [`Shape::roles`]. Shared code (the
//! schedule, the store, records, reports) carries them as [`Role`] and
//! never knows what a game means by them; the game converts at its own
//! boundary.

use std::fmt;

use dojo_runner::BotSpec;
use serde::{Deserialize, Serialize};

use crate::shape::Shape;

/// One seat's role label, as its game spells it (royale: `"R"`). Written
/// to JSON as that plain string, exactly as the game's own type was, so
/// stored leagues, records and reports read and write unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Role(String);

impl Role {
    pub fn new(label: impl Into<String>) -> Role {
        Role(label.into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<&str> for Role {
    fn from(label: &str) -> Role {
        Role(label.to_owned())
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The role of each seat of a game of `shape`, in seat order (seat `i`
/// plays the `i`-th); empty for a game without roles.
pub fn seat_roles(shape: Shape) -> Vec<Role> {
    shape
        .roles
        .iter()
        .take(shape.seats())
        .map(|&r| Role::from(r))
        .collect()
}

/// A bot's manifest declares a `team` that is not one of its game's roles.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{}: `team` {team:?} is not a team; expected {}",
    manifest.display(),
    one_of(expected)
)]
pub struct BadFixedRole {
    pub manifest: std::path::PathBuf,
    pub team: String,
    /// The game's roles.
    pub expected: &'static [&'static str],
}

/// `"R", "P" or "S"`.
fn one_of(labels: &[&str]) -> String {
    let quoted: Vec<String> = labels.iter().map(|l| format!("{l:?}")).collect();
    match quoted.split_last() {
        None => "none".to_owned(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// The role `bot`'s manifest insists on (its `team` key) for a game of
/// `shape`, checked against the game's roles. A game without roles has
/// nothing to insist on, so the key is not read for it.
pub fn fixed_role(bot: &BotSpec, shape: Shape) -> Result<Option<Role>, BadFixedRole> {
    if shape.roles.is_empty() {
        return Ok(None);
    }
    let Some(team) = bot.team.as_deref() else {
        return Ok(None);
    };
    if shape.roles.contains(&team) {
        Ok(Some(Role::from(team)))
    } else {
        Err(BadFixedRole {
            manifest: bot.dir.join(dojo_runner::MANIFEST_FILE),
            team: team.to_owned(),
            expected: shape.roles,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEAMS: Shape = Shape {
        sides: &[0, 1, 2],
        roles: &["R", "P", "S"],
        board: true,
    };
    const NONE: Shape = Shape {
        sides: &[0, 1],
        roles: &[],
        board: false,
    };

    fn bot(team: Option<&str>) -> BotSpec {
        BotSpec {
            name: "x".into(),
            command: vec!["x".into()],
            dir: "/bots/x".into(),
            build: None,
            mode: dojo_runner::Mode::Auto,
            games: Vec::new(),
            team: team.map(str::to_owned),
            description: None,
            values: Default::default(),
        }
    }

    #[test]
    fn a_manifest_team_is_checked_against_the_games_roles_and_named_with_its_file() {
        assert_eq!(fixed_role(&bot(None), TEAMS), Ok(None));
        assert_eq!(
            fixed_role(&bot(Some("P")), TEAMS),
            Ok(Some(Role::from("P")))
        );
        let err = fixed_role(&bot(Some("Q")), TEAMS).unwrap_err().to_string();
        assert_eq!(
            err,
            "/bots/x/bot.toml: `team` \"Q\" is not a team; expected \"R\", \"P\" or \"S\""
        );
    }

    #[test]
    fn a_game_without_roles_does_not_read_the_team_key() {
        assert_eq!(fixed_role(&bot(Some("Q")), NONE), Ok(None));
        assert_eq!(fixed_role(&bot(Some("R")), NONE), Ok(None));
    }

    #[test]
    fn seats_take_the_games_roles_in_order() {
        assert_eq!(seat_roles(TEAMS), ["R", "P", "S"].map(Role::from));
        assert!(seat_roles(NONE).is_empty());
    }

    #[test]
    fn roles_are_written_as_the_plain_strings_stored_before() {
        // As royale's `Team` wrote them in games.jsonl, league.json and
        // records: the old text reads and writes back byte for byte.
        let old = r#"["R","P","S"]"#;
        let roles: Vec<Role> = serde_json::from_str(old).unwrap();
        assert_eq!(roles, seat_roles(TEAMS));
        assert_eq!(serde_json::to_string(&roles).unwrap(), old);
        let teams = dojo_engine::royale::Team::ALL;
        assert_eq!(
            serde_json::to_string(&teams).unwrap(),
            serde_json::to_string(&roles).unwrap()
        );
    }
}
