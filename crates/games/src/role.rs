//! Seat roles: the labels some games give their seats (royale's teams R,
//! P, S), declared by the game in [`Shape::roles`]. Shared code (the
//! schedule, the store, records, reports) carries them as [`Role`] and
//! never knows what a game means by them; the game converts at its own
//! boundary.

use std::fmt;

use dojo_runner::{BotSpec, ManifestError, ManifestProblem, ManifestTeam};
use serde::{Deserialize, Serialize};

use crate::game::Game;
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
/// Shown as the manifest's own errors are, `FILE:LINE:COLUMN: MESSAGE`
/// ([`BadFixedRole::manifest_error`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.manifest_error())]
pub struct BadFixedRole {
    pub manifest: std::path::PathBuf,
    /// The `team` as written, and where.
    pub team: ManifestTeam,
    /// The roles of the game (or of the games the bot may play).
    pub expected: Vec<&'static str>,
}

impl BadFixedRole {
    /// The error as one of the manifest's own: its line and column, so a
    /// folder's listing shows it as it shows a bad key.
    pub fn manifest_error(&self) -> ManifestError {
        ManifestError {
            file: self.manifest.clone(),
            problems: vec![ManifestProblem {
                line: self.team.line,
                column: self.team.column,
                message: format!(
                    "`team` {:?} is not a team; expected {}",
                    self.team.name,
                    one_of(&self.expected)
                ),
            }],
        }
    }
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
    let Some(team) = &bot.team else {
        return Ok(None);
    };
    if shape.roles.contains(&team.name.as_str()) {
        Ok(Some(Role::from(team.name.as_str())))
    } else {
        Err(BadFixedRole {
            manifest: bot.dir.join(dojo_runner::MANIFEST_FILE),
            team: team.clone(),
            expected: shape.roles.to_vec(),
        })
    }
}

/// Checks `bot`'s `team` without a game: against the roles of every game
/// it may play (those its `games` lists, or every game when it lists
/// none) that has roles, with [`fixed_role`]. What reads a manifest
/// before a game is chosen (`dojo bots`, a bot named on the command line)
/// refuses a team no such game has, as it refuses a bad key; a bot only
/// for games without roles has no team to check.
pub fn check_team(bot: &BotSpec) -> Result<(), BadFixedRole> {
    let mut refused: Option<BadFixedRole> = None;
    for game in Game::ALL.into_iter().filter(|g| bot.plays(g.name())) {
        match fixed_role(bot, game.shape()) {
            Ok(Some(_)) => return Ok(()),
            Ok(None) => {}
            Err(err) => {
                let all = refused.get_or_insert_with(|| BadFixedRole {
                    expected: Vec::new(),
                    ..err.clone()
                });
                for role in err.expected {
                    if !all.expected.contains(&role) {
                        all.expected.push(role);
                    }
                }
            }
        }
    }
    refused.map_or(Ok(()), Err)
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
            team: team.map(|name| ManifestTeam {
                name: name.to_owned(),
                line: 3,
                column: 1,
            }),
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
            "/bots/x/bot.toml:3:1: `team` \"Q\" is not a team; expected \"R\", \"P\" or \"S\""
        );
    }

    /// Without a game: the roles of the games the bot may play, and none
    /// for a bot only for games without roles.
    #[test]
    fn a_team_without_a_game_is_checked_against_the_games_the_bot_plays() {
        assert_eq!(check_team(&bot(None)), Ok(()));
        assert_eq!(check_team(&bot(Some("P"))), Ok(()));
        let err = check_team(&bot(Some("X"))).unwrap_err();
        assert_eq!(err.expected, ["R", "P", "S"]);
        assert_eq!(
            err.to_string(),
            "/bots/x/bot.toml:3:1: `team` \"X\" is not a team; expected \"R\", \"P\" or \"S\""
        );
        let only = |games: &[&str]| BotSpec {
            games: games.iter().map(|g| (*g).to_owned()).collect(),
            ..bot(Some("X"))
        };
        assert!(check_team(&only(&["royale"])).is_err());
        assert_eq!(check_team(&only(&["cardjitsu"])), Ok(()));
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
