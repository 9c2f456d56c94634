//! The board: a rectangular grid of tiles with per-type counts kept up to
//! date on every change, and its text format.
//!
//! Format (also in `boards/README.md`): one line per row, each character
//! one of `R`, `P`, `S`, `#`, `.`, all rows the same length. The grid ends
//! at the first empty line or the end of the text. After it, optional
//! lines `start <R|P|S> <x> <y>` fix the start tile of the next player of
//! that team (in seat order); empty lines there are ignored. Line endings
//! may be `\n` or `\r\n`.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::types::{BadTileChar, Dir, Pos, Team, Tile};

/// How many tiles of each type a board holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct TileCounts {
    pub rock: usize,
    pub paper: usize,
    pub scissors: usize,
    pub wall: usize,
    pub empty: usize,
}

impl TileCounts {
    /// The count of one tile type.
    pub fn get(&self, tile: Tile) -> usize {
        match tile {
            Tile::Rock => self.rock,
            Tile::Paper => self.paper,
            Tile::Scissors => self.scissors,
            Tile::Wall => self.wall,
            Tile::Empty => self.empty,
        }
    }

    fn slot(&mut self, tile: Tile) -> &mut usize {
        match tile {
            Tile::Rock => &mut self.rock,
            Tile::Paper => &mut self.paper,
            Tile::Scissors => &mut self.scissors,
            Tile::Wall => &mut self.wall,
            Tile::Empty => &mut self.empty,
        }
    }

    /// The teams whose sign is on the board at least once.
    pub fn signs_present(&self) -> impl Iterator<Item = Team> + '_ {
        Team::ALL.into_iter().filter(|t| self.get(t.tile()) > 0)
    }

    /// The team whose sign is the only one left, if exactly one is.
    pub fn sole_sign(&self) -> Option<Team> {
        let mut present = self.signs_present();
        let first = present.next()?;
        present.next().is_none().then_some(first)
    }
}

/// A start tile fixed by the board file for the next player of `team`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FixedStart {
    pub team: Team,
    pub pos: Pos,
}

/// A board that could not be read: where, and what was expected.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{name}:{line}:{column}: {problem}")]
pub struct BoardError {
    /// The source's name (a file path, `"prompt"`, ...).
    pub name: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (character, not byte).
    pub column: usize,
    pub problem: BoardProblem,
}

/// What was wrong with a board text.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardProblem {
    #[error("expected a grid row, found an empty line or the end of the text")]
    NoRows,
    #[error(transparent)]
    BadTile(#[from] BadTileChar),
    #[error("expected a row of {expected} tiles like the first row, found {found}")]
    Ragged { expected: usize, found: usize },
    #[error("expected at least one passable tile (R, P, S or .)")]
    NoPassable,
    #[error("expected `start <R|P|S> <x> <y>` (or an empty line), found {0:?}")]
    BadStartLine(String),
    #[error("expected a start inside the {width}x{height} board, found {pos}")]
    StartOutOfBounds {
        pos: Pos,
        width: usize,
        height: usize,
    },
    #[error("expected a passable start tile, found a wall at {0}")]
    StartOnWall(Pos),
    #[error("expected a coordinate (a non-negative integer), found {0:?}")]
    BadCoordinate(String),
    #[error("expected a team R, P or S, found {0:?}")]
    BadTeam(String),
    /// A `start` line read as a grid row: no empty line came before it.
    #[error("{0}: a `start` line? start lines follow the grid after an empty line")]
    StartInGrid(BadTileChar),
}

/// A rectangular grid of tiles, row-major, with incremental counts.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    width: usize,
    height: usize,
    tiles: Vec<Tile>,
    counts: TileCounts,
    starts: Vec<FixedStart>,
}

