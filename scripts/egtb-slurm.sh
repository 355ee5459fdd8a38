#!/usr/bin/env bash
# make egtb-slurm: the endgame-table jobs of 'millengine egtb plan --format slurm'
# and '--format make' run for real, checked against a plain local build.
#
# It starts a one-node Slurm cluster on this machine (Debian's slurmctld,
# slurmd and munge, installed with apt-get if missing; private sockets, ports,
# key and configuration under $WORK, so nothing of a system Slurm or munge is
# touched), writes the Slurm script of the tables up to $PIECES pieces for a
# "shared" directory and runs it twice: first with a millengine that fails the
# 3v4 job (the jobs waiting for it must be cancelled), then with the real one
# (the built job must be skipped, the rest submitted). It waits for the queue
# to drain and prints each job's state, queue wait (start - submit) and run
# time (end - start) from 'scontrol show job' (MinJobAge keeps finished jobs),
# then the Makefile of the same plan run with make -j2, and checks that every
# table of both is byte-identical (cmp) to 'egtb build --max-pieces $PIECES'
# into a third directory and that 'egtb verify' passes on the Slurm one. It
# stops the daemons it started, also on failure (a trap), and any job still
# running; a rerun starts afresh.
#
# Environment: PIECES (8), THREADS (1: solver threads of a job, so that two
# jobs of a level run at once on two cores), TIMEOUT (seconds to wait for a
# queue to drain, 1200), WORK (/tmp/millengine-egtb-slurm), MILLENGINE
# (bin/millengine, built by make egtb-slurm), PORT (16817: slurmctld's port,
# slurmd takes the next).
set -euo pipefail

cd "$(dirname "$0")/.."
PIECES=${PIECES:-8}
THREADS=${THREADS:-1}
TIMEOUT=${TIMEOUT:-1200}
WORK=${WORK:-/tmp/millengine-egtb-slurm}
MILLENGINE=$(realpath "${MILLENGINE:-bin/millengine}")
PORT=${PORT:-16817}
NODE=egtbnode

say() { printf 'egtb-slurm: %s\n' "$*"; }
die() {
	say "FAILED: $*" >&2
	exit 1
}
trap 'say "FAILED at line $LINENO: $BASH_COMMAND" >&2' ERR

# The environment of the make that runs this must not reach the make below.
unset MAKEFLAGS MFLAGS MAKELEVEL GNUMAKEFLAGS MAKEFILES
# Nor may the variables the generated script reads.
unset DIR LOGDIR SBATCH SBATCH_ARGS SQUEUE

[[ -x $MILLENGINE ]] || die "no $MILLENGINE (make egtb-slurm builds it)"

# --- Slurm and munge -------------------------------------------------------

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
	[[ $(id -u) == 0 ]] || die "Slurm is not installed and this is not root: apt-get install slurmctld slurmd slurm-client munge"
	say "installing Debian's slurmctld, slurmd, slurm-client and munge (apt-get)"
	log=$(mktemp)
	if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		slurmctld slurmd slurm-client munge; } >"$log" 2>&1; then
		tail -n 20 "$log" >&2
		rm -f "$log"
		die "apt-get install failed"
	fi
	rm -f "$log"
fi
say "$(slurmctld -V), $(munged -V 2>&1 | head -n 1)"

# pidof_ours FILE NAME prints the pid in FILE if that process is alive and
# is NAME (a pid file of an earlier run may name a pid reused since).
pidof_ours() {
	local pid
	[[ -s $1 ]] || return 1
	pid=$(<"$1")
	[[ $pid =~ ^[0-9]+$ && $(cat "/proc/$pid/comm" 2>/dev/null) == "$2" ]] || return 1
	echo "$pid"
}

# stop_pid PID: TERM, then KILL after 10 s.
stop_pid() {
	local pid=$1 i
	kill -TERM "$pid" 2>/dev/null || return 0
	for ((i = 0; i < 100; i++)); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.1
	done
	kill -KILL "$pid" 2>/dev/null || true
}

