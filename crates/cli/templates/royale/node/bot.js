// {{name}}: a rock-paper-scissors royale bot for Node.js. It plays a random
// action that changes something; make it smarter in choose().
//
// The protocol (docs/protocols.md), on stdin, every turn:
//   - the whole board, one line per row: `R`, `P`, `S` (a tile of that sign),
//     `#` (a wall) and `.` (unclaimed);
//   - an empty line;
//   - our x, then our y, each on a line of its own (0-based, y grows
//     downwards).
// Answer `P` (pass), or `M` (move) or `I` (instigate a fight with a
// neighbouring tile) on one line and the direction `U`, `D`, `L` or `R` on
// the next. A move or instigation off the board or into `#` is played as a
// pass and recorded as illegal; a malformed answer is a pass and a fault.
// After the last turn stdin is closed. Our team (`R`, `P` or `S`) is in
// DOJO_TEAM; the other players' positions are not shown. stderr is yours
// for logging.
"use strict";

const readline = require("readline");

// xorshift32, seeded from DOJO_SEED (different per game and seat), so a
// seeded match replays exactly. Math.random cannot be seeded.
let state = Number(BigInt(process.env.DOJO_SEED || "12345") % 4294967291n) || 1;
function random(n) {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return (state >>> 0) % n;
}

const STEPS = { U: [0, -1], D: [0, 1], L: [-1, 0], R: [1, 0] };

// The tile at (x, y), or undefined off the board.
function tile(rows, x, y) {
  return y >= 0 && y < rows.length && x >= 0 ? rows[y][x] : undefined;
}

// The answer's lines for a bot at (x, y).
function choose(rows, x, y, team) {
  const here = tile(rows, x, y);
  const fights = [];
  const moves = [];
  for (const [d, [dx, dy]] of Object.entries(STEPS)) {
    const there = tile(rows, x + dx, y + dy);
    if (there === undefined || there === "#") continue; // off the board or a wall: illegal
    moves.push(["M", d]);
    if (there !== here) fights.push(["I", d]); // a fight between equal tiles changes nothing
  }
  if (fights.length > 0 && random(3) < 2) return fights[random(fights.length)];
  if (moves.length > 0) return moves[random(moves.length)];
  return ["P"];
}

const team = process.env.DOJO_TEAM;
let rows = [];
let numbers = null; // null while reading the board, then [x, y] as they come
const input = readline.createInterface({ input: process.stdin });
input.on("line", (raw) => {
  const line = raw.replace(/\r$/, "");
  if (numbers === null) {
    if (line !== "") {
      rows.push(line); // a row of the board
    } else {
      numbers = []; // the empty line ends the board; our x and y follow
    }
    return;
  }
  numbers.push(Number(line));
  if (numbers.length < 2) return;
  const [x, y] = numbers;
  // Writes to a pipe are synchronous in Node on Linux: the answer is sent
  // before this returns, no flush needed.
  process.stdout.write(choose(rows, x, y, team).join("\n") + "\n");
  rows = [];
  numbers = null;
});
