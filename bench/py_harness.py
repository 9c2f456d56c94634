#!/usr/bin/env python3
"""A straightforward CardJitsu league harness in Python: the yardstick the
`league` benchmark compares dojo with. Not a product.

It does the work of `dojo league` for two bots, one game after another:
spawns both bots per game in their own process group (persistent bots),
sends the seed-002 protocol (player number, hand lines with `* ` under
Reverse, round results, `Player N wins!`), waits for answers with
select() against a per-move deadline, plays a random card on a fault,
kills and reaps the bots, and appends one JSON line per game to a file,
flushed (not fsync'd: a straightforward harness would not, and an fsync per
game would make this yardstick slower than it needs to be).

    py_harness.py GAMES OUT_FILE BOT_COMMAND...

prints `games rounds seconds` on stdout.
"""
import json
import os
import random
import select
import signal
import subprocess
import sys
import time

ELEMENTS = "FWS"
COLOURS = "rbgyop"
DECK = [(e, c, n) for e in ELEMENTS for c in COLOURS for n in range(2, 13)]
BEATS = {("F", "S"), ("S", "W"), ("W", "F")}
MOVE_TIMEOUT = 1.0
STARTUP = 2.0


def name(card):
    return "%s%s%X" % card


def draw(rng, hand):
    eligible = [c for c in DECK if c not in hand]
    return eligible[rng.randrange(len(eligible))]


def winner(a, b, reverse):
    if a[0] != b[0]:
        return 1 if (a[0], b[0]) in BEATS else 2
    x, y = (b[2], a[2]) if reverse else (a[2], b[2])
    return 0 if x == y else (1 if x > y else 2)


def triple(pile, card):
    for i in range(len(pile)):
        for j in range(i + 1, len(pile)):
            t = (pile[i], pile[j], card)
            colours = {c[1] for c in t}
            elements = {c[0] for c in t}
            if len(colours) == 3 and len(elements) in (1, 3):
                return [name(c) for c in t]
    return None


class Bot:
    def __init__(self, command, seat, seed):
        env = dict(os.environ, DOJO_GAME="cardjitsu", DOJO_SEAT=str(seat + 1),
                   DOJO_SEED=str(seed))
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=env,
                                     start_new_session=True)
        self.out = self.proc.stdout.fileno()
        self.buf = b""
        self.fresh = True

    def send(self, text):
        try:
            self.proc.stdin.write(text.encode())
            self.proc.stdin.flush()
        except OSError:
            pass

    def answer(self, deadline):
        """One line before the deadline, or None."""
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self.out], [], [], left)
            if not ready:
                return None
            chunk = os.read(self.out, 65536)
            if not chunk:
                return None
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode(errors="replace").strip()

    def kill(self):
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except OSError:
            pass
        self.proc.wait()
        for f in (self.proc.stdin, self.proc.stdout):
            try:
                f.close()
            except OSError:
                pass


def play(game_id, commands, out):
    rng = [random.Random(game_id * 4 + s) for s in range(4)]
    hands = [[], []]
    for seat in range(2):
        for _ in range(5):
            hands[seat].append(draw(rng[seat], hands[seat]))
    bots = [Bot(commands[s], s, game_id) for s in range(2)]
    for seat, bot in enumerate(bots):
        bot.send("%d\n" % (seat + 1))
    piles, reverse, rounds, result, faults = [[], []], False, [], None, [0, 0]
    while result is None:
        mark = "* " if reverse else ""
        start = time.monotonic()
        for seat, bot in enumerate(bots):
            bot.send(mark + ",".join(name(c) for c in hands[seat]) + "\n")
        choices = []
        for seat, bot in enumerate(bots):
            limit = MOVE_TIMEOUT + (STARTUP if bot.fresh else 0)
            bot.fresh = False
            line = bot.answer(start + limit)
            if line is not None and line.isdigit() and int(line) < 5:
                choices.append(int(line))
            else:
                faults[seat] += 1
                choices.append(rng[2 + seat].randrange(5))
        cards = [hands[s].pop(choices[s]) for s in range(2)]
        won = winner(cards[0], cards[1], reverse)
        reverse = False
        rounds.append({"cards": [name(c) for c in cards], "winner": won})
        if won:
            card = cards[won - 1]
            reverse = card[2] == 10
            t = triple(piles[won - 1], card)
            piles[won - 1].append(card)
            if t:
                result = {"winner": won, "cards": t}
        if result is None and len(rounds) >= 500:
            result = {"winner": None}
        if result is None:
            for seat in range(2):
                hands[seat].append(draw(rng[seat], hands[seat]))
        line = "%s vs. %s: %d wins!\n" % (rounds[-1]["cards"][0], rounds[-1]["cards"][1], won)
        for bot in bots:
            bot.send(line)
    farewell = "Draw!\n" if result["winner"] is None else "Player %d wins!\n" % result["winner"]
    for bot in bots:
        bot.send(farewell)
        bot.kill()
    out.write(json.dumps({"id": game_id, "rounds": rounds, "outcome": result,
                          "faults": faults}) + "\n")
    out.flush()
    return len(rounds)


def main():
    games, path, command = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    started = time.monotonic()
    total_rounds = 0
    with open(path, "a") as out:
        for game_id in range(games):
            total_rounds += play(game_id, [command, command], out)
    print(games, total_rounds, "%.6f" % (time.monotonic() - started))


main()
