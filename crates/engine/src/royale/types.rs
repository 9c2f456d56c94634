//! The vocabulary of the royale: tiles, teams, directions, positions and
//! actions, with their one-character (wire) spellings.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// One square of the board. Ordered as declared (rock, paper, scissors,
/// wall, empty).
///
/// Each tile is held as its board character's byte, so that writing a
/// board's text (every turn's prompt) is a plain byte copy the compiler
/// vectorises rather than a lookup per tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "char", try_from = "char")]
#[repr(u8)]
pub enum Tile {
    /// `R`
    Rock = b'R',
    /// `P`
    Paper = b'P',
    /// `S`
    Scissors = b'S',
    /// `#`: impassable, never changes.
    Wall = b'#',
    /// `.`: unclaimed.
    Empty = b'.',
}

impl Tile {
    /// Position in the declared order (which the character bytes do not
    /// follow).
    const fn rank(self) -> u8 {
        match self {
            Tile::Rock => 0,
            Tile::Paper => 1,
            Tile::Scissors => 2,
            Tile::Wall => 3,
            Tile::Empty => 4,
        }
    }

    /// The board character as one ASCII byte.
    #[inline]
    pub const fn to_byte(self) -> u8 {
        self as u8
    }
}

impl PartialOrd for Tile {
    fn partial_cmp(&self, other: &Tile) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Tile {
    fn cmp(&self, other: &Tile) -> std::cmp::Ordering {
        self.rank().cmp(&other.rank())
    }
}

/// A character that is not one of `R`, `P`, `S`, `#`, `.`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("expected one of R, P, S, #, . but found {0:?}")]
pub struct BadTileChar(pub char);

impl Tile {
    /// Every tile type.
    pub const ALL: [Tile; 5] = [
        Tile::Rock,
        Tile::Paper,
        Tile::Scissors,
        Tile::Wall,
        Tile::Empty,
    ];

    /// The board character.
    pub const fn to_char(self) -> char {
        self as u8 as char
    }

    /// Reads a board character.
    pub const fn from_char(c: char) -> Option<Tile> {
        match c {
            'R' => Some(Tile::Rock),
            'P' => Some(Tile::Paper),
            'S' => Some(Tile::Scissors),
            '#' => Some(Tile::Wall),
            '.' => Some(Tile::Empty),
            _ => None,
        }
    }

    /// Whether players may stand on (and instigate against) this tile.
    pub const fn is_passable(self) -> bool {
        !matches!(self, Tile::Wall)
    }

    /// The team whose sign this is, for `R`, `P` and `S`.
    pub const fn team(self) -> Option<Team> {
        match self {
            Tile::Rock => Some(Team::Rock),
            Tile::Paper => Some(Team::Paper),
            Tile::Scissors => Some(Team::Scissors),
            Tile::Wall | Tile::Empty => None,
        }
    }

    /// The outcome of a fight between two passable tiles: the tile type
    /// both squares end up as, or `None` when nothing changes (same type,
    /// both unclaimed, or a wall involved). A sign beats unclaimed; between
    /// two signs the rock-paper-scissors winner wins.
    pub fn fight(self, other: Tile) -> Option<Tile> {
        if self == other || !self.is_passable() || !other.is_passable() {
            return None;
        }
        match (self.team(), other.team()) {
            (Some(_), None) => Some(self),
            (None, Some(_)) => Some(other),
            (Some(a), Some(b)) => Some(if a.beats(b) { self } else { other }),
            (None, None) => None,
        }
    }
}

impl From<Tile> for char {
    fn from(t: Tile) -> char {
        t.to_char()
    }
}

impl TryFrom<char> for Tile {
    type Error = BadTileChar;
    fn try_from(c: char) -> Result<Tile, BadTileChar> {
        Tile::from_char(c).ok_or(BadTileChar(c))
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

/// One of the three teams; spelt `R`, `P`, `S` (also in serde).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Team {
    #[serde(rename = "R")]
    Rock,
    #[serde(rename = "P")]
    Paper,
    #[serde(rename = "S")]
    Scissors,
}

/// A team spelling other than `R`, `P`, `S`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("expected a team R, P or S but found {0:?}")]
pub struct BadTeam(pub String);

impl Team {
    /// All teams, in `R`, `P`, `S` order.
    pub const ALL: [Team; 3] = [Team::Rock, Team::Paper, Team::Scissors];

