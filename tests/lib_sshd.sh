# lib_sshd.sh - sourced by tests/it_ssh.sh and bench/remote.sh: OpenSSH
# servers on 127.0.0.1 for the ssh runner, each with its own host key and
# sshd_config under $SSHD_BASE/NAME, one user key for root
# ($SSHD_BASE/user_key, authorized in $SSHD_BASE/authorized_keys) and the
# host keys in $SSHD_BASE/known_hosts.  Needs root and /usr/sbin/sshd.
#   sshd_keys            make the user key
#   start_sshd NAME [PORT]   start one (SSHD_PID[NAME], SSHD_PORT[NAME]);
#                        the lines of $SSHD_BASE/NAME/sshd_extra, when it
#                        exists, are added to its sshd_config (e.g. SetEnv)
#   kill_sshd NAME       SIGKILL it and every session it forked, all at once
#   signal_sshd SIG NAME only its sshd processes (not what they run)
#   stop_all_sshd        every one started here (for an EXIT trap)
: "${SSHD_BASE:?}"
declare -A SSHD_PID SSHD_PORT

free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# every process below pid, deepest first
descendants() {
	local c
	for c in $(ps -o pid= --ppid "$1" 2>/dev/null); do
		descendants "$c"
		echo "$c"
	done
}

sshd_keys() {
	mkdir -p "$SSHD_BASE" /run/sshd
	ssh-keygen -q -t ed25519 -N '' -f "$SSHD_BASE/user_key"
	cp "$SSHD_BASE/user_key.pub" "$SSHD_BASE/authorized_keys"
}

start_sshd() {
	local name=$1 d=$SSHD_BASE/$1 port=${2:-$(free_port)} i
	mkdir -p "$d"
	[ -f "$d/host_key" ] || ssh-keygen -q -t ed25519 -N '' -f "$d/host_key"
	cat >"$d/sshd_config" <<CONF
Port $port
ListenAddress 127.0.0.1
HostKey $d/host_key
PidFile $d/sshd.pid
AuthorizedKeysFile $SSHD_BASE/authorized_keys
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
PermitRootLogin prohibit-password
UsePAM no
StrictModes no
MaxSessions 64
MaxStartups 64
CONF
	[ -f "$d/sshd_extra" ] && cat "$d/sshd_extra" >>"$d/sshd_config"
	: >"$d/sshd.log"
	/usr/sbin/sshd -D -e -f "$d/sshd_config" 2>>"$d/sshd.log" &
	SSHD_PID[$name]=$!
	SSHD_PORT[$name]=$port
	for i in $(seq 600); do # a minute at most: a loaded machine starts it slowly
		grep -q "Server listening" "$d/sshd.log" && break
		sleep 0.1
	done
	grep -q "Server listening" "$d/sshd.log" || { echo "sshd $name did not start: $(cat "$d/sshd.log")" >&2; return 1; }
	if ! grep -q "^\[127.0.0.1\]:$port " "$SSHD_BASE/known_hosts" 2>/dev/null; then
		echo "[127.0.0.1]:$port $(cut -d' ' -f1,2 "$d/host_key.pub")" >>"$SSHD_BASE/known_hosts"
	fi
}

# A board that crashes loses all its processes at once.  Killed one by one
# (a loaded machine preempts this shell between two kills), a parent would
# see its child die and carry on: the script after its `sleep`, the helper
# answering "done" through an sshd not yet killed.  So the whole tree is
# frozen first, parents before children, collected again until nothing new
# appeared (a process forked before its parent stopped), then killed.
kill_sshd() {
	local pid=${SSHD_PID[$1]:-} frozen=" " p more=1
	[ -n "$pid" ] || return 0
	while [ -n "$more" ]; do
		more=
		for p in "$pid" $(descendants "$pid" | tac); do
			case $frozen in *" $p "*) continue ;; esac
			kill -STOP "$p" 2>/dev/null || true
			frozen="$frozen$p "
			more=1
		done
	done
	kill -9 $frozen 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	SSHD_PID[$1]=
}

signal_sshd() {
	local p
	for p in $(descendants "${SSHD_PID[$2]}") "${SSHD_PID[$2]}"; do
		[ "$(cat /proc/"$p"/comm 2>/dev/null)" = sshd ] && kill -"$1" "$p" 2>/dev/null || true
	done
}

stop_all_sshd() {
	local n
	for n in "${!SSHD_PID[@]}"; do
		[ -n "${SSHD_PID[$n]}" ] || continue
		signal_sshd CONT "$n"
		kill_sshd "$n"
	done
}