# The slurmstepd processes there were before the cluster started: any other
# one when it stops is one of its jobs' and is stopped with it.
stepds_before=" $(pgrep -x slurmstepd | tr '\n' ' ' || true) "

# stop_cluster cancels the jobs left, waits for them to end and stops the
# daemons this script started (from their pid files under $WORK).
stop_cluster() {
	local pid i
	if [[ -n $(pidof_ours "$WORK/slurmctld.pid" slurmctld) ]]; then
		scancel --quiet --partition=egtb 2>/dev/null || true
		for ((i = 0; i < 100; i++)); do
			[[ -z $(squeue --noheader --states=PENDING,RUNNING,CONFIGURING,COMPLETING,SUSPENDED 2>/dev/null) ]] && break
			sleep 0.2
		done
	fi
	for pid in $(pgrep -x slurmstepd); do
		[[ $stepds_before == *" $pid "* ]] || stop_pid "$pid"
	done
	for d in slurmd slurmctld munged; do
		if pid=$(pidof_ours "$WORK/$d.pid" "$d"); then
			stop_pid "$pid"
		fi
	done
}

export SLURM_CONF=$WORK/slurm.conf
# Daemons of an earlier run that was killed before its trap ran.
stop_cluster
trap stop_cluster EXIT # the script's exit status stays
trap 'exit 130' INT TERM

rm -rf "$WORK"
mkdir -p "$WORK"/{munge,state,spool,log,shared,local,make}
chmod 755 "$WORK/munge"

# munge with its own key and socket.
dd if=/dev/urandom of="$WORK/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$WORK/munge/munge.key"
munged --socket="$WORK/munge/munge.socket" --key-file="$WORK/munge/munge.key" --pid-file="$WORK/munged.pid" \
	--log-file="$WORK/log/munged.log" --seed-file="$WORK/munge/munged.seed" ||
	{ cat "$WORK/log/munged.log" >&2; die "munged did not start"; }
for ((i = 0; i < 50; i++)); do
	[[ -S $WORK/munge/munge.socket ]] && break
	sleep 0.1
done
pidof_ours "$WORK/munged.pid" munged >/dev/null || die "munged is not running (see $WORK/log/munged.log)"

# A node with this machine's CPUs (as slurmd -C sees them) and 3/4 of its
# memory: no cgroups in a container, so the plugins that need none.
hw=$(slurmd -C | head -n 1)
field() { sed -n "s/.*\b$1=\([0-9]*\).*/\1/p" <<<"$hw"; }
mem_mb=$(($(awk '/^MemTotal:/ { print $2 }' /proc/meminfo) * 3 / 4 / 1024))
host=$(hostname -s)
cat >"$SLURM_CONF" <<EOF
# A one-node cluster for make egtb-slurm, written by scripts/egtb-slurm.sh.
ClusterName=egtbtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
SlurmUser=$(id -un)
SlurmdUser=$(id -un)
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$WORK/munge/munge.socket
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/log/slurmctld.log
SlurmdLogFile=$WORK/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
MinJobAge=86400
SchedulerParameters=defer_batch=0
NodeName=$NODE NodeHostname=$host NodeAddr=127.0.0.1 CPUs=$(field CPUs) Boards=$(field Boards) SocketsPerBoard=$(field SocketsPerBoard) CoresPerSocket=$(field CoresPerSocket) ThreadsPerCore=$(field ThreadsPerCore) RealMemory=$mem_mb State=UNKNOWN
PartitionName=egtb Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -f "$SLURM_CONF" || { cat "$WORK/log/slurmctld.log" >&2; die "slurmctld did not start"; }
slurmd -f "$SLURM_CONF" -N "$NODE" || { cat "$WORK/log/slurmd.log" >&2; die "slurmd did not start"; }
for ((i = 0; ; i++)); do
	state=$(sinfo --noheader --nodes="$NODE" --format=%T 2>/dev/null || true)
	[[ $state == idle ]] && break
	((i < 300)) || { tail -n 20 "$WORK/log/slurmctld.log" "$WORK/log/slurmd.log" >&2; die "node $NODE is '$state', not idle, after 30 s"; }
	sleep 0.1