    /// The team's sign on the board.
    pub const fn tile(self) -> Tile {
        match self {
            Team::Rock => Tile::Rock,
            Team::Paper => Tile::Paper,
            Team::Scissors => Tile::Scissors,
        }
    }

    /// The team's letter.
    pub const fn letter(self) -> char {
        self.tile().to_char()
    }

    /// Rock beats Scissors, Scissors beat Paper, Paper beats Rock.
    pub const fn beats(self, other: Team) -> bool {
        matches!(
            (self, other),
            (Team::Rock, Team::Scissors)
                | (Team::Scissors, Team::Paper)
                | (Team::Paper, Team::Rock)
        )
    }
}

impl FromStr for Team {
    type Err = BadTeam;
    fn from_str(s: &str) -> Result<Team, BadTeam> {
        match s {
            "R" => Ok(Team::Rock),
            "P" => Ok(Team::Paper),
            "S" => Ok(Team::Scissors),
            _ => Err(BadTeam(s.to_owned())),
        }
    }
}

impl fmt::Display for Team {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A direction: `U` is y-1, `D` is y+1, `L` is x-1, `R` is x+1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    U,
    D,
    L,
    R,
}

impl Dir {
    /// All four directions.
    pub const ALL: [Dir; 4] = [Dir::U, Dir::D, Dir::L, Dir::R];

    /// The wire letter.
    pub const fn letter(self) -> char {
        match self {
            Dir::U => 'U',
            Dir::D => 'D',
            Dir::L => 'L',
            Dir::R => 'R',
        }
    }

    /// Reads a wire letter.
    pub const fn from_letter(c: char) -> Option<Dir> {
        match c {
            'U' => Some(Dir::U),
            'D' => Some(Dir::D),
            'L' => Some(Dir::L),
            'R' => Some(Dir::R),
            _ => None,
        }
    }