impl Board {
    /// Reads a board (grid plus optional start section); `name` names the
    /// source in errors.
    pub fn parse(text: &str, name: &str) -> Result<Board, BoardError> {
        let err = |line: usize, column: usize, problem: BoardProblem| BoardError {
            name: name.to_owned(),
            line,
            column,
            problem,
        };
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l)).peekable();

        let mut width = 0;
        let mut height = 0;
        let mut tiles = Vec::new();
        while let Some(&(no, line)) = lines.peek() {
            if line.is_empty() {
                break;
            }
            lines.next();
            let mut found = 0;
            for (col, c) in line.chars().enumerate() {
                if height > 0 && col == width {
                    return Err(err(
                        no,
                        col + 1,
                        BoardProblem::Ragged {
                            expected: width,
                            found: line.chars().count(),
                        },
                    ));
                }
                let tile = Tile::try_from(c).map_err(|e| {
                    // A start section without the empty line before it.
                    let problem = if line.trim_start().starts_with("start") {
                        BoardProblem::StartInGrid(e)
                    } else {
                        e.into()
                    };
                    err(no, col + 1, problem)
                })?;
                tiles.push(tile);
                found += 1;
            }
            if height == 0 {
                width = found;
            } else if found != width {
                return Err(err(
                    no,
                    found + 1,
                    BoardProblem::Ragged {
                        expected: width,
                        found,
                    },
                ));
            }
            height += 1;
        }
        if height == 0 {
            return Err(err(1, 1, BoardProblem::NoRows));
        }
        let mut board = Board::from_tiles(width, height, tiles);
        if board.counts.wall == board.tiles.len() {
            return Err(err(1, 1, BoardProblem::NoPassable));
        }

        for (no, line) in lines {
            if line.trim().is_empty() {
                continue;
            }
            let start = board
                .parse_start(line)
                .map_err(|(col, p)| err(no, col, p))?;
            board.starts.push(start);
        }
        Ok(board)
    }

    /// Reads one `start T x y` line; errors carry the 1-based column of the
    /// field that is wrong (of the line's end when one is missing).
    fn parse_start(&self, line: &str) -> Result<FixedStart, (usize, BoardProblem)> {
        let fields = fields(line);
        let bad = |column| (column, BoardProblem::BadStartLine(line.to_owned()));
        let words: Vec<&str> = fields.iter().map(|&(_, w)| w).collect();
        let ["start", team, x, y] = words.as_slice() else {
            let column = match fields.as_slice() {
                [(column, first), ..] if *first != "start" => *column,
                [_, _, _, _, (column, _), ..] => *column,
                _ => line.chars().count() + 1,
            };
            return Err(bad(column));
        };
        let column = |i: usize| fields[i].0;
        let team: Team = team
            .parse()
            .map_err(|_| (column(1), BoardProblem::BadTeam((*team).to_owned())))?;
        let coordinate = |i: usize, text: &str| {
            text.parse::<usize>()
                .map_err(|_| (column(i), BoardProblem::BadCoordinate(text.to_owned())))
        };
        let pos = Pos::new(coordinate(2, x)?, coordinate(3, y)?);
        match self.tile(pos) {
            None => Err((
                // The coordinate that is off the board.
                if pos.x >= self.width {
                    column(2)
                } else {
                    column(3)
                },
                BoardProblem::StartOutOfBounds {
                    pos,
                    width: self.width,
                    height: self.height,
                },
            )),
            Some(Tile::Wall) => Err((column(2), BoardProblem::StartOnWall(pos))),
            Some(_) => Ok(FixedStart { team, pos }),
        }
    }

    fn from_tiles(width: usize, height: usize, tiles: Vec<Tile>) -> Board {
        let mut counts = TileCounts::default();
        for &t in &tiles {
            *counts.slot(t) += 1;
        }
        Board {
            width,
            height,
            tiles,
            counts,
            starts: Vec::new(),
        }
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The tile at column `x`, row `y`, or `None` off the board.
    pub fn get(&self, x: usize, y: usize) -> Option<Tile> {
        (x < self.width && y < self.height).then(|| self.tiles[y * self.width + x])
    }

    /// The tile at `pos`, or `None` off the board.
    pub fn tile(&self, pos: Pos) -> Option<Tile> {
        self.get(pos.x, pos.y)
    }

    /// The neighbour of `pos` in `dir` if it is on the board (of any type).
    pub fn neighbour(&self, pos: Pos, dir: Dir) -> Option<Pos> {
        pos.step(dir)
            .filter(|p| p.x < self.width && p.y < self.height)
    }

    /// Replaces the tile at `pos`, keeping the counts right, and returns
    /// the old tile; `None` (and no change) off the board.
    pub fn set(&mut self, pos: Pos, tile: Tile) -> Option<Tile> {
        let old = self.tile(pos)?;
        self.tiles[pos.y * self.width + pos.x] = tile;
        *self.counts.slot(old) -= 1;
        *self.counts.slot(tile) += 1;
        Some(old)
    }

    /// An upper bound on the number of moves of a shortest walk between
    /// any two tiles a player can walk between. For each connected set of
    /// passable tiles: twice the distance from a middle tile `m` to the
    /// tile farthest from it (any two tiles of the set are at most that far
    /// apart, by way of `m`), `m` being halfway along a longest path found
    /// by two searches (from the set's first tile row by row to the tile
    /// farthest from it, and from there on), which makes the bound close
    /// to the set's true diameter on grids. Four breadth-first searches,
    /// O(width x height).
    pub fn walk_bound(&self) -> usize {
        let mut dist = vec![u32::MAX; self.tiles.len()];
        let mut seen = vec![false; self.tiles.len()];
        let mut order = Vec::new();
        let mut bound = 0;
        for first in 0..self.tiles.len() {
            if seen[first] || !self.tiles[first].is_passable() {
                continue;
            }
            let (b, _) = self.farthest(first, &mut dist, &mut order);
            let (c, diameter) = self.farthest(b, &mut dist, &mut order);
            // Back from `c` towards `b` (distances from `b` are in `dist`)
            // to the tile halfway.
            let mut m = c;
            while dist[m] > diameter / 2 {
                m = self
                    .passable_neighbours(m)
                    .find(|&j| dist[j] + 1 == dist[m])
                    .expect("a tile found by the search has a neighbour one step nearer");
            }
            let (_, radius) = self.farthest(m, &mut dist, &mut order);
            for &i in &order {
                seen[i] = true;
            }
            bound = bound.max(2 * radius as usize);
        }
        bound
    }

    /// The passable neighbours of tile index `i`, as indices.
    fn passable_neighbours(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let here = Pos {
            x: i % self.width,
            y: i / self.width,
        };
        Dir::ALL.into_iter().filter_map(move |dir| {
            let there = self.neighbour(here, dir)?;
            let j = there.y * self.width + there.x;
            self.tiles[j].is_passable().then_some(j)
        })
    }

    /// A breadth-first search from tile index `start` over passable tiles,
    /// leaving each reached tile's distance in `dist` (the others
    /// `u32::MAX`): the last tile reached and its distance. `order` holds
    /// the tiles in the order reached; the last search's are set back
    /// first (only they: a board of many small walled-off sets costs
    /// no more than one open board).
    fn farthest(&self, start: usize, dist: &mut [u32], order: &mut Vec<usize>) -> (usize, u32) {
        for &i in order.iter() {
            dist[i] = u32::MAX;
        }
        order.clear();
        dist[start] = 0;
        order.push(start);
        let mut next = 0;
        while let Some(&i) = order.get(next) {
            next += 1;
            for j in self.passable_neighbours(i) {
                if dist[j] == u32::MAX {
                    dist[j] = dist[i] + 1;
                    order.push(j);
                }
            }
        }
        let last = *order.last().expect("the start is reached");
        (last, dist[last])
    }

    /// Tile counts per type, kept incrementally (O(1)).
    pub fn counts(&self) -> &TileCounts {
        &self.counts
    }

    /// Counts by scanning every tile; for checks of the incremental counts.
    pub fn scan_counts(&self) -> TileCounts {
        Board::from_tiles(self.width, self.height, self.tiles.clone()).counts
    }

    /// All positions holding `tile`, row by row.
    pub fn positions_of(&self, tile: Tile) -> impl Iterator<Item = Pos> + '_ {
        self.positions()
            .filter(move |&p| self.tile(p) == Some(tile))
    }

    /// Every position, row by row (y, then x).
    pub fn positions(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| Pos::new(x, y)))
    }

    /// The grid, one string per row (the start section is not included).
    pub fn to_lines(&self) -> Vec<String> {
        self.tiles
            .chunks(self.width)
            .map(|row| row.iter().map(|t| t.to_char()).collect())
            .collect()
    }

    /// Appends the grid to `out`, each row followed by `\n` (the text of
    /// [`Board::to_lines`]), without allocating when `out` has room.
    pub fn write_text(&self, out: &mut String) {
        out.reserve(self.tiles.len() + self.height);
        // Tiles are held as their ASCII letters: copied a chunk at a time
        // on the stack (a vectorised copy), checked as UTF-8 (ASCII's fast
        // path) and appended.
        let mut chunk = [0u8; 256];
        for row in self.tiles.chunks(self.width.max(1)) {
            for tiles in row.chunks(chunk.len()) {
                for (byte, tile) in chunk.iter_mut().zip(tiles) {
                    *byte = tile.to_byte();
                }
                if let Ok(text) = std::str::from_utf8(&chunk[..tiles.len()]) {
                    out.push_str(text);
                }
            }
            out.push('\n');
        }
    }

    /// Start tiles fixed by the board file, in file order.
    pub fn starts(&self) -> &[FixedStart] {
        &self.starts
    }
}