done
say "cluster up: node $NODE, $(field CPUs) CPUs, ${mem_mb} MB; slurmctld port $PORT; state in $WORK"

# --- the runs --------------------------------------------------------------

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# drain IDS...: waits until none of the jobs is pending or running.
drain() {
	local deadline=$((SECONDS + TIMEOUT))
	while [[ -n $(squeue --noheader --jobs="$(tr ' ' ',' <<<"$*")" --states=PENDING,RUNNING,CONFIGURING,COMPLETING,SUSPENDED 2>/dev/null) ]]; do
		((SECONDS < deadline)) || die "jobs $* still queued after ${TIMEOUT} s: $(squeue --noheader --jobs="$(tr ' ' ',' <<<"$*")")"
		sleep 0.5
	done
}

# report IDS...: a line per job: name, state, exit code, queue wait, run time.
report() {
	local id info name state exitcode submit start end
	printf '  %-6s %-10s %-10s %-5s %8s %8s\n' job name state exit wait run
	for id in "$@"; do
		info=$(scontrol show job --oneliner "$id")
		name=$(sed -n 's/.*JobName=\([^ ]*\).*/\1/p' <<<"$info")
		state=$(sed -n 's/.*JobState=\([^ ]*\).*/\1/p' <<<"$info")
		exitcode=$(sed -n 's/.* ExitCode=\([^ ]*\).*/\1/p' <<<"$info")
		submit=$(date -d "$(sed -n 's/.*SubmitTime=\([^ ]*\).*/\1/p' <<<"$info")" +%s)
		start=$(sed -n 's/.*StartTime=\([^ ]*\).*/\1/p' <<<"$info")
		end=$(sed -n 's/.*EndTime=\([^ ]*\).*/\1/p' <<<"$info")
		if [[ $state == CANCELLED && ( $start == Unknown || $(date -d "$start" +%s) -ge $(date -d "$end" +%s) ) ]]; then
			printf '  %-6s %-10s %-10s %-5s %8s %8s\n' "$id" "$name" "$state" "$exitcode" - -
			continue
		fi
		start=$(date -d "$start" +%s) end=$(date -d "$end" +%s)
		printf '  %-6s %-10s %-10s %-5s %7ds %7ds\n' "$id" "$name" "$state" "$exitcode" $((start - submit)) $((end - start))
	done
}

# indent: the input, two spaces in.
indent() { sed 's/^/  /'; }

# state ID: the job's state.
state() { scontrol show job --oneliner "$1" | sed -n 's/.*JobState=\([^ ]*\).*/\1/p'; }

# ids OUTPUT: the ids of the "submitted N: ..." line of a plan script's output.
ids() { sed -n 's/^submitted [0-9]*: //p' <<<"$1" | sed 's/^-$//'; }

SHARED=$WORK/shared
"$MILLENGINE" egtb plan --format slurm --max-pieces "$PIECES" --dir "$SHARED" --threads "$THREADS" >"$WORK/plan.sh"
say "plan: $(sed -n '2s/^# //p' "$WORK/plan.sh")"

# 1. A run that fails: a millengine that fails the 3v4 job. 3v3 completes, 3v4
# fails, the jobs waiting for it are cancelled.
cat >"$WORK/failing-millengine" <<EOF
#!/bin/sh
case " \$* " in *" --sector 3v4 "*) echo "a failure for the test" >&2; exit 3 ;; esac
exec $MILLENGINE "\$@"
EOF
chmod +x "$WORK/failing-millengine"
say "run 1: a millengine that fails the 3v4 job"
out=$(MILLENGINE=$WORK/failing-millengine bash "$WORK/plan.sh") || die "the plan script failed: $out"
indent <<<"$out"
read -ra ids1 <<<"$(ids "$out")"
drain "${ids1[@]}"
report "${ids1[@]}"
for id in "${ids1[@]}"; do
	name=$(scontrol show job --oneliner "$id" | sed -n 's/.*JobName=\([^ ]*\).*/\1/p')
	case $name:$(state "$id") in
	egtb-3v3:COMPLETED | egtb-3v4:FAILED | egtb-3v5:CANCELLED | egtb-4v4:CANCELLED) ;;
	egtb-3v3:* | egtb-3v4:* | egtb-3v5:* | egtb-4v4:*) die "run 1: $name is $(state "$id")" ;;
	esac
