# Everyday recipes for dojo. `cargo install just` to use them; the README's
# two commands work without it.

default: check

# Format, lint and test: what CI runs.
check:
    bash .ci/run

# Run the test suite (the fast tier: a few minutes).
test:
    cargo test --workspace

# Run the long tier: the tests the fast tier leaves out (Chromium pages,
# Slurm, every starter bot, signal scenarios; see docs/testing.md).
test-long:
    cargo test --workspace --features dojo-cli/browser-tests -- --ignored --skip show_games

# Lint with warnings as errors.
lint:
    cargo fmt --all --check
    cargo clippy --workspace --all-targets -- -D warnings
    RUSTDOCFLAGS='-D warnings' cargo doc --workspace --no-deps

# A match between two bundled CardJitsu bots.
match bot1="sensei" bot2="random-py" *args="":
    cargo run --release -- match cardjitsu {{bot1}} {{bot2}} {{args}}

# A league of every bundled CardJitsu bot.
league *args="":
    cargo run --release -- league cardjitsu {{args}}

# A royale match on a bundled board.
royale board="boards/arena.txt":
    cargo run --release -- match royale --board {{board}} --rock general --paper royale-random-py --scissors royale-random-py

# Speed benchmarks, each figure beside a baseline measured in the same run,
# its goal and whether this run met it (see docs/performance.md); never timed
# tests. Goals 1-4, 6's league memory and the width figures 7-9 (thinking
# bots at --jobs 1, 64 and 256; 40 bots against 2): the `speed` bench (with
# and without containment; about 10 minutes on a busy 2-core machine); goal 5 and the
# 1000x1000 royale game's memory: the engine bench. For JSON, run one bench
# with `-- --json FILE` (docs/performance.md).
bench:
    cargo bench --workspace

# List the bundled bots.
bots:
    cargo run --release -- bots