    /// `(dx, dy)`, with y growing downwards.
    pub const fn delta(self) -> (isize, isize) {
        match self {
            Dir::U => (0, -1),
            Dir::D => (0, 1),
            Dir::L => (-1, 0),
            Dir::R => (1, 0),
        }
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A square's coordinates: `x` is the column, `y` the row, both 0-based,
/// `y` growing downwards. Serialised as `[x, y]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(from = "[usize; 2]", into = "[usize; 2]")]
pub struct Pos {
    pub x: usize,
    pub y: usize,
}

impl Pos {
    /// `Pos { x, y }`.
    pub const fn new(x: usize, y: usize) -> Pos {
        Pos { x, y }
    }

    /// The neighbour in `dir`, or `None` when it would have a negative
    /// coordinate (the upper bounds are the board's business).
    pub fn step(self, dir: Dir) -> Option<Pos> {
        let (dx, dy) = dir.delta();
        Some(Pos {
            x: self.x.checked_add_signed(dx)?,
            y: self.y.checked_add_signed(dy)?,
        })
    }
}

impl From<[usize; 2]> for Pos {
    fn from([x, y]: [usize; 2]) -> Pos {
        Pos { x, y }
    }
}

impl From<Pos> for [usize; 2] {
    fn from(p: Pos) -> [usize; 2] {
        [p.x, p.y]
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// One turn's decision. Written `P`, `M U`, `I L` in records (the wire
/// form puts the two letters on separate lines: see [`Action::to_lines`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum Action {
    Pass,
    Move(Dir),
    Instigate(Dir),
}

/// An action spelling other than `P`, `M <dir>`, `I <dir>`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("expected an action `P`, `M <U|D|L|R>` or `I <U|D|L|R>` but found {0:?}")]
pub struct BadAction(pub String);

impl Action {
    /// The lines a bot writes for this action (`["M", "U"]`, `["P"]`).
    pub fn to_lines(self) -> Vec<String> {
        match self {
            Action::Pass => vec!["P".to_owned()],
            Action::Move(d) => vec!["M".to_owned(), d.to_string()],
            Action::Instigate(d) => vec!["I".to_owned(), d.to_string()],
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Pass => write!(f, "P"),
            Action::Move(d) => write!(f, "M {d}"),
            Action::Instigate(d) => write!(f, "I {d}"),
        }
    }
}

impl FromStr for Action {
    type Err = BadAction;
    fn from_str(s: &str) -> Result<Action, BadAction> {
        let bad = || BadAction(s.to_owned());
        let dir = |w: &str| {
            let mut chars = w.chars();
            let d = Dir::from_letter(chars.next()?)?;
            chars.next().is_none().then_some(d)
        };
        let words: Vec<&str> = s.split_whitespace().collect();
        match words.as_slice() {
            ["P"] => Ok(Action::Pass),
            ["M", d] => dir(d).map(Action::Move).ok_or_else(bad),
            ["I", d] => dir(d).map(Action::Instigate).ok_or_else(bad),
            _ => Err(bad()),
        }
    }
}

impl From<Action> for String {
    fn from(a: Action) -> String {
        a.to_string()
    }
}

impl TryFrom<String> for Action {
    type Error = BadAction;
    fn try_from(s: String) -> Result<Action, BadAction> {
        s.parse()
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn tiles_order_as_declared_and_print_as_their_bytes() {
        assert!(Tile::ALL.is_sorted());
        assert!(Tile::Rock < Tile::Empty && Tile::Wall < Tile::Empty);
        for t in Tile::ALL {
            assert_eq!(char::from(t.to_byte()), t.to_char());
            assert_eq!(Tile::from_char(t.to_char()), Some(t));
        }
    }

    use super::*;

    #[test]
    fn tile_chars_round_trip() {
        for t in Tile::ALL {
            assert_eq!(Tile::from_char(t.to_char()), Some(t));
            assert_eq!(Tile::try_from(char::from(t)), Ok(t));
        }
        assert_eq!(Tile::try_from('x'), Err(BadTileChar('x')));
    }

    #[test]
    fn beats_is_the_rps_cycle() {
        assert!(Team::Rock.beats(Team::Scissors));
        assert!(Team::Scissors.beats(Team::Paper));
        assert!(Team::Paper.beats(Team::Rock));
        for a in Team::ALL {
            assert!(!a.beats(a));
            for b in Team::ALL {
                if a != b {
                    assert_ne!(a.beats(b), b.beats(a));
                }
            }
        }
    }

    #[test]
    fn fight_outcomes() {
        use Tile::*;
        assert_eq!(Rock.fight(Scissors), Some(Rock));
        assert_eq!(Scissors.fight(Rock), Some(Rock));
        assert_eq!(Paper.fight(Rock), Some(Paper));
        assert_eq!(Scissors.fight(Paper), Some(Scissors));
        assert_eq!(Empty.fight(Paper), Some(Paper));
        assert_eq!(Paper.fight(Empty), Some(Paper));
        assert_eq!(Empty.fight(Empty), None);
        assert_eq!(Rock.fight(Rock), None);
        assert_eq!(Rock.fight(Wall), None);
    }

    #[test]
    fn team_text_and_serde() {
        for t in Team::ALL {
            assert_eq!(t.to_string().parse::<Team>(), Ok(t));
            let json = serde_json::to_string(&t).unwrap();
            assert_eq!(json, format!("\"{t}\""));
        }
        assert!("r".parse::<Team>().is_err());
    }

    #[test]
    fn action_text_round_trips() {
        let all = [Action::Pass]
            .into_iter()
            .chain(Dir::ALL.map(Action::Move))
            .chain(Dir::ALL.map(Action::Instigate));
        for a in all {
            assert_eq!(a.to_string().parse::<Action>(), Ok(a));
        }
        for bad in ["", "P U", "M", "M X", "I UU", "X U", "M U D"] {
            assert!(bad.parse::<Action>().is_err(), "{bad:?}");
        }
        assert_eq!(Action::Move(Dir::L).to_lines(), ["M", "L"]);
    }

    #[test]
    fn pos_steps_and_serialises_as_pair() {
        let p = Pos::new(0, 3);
        assert_eq!(p.step(Dir::L), None);
        assert_eq!(p.step(Dir::U), Some(Pos::new(0, 2)));
        assert_eq!(p.step(Dir::D), Some(Pos::new(0, 4)));
        assert_eq!(p.step(Dir::R), Some(Pos::new(1, 3)));
        assert_eq!(serde_json::to_string(&p).unwrap(), "[0,3]");
    }
}
