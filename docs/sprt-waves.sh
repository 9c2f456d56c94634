#!/bin/sh
# A sequential test (a gauntlet with --sprt: `dojo compare` across
# machines) in waves of Slurm array tasks. Each wave grows every shard by
# WAVE more games per pairing (`--resume --games`: the games already played
# are kept, only the new ones are played), merges the shards, and runs the
# tests on the merged games; the next wave is submitted only while a
# pairing is undecided and the games stay within MAX. See
# docs/distributed.md, "Sequential tests in waves".
#
# Run it where `sbatch` works, from the directory that holds bots/ (on a
# file system every node mounts, with dojo on every node's PATH). The
# settings below may be given in the environment instead.
set -e
SHARDS=${SHARDS:-3}
WAVE=${WAVE:-40}
MAX=${MAX:-400}
LEAGUE=${LEAGUE:-"cardjitsu random-sh --gauntlet random-py --sprt elo0=-10,elo1=0,alpha=0.05,beta=0.05 --seed 7"}

games=0
wave=0
while [ "$games" -lt "$MAX" ]; do
  wave=$((wave + 1))
  games=$((games + WAVE))
  if [ "$games" -gt "$MAX" ]; then games=$MAX; fi
  # One array task per shard: the first wave starts it, later waves grow it.
  cat > wave-shard.sh <<EOF
#!/bin/sh
#SBATCH --job-name=dojo-wave-$wave
#SBATCH --array=1-$SHARDS
#SBATCH --output=dojo-wave-%a.log
#SBATCH --open-mode=append
#SBATCH --requeue
set -e
shard="shards/\$SLURM_ARRAY_TASK_ID"
if [ -f "\$shard/league.json" ]; then
  exec dojo league --resume "\$shard" --games $games
fi
exec dojo league $LEAGUE --games $games --shard "\$SLURM_ARRAY_TASK_ID/$SHARDS" --out "\$shard"
EOF
  sbatch --wait --quiet wave-shard.sh
  rm -rf merged
  dojo merge shards/* --out merged > /dev/null
  # The tests on the merged games: h0 or h1 is a decision.
  open=$(python3 -c '
import json
report = json.load(open("merged/report.json"))
print(sum(o["state"] not in ("h0", "h1") for o in report["sprt"]["opponents"]))
')
  echo "wave $wave: $games games per pairing, $open undecided"
  if [ "$open" -eq 0 ]; then break; fi
done
dojo report merged