/// The whitespace-separated words of `line`, each with its 1-based
/// column (in characters).
fn fields(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (column, (i, c)) in line.char_indices().enumerate() {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some((column + 1, i)),
            (true, Some((col, from))) => {
                out.push((col, &line[from..i]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some((col, from)) = start {
        out.push((col, &line[from..]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_err(text: &str) -> BoardError {
        Board::parse(text, "t.txt").unwrap_err()
    }

    #[test]
    fn parses_grid_counts_and_lines() {
        let b = Board::parse("RP#\n.S.\n", "t").unwrap();
        assert_eq!((b.width(), b.height()), (3, 2));
        assert_eq!(b.get(1, 0), Some(Tile::Paper));
        assert_eq!(b.get(1, 1), Some(Tile::Scissors));
        assert_eq!(b.get(3, 0), None);
        assert_eq!(b.get(0, 2), None);
        let c = b.counts();
        assert_eq!(
            (c.rock, c.paper, c.scissors, c.wall, c.empty),
            (1, 1, 1, 1, 2)
        );
        assert_eq!(b.to_lines(), ["RP#", ".S."]);
        assert!(b.starts().is_empty());
    }

    #[test]
    fn accepts_crlf_and_no_final_newline() {
        let b = Board::parse("R.\r\n.S", "t").unwrap();
        assert_eq!(b.to_lines(), ["R.", ".S"]);
    }

    #[test]
    fn parses_start_section() {
        let b = Board::parse("R.\n.S\n\nstart S 1 1\n\nstart R 0 0\n", "t").unwrap();
        assert_eq!(
            b.starts(),
            [
                FixedStart {
                    team: Team::Scissors,
                    pos: Pos::new(1, 1)
                },
                FixedStart {
                    team: Team::Rock,
                    pos: Pos::new(0, 0)
                },
            ]
        );
    }

    #[test]
    fn ragged_rows_are_rejected_with_position() {
        let e = parse_err("RRR\nRR\n");
        assert_eq!((e.name.as_str(), e.line, e.column), ("t.txt", 2, 3));
        assert_eq!(
            e.problem,
            BoardProblem::Ragged {
                expected: 3,
                found: 2
            }
        );
        let e = parse_err("RR\nRR\nRRRR\n");
        assert_eq!((e.line, e.column), (3, 3));
        assert_eq!(
            e.problem,
            BoardProblem::Ragged {
                expected: 2,
                found: 4
            }
        );
        assert!(e.to_string().starts_with("t.txt:3:3: expected a row of 2"));
    }

    #[test]
    fn bad_character_is_rejected_with_position() {
        let e = parse_err("R.S\n.Px\n");
        assert_eq!((e.line, e.column), (2, 3));
        assert_eq!(e.problem, BoardProblem::BadTile(BadTileChar('x')));
    }

    #[test]
    fn board_needs_rows_and_a_passable_tile() {
        assert_eq!(parse_err("").problem, BoardProblem::NoRows);
        assert_eq!(parse_err("\nRR\n").problem, BoardProblem::NoRows);
        let e = parse_err("##\n##\n");
        assert_eq!(
            (e.line, e.column, e.problem),
            (1, 1, BoardProblem::NoPassable)
        );
    }

    #[test]
    fn bad_start_lines_are_rejected_with_line() {
        let e = parse_err("R.\n.S\n\nstart R 0 0\nbegin R 0 0\n");
        assert_eq!((e.line, e.column), (5, 1));
        assert!(matches!(e.problem, BoardProblem::BadStartLine(_)));
        let e = parse_err("R.\n.S\n\nstart X 0 0\n");
        assert_eq!(e.problem, BoardProblem::BadTeam("X".into()));
        let e = parse_err("R.\n.S\n\nstart R -1 0\n");
        assert_eq!(e.problem, BoardProblem::BadCoordinate("-1".into()));
        let e = parse_err("R.\n.S\n\nstart R 2 0\n");
        assert_eq!(e.line, 4);
        assert!(matches!(e.problem, BoardProblem::StartOutOfBounds { .. }));
        let e = parse_err("R#\n.S\n\n\nstart P 1 0\n");
        assert_eq!(
            (e.line, e.problem),
            (5, BoardProblem::StartOnWall(Pos::new(1, 0)))
        );
    }

    /// A start line's error points at the field that is wrong.
    #[test]
    fn start_errors_point_at_the_offending_field() {
        let at = |text: &str| {
            let e = parse_err(text);
            (e.line, e.column, e.to_string())
        };
        let grid = "RRRRRRRR\n........\nSSSSSSSS\n\n";
        // x outside the 8x3 board: the x field.
        let (line, column, text) = at(&format!("{grid}start R 9 0\n"));
        assert_eq!((line, column), (5, 9), "{text}");
        assert_eq!(
            text,
            "t.txt:5:9: expected a start inside the 8x3 board, found (9, 0)"
        );
        // y outside: the y field, past extra spaces.
        let (_, column, _) = at(&format!("{grid}start  R 1   7\n"));
        assert_eq!(column, 14);
        // A team that is none: the team field.
        let (_, column, text) = at(&format!("{grid}start X 1 1\n"));
        assert_eq!(column, 7, "{text}");
        assert!(
            text.ends_with("expected a team R, P or S, found \"X\""),
            "{text}"
        );
        // A coordinate that is no number: its field.
        let (_, column, text) = at(&format!("{grid}start R 1 -1\n"));
        assert_eq!(column, 11, "{text}");
        assert!(text.contains("expected a coordinate"), "{text}");
        // A wall: the x field, where the position starts.
        let (_, column, _) = at("R#\n.S\n\nstart P 1 0\n");
        assert_eq!(column, 9);
        // Another first word: that word; a missing field: the line's end;
        // a field too many: that field.
        assert_eq!(at(&format!("{grid}  begin R 0 0\n")).1, 3);
        assert_eq!(at(&format!("{grid}start R 0\n")).1, 10);
        assert_eq!(at(&format!("{grid}start R 0 0 0\n")).1, 13);
    }

    /// A start line with no empty line before it is read as a grid row:
    /// its error says where start lines go.
    #[test]
    fn a_start_line_in_the_grid_says_an_empty_line_comes_first() {
        let e = parse_err("RRR\n...\nSSS\nstart R 0 0\n");
        assert_eq!((e.line, e.column), (4, 1));
        let text = e.to_string();
        assert!(
            text.contains("expected one of R, P, S, #, . but found 's'")
                && text.contains("start lines follow the grid after an empty line"),
            "{text}"
        );
    }

    #[test]
    fn set_keeps_counts() {
        let mut b = Board::parse("RPS.\n", "t").unwrap();
        assert_eq!(b.set(Pos::new(3, 0), Tile::Rock), Some(Tile::Empty));
        assert_eq!(b.set(Pos::new(4, 0), Tile::Rock), None);
        assert_eq!(b.counts().rock, 2);
        assert_eq!(b.counts().empty, 0);
        assert_eq!(*b.counts(), b.scan_counts());
    }

    #[test]
    fn sole_sign() {
        let one = Board::parse("RR.#\n", "t").unwrap();
        assert_eq!(one.counts().sole_sign(), Some(Team::Rock));
        let two = Board::parse("RS\n", "t").unwrap();
        assert_eq!(two.counts().sole_sign(), None);
        let none = Board::parse("..\n", "t").unwrap();
        assert_eq!(none.counts().sole_sign(), None);
    }

    #[test]
    fn a_walk_bound_is_never_below_the_longest_shortest_walk() {
        // (text, longest shortest walk between two passable tiles)
        for (text, diameter) in [
            ("R", 0),
            ("R.S", 2),
            ("R.\n.S", 2),
            (
                "PPPPPPP\n######P\nPPPPPPP\nP######\nPPPPPPP\n######P\nRPPPPPP",
                30,
            ),
            // Two walled-off sets: the longer one counts.
            ("R#....S\n.#.....", 5),
        ] {
            let board = Board::parse(text, "t").unwrap();
            let bound = board.walk_bound();
            assert!(bound >= diameter, "{text:?}: {bound} < {diameter}");
            assert!(bound <= 2 * diameter, "{text:?}: {bound}");
        }
        // The middle tile makes the bound the diameter on a corridor.
        let corridor = Board::parse(&".".repeat(41), "t").unwrap();
        assert_eq!(corridor.walk_bound(), 40);
    }
}