done
((${#ids1[@]} == 4)) || die "run 1 submitted ${#ids1[@]} jobs, not 4"

# 2. The same script again with the real millengine: 3v3 is skipped, the
# rest submitted and completed.
say "run 2: the same script again"
t0=$(now)
out=$(bash "$WORK/plan.sh") || die "the plan script failed: $out"
indent <<<"$out"
grep -qx 'egtb-3v3: built, skipped' <<<"$out" || die "run 2 did not skip 3v3"
read -ra ids2 <<<"$(ids "$out")"
drain "${ids2[@]}"
t1=$(now)
report "${ids2[@]}"
for id in "${ids2[@]}"; do
	[[ $(state "$id") == COMPLETED ]] || { cat "$SHARED"/slurm-logs/*-"$id".out >&2; die "run 2: job $id is $(state "$id")"; }
done
slurm_wall=$(secs "$t0" "$t1")

# 3. Once more: everything is built, nothing is submitted.
out=$(bash "$WORK/plan.sh") || die "the plan script failed: $out"
grep -qx 'submitted 0: -' <<<"$out" || die "run 3 submitted jobs: $out"
say "run 3: $(grep '^skipped' <<<"$out")"

# The Makefile of the plan, two jobs at once.
"$MILLENGINE" egtb plan --format make --max-pieces "$PIECES" --dir "$WORK/make" --threads "$THREADS" >"$WORK/plan.mk"
t0=$(now)
make -j2 -f "$WORK/plan.mk" >"$WORK/log/make.log" 2>&1 || { tail -n 20 "$WORK/log/make.log" >&2; die "make -j2 -f plan.mk failed"; }
t1=$(now)
make_wall=$(secs "$t0" "$t1")
make -f "$WORK/plan.mk" 2>&1 | grep -q "Nothing to be done for 'all'" || die "make ran again over a complete directory"
say "make -j2 -f plan.mk: $(grep -c ' egtb build --sector ' "$WORK/log/make.log") jobs, ${make_wall} s; a second make: nothing to be done"

# The reference: one local build.
t0=$(now)
"$MILLENGINE" egtb build --max-pieces "$PIECES" --dir "$WORK/local" >"$WORK/log/local.log" 2>&1 || { tail "$WORK/log/local.log" >&2; die "local build failed"; }
t1=$(now)
local_wall=$(secs "$t0" "$t1")

# Byte for byte, the same files in all three.
n=0
for f in "$WORK"/local/*.egtb; do
	for d in shared make; do
		cmp "$f" "$WORK/$d/${f##*/}" || die "$d/${f##*/} differs from the local build's"
	done
	n=$((n + 1))
done
for d in shared make; do
	for f in "$WORK/$d"/*.egtb; do
		[[ -e $WORK/local/${f##*/} ]] || die "$d has a table the local build has not: ${f##*/}"
	done
done
((n > 0)) || die "the local build wrote no tables"
say "cmp: all $n tables of the Slurm and make directories identical to the local build's"

"$MILLENGINE" egtb verify --dir "$SHARED" >"$WORK/log/verify.log" 2>&1 || { cat "$WORK/log/verify.log" >&2; die "egtb verify failed"; }
say "egtb verify --dir shared: $(grep -c ': OK,' "$WORK/log/verify.log") tables OK"

say "wall time: Slurm (run 2, submit to drained) ${slurm_wall} s, make -j2 ${make_wall} s (THREADS=$THREADS a job), local egtb build ${local_wall} s"
say "PASSED"
