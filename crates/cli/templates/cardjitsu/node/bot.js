// {{name}}: a CardJitsu bot for Node.js. It plays a random card; make it
// smarter in choose().
//
// The protocol (docs/protocols.md), one line per message on stdin:
//   1. the player number, `1` or `2`;
//   2. each round, the hand: cards separated by commas, `FyA,Fr6,WoA,Sg6,Wo5`
//      (element F/W/S, colour r/b/g/y/o/p, number 2-9 or A=10, B=11, C=12).
//      When Reverse is active (the previous round was won with a power card,
//      numbered A) the line starts with a star, `* FyA,...` (or `*FyA,...`):
//      the lower number then wins within an element. Answer with the index
//      (0 for the first card) of the card to play, on a line of its own;
//   3. after both players chose: `P1CARD vs. P2CARD: N wins!` (N = 0: a tie);
//   4. at the end: `Player N wins!` or `Draw!`, then stdin is closed.
// A late, malformed or out-of-range answer plays a random card and counts as
// a fault. stderr is yours for logging.
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

// The index of the card to play from `hand` (an array like ["FyA", "Wo5"]).
function choose(hand, reverse) {
  return random(hand.length);
}

let me = null;
const input = readline.createInterface({ input: process.stdin });
input.on("line", (raw) => {
  const line = raw.trim();
  if (me === null) {
    me = Number(line); // our player number, 1 or 2
  } else if (line.includes(",")) {
    // A hand: the only line that wants an answer.
    const reverse = line.startsWith("*");
    const hand = line.replace(/^\*\s*/, "").split(",");
    // Writes to a pipe are synchronous in Node on Linux: the answer is
    // sent before this returns, no flush needed.
    process.stdout.write(`${choose(hand, reverse)}\n`);
  } else if (line.startsWith("Player ") || line === "Draw!") {
    input.close(); // the game is over
  }
  // Anything else is a round's result (`WoA vs. Fr6: 1 wins!`).
});
