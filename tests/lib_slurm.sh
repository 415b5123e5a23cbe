# lib_slurm.sh - sourced by tests/it_slurm.sh and bench/remote.sh: a
# single-node Slurm on 127.0.0.1 (Debian's slurm-wlm and munge), its
# config, key and state under $SLURM_BASE, every daemon this machine's
# user (root) runs, all stopped by slurm_stop.
#   slurm_start   munged, slurmctld, slurmd; exports SLURM_CONF; waits
#                 until the node is idle (returns 1 with the logs if not)
#   slurm_wait N  wait up to N seconds for an empty queue (1 if not)
#   slurm_stop    stop the daemons and what slurmd still runs
: "${SLURM_BASE:?}"
SLURM_PIDS=()

slurm_start() {
	local S=$SLURM_BASE H i port1 port2
	mkdir -p "$S/munge" "$S/spool" "$S/state" "$S/log"
	chmod 755 "$S/munge"
	dd if=/dev/urandom of="$S/munge/munge.key" bs=1024 count=1 2>/dev/null
	chmod 400 "$S/munge/munge.key"
	munged -F -f --socket="$S/munge/sock" --key-file="$S/munge/munge.key" --pid-file="$S/munge/pid" \
		--log-file="$S/munge/log" --seed-file="$S/munge/seed" >"$S/log/munged.out" 2>&1 &
	SLURM_PIDS+=($!)
	H=$(hostname -s)
	port1=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	port2=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	cat >"$S/slurm.conf" <<CONF
ClusterName=flagscope
SlurmctldHost=$H(127.0.0.1)
SlurmctldPort=$port1
SlurmdPort=$port2
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$S/munge/sock
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/log/slurmctld.log
SlurmdLogFile=$S/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
SwitchType=switch/none
MinJobAge=600
NodeName=$H NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=$H Default=YES MaxTime=INFINITE State=UP
CONF
	export SLURM_CONF=$S/slurm.conf
	# waits of a minute or two at most: a loaded machine starts them slowly
	for i in $(seq 600); do [ -S "$S/munge/sock" ] && break; sleep 0.1; done
	slurmctld -D -i -f "$SLURM_CONF" >"$S/log/slurmctld.out" 2>&1 &
	SLURM_PIDS+=($!)
	slurmd -D -N "$H" -f "$SLURM_CONF" >"$S/log/slurmd.out" 2>&1 &
	SLURM_PIDS+=($!)
	for i in $(seq 1200); do
		[ "$(sinfo -h -o %t 2>/dev/null)" = idle ] && return 0
		sleep 0.1
	done
	tail -5 "$S/log/slurmctld.log" "$S/log/slurmd.log" >&2
	return 1
}

slurm_wait() {
	local i
	for i in $(seq $(($1 * 2))); do
		[ -z "$(squeue -h 2>/dev/null)" ] && return 0
		sleep 0.5
	done
	return 1
}

slurm_stop() {
	local p c
	for p in "${SLURM_PIDS[@]}"; do
		for c in $(ps -o pid= --ppid "$p" 2>/dev/null); do kill "$c" 2>/dev/null || true; done
		kill "$p" 2>/dev/null || true
	done
	for p in "${SLURM_PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
	SLURM_PIDS=()
}
